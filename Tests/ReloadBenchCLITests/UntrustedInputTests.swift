import Foundation
import ReloadBenchCLI
import Testing

/// The defects of the second fuzzing campaign (issue 41: parts and logs are
/// untrusted input), each through the built binary on its reproducer
/// (`Fixtures/repro2/`, or made here when large): exit 0 or 2 with one
/// line, promptly, in bounded memory; nothing replaced, no folder left.
@Suite struct UntrustedInputTests {
  static func repro(_ name: String) -> URL { fixture("repro2/\(name)") }

  static func copy(_ name: String, to dir: URL) throws {
    try Data(contentsOf: repro(name)).write(to: dir.appendingPathComponent(name))
  }

  /// Runs the binary under an address-space limit of `megabytes` (where
  /// the shell can set one): a run that would blow up fails to allocate
  /// instead of taking the machine. Returns the result and the wall time.
  static func limited(_ arguments: [String], in dir: URL, megabytes: Int = 1024, timeout: Double = 30) throws -> (
    Binary.Result, Double
  ) {
    let script = "ulimit -v \(megabytes * 1024) 2>/dev/null; exec \"$0\" \"$@\""
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", script, Binary.path] + arguments
    process.currentDirectoryURL = dir
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    let start = Date()
    try process.run()
    let deadline = DispatchWorkItem { if process.isRunning { process.terminate() } }
    DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: deadline)
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    let errData = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    deadline.cancel()
    return (
      Binary.Result(
        status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
        stderr: String(decoding: errData, as: UTF8.self)),
      Date().timeIntervalSince(start)
    )
  }

  /// Exit 2, one line naming every one of `mentions` and a fix.
  static func expectRefusal(_ r: Binary.Result, _ mentions: [String], sourceLocation: SourceLocation = #_sourceLocation)
  {
    ReproTests.expectOneLineRefusal(r, mentions + ["fix"], sourceLocation: sourceLocation)
  }

  // MARK: - Parts (1, 2, 3, 13, 14)

  /// A fresh part of the reproducers' scenario (merge-tiny.json), as
  /// `craft-merge-parts.py` starts from.
  static func freshPart(in dir: URL) throws -> Data {
    try copy("merge-tiny.json", to: dir)
    let r = try Binary.run(["run", "merge-tiny.json", "--shard", "1/1", "--out", "fresh", "--quiet"], in: dir)
    #expect(r.status == 0, "\(r.stderr)")
    return try Data(contentsOf: dir.appendingPathComponent("fresh/shard-1-of-1.rbpart"))
  }

  /// `part` with its header changed by `edit` (the scenario's hash and the
  /// checksum made good again), and its body replaced by `body` if given.
  static func crafted(_ part: Data, body newBody: [UInt8]? = nil, _ edit: (inout [String: Any]) throws -> Void) throws
    -> Data
  {
    var bytes = [UInt8](part)
    bytes.removeLast(72)
    let first = bytes.firstIndex(of: 0x0A)!
    let headerEnd = bytes[(first + 1)...].firstIndex(of: 0x0A)!
    var header = try JSONSerialization.jsonObject(with: Data(bytes[(first + 1)..<headerEnd])) as! [String: Any]
    try edit(&header)
    let scenario = Data((header["scenario_json"] as! String).utf8)
    header["scenario_sha256"] = try CLITesting.scenarioHash(scenario)
    let body = newBody ?? Array(bytes[(headerEnd + 1)...])
    header["body_bytes"] = body.count
    var out = Array(bytes[...first])
    out += [UInt8](try JSONSerialization.data(withJSONObject: header, options: [.sortedKeys]))
    out.append(0x0A)
    out += body
    out += Array("sha256 \(CLITesting.sha256(out))\n".utf8)
    return Data(out)
  }

  static func varint(_ v: UInt64) -> [UInt8] {
    var v = v
    var out: [UInt8] = []
    while v >= 0x80 {
      out.append(UInt8(v & 0x7F) | 0x80)
      v >>= 7
    }
    return out + [UInt8(v)]
  }

  /// (1, 2, 3, 13) Forged headers and bodies, each refused on one line
  /// before anything is allocated or written.
  @Test func forgedPartsAreRefusedOnOneLine() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let fresh = try Self.freshPart(in: dir)
    // Two strategies (the scenario's), the first declaring 10,000 segments x a ring of 2^20 in a few bytes.
    let bomb = Self.varint(2) + Self.varint(10_000) + Self.varint((1 << 20) - 1) + Self.varint(0) + Self.varint(0)
    let cases: [(String, Data, [String])] = [
      ("shardcount0", try Self.crafted(fresh) { $0["shard_count"] = 0 }, ["shard 1 of 0"]),
      ("replications-neg", try Self.crafted(fresh) { $0["replications"] = -1 }, ["-1 replications"]),
      ("shardcount-1e9", try Self.crafted(fresh) { $0["shard_count"] = 1_000_000_000 }, ["shard 1 of 1000000000"]),
      ("tally-alloc-bomb", try Self.crafted(fresh, body: bomb) { _ in }, ["corrupt: its tallies do not decode"]),
      (
        "days-mismatch",
        try Self.crafted(fresh) {
          let s = ($0["scenario_json"] as! String).replacingOccurrences(of: #""days": 2,"#, with: #""days": 366,"#)
            .replacingOccurrences(of: #""days":2,"#, with: #""days":366,"#)
          #expect(s != $0["scenario_json"] as! String)
          $0["scenario_json"] = s
        }, ["its tallies measure 86400 s, its scenario 31536000 s", "days"]
      ),
      ("engine-unknown", try Self.crafted(fresh) { $0["engine"] = "warp" }, [#"engine "warp""#, "elided"]),
      ("model-version", try Self.crafted(fresh) { $0["model_version"] = "2" }, ["model version 2", "merges model version"]),
      ("sweep-without-points", try Self.crafted(fresh) { $0["kind"] = "sweep" }, ["a sweep's part names its points"]),
    ]
    for (name, data, mentions) in cases {
      try data.write(to: dir.appendingPathComponent("merge-\(name).rbpart"))
      let (r, seconds) = try Self.limited(["merge", "merge-\(name).rbpart", "--out", "m"], in: dir, megabytes: 1024)
      Self.expectRefusal(r, mentions)
      #expect(seconds < 10, "\(name): \(seconds) s")
      #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("m").path), "\(name) left m/")
    }
    // The crafted part unchanged merges: the refusals are the edits'.
    try Self.crafted(fresh) { _ in }.write(to: dir.appendingPathComponent("same.rbpart"))
    let ok = try Binary.run(["merge", "same.rbpart", "--out", "m", "--quiet"], in: dir)
    #expect(ok.status == 0, "\(ok.stderr)")
  }

  /// (13) The committed reproducer, written under model version 2 in part
  /// format 2: refused (by its format first, which changed with the widget
  /// kinds' counters), not merged into wrong rates.
  @Test func aPartOfAnotherModelVersionIsRefused() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    try Self.copy("merge-days-mismatch.rbpart", to: dir)
    let r = try Binary.run(["merge", "merge-days-mismatch.rbpart", "--out", "m"], in: dir)
    Self.expectRefusal(r, ["partial format 2", "rerun every shard"])
  }

  /// (3) Missing shards are reported as ranges, at once, whatever N.
  @Test func missingShardsAreRanges() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    try Self.copy("merge-tiny.json", to: dir)
    for k in ["1", "100000"] {
      let r = try Binary.run(["run", "merge-tiny.json", "--shard", "\(k)/100000", "--out", "p", "--quiet"], in: dir)
      #expect(r.status == 0, "\(r.stderr)")
    }
    let (r, seconds) = try Self.limited(
      ["merge", "p/shard-1-of-100000.rbpart", "p/shard-100000-of-100000.rbpart", "--out", "m"], in: dir)
    Self.expectRefusal(r, ["99998 shards are missing (2-99999/100000)", "--shard 2/100000"])
    #expect(r.stderr.utf8.count < 500 && seconds < 10)
  }

  /// (14) A device is not a part, and says so; a missing file is missing.
  @Test func devicesAndMissingFilesAreNamed() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    for device in ["/dev/null", "/dev/zero"] where FileManager.default.fileExists(atPath: device) {
      let (r, seconds) = try Self.limited(["merge", device], in: dir)
      Self.expectRefusal(r, [device, "not a regular file"])
      #expect(!r.stderr.contains("permission") && seconds < 10)
    }
    Self.expectRefusal(try Binary.run(["merge", "nope.rbpart"], in: dir), ["nope.rbpart", "no such file"])
  }

  // MARK: - Logs (4, 5, 6, 11, 12)

  /// (4) A file without newlines is one over-long line, refused at once
  /// (the reader never doubles its block past the line limit).
  @Test func aLogWithoutNewlinesIsOneBadLine() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    if FileManager.default.fileExists(atPath: "/dev/zero") {
      let (r, seconds) = try Self.limited(["calibrate", "/dev/zero", "--out", "c"], in: dir, megabytes: 1024)
      Self.expectRefusal(r, ["/dev/zero:1:", "longer than 65536 bytes"])
      #expect(seconds < 10)
    }
    // Skipped with --max-bad-lines: the lines after it are read.
    let long = String(repeating: "y", count: 200_000)
    let log =
      "type,time,device\n" + long + "\nforeground,2026-01-05T07:13:02Z,d1\n" + long
    try log.write(to: dir.appendingPathComponent("long.csv"), atomically: true, encoding: .utf8)
    let r = try Binary.run(["calibrate", "long.csv", "--max-bad-lines", "1", "--out", "c"], in: dir)
    Self.expectRefusal(r, ["long.csv: more than 1 malformed lines, stopped at line 4", "2:65537 line longer than 65536"])
  }

  /// (5) Devices whose lines span the years 0001 to 9999: their days are
  /// a list, not arrays over the span.
  @Test func devicesSpanningCenturiesArePrompt() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    var text = "type,time,device,kind,family,instance,entries,policy,next,low_power,foreground,trigger,utc_offset_min,ios\n"
    for d in 0..<2000 {
      text += "foreground,0001-01-01T12:00:00Z,w\(d),,,,,,,,,,,\nforeground,9999-12-31T12:00:00Z,w\(d),,,,,,,,,,,\n"
    }
    try text.write(to: dir.appendingPathComponent("wide.csv"), atomically: true, encoding: .utf8)
    let (r, seconds) = try Self.limited(["calibrate", "wide.csv", "--out", "c"], in: dir, timeout: 60)
    Self.expectRefusal(r, ["no device has a complete day"])
    #expect(seconds < 10, "\(seconds) s")
  }

  /// (6) Hundreds of thousands of skipped lines keep a few errors and a
  /// count, not every line; a log of nothing but bad lines says so. A file
  /// whose first line is no CSV header stops there, whatever the limit.
  @Test(arguments: [("bad.csv", "type,time,device\n", "x\n"), ("bad.jsonl", "", "{}\n")])
  func skippedLinesAreCountedNotKept(_ file: String, _ header: String, _ line: String) throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let n = 300_000
    try (header + String(repeating: line, count: n)).write(
      to: dir.appendingPathComponent(file), atomically: true, encoding: .utf8)
    let (r, seconds) = try Self.limited(
      ["calibrate", file, "--max-bad-lines", "1000000000", "--out", "c"], in: dir, megabytes: 1024, timeout: 60)
    Self.expectRefusal(r, ["no log lines: every line is malformed (\(n) skipped)"])
    #expect(seconds < 20, "\(seconds) s")
    let few = try Binary.run(["calibrate", file, "--max-bad-lines", "5", "--out", "c"], in: dir)
    Self.expectRefusal(few, ["more than 5 malformed lines, stopped at line \(header.isEmpty ? 6 : 7)"])
    // The reproducer's bad-5m.csv: "x" lines only, the first taken for the header.
    try String(repeating: "x\n", count: n).write(to: dir.appendingPathComponent("x.csv"), atomically: true, encoding: .utf8)
    let (x, xSeconds) = try Self.limited(["calibrate", "x.csv", "--max-bad-lines", "1000000000"], in: dir)
    Self.expectRefusal(x, ["x.csv:1:1: unknown column 'x'"])
    #expect(xSeconds < 10)
  }

  /// (11) A UTF-8 byte-order mark before the header (CSV) or the first
  /// object (JSON Lines) changes nothing: the fit is the same.
  @Test(arguments: ["csv", "jsonl"])
  func aByteOrderMarkIsSkipped(_ format: String) throws {
    var fits: [Data] = []
    for bom in [false, true] {
      let dir = try temporaryDirectory()
      defer { try? FileManager.default.removeItem(at: dir) }
      let scenario = CalibrateCommandTests.scenario(seed: 5, devices: 6, days: 6, budget: 70, accrual: "token_bucket")
      try scenario.write(to: dir.appendingPathComponent("truth.json"), atomically: true, encoding: .utf8)
      let run = try Binary.run(["run", "truth.json", "--out", "r", "--quiet", "--emit-log", "log.\(format)"], in: dir)
      #expect(run.status == 0, "\(run.stderr)")
      let url = dir.appendingPathComponent("log.\(format)")
      if bom { try (Data([0xEF, 0xBB, 0xBF]) + Data(contentsOf: url)).write(to: url) }
      let fit = try Binary.run(["calibrate", "log.\(format)", "--out", "fit", "--quiet"], in: dir)
      #expect(fit.status == 0, "BOM \(bom): \(fit.stderr)")
      fits.append((try? Data(contentsOf: dir.appendingPathComponent("fit/calibration.csv"))) ?? Data())
    }
    #expect(!fits[0].isEmpty && fits[0] == fits[1])
    // The reproducers: read (their few lines make no complete day), not "unknown column".
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    try Self.copy("calibrate-bom.\(format)", to: dir)
    let r = try Binary.run(["calibrate", "calibrate-bom.\(format)", "--out", "c"], in: dir)
    Self.expectRefusal(r, ["no device has a complete day"])
  }

  /// (12) 30 and 31 February and an offset of +99:99 are refused, each a
  /// bad line; 29 February of a leap year is read.
  @Test func impossibleDatesAndOffsetsAreRefused() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    try Self.copy("calibrate-impossible-dates.csv", to: dir)
    let r = try Binary.run(["calibrate", "calibrate-impossible-dates.csv", "--out", "c"], in: dir)
    Self.expectRefusal(r, ["calibrate-impossible-dates.csv:2:", "2026-02-30T12:00:00Z", "not a UTC timestamp"])
    let skipped = try Binary.run(["calibrate", "calibrate-impossible-dates.csv", "--max-bad-lines", "2"], in: dir)
    Self.expectRefusal(skipped, ["more than 2 malformed lines, stopped at line 5", "+99:99"])
    let leap =
      "type,time,device\nforeground,2024-02-29T12:00:00Z,d\nforeground,2023-02-29T12:00:00Z,d\n"
    try leap.write(to: dir.appendingPathComponent("leap.csv"), atomically: true, encoding: .utf8)
    let l = try Binary.run(["calibrate", "leap.csv"], in: dir)
    Self.expectRefusal(l, ["leap.csv:3:", "2023-02-29"])
  }

  // MARK: - Estimates and outputs (7, 8, 9, 10, 15, 16)

  /// (7) The estimate counts wake and trigger rates: the reproducers'
  /// (which take 15 to 70 s in a release build) are no longer estimated at
  /// a fraction of a second, and the estimate grows with the calls.
  @Test func theEstimateCountsWakesAndTriggers() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    for name in ["slow-triggers.json", "slow-wakes.json"] {
      try Self.copy(name, to: dir)
      let r = try Binary.run(["run", name, "--dry-run", "--threads", "1"], in: dir)
      #expect(r.status == 0, "\(r.stderr)")
      #expect(r.stdout.contains("estimated:"), "\(name): \(r.stdout)")
      let seconds = try CLITesting.estimatedSeconds(dir.appendingPathComponent(name).path, threads: 1)
      #expect(seconds > 10 && seconds < 200, "\(name): \(seconds) s")
    }
    // Half the calls per wake: about half the estimate (the widgets' share is small).
    var text = try String(contentsOf: Self.repro("slow-wakes.json"), encoding: .utf8)
    text = text.replacingOccurrences(of: #""calls": 100"#, with: #""calls": 50"#)
    try text.write(to: dir.appendingPathComponent("half.json"), atomically: true, encoding: .utf8)
    let full = try CLITesting.estimatedSeconds(dir.appendingPathComponent("slow-wakes.json").path, threads: 1)
    let half = try CLITesting.estimatedSeconds(dir.appendingPathComponent("half.json").path, threads: 1)
    #expect(half > full * 0.4 && half < full * 0.6, "\(half) s vs \(full) s")
  }

  /// (8) The log may replace no report and no input; nothing is written.
  @Test func theLogReplacesNoReportAndNoInput() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    try Self.copy("merge-tiny.json", to: dir)
    let report = try Binary.run(["run", "merge-tiny.json", "--out", "d", "--emit-log", "d/summary.csv"], in: dir)
    Self.expectRefusal(report, ["d/summary.csv", "one of the reports"])
    #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("d").path))
    let input = try Binary.run(["run", "merge-tiny.json", "--out", "d", "--emit-log", "merge-tiny.json"], in: dir)
    Self.expectRefusal(input, ["merge-tiny.json", "replace"])
    let text = try String(contentsOf: dir.appendingPathComponent("merge-tiny.json"), encoding: .utf8)
    #expect(text.hasPrefix(#"{"name":"tiny""#))
  }

  /// (9) --emit-log with --shard is refused, not ignored.
  @Test func theLogIsRefusedWithShards() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    try Self.copy("merge-tiny.json", to: dir)
    let r = try Binary.run(["run", "merge-tiny.json", "--shard", "1/2", "--emit-log", "l.csv", "--out", "p"], in: dir)
    Self.expectRefusal(r, ["--emit-log", "--shard 1/2"])
    for f in ["p", "l.csv"] { #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent(f).path)) }
  }

  /// (10, 16) The log's folder is checked before the run: a folder that
  /// cannot be made stops it with no report written and no folder left.
  @Test func theLogsFolderIsCheckedFirstAndAFailedRunLeavesNoFolder() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    try Self.copy("merge-tiny.json", to: dir)
    try "not a folder".write(to: dir.appendingPathComponent("afile"), atomically: true, encoding: .utf8)
    let r = try Binary.run(["run", "merge-tiny.json", "--emit-log", "afile/x.csv", "--out", "a/b/d"], in: dir)
    Self.expectRefusal(r, ["afile", "--emit-log"])
    #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("a").path), "a/b/d was left behind")
    // A read-only folder (only a user other than root is held to it).
    guard getuid() != 0 else { return }
    let ro = dir.appendingPathComponent("ro")
    try FileManager.default.createDirectory(at: ro, withIntermediateDirectories: true)
    try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: ro.path)
    defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: ro.path) }
    let denied = try Binary.run(["run", "merge-tiny.json", "--emit-log", "ro/x.csv", "--out", "d"], in: dir)
    Self.expectRefusal(denied, ["ro"])
    #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("d").path))
  }

  /// (15) A 100 KB value is shortened in the error line.
  @Test func longValuesAreShortenedInErrors() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let long = String(repeating: "x", count: 100_000)
    try #"{"extends": "\#(long)"}"#.write(to: dir.appendingPathComponent("long.json"), atomically: true, encoding: .utf8)
    let r = try Binary.run(["run", "long.json", "--dry-run"], in: dir)
    Self.expectRefusal(r, ["long.json", "$.extends", "(100001 bytes)"])
    #expect(r.stderr.utf8.count < 1000, "\(r.stderr.utf8.count) bytes")
  }

  /// (16) A single-valued option given twice is an error (it used to take
  /// the last value); a repeatable one still repeats.
  @Test func aRepeatedOptionIsAnError() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    try Self.copy("merge-tiny.json", to: dir)
    let r = try Binary.run(["run", "merge-tiny.json", "--shard", "1/2", "--shard", "2/2", "--out", "p"], in: dir)
    Self.expectRefusal(r, ["--shard is given twice", "'1/2'", "'2/2'"])
    #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("p").path))
    let seeds = try Binary.run(["run", "merge-tiny.json", "--seed", "1", "--seed=2", "--dry-run"], in: dir)
    Self.expectRefusal(seeds, ["--seed is given twice"])
  }

  // MARK: - The fuzz entry points over their seed corpora

  /// Replays the committed corpora of `fuzz-calibrate` and `fuzz-merge`
  /// (a trap fails the suite).
  @Test func calibrateAndMergeEntryPointsAcceptTheirSeeds() throws {
    let corpus = repositoryRoot.appendingPathComponent("Fuzz/corpus")
    let fm = FileManager.default
    var count = 0
    for target in ["calibrate", "merge"] {
      let dir = corpus.appendingPathComponent(target)
      for name in ((try? fm.contentsOfDirectory(atPath: dir.path)) ?? []).sorted() {
        // (A campaign running in this checkout may replace files meanwhile.)
        guard let data = try? Data(contentsOf: dir.appendingPathComponent(name)) else { continue }
        if target == "calibrate" {
          FuzzEntryPoints.calibrateLog(data)
        } else {
          FuzzEntryPoints.mergePart(data)
        }
        count += 1
      }
    }
    #expect(count >= 10, "only \(count) seed files")
  }
}
