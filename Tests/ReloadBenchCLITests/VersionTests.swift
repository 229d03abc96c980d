import Foundation
import ReloadBenchCLI
import Testing

/// The version `reloadbench --version` prints (and every baseline and report
/// records) is the newest one CHANGELOG.md describes, whose tag is the plain
/// version: a release bumps both, or this fails.
@Suite struct VersionTests {
  @Test func theToolsVersionIsTheNewestReleaseInTheChangelog() throws {
    let text = try String(contentsOf: repositoryRoot.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
    let releases = text.split(separator: "\n").filter { $0.hasPrefix("## [") && !$0.hasPrefix("## [Unreleased]") }
      .map { String($0.dropFirst("## [".count).prefix { $0 != "]" }) }
    let newest = try #require(releases.first, "CHANGELOG.md has no release heading (## [X.Y.Z] - DATE)")
    #expect(
      newest == ReloadBenchCLI.version, "CHANGELOG.md's newest is \(newest), reloadbench's \(ReloadBenchCLI.version)")
    let parts = newest.split(separator: ".", omittingEmptySubsequences: false)
    #expect(parts.count == 3 && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isNumber) }, "\(newest) is not X.Y.Z")
  }
}
