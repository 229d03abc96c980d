import Foundation
import ReloadReports

/// `reloadbench bench`: the standard benchmark set, each case repeated in
/// fresh child processes (so each reports its own peak memory), medians and
/// spread, the machine's description, and comparisons with a stored run or
/// with another program (the C++ yardstick).
struct BenchCommand: Command {
  static let options: [OptionSpec] = [
    OptionSpec(
      "--scenario", "FILE", "Benchmark this scenario (1 and N threads) instead of the standard scenarios; repeatable.",
      repeatable: true),
    OptionSpec("--repeat", "K", "Repetitions per case (default 5); medians are reported."),
    OptionSpec("--json", "FILE", "Also write the figures as JSON (for CI and --baseline)."),
    OptionSpec("--quick", nil, "Fewer cases: skip the global-queue R1 and the largest hold sizes."),
    OptionSpec("--cases", "LIST", "Run only the cases whose names contain one of these comma-separated words."),
    OptionSpec("--hold-ops", "N", "Hold operations per hold-model case (default: max(2e6, 4 x queue size))."),
    OptionSpec(
      "--yardstick", "CMD",
      "Also run CMD (a program printing R1 JSON, e.g. the C++ yardstick) alternately with the standard r1-1t case "
        + "and report the ratio (not with --scenario)."
    ),
    OptionSpec("--baseline", "FILE", "Compare with a stored --json run; exit 1 if a case is slower beyond --noise."),
    OptionSpec("--noise", "PCT", "Slowdown that counts as a regression with --baseline (default 10)."),
    OptionSpec("--run-case", "JSON", "(internal) run one case in this process and print its measurement."),
  ]

  static let common: [CommonOptions.Key: String?] = [
    .threads: "Threads for the multi-threaded cases (default: all cores)."
  ]

  static let configuration = CommandConfiguration(
    name: "bench",
    abstract: "Benchmark the engine and the model: R1, scenarios, the hold model; medians and memory.",
    usage: "[OPTIONS]",
    discussion: """
      Runs the standard benchmark set: R1 (one thread and N threads), the default
      scenario, a 50k-device sample of the fleet scenario, R1 event by event in one
      global queue with the 4-ary and the binary heap, and the hold model on both
      heaps at 1e3...1e6 events. Each case runs --repeat times in a fresh process;
      the table shows medians (min-max) of wall time, events/s, widget-days/s,
      simulated days per wall second, peak memory and the phases of a run.

      Throughput on shared machines is noisy: compare medians, and give
      --baseline comparisons a noise threshold that fits the machine.
      """,
    notes: """
      The standard cases read Scenarios/*.json from the current folder: run bench from
      the repository root, or pass --scenario FILE. Every scenario is checked before
      the first case runs. A scenario case runs the same pipeline as 'reloadbench run'
      (simulate, merge, results, reports rendered in memory, nothing written).
      """,
    exitStatus: """
        0  done (and no regression with --baseline)
        1  a case regressed beyond --noise
        2  bad input (missing or corrupt scenario or --baseline file, flags, an
           unwritable or conflicting --json path), or a case or the --yardstick
           command failed (one line: the case, its exit status and its first error line)
      """)

  /// `--run-case`: the internal mode that runs one case and prints its measurement.
  var runCase: String?
  var threads: Int
  var repeats: Int
  var noise: Double
  var scenarios: [String]
  var baselinePath: String?
  var jsonPath: String?
  var quick: Bool
  var holdOps: Int?
  var casesFilter: String?
  var yardstick: String?

  /// The strategies the scenarios may name (the cases run in child
  /// processes of this same executable, which registers the same ones).
  var strategies: StrategyRegistry

  init(_ parsed: ParsedArguments, strategies: StrategyRegistry) throws(CLIError) {
    self.strategies = strategies
    runCase = parsed.value("--run-case")
    threads = ProcessInfo.processInfo.activeProcessorCount
    repeats = 5
    noise = 10
    scenarios = parsed.values["--scenario"] ?? []
    baselinePath = parsed.value("--baseline")
    jsonPath = parsed.value("--json")
    quick = parsed.has("--quick")
    casesFilter = parsed.value("--cases")
    yardstick = parsed.value("--yardstick")
    guard runCase == nil else { return }
    threads = try CommonOptions(parsed, command: "bench").threads
    repeats = try parsed.integer("--repeat", in: 1...100, command: "bench") ?? 5
    noise = try parsed.number("--noise", in: 0...100, command: "bench") ?? 10
    holdOps = try parsed.integer("--hold-ops", in: 1...1_000_000_000, command: "bench")
  }

  func validate() throws(CLIError) {
    if runCase == nil, jsonPath == "-" {
      throw .badInput(
        "--json needs a file path; '-' (stdout) is not supported by bench, whose table is on stdout (fix: pass "
          + "--json FILE)"
      )
    }
  }

  struct CaseResult: Codable {
    var name: String
    var threads: Int
    var runs: [BenchMeasurement]
    var median: Summary
    var min: Summary
    var max: Summary
  }

  struct Summary: Codable {
    var wallSeconds: Double
    var eventsPerSecond: Double
    var widgetDaysPerSecond: Double
    var simulatedDaysPerSecond: Double
    var peakRSSBytes: Double
    var phases: [String: Double]
  }

  struct Output: Codable {
    var tool: String
    var version: String
    var machine: [String: String]
    var repetitions: Int
    var threads: Int
    var cases: [CaseResult]
    var yardstick: Yardstick?
  }

  struct Yardstick: Codable {
    var command: String
    var widgetDaysPerSecond: [Double]
    var wallSeconds: [Double]
    /// ReloadBench r1-1t over the yardstick, pair by pair (in-process wall time).
    var ratios: [Double]
    var medianRatio: Double
    var wholeProcessRatios: [Double]
    var medianWholeProcessRatio: Double
  }

  func run() throws(CLIError) -> Int32 {
    if let json = runCase {
      guard let c = try? JSONFiles.decode(BenchCase.self, from: Data(json.utf8)) else {
        throw .badInput("--run-case expects a case as JSON")
      }
      let m = try BenchRunner.measure(c, strategies: strategies)
      Terminal.out(JSONFiles.text(m, pretty: false) + "\n")
      return ExitStatus.success
    }
    let pipeline = Pipeline(
      options: {
        var o = CommonOptions()
        o.threads = threads
        o.quiet = true
        return o
      }(), strategies: strategies)
    for s in scenarios {
      let loaded = try pipeline.load(s)
      try pipeline.validateMemory(loaded.scenario)
    }
    var baseline: Output? = nil
    if let path = baselinePath {
      guard let data = FileManager.default.contents(atPath: path) else {
        throw .badInput("cannot read baseline \(path) (fix: write one with 'reloadbench bench --json \(path)')")
      }
      guard let b = try? JSONFiles.decode(Output.self, from: data), b.tool == "reloadbench-bench" else {
        throw .badInput("\(path) is not a 'reloadbench bench --json' file (fix: regenerate it with --json)")
      }
      baseline = b
    }
    if let out = jsonPath {
      // The figures must not replace a scenario or the baseline they are compared with.
      var uses: [Pipeline.PathUse] = scenarios.map { .read($0, as: "--scenario") }
      if let path = baselinePath { uses.append(.read(path, as: "--baseline")) }
      uses.append(.file(out, as: "--json"))
      try pipeline.validate(paths: uses)
      try pipeline.prepare(PathText.folder(of: out), files: [PathText.name(out)], option: "--json")
    }
    var cases = BenchRunner.standardCases(threads: threads, quick: quick, scenarios: scenarios)
    if let ops = holdOps {
      for i in cases.indices where cases[i].kind == .hold { cases[i].holds = ops }
    }
    if let filter = casesFilter {
      let words = filter.split(separator: ",").map(String.init)
      cases = cases.filter { c in words.contains { c.name.contains($0) } }
      if cases.isEmpty {
        throw .badInput("--cases \(filter) matches no case (fix: see the case names in 'reloadbench bench --quick')")
      }
    }
    let yardstickCommand = yardstick
    if let command = yardstickCommand { try checkYardstick(command, cases: cases) }
    // The standard cases read Scenarios/ from the current folder: check
    // every scenario a case reads before the first one runs.
    for c in cases where c.kind == .scenario && !scenarios.contains(c.path ?? "") {
      let path = c.path ?? ScenarioLoader.defaultPath
      if !FileManager.default.fileExists(atPath: path) {
        throw .badInput(
          "cannot read \(path), which the standard case \(c.name) runs: no such file "
            + "(fix: run reloadbench bench from the ReloadBench repository root, or pass --scenario FILE)")
      }
      _ = try pipeline.load(path)
    }
    let me = Self.selfExecutable()
    let machine = MachineInfo.describe()
    // On a terminal, say where this runs while the cases run (the table on
    // stdout names the machine too); in a pipe, stderr is kept for errors.
    if Terminal.stderrIsTerminal {
      Terminal.err(
        "machine: \(machine["cpu"] ?? "?"), \(machine["cores"] ?? "?") cores, \(machine["memory_gb"] ?? "?") GB, "
          + "\(machine["os"] ?? "?"), \(machine["build"] ?? "?") build\n"
      )
    }
    var results: [CaseResult] = []
    var yardstick: Yardstick? = nil
    var yWdps: [Double] = []
    var yWall: [Double] = []
    var ratios: [Double] = []
    var wholeRatios: [Double] = []
    do throws(CLIError) {
      for c in cases {
        var runs: [BenchMeasurement] = []
        for r in 0..<repeats {
          if Terminal.stderrIsTerminal { Terminal.errControl("\r\u{1B}[2K  \(c.name) \(r + 1)/\(repeats)") }
          let caseJSON = JSONFiles.text(c, pretty: false)
          let child = try ChildProcess.run(me, ["bench", "--run-case", caseJSON])
          guard child.status == 0 else {
            throw .badInput("case \(c.name) failed (exit \(child.status)): \(child.failureLine)")
          }
          guard let line = child.stdout.split(separator: "\n").last,
            var m = try? JSONFiles.decode(BenchMeasurement.self, from: Data(line.utf8))
          else { throw .badInput("case \(c.name) failed (exit 0): it printed no measurement on stdout") }
          m.peakRSSBytes = child.peakRSSBytes
          runs.append(m)
          if c.name == "r1-1t", let command = yardstickCommand {
            let parts = command.split(separator: " ").map(String.init)
            let y = try ChildProcess.run(parts[0], Array(parts.dropFirst()))
            guard y.status == 0 else {
              throw .badInput(
                "--yardstick \(command) failed (exit \(y.status)): \(y.failureLine) (fix: check that the command "
                  + "runs on its own)"
              )
            }
            guard let obj = try? JSONSerialization.jsonObject(with: Data(y.stdout.utf8)) as? [String: Any],
              let wdps = obj["widget_days_per_s"] as? Double, let wall = obj["wall_s"] as? Double
            else {
              throw .badInput(
                "--yardstick \(command) did not print R1 JSON with widget_days_per_s and wall_s "
                  + "(fix: pass --yardstick a program that prints them)")
            }
            yWdps.append(wdps)
            yWall.append(wall)
            ratios.append(m.widgetDaysPerSecond / wdps)
            wholeRatios.append(y.wallSeconds / child.wallSeconds)
          }
        }
        results.append(Self.summarize(c, runs))
      }
    } catch {
      // The error line starts on a clean line, not after the progress text.
      if Terminal.stderrIsTerminal { Terminal.errControl("\r\u{1B}[2K") }
      throw error
    }
    if Terminal.stderrIsTerminal { Terminal.errControl("\r\u{1B}[2K") }
    if let command = yardstickCommand, !ratios.isEmpty {
      yardstick = Yardstick(
        command: command, widgetDaysPerSecond: yWdps, wallSeconds: yWall, ratios: ratios,
        medianRatio: Self.median(ratios),
        wholeProcessRatios: wholeRatios, medianWholeProcessRatio: Self.median(wholeRatios))
    }
    let output = Output(
      tool: "reloadbench-bench", version: ReloadBenchCLI.version, machine: machine, repetitions: repeats,
      threads: threads,
      cases: results, yardstick: yardstick)
    Terminal.out(Self.table(output))
    if let path = jsonPath {
      try pipeline.write(file: path, JSONFiles.text(output, pretty: true) + "\n")
    }
    if let baseline {
      let (text, regressed) = Self.compare(output, baseline, noisePct: noise)
      Terminal.out(text)
      if regressed { return ExitStatus.failure }
    }
    return ExitStatus.success
  }

  /// `--yardstick` runs alternately with the standard r1-1t case: refuse
  /// it when that case does not run, or when the command cannot start.
  func checkYardstick(_ command: String, cases: [BenchCase]) throws(CLIError) {
    if !scenarios.isEmpty {
      throw .badInput(
        "--yardstick runs alternately with the standard r1-1t case, which --scenario replaces "
          + "(fix: drop --yardstick, or drop --scenario to run the standard cases)")
    }
    if !cases.contains(where: { $0.name == "r1-1t" }) {
      throw .badInput(
        "--yardstick runs alternately with the r1-1t case, which --cases \(casesFilter ?? "") leaves out "
          + "(fix: add r1-1t to --cases, or drop --yardstick)")
    }
    guard let program = command.split(separator: " ").first.map(String.init) else {
      throw .badInput("--yardstick needs a command, got an empty one (fix: pass --yardstick CMD)")
    }
    if !ChildProcess.canStart(program) {
      throw .badInput(
        "--yardstick \(command): \(program) is not an executable program "
          + "(fix: pass --yardstick with the path of the yardstick program, or a program on $PATH)")
    }
  }

  static func selfExecutable() -> String {
    (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
  }

  static func median(_ xs: [Double]) -> Double {
    let s = xs.sorted()
    if s.isEmpty { return 0 }
    return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
  }

  static func summarize(_ c: BenchCase, _ runs: [BenchMeasurement]) -> CaseResult {
    func pick(_ f: ([Double]) -> Double) -> Summary {
      var phases: [String: Double] = [:]
      for key in Set(runs.flatMap { $0.phases.keys }) { phases[key] = f(runs.compactMap { $0.phases[key] }) }
      return Summary(
        wallSeconds: f(runs.map(\.wallSeconds)), eventsPerSecond: f(runs.map(\.eventsPerSecond)),
        widgetDaysPerSecond: f(runs.map(\.widgetDaysPerSecond)),
        simulatedDaysPerSecond: f(runs.map(\.simulatedDaysPerSecond)), peakRSSBytes: f(runs.map(\.peakRSSBytes)),
        phases: phases)
    }
    return CaseResult(
      name: c.name, threads: c.kind == .scenario ? c.threads : 1, runs: runs, median: pick(median),
      min: pick { $0.min() ?? 0 }, max: pick { $0.max() ?? 0 })
  }

  static func table(_ o: Output) -> String {
    var rows: [[String]] = [
      [
        "case", "threads", "wall s (min-max)", "events/s", "widget-days/s", "sim-days/s", "peak RSS",
        "sim / merge / report s",
      ]
    ]
    for c in o.cases {
      let m = c.median
      let phases = ["simulation", "merge", "report"].compactMap { m.phases[$0] }
      rows.append([
        c.name, String(c.threads),
        String(format: "%.3f (%.3f-%.3f)", m.wallSeconds, c.min.wallSeconds, c.max.wallSeconds),
        NumberFormat.short(m.eventsPerSecond),
        m.widgetDaysPerSecond > 0 ? NumberFormat.short(m.widgetDaysPerSecond) : "-",
        m.simulatedDaysPerSecond > 0 ? String(format: "%.2f", m.simulatedDaysPerSecond) : "-",
        String(format: "%.0f MB", m.peakRSSBytes / 1e6),
        phases.isEmpty ? "-" : phases.map { String(format: "%.3f", $0) }.joined(separator: " / "),
      ])
    }
    var widths = [Int](repeating: 0, count: rows[0].count)
    for r in rows { for (i, cell) in r.enumerated() { widths[i] = Swift.max(widths[i], cell.count) } }
    var out =
      "ReloadBench \(o.version) bench: medians of \(NumberFormat.count(o.repetitions, "run")), each in a fresh "
      + "process\n"
    let machine = o.machine
    out +=
      "machine: \(machine["cpu"] ?? "?"); \(machine["cores"] ?? "?") cores; \(machine["memory_gb"] ?? "?") GB; "
      + "\(machine["os"] ?? "?"); \(machine["build"] ?? "?") build; internal checks "
      + "\(machine["internal_checks"] ?? "?")\n\n"
    for (n, r) in rows.enumerated() {
      var cells: [String] = []
      for (i, cell) in r.enumerated() {
        let pad = String(repeating: " ", count: widths[i] - cell.count)
        cells.append(i == 0 ? cell + pad : pad + cell)
      }
      out += cells.joined(separator: "  ") + "\n"
      if n == 0 { out += String(repeating: "-", count: widths.reduce(0, +) + 2 * (widths.count - 1)) + "\n" }
    }
    if let y = o.yardstick {
      out += String(
        format:
          "\nyardstick (%@): %@ widget-days/s median; ReloadBench r1-1t / yardstick = %.2f (median of %d pairs, "
          + "in-process), %.2f (whole process)\n",
        y.command, NumberFormat.short(median(y.widgetDaysPerSecond)), y.medianRatio, y.ratios.count,
        y.medianWholeProcessRatio)
    }
    out += "\nThroughput on shared machines is noisy: compare medians, not single runs.\n"
    return out
  }

  /// Compares throughput case by case with a stored run.
  static func compare(_ now: Output, _ base: Output, noisePct: Double) -> (String, Bool) {
    var out =
      "\nCompared with the baseline (\(base.version), \(base.machine["cpu"] ?? "?")): a case regresses when its "
      + "median throughput drops more than \(NumberFormat.short(noisePct)) %\n"
    if base.machine["cpu"] != now.machine["cpu"] {
      out += "warning: the baseline was measured on another CPU; differences may be the machine's\n"
    }
    var regressed = false
    out += "| case | baseline | now | change | verdict |\n|---|---|---|---|---|\n"
    for c in now.cases {
      guard let b = base.cases.first(where: { $0.name == c.name }) else { continue }
      let metric = { (s: Summary) in s.widgetDaysPerSecond > 0 ? s.widgetDaysPerSecond : s.eventsPerSecond }
      let old = metric(b.median)
      let new = metric(c.median)
      guard old > 0 else { continue }
      let change = 100 * (new - old) / old
      let verdict: String
      if change < -noisePct {
        verdict = "regressed"
        regressed = true
      } else if change > noisePct {
        verdict = "improved"
      } else {
        verdict = "within noise"
      }
      out +=
        "| \(c.name) | \(NumberFormat.short(old))/s | \(NumberFormat.short(new))/s | "
        + "\(String(format: "%+.1f %%", change)) | \(verdict) |\n"
    }
    return (out, regressed)
  }
}
