import Foundation
import ReloadBenchCLI
import Testing

/// The pipeline's stages, each on its own (load → validate → prepare →
/// simulate → merge → build results → render → write).
@Suite struct PipelineTests {
  static func scenarioData(devices: Int = 300) -> Data { Data(smallScenario(name: "stages", devices: devices).utf8) }

  @Test func loadReadsTheFileWithItsExpectationsOnce() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    var text = smallScenario(name: "loaded")
    text.removeLast(2)
    text += #", "expect": [{"metric": "fresh_glance_pct", "min": 1}, {"metric": "reloads_per_widget_day", "max": 99}]}"#
    try text.write(to: dir.appendingPathComponent("s.json"), atomically: true, encoding: .utf8)
    let loaded = try PipelineStages.load(dir.appendingPathComponent("s.json").path).get()
    #expect(loaded.name == "loaded" && loaded.expectations == 2)
    guard case .failure(let e) = PipelineStages.load(dir.appendingPathComponent("missing.json").path) else {
      Issue.record("a missing file loaded")
      return
    }
    #expect(e.exitCode == 2 && e.message.contains("no such file"))
  }

  @Test func validateRefusesAnOutputThatWouldReplaceAnInput() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let scenario = dir.appendingPathComponent("d/results.json").path
    try FileManager.default.createDirectory(at: dir.appendingPathComponent("d"), withIntermediateDirectories: true)
    try smallScenario().write(toFile: scenario, atomically: true, encoding: .utf8)
    let files = PipelineStages.reportFiles
    #expect(PipelineStages.validatePaths(reads: [scenario], folders: [(dir.appendingPathComponent("e").path, files)], files: []) == nil)
    let folder = PipelineStages.validatePaths(reads: [scenario], folders: [(dir.appendingPathComponent("d").path, files)], files: [])
    #expect(folder?.contains("is one of the reports written into") == true, "\(folder ?? "accepted")")
    // The same file through another spelling of its path.
    let dotted = dir.appendingPathComponent("d/../d/results.json").path
    let file = PipelineStages.validatePaths(reads: [scenario], folders: [], files: [dotted])
    #expect(file?.contains("writing it would replace that file") == true, "\(file ?? "accepted")")
    // A file that is not an input but a scenario: not replaced by a baseline.
    let other = PipelineStages.validatePaths(reads: [], folders: [], files: [scenario])
    #expect(other?.contains("is a scenario file, not a baseline") == true, "\(other ?? "accepted")")
  }

  @Test func memoryEstimateCountsThreadsAndDeviceData() throws {
    let data = Self.scenarioData(devices: 5000)
    let one = try PipelineStages.estimate(data, threads: 1)
    let four = try PipelineStages.estimate(data, threads: 4)
    #expect(one.workers == 1 && four.workers == 4)
    #expect(four.bytes > one.bytes)
    #expect(four.deviceBytes == 4 * one.deviceBytes && one.deviceBytes > 0)
    // 20 devices make one chunk: more threads would idle, and are not counted.
    let tiny = try PipelineStages.estimate(Self.scenarioData(devices: 20), threads: 8)
    #expect(tiny.workers == 1)
    // A device whose data change often holds them all at once.
    let busy = smallScenario(name: "busy").replacingOccurrences(of: #""per_day": 12"#, with: #""per_day": 100000"#)
      .replacingOccurrences(of: #""scope": "shared", "#, with: "")
    let heavy = try PipelineStages.estimate(Data(busy.utf8), threads: 1)
    // 100,000 changes a day for 2 days, 8 bytes each, in arrays grown by doubling.
    #expect(heavy.deviceBytes >= 100_000.0 * 2 * 8 * 2, "\(heavy)")
  }

  @Test func prepareMakesTheFolderAndRemovesOnlyDeadRunsTemporaryFiles() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let out = dir.appendingPathComponent("a/b")
    #expect(PipelineStages.prepare(out.path, files: ["x.csv"]) == nil)
    let child = Process()
    child.executableURL = URL(fileURLWithPath: "/bin/true")
    try child.run()
    child.waitUntilExit()
    let dead = PipelineStages.temporaryName("x.csv", pid: child.processIdentifier)
    let living = PipelineStages.temporaryName("x.csv", pid: ProcessInfo.processInfo.processIdentifier)
    let foreign = PipelineStages.temporaryName("y.csv", pid: child.processIdentifier)
    for name in [dead, living, foreign] { try Data().write(to: out.appendingPathComponent(name)) }
    #expect(PipelineStages.prepare(out.path, files: ["x.csv"]) == nil)
    let left = Set(try FileManager.default.contentsOfDirectory(atPath: out.path))
    #expect(left == [living, foreign])
    // A file where the folder should be.
    try Data().write(to: dir.appendingPathComponent("f"))
    #expect(PipelineStages.prepare(dir.appendingPathComponent("f").path, files: [])?.exitCode == 2)
  }

  /// Each thread returns its own tallies; merging sums them, so the total
  /// does not depend on how the devices were split.
  @Test func simulateReturnsOnePartPerThreadAndMergeSumsThem() throws {
    let data = Self.scenarioData(devices: 700)
    let one = try PipelineStages.simulateAndMerge(data, threads: 1)
    let three = try PipelineStages.simulateAndMerge(data, threads: 3)
    #expect(one.parts.count == 1 && three.parts.count == 3)
    #expect(three.parts.reduce(0, +) == three.merged)
    #expect(one.merged == three.merged && one.merged > 0)
  }

  /// Build results and render: the five report files; the CSV files are
  /// byte-identical whatever the thread count (the page and JSON name it).
  @Test func renderGivesTheReportFilesWhateverTheThreads() throws {
    let data = Self.scenarioData(devices: 400)
    let a = try PipelineStages.render(data, threads: 1)
    let b = try PipelineStages.render(data, threads: 2)
    #expect(a.map(\.name) == PipelineStages.reportFiles)
    let same = a.prefix(3).map(\.contents) == b.prefix(3).map(\.contents)
    #expect(same, "CSV files differ between 1 and 2 threads")
    #expect(a[3].contents.hasPrefix("<!DOCTYPE html>") || a[3].contents.hasPrefix("<!doctype html>"))
    #expect(a[0].contents.hasPrefix("scenario,policy,segment,"))
  }

  @Test func writeReplacesTheFilesAsASet() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let out = dir.appendingPathComponent("w").path
    #expect(PipelineStages.write([("a.csv", "1\n"), ("b.csv", "2\n")], to: out) == nil)
    #expect(PipelineStages.write([("a.csv", "3\n")], to: out) == nil)
    #expect(try String(contentsOfFile: out + "/a.csv", encoding: .utf8) == "3\n")
    #expect(try String(contentsOfFile: out + "/b.csv", encoding: .utf8) == "2\n")
    #expect(try FileManager.default.contentsOfDirectory(atPath: out).sorted() == ["a.csv", "b.csv"], "no temporary file left")
  }
}
