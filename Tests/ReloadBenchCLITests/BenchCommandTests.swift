import Foundation
import Testing

@Suite struct BenchCommandTests {
  /// A tiny bench run writes JSON that a later run can compare with; a
  /// doctored, much faster baseline is reported as a regression (exit 1).
  @Test func benchWritesJSONAndComparesWithABaseline() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let r = try Binary.run(["bench", "--cases", "hold-4ary-1e3", "--quick", "--repeat", "1", "--hold-ops", "20000", "--json", "b.json"], in: dir)
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout.contains("hold-4ary-1e3") && r.stdout.contains("events/s") && r.stdout.contains("noisy"))
    let data = try Data(contentsOf: dir.appendingPathComponent("b.json"))
    let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    #expect(json["tool"] as? String == "reloadbench-bench")
    #expect((json["machine"] as? [String: String])?["cores"] != nil)

    // Same machine, same code: within noise.
    let same = try Binary.run(
      ["bench", "--cases", "hold-4ary-1e3", "--quick", "--repeat", "1", "--hold-ops", "20000", "--baseline", "b.json", "--noise", "90"], in: dir)
    #expect(same.status == 0, "\(same.stdout)\(same.stderr)")
    #expect(same.stdout.contains("within noise") || same.stdout.contains("improved"))

    // A baseline ten times faster: regressed.
    var text = String(decoding: data, as: UTF8.self)
    let eps = #""eventsPerSecond" : "#
    var out = ""
    var rest = text[...]
    while let r = rest.range(of: eps) {
      out += rest[..<r.upperBound]
      rest = rest[r.upperBound...]
      let number = rest.prefix { "0123456789.e+-".contains($0) }
      out += String((Double(number) ?? 1) * 10)
      rest = rest.dropFirst(number.count)
    }
    out += rest
    text = out
    try text.write(to: dir.appendingPathComponent("fast.json"), atomically: true, encoding: .utf8)
    let slow = try Binary.run(["bench", "--cases", "hold-4ary-1e3", "--quick", "--repeat", "1", "--hold-ops", "20000", "--baseline", "fast.json"], in: dir)
    #expect(slow.status == 1, "\(slow.stdout)")
    #expect(slow.stdout.contains("regressed"))

    let bad = try Binary.run(["bench", "--baseline", "nope.json"], in: dir)
    #expect(bad.status == 2 && bad.stderr.contains("nope.json"))
  }

  /// Exit 2, exactly one line on stderr (`error: ...`), nothing on stdout.
  static func expectOneErrorLine(_ r: Binary.Result, _ what: String, contains parts: [String]) {
    #expect(r.status == 2, "\(what): exit \(r.status)\n\(r.stderr)")
    #expect(r.stderr.hasPrefix("error: ") && r.stderr.split(separator: "\n").count == 1, "\(what): \(r.stderr)")
    for part in parts { #expect(r.stderr.contains(part), "\(what): \(r.stderr) lacks \(part)") }
    #expect(r.stdout.isEmpty, "\(what): \(r.stdout)")
  }

  /// Outside the repository the standard cases have no Scenarios/: that
  /// is bad input, found before any case runs, in one line with the fix.
  @Test func missingStandardScenariosAreRefusedUpFront() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let r = try Binary.run(["bench", "--cases", "r1-1t", "--repeat", "1", "--quick"], in: dir)
    Self.expectOneErrorLine(
      r, "no Scenarios/", contains: ["Scenarios/r1-polling.json", "no such file", "repository root", "--scenario FILE"])
  }

  /// --yardstick runs alternately with the standard r1-1t case: refused
  /// (not silently ignored) when that case does not run or the program
  /// does not exist; a failing yardstick is one line with its first error.
  @Test func yardstickIsRefusedWhenItCannotRunAndFailsInOneLine() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    try CheckCommandTests.write(smallScenario(name: "r1-polling", devices: 20), "Scenarios/r1-polling.json", in: dir)
    try CheckCommandTests.write(smallScenario(name: "mine", devices: 20), "mine.json", in: dir)
    let script = dir.appendingPathComponent("yardstick.sh")
    try "#!/bin/sh\necho 'first problem' >&2\necho 'more detail' >&2\nexit 3\n".write(to: script, atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)

    let cases: [(args: [String], parts: [String])] = [
      (["--yardstick", "/nonexistent", "--scenario", "mine.json"], ["--yardstick", "--scenario"]),
      (["--yardstick", "./yardstick.sh", "--cases", "hold", "--quick"], ["--yardstick", "r1-1t", "--cases hold"]),
      (["--yardstick", "/nonexistent", "--cases", "r1-1t", "--quick"], ["/nonexistent is not an executable program"]),
      (["--yardstick", "", "--cases", "r1-1t"], ["--yardstick needs a command"]),
      (["--yardstick", "./yardstick.sh", "--cases", "r1-1t", "--quick", "--repeat", "1"],
       ["--yardstick ./yardstick.sh failed (exit 3): first problem"]),
    ]
    for (args, parts) in cases {
      Self.expectOneErrorLine(try Binary.run(["bench"] + args, in: dir), "\(args)", contains: parts)
    }
  }

  /// A case whose child process dies is exit 2 with one line naming the
  /// case, its exit status and why; no backtrace, no partial table.
  @Test func aCaseThatDiesIsOneErrorLineAndExitTwo() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    // One second of CPU time per process: the child's hold model, given a
    // billion operations, is killed by the kernel.
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = [
      "-c", #"ulimit -t 1 && exec "$0" bench --cases hold-4ary-1e3 --quick --repeat 1 --hold-ops 1000000000"#,
      Binary.path,
    ]
    process.currentDirectoryURL = dir
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let stdout = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    Self.expectOneErrorLine(
      Binary.Result(status: process.terminationStatus, stdout: stdout, stderr: stderr), "killed child",
      contains: ["case hold-4ary-1e3 failed (exit ", "killed by signal"])
  }

  /// --json must not replace the --baseline it is compared with, nor a
  /// --scenario; '-' is refused (the table is on stdout).
  @Test func benchJSONMustNotReplaceItsInputs() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let quick = ["bench", "--cases", "hold-4ary-1e3", "--quick", "--repeat", "1", "--hold-ops", "2000"]
    #expect(try Binary.run(quick + ["--json", "b.json"], in: dir).status == 0)
    let saved = try CheckCommandTests.read("b.json", in: dir)
    try CheckCommandTests.write(smallScenario(name: "mine", devices: 20), "mine.json", in: dir)
    let cases: [(args: [String], parts: [String])] = [
      (["--baseline", "b.json", "--json", "./b.json"], ["--json ./b.json is --baseline b.json"]),
      (["--scenario", "mine.json", "--json", "mine.json"], ["--json mine.json is --scenario mine.json"]),
      (["--json", "-"], ["'-' (stdout) is not supported"]),
    ]
    for (args, parts) in cases {
      Self.expectOneErrorLine(try Binary.run(quick + args, in: dir), "\(args)", contains: parts + ["fix:"])
    }
    #expect(try CheckCommandTests.read("b.json", in: dir) == saved)
  }

  /// A run that would need more memory than the machine has is refused
  /// before it starts, with the estimate and a way out.
  @Test func aRunTooBigForTheMachineIsRefusedUpFront() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    // 366 days x 32 strategies x 64 segments of per-second tallies.
    let strategies = (0..<32).map { #"{"name": "s\#($0)", "preset": "poll-15m"}"# }.joined(separator: ", ")
    let segments = (0..<64).map { #"{"name": "g\#($0)", "widgets": [{"kind": "k"}]}"# }.joined(separator: ", ")
    let json = """
      {"name": "huge", "days": 366, "devices": 10, "kinds": [{"name": "k", "unpredictable": {"per_day": 1}}],
       "segments": [\(segments)], "strategies": [\(strategies)]}
      """
    try json.write(to: dir.appendingPathComponent("huge.json"), atomically: true, encoding: .utf8)
    let r = try Binary.run(["run", "huge.json", "--quiet"], in: dir)
    #expect(r.status == 2)
    #expect(r.stderr.contains("would need about") && r.stderr.contains("GB") && r.stderr.contains("fix:"))
    #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("Reports").path))
  }
}
