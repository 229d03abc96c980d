import Foundation
import Testing

/// The reproducers of the reliability issue that belong to the shared
/// pipeline (memory and time estimates, outputs that would replace inputs,
/// `sweep --reproducible`, leftovers of killed runs), run on the built
/// binary: each gives exit 0 or 2 with one clear line, promptly.
@Suite struct ReliabilityTests {
  static func repro(_ name: String) -> URL { fixture("repro/\(name)") }

  /// Copies reproducer `name` into `dir` as `as`.
  static func copy(_ name: String, to dir: URL, as target: String? = nil) throws {
    let url = dir.appendingPathComponent(target ?? name)
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(contentsOf: repro(name)).write(to: url)
  }

  static func errorLines(_ r: Binary.Result) -> [Substring] { r.stderr.split(separator: "\n") }

  #if os(Linux)
    static let isLinux = true
  #else
    static let isLinux = false
  #endif

  /// Runs and returns the result with its wall time.
  static func timed(_ arguments: [String], in dir: URL, environment: [String: String] = [:]) throws -> (
    Binary.Result, Double
  ) {
    let start = Date()
    let r = try Binary.run(arguments, in: dir, environment: environment, timeout: 30)
    return (r, Date().timeIntervalSince(start))
  }

  // MARK: - Memory (7, 8)

  /// (7) Every command counts --threads in its memory estimate: the
  /// scenario fits on 1 thread's tallies but not on 16 threads'.
  @Test(arguments: [
    ["run", "m.json"], ["check", "m.json"], ["baseline", "save", "m.json"], ["run", "m.json", "--dry-run"],
  ])
  func everyCommandCountsThreadsInTheMemoryEstimate(_ command: [String]) throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    // With an expectation, so that check has something to check.
    var text = try String(contentsOf: Self.repro("mem-threads-ignored.json"), encoding: .utf8)
    text.removeLast()
    text += #", "expect": [{"metric": "fresh_glance_pct", "min": 0}]}"#
    try text.write(to: dir.appendingPathComponent("m.json"), atomically: true, encoding: .utf8)
    // Plenty for one thread (13.5 GB), not for sixteen.
    let env = ["RELOADBENCH_MEMORY_BYTES": "40000000000"]
    let (r, seconds) = try Self.timed(command + ["--threads", "16"], in: dir, environment: env)
    #expect(r.status == 2, "\(command): \(r.stderr)")
    #expect(Self.errorLines(r).count == 1 && r.stderr.contains("for 16 threads"), "\(r.stderr)")
    #expect(r.stderr.contains("would need about") && r.stderr.contains("--threads"), "\(r.stderr)")
    #expect(seconds < 2, "refused after \(seconds) s")
    #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("Reports").path))
    #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("Scenarios/baselines").path))
    // One thread fits (shown without running: --dry-run validates the same way).
    let one = try Binary.run(["run", "m.json", "--dry-run", "--threads", "1"], in: dir, environment: env)
    #expect(one.status == 0, "\(one.stderr)")
  }

  @Test func sweepCountsThreadsToo() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    var text = try String(contentsOf: Self.repro("mem-threads-ignored.json"), encoding: .utf8)
    text.removeLast()
    text += #", "sweep": {"parameters": [{"path": "seed", "values": [1, 2]}]}}"#
    try text.write(to: dir.appendingPathComponent("s.json"), atomically: true, encoding: .utf8)
    let r = try Binary.run(
      ["sweep", "s.json", "--threads", "16"], in: dir, environment: ["RELOADBENCH_MEMORY_BYTES": "40000000000"])
    #expect(r.status == 2 && r.stderr.contains("for 16 threads"), "\(r.stderr)")
  }

  /// (8) The estimate counts each device's drawn data changes: one device
  /// with 16 widgets whose data change 100,000 times a day for a year
  /// peaks at 8.4 GiB; the estimate must be at least that.
  @Test func estimateCountsEachDevicesDrawnDataChanges() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    try Self.copy("mem-underestimate.json", to: dir, as: "u.json")
    let r = try Binary.run(["run", "u.json", "--dry-run", "--threads", "4"], in: dir, timeout: 30)
    #expect(r.status == 0, "\(r.stderr)")
    let line = r.stdout.split(separator: "\n").first { $0.contains("estimated:") } ?? ""
    let gb = line.split(separator: " ").firstIndex(of: "GB").flatMap { i in Double(line.split(separator: " ")[i - 1]) }
    #expect((gb ?? 0) >= 8.4 * 1.073741824, "\(line)")
    #expect(line.contains("on 1 thread"), "one device: one thread works, whatever --threads says: \(line)")
    // On a machine that cannot hold it, it is refused with the estimate,
    // naming the device data as the cause.
    let small = try Binary.run(
      ["run", "u.json"], in: dir, environment: ["RELOADBENCH_MEMORY_BYTES": "8000000000"], timeout: 30)
    #expect(small.status == 2 && Self.errorLines(small).count == 1, "\(small.stderr)")
    #expect(small.stderr.contains("of drawn device data") && small.stderr.contains("change rates"), "\(small.stderr)")
    #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("Reports").path))
  }

  /// The refusal at its edge, on a machine of the size the edge was set
  /// for (two threads work: 512 devices make two chunks).
  @Test func memoryRefusalAtItsEdge() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    try Self.copy("mem-just-under.json", to: dir)
    try Self.copy("mem-just-over.json", to: dir)
    let env = ["RELOADBENCH_MEMORY_BYTES": "25300000000"]
    let under = try Binary.run(["run", "mem-just-under.json", "--dry-run"], in: dir, environment: env)
    #expect(under.status == 0, "\(under.stderr)")
    let (over, seconds) = try Self.timed(["run", "mem-just-over.json"], in: dir, environment: env)
    #expect(over.status == 2 && Self.errorLines(over).count == 1, "\(over.stderr)")
    #expect(over.stderr.contains("mem-just-over would need about 20.4 GB"), "\(over.stderr)")
    #expect(seconds < 2)
  }

  // MARK: - Time

  /// A run estimated at hours says so on stderr before it starts (and
  /// --dry-run shows it); off a terminal, progress lines follow.
  @Test func aLongRunPrintsItsEstimatedTimeFirst() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    try Self.copy("mem-1e9-widgets.json", to: dir, as: "big.json")
    let plan = try Binary.run(["run", "big.json", "--dry-run", "--threads", "2"], in: dir, timeout: 10)
    #expect(plan.status == 0, "\(plan.stderr)")
    #expect(plan.stdout.contains("estimated run time about") && plan.stdout.contains("days on 2 threads"), "\(plan.stdout)")
    // The real run: the notice comes before it starts; it is killed once
    // the notice is there (or after 10 s).
    let (status, stderr) = try Self.runUntil(["run", "big.json", "--threads", "1", "--out", "o"], in: dir, seconds: 10) {
      $0.contains("\n")
    }
    #expect(status == 9, "killed while still running: \(stderr)")
    // The file has no model_version: the one warning about that may come first.
    let lines = stderr.split(separator: "\n")
    let first = lines.first { !$0.hasPrefix("warning: big.json: written for model version") } ?? ""
    #expect(first.hasPrefix("note: mem-1e9-widgets: estimated run time about ") && first.contains(" days on 1 thread"), "\(stderr)")
  }

  /// Runs the binary with stderr to a file until `done(stderr)` holds or
  /// `seconds` pass, then kills it (SIGKILL: the test runner's children
  /// inherit a blocked SIGTERM) and returns its status and stderr.
  static func runUntil(_ arguments: [String], in dir: URL, seconds: Double, done: (String) -> Bool) throws -> (
    Int32, String
  ) {
    let errURL = dir.appendingPathComponent("stderr.txt")
    try Data().write(to: errURL)
    let handle = try FileHandle(forWritingTo: errURL)
    defer { try? handle.close() }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: Binary.path)
    process.arguments = arguments
    process.currentDirectoryURL = dir
    process.standardOutput = FileHandle.nullDevice
    process.standardError = handle
    try process.run()
    let deadline = Date().addingTimeInterval(seconds)
    while process.isRunning && Date() < deadline {
      if done((try? String(contentsOf: errURL, encoding: .utf8)) ?? "") { break }
      Thread.sleep(forTimeInterval: 0.05)
    }
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
    return (process.terminationStatus, (try? String(contentsOf: errURL, encoding: .utf8)) ?? "")
  }

  /// Off a terminal (as in CI logs), a run that lasts prints a header
  /// (what runs, how big) and then progress lines; a short one prints
  /// nothing on stderr.
  @Test func progressLinesOffATerminal() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    try smallScenario(name: "slowish", devices: 600).write(
      to: dir.appendingPathComponent("s.json"), atomically: true, encoding: .utf8)
    // Interval 0: a line at every finished chunk of devices (the default
    // is every 10 s), so the test does not depend on the machine's speed.
    let r = try Binary.run(
      ["run", "s.json", "--threads", "1", "--out", "o"], in: dir,
      environment: ["RELOADBENCH_PROGRESS_INTERVAL": "0"], timeout: 120)
    #expect(r.status == 0, "\(r.stderr)")
    let lines = Self.errorLines(r)
    // The header first, once: the scenario, its devices, widgets, days,
    // strategies and threads.
    #expect(lines.count >= 2, "\(r.stderr)")
    let header = lines.first ?? ""
    #expect(header.hasPrefix("run slowish: 600 devices (about "), "\(header)")
    for part in [" widgets) x ", "2 days (0.5 warm-up) x 3 strategies, seed 3, 1 thread; estimated "] {
      #expect(header.contains(part), "\(header)")
    }
    #expect(lines.filter { $0.hasPrefix("run slowish:") }.count == 1, "the header once: \(r.stderr)")
    let progress = lines.dropFirst()
    #expect(
      !progress.isEmpty
        && progress.allSatisfy { $0.hasPrefix("progress: slowish: ") && $0.contains("% after ") && $0.contains(" device-days/s, ETA ") },
      "\(r.stderr)")
    #expect(!r.stderr.contains("\u{1B}"), "no terminal codes in a log")
    // A sweep says its points in the header, and each point's progress
    // line names the point.
    try smallScenario(name: "swept", devices: 300).replacingOccurrences(
      of: #""strategies": ["poll-15m", "hybrid", "on-demand"]"#,
      with: #""strategies": [{"name": "poll", "preset": "poll-15m"}], "sweep": {"parameters": [{"name": "m", "path": "strategies[poll].timeline.after_min", "values": [15, 30]}]}"#
    ).write(to: dir.appendingPathComponent("w.json"), atomically: true, encoding: .utf8)
    let sweep = try Binary.run(
      ["sweep", "w.json", "--threads", "1", "--out", "w"], in: dir,
      environment: ["RELOADBENCH_PROGRESS_INTERVAL": "0"], timeout: 120)
    #expect(sweep.status == 0, "\(sweep.stderr)")
    let sweepLines = Self.errorLines(sweep)
    #expect(sweepLines.first?.hasPrefix("run swept: 2 sweep points of 300 devices (about ") == true, "\(sweep.stderr)")
    #expect(sweepLines.first?.contains(" x 1 strategy, seed 3, 1 thread; ") == true, "\(sweep.stderr)")
    #expect(sweepLines.contains { $0.hasPrefix("progress: swept 2/2: ") }, "\(sweep.stderr)")
    // Without the variable, a run this short prints nothing on stderr.
    let short = try Binary.run(["run", "s.json", "--threads", "1", "--out", "o"], in: dir, timeout: 120)
    #expect(short.status == 0 && short.stderr.isEmpty, "\(short.stderr)")
    let quiet = try Binary.run(
      ["run", "s.json", "--threads", "1", "--out", "o", "--quiet"], in: dir,
      environment: ["RELOADBENCH_PROGRESS_INTERVAL": "0"], timeout: 120)
    #expect(quiet.status == 0 && quiet.stderr.isEmpty, "\(quiet.stderr)")
  }

  /// On a terminal (a pseudo-terminal from util-linux's `script`), the
  /// progress line is drawn in place and names the scenario. Linux only:
  /// macOS's `script` is the BSD one, whose options differ.
  @Test(.enabled(if: Self.isLinux && FileManager.default.isExecutableFile(atPath: "/usr/bin/script")))
  func progressLineOnATerminalNamesTheScenario() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    try smallScenario(name: "onscreen", devices: 100).write(
      to: dir.appendingPathComponent("s.json"), atomically: true, encoding: .utf8)
    let command = "'\(Binary.path)' run s.json --threads 1 --out o"
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
    process.arguments = ["-qec", command, "/dev/null"]
    process.currentDirectoryURL = dir
    let out = Pipe()
    process.standardOutput = out
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "\(text)")
    #expect(text.contains("\r\u{1B}[2K  onscreen: 100%  "), "\(text)")
    #expect(text.contains(" device-days/s  ETA "), "\(text)")
    #expect(!text.contains("progress: onscreen"), "no log lines on a terminal")
    #expect(!text.contains("run onscreen:"), "no log header on a terminal")
  }

  // MARK: - Outputs that would replace inputs (10, 11)

  /// (10) `run` and `sweep` refuse a --out folder that would overwrite
  /// their own scenario file (named like one of the reports).
  @Test func runAndSweepRefuseToOverwriteTheirScenario() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    try Self.copy("run-overwrites-input.json", to: dir, as: "d/results.json")
    let before = try Data(contentsOf: dir.appendingPathComponent("d/results.json"))
    let (r, seconds) = try Self.timed(["run", "d/results.json", "--out", "d"], in: dir)
    #expect(r.status == 2 && Self.errorLines(r).count == 1, "\(r.stderr)")
    #expect(r.stderr.contains("the scenario d/results.json is one of the reports written into the --out folder d"), "\(r.stderr)")
    #expect(seconds < 2)
    #expect(try Data(contentsOf: dir.appendingPathComponent("d/results.json")) == before)
    #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("d/summary.csv").path))
    // Without --out too: a scenario kept in its own report folder.
    try Self.copy("run-overwrites-input.json", to: dir, as: "Reports/tiny/results.json")
    let implicit = try Binary.run(["run", "Reports/tiny/results.json"], in: dir)
    #expect(implicit.status == 2 && implicit.stderr.contains("the report folder Reports/tiny"), "\(implicit.stderr)")
    // A sweep scenario named like the sweep's own files.
    var text = try String(contentsOf: Self.repro("run-overwrites-input.json"), encoding: .utf8)
    text = text.replacingOccurrences(
      of: #""expect""#, with: #""sweep": {"parameters": [{"path": "seed", "values": [1, 2]}]}, "expect""#)
    try FileManager.default.createDirectory(at: dir.appendingPathComponent("w"), withIntermediateDirectories: true)
    try text.write(to: dir.appendingPathComponent("w/sweep.csv"), atomically: true, encoding: .utf8)
    for command in [["sweep", "w/sweep.csv", "--out", "w"], ["run", "w/sweep.csv", "--out", "w"]] {
      let s = try Binary.run(command, in: dir)
      #expect(s.status == 2 && s.stderr.contains("is one of the reports written into the --out folder w"), "\(command): \(s.stderr)")
      #expect(try String(contentsOf: dir.appendingPathComponent("w/sweep.csv"), encoding: .utf8) == text)
    }
  }

  /// (11) `baseline save --to` refuses to replace a scenario (or any
  /// file that is not a baseline), and still replaces a baseline.
  @Test func baselineSaveNeverReplacesAScenario() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    try Self.copy("run-overwrites-input.json", to: dir, as: "tiny.json")
    let example = try Data(contentsOf: repositoryRoot.appendingPathComponent("Scenarios/example.json"))
    try FileManager.default.createDirectory(at: dir.appendingPathComponent("Scenarios"), withIntermediateDirectories: true)
    try example.write(to: dir.appendingPathComponent("Scenarios/example.json"))
    let (r, seconds) = try Self.timed(["baseline", "save", "tiny.json", "--to", "Scenarios/example.json"], in: dir)
    #expect(r.status == 2 && Self.errorLines(r).count == 1, "\(r.stderr)")
    #expect(r.stderr.contains("--to Scenarios/example.json is a scenario file, not a baseline"), "\(r.stderr)")
    #expect(seconds < 2)
    #expect(try Data(contentsOf: dir.appendingPathComponent("Scenarios/example.json")) == example)
    // A baseline replaces a baseline.
    let first = try Binary.run(["baseline", "save", "tiny.json", "--to", "b.json", "--quiet"], in: dir)
    #expect(first.status == 0, "\(first.stderr)")
    let again = try Binary.run(["baseline", "save", "tiny.json", "--to", "b.json", "--quiet"], in: dir)
    #expect(again.status == 0, "\(again.stderr)")
    // The default path too: a scenario kept in Scenarios/baselines/.
    try Self.copy("run-overwrites-input.json", to: dir, as: "Scenarios/baselines/tiny.json")
    let kept = try Binary.run(["baseline", "save", "tiny.json"], in: dir)
    #expect(kept.status == 2 && kept.stderr.contains("is a scenario file, not a baseline"), "\(kept.stderr)")
  }

  /// No output replaces a scenario file, even one the command does not
  /// read: a report named like it, --json, --junit, --markdown.
  @Test func noOutputReplacesAScenarioItDoesNotRead() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    try Self.copy("run-overwrites-input.json", to: dir, as: "tiny.json")
    try Self.copy("run-overwrites-input.json", to: dir, as: "keep/results.json")
    try Self.copy("run-overwrites-input.json", to: dir, as: "other.json")
    let other = try Data(contentsOf: dir.appendingPathComponent("other.json"))
    let run = try Binary.run(["run", "tiny.json", "--out", "keep"], in: dir)
    #expect(run.status == 2 && Self.errorLines(run).count == 1, "\(run.stderr)")
    #expect(run.stderr.contains("keep/results.json is a scenario file"), "\(run.stderr)")
    #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("keep/summary.csv").path))
    for flag in ["--json", "--junit", "--markdown"] {
      let check = try Binary.run(["check", "tiny.json", flag, "other.json", "--out", "o"], in: dir)
      #expect(check.status == 2 && check.stderr.contains("\(flag) other.json is a scenario file"), "\(flag): \(check.stderr)")
      #expect(try Data(contentsOf: dir.appendingPathComponent("other.json")) == other)
    }
    // A report folder of an earlier run is replaced as usual.
    #expect(try Binary.run(["run", "tiny.json", "--out", "o", "--quiet"], in: dir).status == 0)
    let again = try Binary.run(["run", "tiny.json", "--out", "o", "--quiet"], in: dir)
    #expect(again.status == 0, "\(again.stderr)")
  }

  // MARK: - sweep --reproducible

  @Test func sweepAcceptsReproducible() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    var text = smallScenario(name: "rep", devices: 30, strategies: #"["poll-15m"]"#)
    text.removeLast(2)
    text += #", "sweep": {"parameters": [{"path": "seed", "values": [1, 2]}]}}"#
    try text.write(to: dir.appendingPathComponent("s.json"), atomically: true, encoding: .utf8)
    var pages: [Data] = []
    for (i, threads) in ["1", "2"].enumerated() {
      let r = try Binary.run(["sweep", "s.json", "--reproducible", "--quiet", "--threads", threads, "--out", "o\(i)"], in: dir)
      #expect(r.status == 0, "\(r.stderr)")
      pages.append(try Data(contentsOf: dir.appendingPathComponent("o\(i)/sweep.html")))
    }
    #expect(pages[0] == pages[1], "sweep.html with --reproducible does not depend on the thread count or the clock")
  }

  // MARK: - Leftovers

  /// A `kill -9` while writing leaves `.NAME.tmp-PID` files; the next run
  /// removes those of dead processes, and only those.
  @Test func theNextRunRemovesTemporaryFilesOfKilledRuns() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    try smallScenario(name: "left", devices: 20).write(
      to: dir.appendingPathComponent("s.json"), atomically: true, encoding: .utf8)
    let out = dir.appendingPathComponent("o")
    try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
    let dead = try PipelineTests.deadProcessID()
    let alive = ProcessInfo.processInfo.processIdentifier
    let stale = [".summary.csv.tmp-\(dead)", ".report.html.tmp-\(dead)", ".reloadbench-write-test-\(dead)"]
    let kept = [
      ".summary.csv.tmp-\(alive)",  // a run still writing
      ".notes.txt.tmp-\(dead)",  // not a file this tool writes here
      ".summary.csv.tmp-12ab",  // not our pattern
      "summary.csv.tmp-\(dead)",  // not hidden
    ]
    for name in stale + kept { try Data("x".utf8).write(to: out.appendingPathComponent(name)) }
    let r = try Binary.run(["run", "s.json", "--out", "o", "--quiet"], in: dir)
    #expect(r.status == 0, "\(r.stderr)")
    let left = Set(try FileManager.default.contentsOfDirectory(atPath: out.path))
    for name in stale { #expect(!left.contains(name), "\(name) was left") }
    for name in kept { #expect(left.contains(name), "\(name) was removed") }
    #expect(left.contains("summary.csv") && left.contains("report.html"))
    // A baseline's folder too.
    try Data("x".utf8).write(to: dir.appendingPathComponent(".b.json.tmp-\(dead)"))
    let b = try Binary.run(["baseline", "save", "s.json", "--to", "b.json", "--quiet"], in: dir)
    #expect(b.status == 0, "\(b.stderr)")
    #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent(".b.json.tmp-\(dead)").path))
  }
}
