import Foundation
import PackagePlugin

/// `swift package reloadbench ARGUMENTS`, in a package that lists ReloadBench as a
/// dependency: runs the `reloadbench` tool (built by SwiftPM for this package) with
/// ARGUMENTS in the package's folder, so paths such as `Scenarios/ours.json`,
/// `Scenarios/baselines/` and `Reports/` are the package's own, and exits with the
/// tool's status (check: 0 ok, 1 regressed, 2 bad input).
@main
struct ReloadBenchCommand: CommandPlugin {
  func performCommand(context: PluginContext, arguments: [String]) async throws {
    let process = Process()
    process.executableURL = try context.tool(named: "reloadbench").url
    process.arguments = arguments
    process.currentDirectoryURL = context.package.directoryURL
    try process.run()
    process.waitUntilExit()
    if process.terminationReason == .uncaughtSignal {
      Diagnostics.error("reloadbench was killed by signal \(process.terminationStatus)")
      exit(1)
    }
    exit(process.terminationStatus)
  }
}
