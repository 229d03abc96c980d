import Foundation
import Testing

/// Outputs never replace inputs or each other: `check`, `baseline save`
/// and `bench` compare every path they write with every path they read
/// or write (resolved: `./`, `..`, symbolic links) before anything runs.
@Suite struct OutputPathTests {
  /// One error line on stderr, naming `path`, with a fix; exit 2; nothing on stdout.
  static func expectRefused(_ r: Binary.Result, naming path: String, _ args: [String]) {
    #expect(r.status == 2, "\(args): exit \(r.status)\n\(r.stderr)")
    #expect(r.stderr.hasPrefix("error: ") && r.stderr.contains("(fix: "), "\(args): \(r.stderr)")
    #expect(r.stderr.split(separator: "\n").count == 1, "\(args): \(r.stderr)")
    #expect(r.stderr.contains(path), "\(args): \(r.stderr)")
    #expect(r.stdout.isEmpty, "\(args): \(r.stdout)")
  }

  /// A report name taken by a folder: refused before anything runs (exit
  /// 2, one line naming it), the previous report byte-identical, no
  /// staging folder left. Run and sweep alike.
  @Test func aReportNameTakenByAFolderLeavesThePreviousReport() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    try smallScenario(name: "taken", devices: 40).write(
      to: dir.appendingPathComponent("s.json"), atomically: true, encoding: .utf8)
    try smallScenario(name: "swept", devices: 40, strategies: #"[{"name": "poll", "preset": "poll-15m"}]"#)
      .replacingOccurrences(
        of: #""strategies": ["#,
        with: #""sweep": {"parameters": [{"name": "m", "path": "strategies[poll].timeline.after_min", "values": [15, 30]}]}, "strategies": ["#
      ).write(to: dir.appendingPathComponent("w.json"), atomically: true, encoding: .utf8)
    for (args, taken) in [(["run", "s.json"], "results.json"), (["sweep", "w.json"], "sweep.json")] {
      let out = dir.appendingPathComponent("out-\(args[0])")
      let first = try Binary.run(args + ["--out", out.path, "--quiet", "--reproducible"], in: dir)
      #expect(first.status == 0, "\(first.stderr)")
      try FileManager.default.removeItem(at: out.appendingPathComponent(taken))
      try FileManager.default.createDirectory(at: out.appendingPathComponent(taken), withIntermediateDirectories: false)
      let before = try PipelineTests.snapshot(out.path)
      let r = try Binary.run(args + ["--out", out.path, "--quiet"], in: dir)
      Self.expectRefused(r, naming: out.appendingPathComponent(taken).path, args)
      #expect(r.stderr.contains("a folder has that name"), "\(r.stderr)")
      #expect(try PipelineTests.snapshot(out.path) == before, "\(args): the previous report, byte for byte")
      let hidden = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix(".") }
        + FileManager.default.contentsOfDirectory(atPath: out.path).filter { $0.hasPrefix(".") }
      #expect(hidden.isEmpty, "\(args): \(hidden)")
    }
  }

  @Test func checkRefusesOutputsThatNameAnInputOrAnotherOutput() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    try CheckCommandTests.write(CheckCommandTests.scenario("paths"), "s.json", in: dir)
    let save = try Binary.run(["baseline", "save", "s.json", "--to", "b2", "--quiet"], in: dir)
    #expect(save.status == 0, "\(save.stderr)")
    let scenario = try CheckCommandTests.read("s.json", in: dir)
    let baseline = try CheckCommandTests.read("b2", in: dir)
    try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("link.json").path, withDestinationPath: "s.json")
    try FileManager.default.createDirectory(at: dir.appendingPathComponent("sub"), withIntermediateDirectories: true)

    let cases: [(args: [String], names: String)] = [
      (["--json", "s.json"], "s.json"),
      (["--markdown", "s.json"], "s.json"),
      (["--junit", "b2"], "b2"),
      (["--json", "./sub/../s.json"], "the scenario s.json (the same file)"),
      (["--markdown", "link.json"], "link.json"),
      (["--json", "x", "--junit", "x"], "x"),
      (["--json", "x", "--markdown", "sub/../x"], "sub/../x"),
      (["--json", "Reports/paths/results.json"], "Reports/paths"),
      (["--json", "Reports/paths"], "Reports/paths"),
      (["--out", "s.json"], "s.json"),
      (["--json", "sub"], "sub is a folder"),
    ]
    for (extra, names) in cases {
      let args = ["check", "s.json", "--baseline", "b2"] + extra
      Self.expectRefused(try Binary.run(args, in: dir), naming: names, args)
    }
    // Nothing ran, nothing was replaced.
    #expect(try CheckCommandTests.read("s.json", in: dir) == scenario)
    #expect(try CheckCommandTests.read("b2", in: dir) == baseline)
    for f in ["x", "Reports"] {
      #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent(f).path), "\(f) was written")
    }

    // '-' is stdout: it never conflicts, even twice.
    let stdout = try Binary.run(["check", "s.json", "--baseline", "b2", "--json", "-", "--junit", "-", "--quiet"], in: dir)
    #expect(stdout.status == 0, "\(stdout.stderr)")
    #expect(stdout.stdout.contains("\"passed\"") && stdout.stdout.contains("<testsuites"))
  }

  @Test func baselineSaveRefusesToReplaceItsScenarioOrWriteToStdout() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    try CheckCommandTests.write(CheckCommandTests.scenario("keep"), "s.json", in: dir)
    let scenario = try CheckCommandTests.read("s.json", in: dir)
    for (to, names) in [("s.json", "--to s.json is the scenario s.json"), ("./s.json", "./s.json"), ("-", "'-' (stdout) is not supported")] {
      let args = ["baseline", "save", "s.json", "--to", to]
      Self.expectRefused(try Binary.run(args, in: dir), naming: names, args)
    }
    // The default target, Scenarios/baselines/<name>.json, is checked too.
    try CheckCommandTests.write(scenario, "Scenarios/baselines/keep.json", in: dir)
    let args = ["baseline", "save", "Scenarios/baselines/keep.json"]
    Self.expectRefused(try Binary.run(args, in: dir), naming: "Scenarios/baselines/keep.json", args)
    #expect(try CheckCommandTests.read("s.json", in: dir) == scenario)
    #expect(try CheckCommandTests.read("Scenarios/baselines/keep.json", in: dir) == scenario)
    #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("-").path))
  }
}
