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
    #expect(
      PipelineStages.validatePaths(
        reads: [scenario], folders: [(dir.appendingPathComponent("e").path, files)], files: []) == nil)
    let folder = PipelineStages.validatePaths(
      reads: [scenario], folders: [(dir.appendingPathComponent("d").path, files)], files: [])
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

  /// The id of a process that has exited (a finished `/usr/bin/true`: macOS has no
  /// `/bin/true`).
  static func deadProcessID() throws -> Int32 {
    let child = Process()
    child.executableURL = URL(fileURLWithPath: "/usr/bin/true")
    try child.run()
    child.waitUntilExit()
    return child.processIdentifier
  }

  @Test func prepareMakesTheFolderAndRemovesOnlyDeadRunsTemporaryFiles() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let out = dir.appendingPathComponent("a/b")
    #expect(PipelineStages.prepare(out.path, files: ["x.csv"]) == nil)
    let deadPID = try Self.deadProcessID()
    let dead = PipelineStages.temporaryName("x.csv", pid: deadPID)
    let living = PipelineStages.temporaryName("x.csv", pid: ProcessInfo.processInfo.processIdentifier)
    let foreign = PipelineStages.temporaryName("y.csv", pid: deadPID)
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
    // live_activities.csv only for a scenario with Live Activities.
    #expect(a.map(\.name) == PipelineStages.reportFiles.filter { $0 != "live_activities.csv" })
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
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: out).sorted() == ["a.csv", "b.csv"], "no temporary file left")
  }

  /// The bytes of every file in `folder`, by name.
  static func snapshot(_ folder: String) throws -> [String: Data] {
    var out: [String: Data] = [:]
    for name in try FileManager.default.contentsOfDirectory(atPath: folder) {
      out[name] = FileManager.default.contents(atPath: folder + "/" + name) ?? Data("<folder>".utf8)
    }
    return out
  }

  /// A report folder is written all at once: a write that fails midway
  /// (the disk fills after the first file) leaves the previous report
  /// byte-identical and no staging folder, beside it or in it; a write
  /// that succeeds replaces the reports and keeps the folder's other files.
  @Test func aReportWriteThatFailsMidwayLeavesThePreviousReport() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let out = dir.appendingPathComponent("report").path
    let old = [("summary.csv", "old 1\n"), ("report.html", "old 2\n"), ("results.json", "old 3\n")]
    #expect(PipelineStages.write(old, to: out) == nil)
    try "a shard's part\n".write(toFile: out + "/shard-1-of-2.rbpart", atomically: false, encoding: .utf8)
    let before = try Self.snapshot(out)
    let new = [("summary.csv", "new 1\n"), ("report.html", "new 2\n"), ("results.json", "new 3\n")]
    for failing in [1, 2] {
      let error = PipelineStages.write(new, to: out, failingAt: failing)
      #expect(error?.exitCode == 2)
      #expect(
        error?.message.contains("No space left on device; the previous report is unchanged") == true,
        "\(String(describing: error))")
      #expect(try Self.snapshot(out) == before, "the previous report, byte for byte")
      #expect(
        try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["report"], "no staging folder beside it")
    }
    // A folder in the report folder: written file by file from a staging
    // folder inside it, and a failure there leaves it as it was too.
    try FileManager.default.createDirectory(atPath: out + "/notes", withIntermediateDirectories: false)
    let withFolder = try Self.snapshot(out)
    #expect(PipelineStages.write(new, to: out, failingAt: 2)?.exitCode == 2)
    #expect(try Self.snapshot(out) == withFolder)
    try FileManager.default.removeItem(atPath: out + "/notes")
    // Success: the new reports, the part kept, nothing else.
    #expect(PipelineStages.write(new, to: out) == nil)
    let after = try Self.snapshot(out)
    #expect(after.keys.sorted() == ["report.html", "results.json", "shard-1-of-2.rbpart", "summary.csv"])
    #expect(
      after["summary.csv"] == Data("new 1\n".utf8) && after["shard-1-of-2.rbpart"] == before["shard-1-of-2.rbpart"])
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["report"])
    // With a folder inside, file by file: the new reports, the folder kept.
    try FileManager.default.createDirectory(atPath: out + "/notes", withIntermediateDirectories: false)
    #expect(PipelineStages.write(old, to: out) == nil)
    let fileByFile = try Self.snapshot(out)
    #expect(fileByFile.keys.sorted() == ["notes", "report.html", "results.json", "shard-1-of-2.rbpart", "summary.csv"])
    #expect(fileByFile["summary.csv"] == Data("old 1\n".utf8))
  }

  /// A staging folder that a killed run left beside a report folder is
  /// removed by the next run's prepare; a living process's is kept.
  @Test func prepareRemovesADeadRunsStagingFolder() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let out = dir.appendingPathComponent("r").path
    let dead = PipelineStages.stagingName("r", pid: try Self.deadProcessID())
    let living = PipelineStages.stagingName("r", pid: ProcessInfo.processInfo.processIdentifier)
    for name in [dead, living] {
      try FileManager.default.createDirectory(
        at: dir.appendingPathComponent(name + "/x"), withIntermediateDirectories: true)
    }
    #expect(PipelineStages.prepare(out, files: ["summary.csv"]) == nil)
    #expect(Set(try FileManager.default.contentsOfDirectory(atPath: dir.path)) == ["r", living])
  }
}
