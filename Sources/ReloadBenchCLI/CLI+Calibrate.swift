import Foundation
import ReloadCalibration
import ReloadEngine
import ReloadReports
import WidgetModel

/// `reloadbench calibrate LOG... [--scenario FILE] [--out DIR]`: the
/// model's parameters fitted to reload logs (Scenarios/log-format.md). The
/// fit is `ReloadCalibration`'s; this reads the files and flags.
struct CalibrateCommand: Command {
  static let configuration = CommandConfiguration(
    name: "calibrate",
    abstract: "Fit the model's parameters to reload logs from your devices (calibration.json, .csv, .html).",
    usage: "LOG ... [--scenario FILE] [--out DIR] [OPTIONS]",
    discussion: """
      Reads reload logs (CSV with a header or JSON Lines, Scenarios/log-format.md), as the
      widget extension and app write them (Examples/ReloadLogger) or as 'reloadbench run
      --emit-log' writes them, and estimates the daily budget, how it accrues, Low Power
      Mode's cut, the minimum interval, the pacing of reloads asked for at once, lateness
      and its growth with the budget spent, the latency and burst cost of the app's calls,
      and how often silent pushes and BGAppRefresh arrived, each with a 95 % bootstrap
      interval over devices. A parameter the log cannot identify is reported as such, with
      what to log to identify it. Writes calibration.json (with a `model` block to paste
      into a scenario), calibration.csv and calibration.html to --out.
      """,
    arguments: [("LOG", "A reload log (.csv, .jsonl or .ndjson); several are read as one.")],
    notes: """
      With --scenario, the scenario (its first strategy) is simulated with the fitted model
      block and its log is drawn against the observed one in calibration.html.
      Nothing is written when a log is refused.
      """,
    exitStatus: "0 success; 2 bad input (a malformed line: file, line and column; an empty log; flags; paths).")

  static let options: [OptionSpec] = [
    OptionSpec(
      "--scenario", "FILE", "Simulate this scenario with the fitted model for the observed-vs-simulated charts."),
    OptionSpec("--out", "DIR", "Write the three files here (default Reports/calibration)."),
    OptionSpec(
      "--max-bad-lines", "N",
      "Skip up to N malformed lines (counted in the report) instead of stopping at the first."),
    OptionSpec("--seed", "N", "Seed of the bootstrap (default 1); the same seed gives the same intervals."),
    OptionSpec("--quiet", nil, "Print nothing but errors."),
  ]

  var logs: [String]
  var scenario: String?
  var out: String
  var maxBadLines: Int?
  var seed: UInt64
  var quiet: Bool
  let strategies: StrategyRegistry

  init(_ parsed: ParsedArguments, strategies: StrategyRegistry) throws(CLIError) {
    logs = parsed.positionals
    scenario = parsed.value("--scenario")
    out = parsed.value("--out") ?? "Reports/calibration"
    maxBadLines = try parsed.integer("--max-bad-lines", in: 0...1_000_000_000, command: "calibrate")
    seed = try parsed.number("--seed", in: 0...9_007_199_254_740_991, command: "calibrate").map { UInt64($0) } ?? 1
    quiet = parsed.has("--quiet")
    self.strategies = strategies
  }

  func validate() throws(CLIError) {
    guard !logs.isEmpty else {
      throw .badInput(
        "calibrate needs at least one log file "
          + "(fix: reloadbench calibrate LOG.csv; see 'reloadbench calibrate --help')")
    }
  }

  func run() throws(CLIError) -> Int32 {
    let pipeline = Pipeline(options: CommonOptions(), strategies: strategies)
    var uses: [Pipeline.PathUse] = logs.map { .read($0, as: "the log") }
    if let scenario { uses.append(.read(scenario, as: "the scenario")) }
    uses.append(
      .folder(out, as: "the --out folder", files: CalibrationReport.files, fix: "pass --out with another folder"))
    try pipeline.validate(paths: uses)
    let loaded = try scenario.map { (p: String) throws(CLIError) in try pipeline.load(p) }

    var log = ReloadLog()
    for path in logs { try Self.read(path, into: &log, maxBadLines: maxBadLines) }
    guard log.count > 0 else {
      let bad = log.badLines > 0 ? ": every line is malformed (\(log.badLines) skipped)" : ""
      throw .badInput(
        "\(logs.joined(separator: ", ")): no log lines\(bad) (fix: collect a log first; see Scenarios/log-format.md)")
    }
    let calibration = Calibration.fit(log, seed: seed)
    guard calibration.devices > 0 else {
      throw .badInput(
        "\(logs.joined(separator: ", ")): no device has a complete day (a day with lines between two days with lines) "
          + "(fix: collect at least three consecutive days per device)")
    }
    var simulated: Calibration.Curves? = nil
    if let loaded {
      simulated = try Self.simulate(loaded.scenario, with: calibration.model)
    }
    try pipeline.prepare(out, files: CalibrationReport.files)
    try pipeline.write(
      [
        ("calibration.json", CalibrationReport.json(calibration, simulated: simulated)),
        ("calibration.csv", CalibrationReport.csv(calibration)),
        (
          "calibration.html",
          CalibrationReport.html(
            calibration, simulated: simulated, scenario: scenario, toolVersion: ReloadBenchCLI.version)
        ),
      ], to: out)
    if !quiet { Terminal.out(Self.summary(calibration, out: out)) }
    return ExitStatus.success
  }

  /// Parses the log at `path` in blocks of 16 MB (a log of millions of
  /// lines is never held whole), reserving room for its lines from the
  /// first block's line length. What a block leaves for the next is part
  /// of one line, at most `LogParser.maxLineBytes`: the block never grows.
  static func read(_ path: String, into log: inout ReloadLog, maxBadLines: Int?) throws(CLIError) {
    guard let file = fopen(path, "rb") else {
      throw .badInput("cannot read \(path) (fix: check the path and its permissions)")
    }
    defer { fclose(file) }
    let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? nil
    var reader = LogParser.Reader(file: path, maxBadLines: maxBadLines)
    var block = [UInt8](repeating: 0, count: 16 << 20)
    var filled = 0
    var first = true
    while true {
      let got = block.withUnsafeMutableBytes { fread($0.baseAddress! + filled, 1, $0.count - filled, file) }
      if got == 0 && ferror(file) != 0 {
        throw .badInput("cannot read \(path) (fix: check the path and its permissions)")
      }
      filled += got
      let end = got == 0
      do throws(LogParser.Failure) {
        let before = log.count
        let used = try block.withUnsafeBufferPointer { (b: UnsafeBufferPointer<UInt8>) throws(LogParser.Failure) in
          try reader.feed(UnsafeBufferPointer(rebasing: b[0..<filled]), into: &log, final: end)
        }
        if first, let size, used > 0, log.count > before {
          log.reserveCapacity(before + Int(Double(size) / Double(used) * Double(log.count - before) * 1.02) + 16)
          first = false
        }
        block.withUnsafeMutableBufferPointer { b in
          b.baseAddress!.update(from: b.baseAddress! + used, count: filled - used)
        }
        filled -= used
        if end { try reader.finish(into: &log) }
      } catch {
        throw .badInput(error.description)
      }
      if end { break }
    }
  }

  /// The curves of the scenario's log simulated with the fitted model.
  static func simulate(_ original: Scenario, with model: ModelPatch) throws(CLIError) -> Calibration.Curves {
    var scenario = original
    scenario.model = model.applied(to: scenario.model)
    // The charts show distributions: 200 devices draw them as well as a fleet.
    scenario.devices = min(scenario.devices, 200)
    var log = ReloadLog()
    var failure: LogParser.Failure? = nil
    var reader = LogParser.Reader(file: "simulated", maxBadLines: nil)
    _ = try EmitLog.render(scenario, format: .csv) { (chunk: String) throws(CLIError) in
      // The log text goes through the same parser as a collected log (chunks end with a newline).
      do throws(LogParser.Failure) {
        _ = try reader.feed(Array(chunk.utf8), into: &log, final: true)
      } catch {
        failure = failure ?? error
      }
    }
    do throws(LogParser.Failure) { try reader.finish(into: &log) } catch { failure = failure ?? error }
    if let failure { throw .badInput("simulated log: \(failure.description)") }
    return Calibration.fit(log, replicates: 0).curves
  }

  static func summary(_ c: Calibration, out: String) -> String {
    var s =
      "Calibrated from \(NumberFormat.count(c.lines, "line")): \(NumberFormat.count(c.devices, "device")), "
      + "\(NumberFormat.count(c.deviceDays, "complete device-day")).\n"
    for d in c.dropped where d.count > 0 { s += "  dropped: \(d.count) \(d.what)\n" }
    for p in c.parameters {
      let value: String
      switch p.status {
      case .identified, .observed:
        let e = p.estimate.map { String(format: "%.4g", $0) } ?? "?"
        let ci = p.low.map { String(format: " [%.4g, %.4g]", $0, p.high ?? .nan) } ?? ""
        let choice = p.choice.map { $0 + " " } ?? ""
        value = "\(choice)\(e)\(ci) \(p.unit)"
      case .tooFewData: value = "too few data"
      case .notIdentifiable: value = "not identifiable from this log"
      }
      s += "  \(p.field.path): \(value)\n"
    }
    s += "Wrote \(out)/{\(CalibrationReport.files.joined(separator: ", "))}\n"
    return s
  }
}
