import Foundation
import ReloadEngine
import ReloadMetrics
import ReloadReports
import WidgetModel

/// `reloadbench run [SCENARIO ...]`: simulate and write reports.
enum RunCommand {
  static let options: [OptionSpec] = [
    OptionSpec("--out", "DIR", "Write reports to DIR (default Reports/<scenario name>; with several scenarios, DIR/<name>)."),
    OptionSpec("--seed", "N", "Override the scenario's seed."),
    OptionSpec("--threads", "N", "Worker threads (default: all cores). Results do not depend on it."),
    OptionSpec("--replications", "N", "Override the scenario's replications (2+ adds _ci95 columns)."),
    OptionSpec("--engine", "MODE", "Override the scenario's engine: elided or event_by_event."),
    OptionSpec("--quiet", nil, "Print nothing but errors."),
    OptionSpec("--reproducible", nil, "Leave wall-clock figures (timings, threads) out of report.html and results.json, so reruns give identical bytes."),
    OptionSpec("--dry-run", nil, "Check the scenarios and print what would run; simulate nothing."),
  ]

  static let help = """
    USAGE: reloadbench run [SCENARIO ...] [OPTIONS]

    Simulates each scenario file (default: Scenarios/default.json) and writes
    summary.csv, timeseries.csv, staleness.csv and report.html to Reports/<name>/.
    Prints a comparison table and findings on stdout; on a terminal, a progress
    line with simulated days per second on stderr. A scenario with a "sweep"
    block runs as 'reloadbench sweep' (sweep.csv, sweep.html).

    OPTIONS:
    \(ArgumentParser.describe(options))

    EXIT STATUS: 0 success; 2 bad input (scenario, flags, unwritable --out).
    """

  struct Settings {
    var out: String?
    var seed: UInt64?
    var threads: Int
    var replications: Int?
    var engine: EngineMode?
    var quiet: Bool
    var reproducible = false
  }

  static func settings(_ parsed: ParsedArguments, command: String) throws(CLIError) -> Settings {
    var engine: EngineMode? = nil
    if let e = parsed.value("--engine") {
      guard let mode = EngineMode(rawValue: e) else {
        throw .badInput("--engine expects elided or event_by_event, got '\(e)'")
      }
      engine = mode
    }
    let seed = try parsed.number("--seed", in: 0...9_007_199_254_740_991, command: command).map { UInt64($0) }
    return Settings(
      out: parsed.value("--out"), seed: seed,
      threads: try parsed.integer("--threads", in: 1...256, command: command) ?? ProcessInfo.processInfo.activeProcessorCount,
      replications: try parsed.integer("--replications", in: 1...100, command: command), engine: engine,
      quiet: parsed.has("--quiet"), reproducible: parsed.has("--reproducible"))
  }

  static func run(_ arguments: [String]) throws(CLIError) -> Int32 {
    let parsed = try ArgumentParser.parse(arguments, options: options, command: "run")
    if parsed.has("--help") {
      Terminal.out(help + "\n")
      return ExitStatus.success
    }
    let s = try settings(parsed, command: "run")
    let paths = parsed.positionals.isEmpty ? [ScenarioLoader.defaultPath] : parsed.positionals
    // Load and check every scenario before simulating any.
    var loaded: [LoadedScenario] = []
    for path in paths { loaded.append(try apply(s, to: ScenarioLoader.load(path))) }
    let dirs = loaded.map { outputDirectory(for: $0.scenario, settings: s, several: loaded.count > 1) }
    if Set(dirs).count < dirs.count {
      throw .badInput("two scenarios would write to the same folder (fix: give them different names)")
    }
    // A scenario with a sweep runs as `reloadbench sweep`; its points are
    // decoded and checked here, before anything runs.
    var sweeps: [[SweepPointPlan]?] = []
    for l in loaded {
      if l.sweep != nil {
        sweeps.append(try SweepCommand.plans(l, settings: s))
      } else {
        try MemoryEstimate.check(l.scenario)
        sweeps.append(nil)
      }
    }
    if parsed.has("--dry-run") {
      for (k, (l, dir)) in zip(loaded, dirs).enumerated() {
        let text = sweeps[k].map { SweepCommand.plan(l, $0, dir: dir, threads: s.threads) }
          ?? plan(l.scenario, dir: dir, threads: s.threads)
        Terminal.out(text + "\n")
      }
      return ExitStatus.success
    }
    for dir in dirs { try OutputWriter.prepare(dir) }
    if !s.quiet && Terminal.stderrIsTerminal, let warning = BuildWarning.text {
      Terminal.err(warning + "\n")
    }
    for (k, (l, dir)) in zip(loaded, dirs).enumerated() {
      if let plans = sweeps[k] {
        try SweepCommand.execute(l, plans, settings: s, dir: dir)
        continue
      }
      let report = simulate(l, settings: s)
      try write(report, to: dir, quiet: s.quiet)
    }
    return ExitStatus.success
  }

  static func apply(_ s: Settings, to loaded: LoadedScenario) -> LoadedScenario {
    var l = loaded
    apply(s, to: &l.scenario)
    return l
  }

  /// The command line's overrides (seed, replications, engine).
  static func apply(_ s: Settings, to scenario: inout Scenario) {
    if let seed = s.seed { scenario.seed = seed }
    if let r = s.replications { scenario.replications = r }
    if let e = s.engine { scenario.engine = e }
  }

  static func outputDirectory(for scenario: Scenario, settings: Settings, several: Bool) -> String {
    guard let out = settings.out else { return "Reports/\(scenario.name)" }
    return several ? (out as NSString).appendingPathComponent(scenario.name) : out
  }

  static func plan(_ scenario: Scenario, dir: String, threads: Int) -> String {
    let prepared = PreparedScenario(scenario)
    let sizes = zip(scenario.segments, prepared.segmentSizes).map { "\($0.name) \($1)" }.joined(separator: ", ")
    return """
      \(scenario.name): \(NumberFormat.trim(NumberFormat.fixed(scenario.days, decimals: 2))) days \
      (\(NumberFormat.trim(NumberFormat.fixed(scenario.warmupDays, decimals: 2))) warm-up), \(scenario.devices) devices \
      [\(sizes)], seed \(scenario.seed), \(scenario.replications) replication(s), engine \(scenario.engine.rawValue)
        strategies: \(scenario.strategies.map(\.name).joined(separator: ", "))
        threads: \(threads); reports to \(dir)/
      """
  }

  /// A finished run, rendered and ready to write.
  struct Report {
    let results: ScenarioResults
    let files: [(name: String, contents: String)]
    let outcome: RunOutcome
    let reportSeconds: Double
    let recommendation: Recommendation?
    /// The scenario's objective, in words (empty without one).
    var objectiveLines: [String] = []
  }

  /// The recommendation: the scenario's objective over its strategies when
  /// it has one, else the default rule (`Recommendation.compute`).
  static func recommend(_ table: ResultTable, objective: Objective?) -> (Recommendation?, [String]) {
    guard let objective else { return (Recommendation.compute(table), []) }
    let candidates = table.overallRows.map { ObjectiveCandidate(point: 0, policy: $0.policy, values: $0.values) }
    let outcome = objective.evaluate(candidates, columns: table.columns)
    let lines = ObjectiveSummary(outcome, columns: table.columns, points: 1) { _ in "" }.lines
    return (Recommendation.from(outcome, columns: table.columns), lines)
  }

  static func simulate(_ loaded: LoadedScenario, settings s: Settings) -> Report {
    let scenario = loaded.scenario
    let clock = ContinuousClock()
    let start = clock.now
    let progress = ProgressLine(label: scenario.name, enabled: !s.quiet && Terminal.stderrIsTerminal)
    let outcome = ExperimentRunner.run(scenario, threads: s.threads, progress: progress)
    let reportStart = clock.now
    var facts = RunFacts(
      scenario: scenario.name, description: scenario.description, toolVersion: ReloadBenchCLI.version,
      seed: scenario.seed, days: scenario.days, warmupDays: scenario.warmupDays, devices: scenario.devices,
      widgets: outcome.replications[0].first.map { $0.segments.reduce(0) { $0 + Int($1.widgets) } } ?? 0,
      fleetDevices: scenario.fleetDevices, replications: scenario.replications,
      strategies: scenario.strategies.map(\.name), segments: scenario.segments.map(\.name),
      toleranceMinutes: scenario.kinds.map(\.tolerance.minutes).min() ?? 30)
    facts.threads = s.threads
    facts.events = outcome.events
    var results = ResultsBuilder.build(
      scenario, replications: outcome.replications, facts: facts, parameters: ParameterListing.facts(loaded.json)
    ) { count, body in
      DispatchQueue.concurrentPerform(iterations: count, execute: body)
    }
    // The page shows the run's timings, so they are settled first; the
    // HTML's own rendering time is added to the report phase afterwards.
    let beforeHTML = clock.now
    results.facts.wallSeconds = ProgressLine.seconds(beforeHTML - start)
    results.facts.phaseSeconds = [
      "setup": outcome.setupSeconds, "simulation": outcome.simulationSeconds, "merge": outcome.mergeSeconds,
      "report": ProgressLine.seconds(beforeHTML - reportStart),
    ]
    if s.reproducible {
      // What the page shows must not depend on the machine or the moment.
      results.facts.wallSeconds = 0
      results.facts.phaseSeconds = [:]
      results.facts.threads = 0
    }
    let (recommendation, objectiveLines) = recommend(results.summary, objective: loaded.objective)
    let files = render(results, recommendation: recommendation)
    let end = clock.now
    results.facts.wallSeconds = ProgressLine.seconds(end - start)
    results.facts.phaseSeconds["report"] = ProgressLine.seconds(end - reportStart)
    return Report(
      results: results, files: files, outcome: outcome, reportSeconds: ProgressLine.seconds(end - reportStart),
      recommendation: recommendation, objectiveLines: objectiveLines)
  }

  /// The files `render` returns, in order (what `check` keeps its other
  /// outputs away from).
  static let reportFiles = ["summary.csv", "timeseries.csv", "staleness.csv", "report.html", "results.json"]

  /// Every file of a report, rendered on two threads: the CSV files on
  /// one, the JSON and the page that embeds it on the other (the outputs do
  /// not depend on which thread renders them).
  static func render(_ results: ScenarioResults, recommendation: Recommendation?) -> [(name: String, contents: String)] {
    let box = RenderBox()
    DispatchQueue.concurrentPerform(iterations: 2) { part in
      if part == 0 {
        box.set(
          0,
          [
            ("summary.csv", CSVReport.summary(results.summary)),
            ("timeseries.csv", CSVReport.timeseries(results)),
            ("staleness.csv", CSVReport.staleness(results)),
          ])
      } else {
        let json = HTMLReport.dataJSON(results)
        let page = HTMLReport.render(
          results, findings: Findings.compute(results), recommendation: recommendation, dataJSON: json)
        box.set(1, [("report.html", page), ("results.json", json + "\n")])
      }
    }
    let files = box.parts[0] + box.parts[1]
    assert(files.map(\.name) == reportFiles, "reportFiles is out of step with render")
    return files
  }

  final class RenderBox: @unchecked Sendable {
    private let lock = NSLock()
    private(set) var parts: [[(name: String, contents: String)]] = [[], []]
    func set(_ i: Int, _ files: [(name: String, contents: String)]) {
      lock.lock()
      parts[i] = files
      lock.unlock()
    }
  }

  static func write(_ report: Report, to dir: String, quiet: Bool) throws(CLIError) {
    try OutputWriter.write(report.files, to: dir)
    guard !quiet else { return }
    let f = report.results.facts
    var text = """
      \(f.scenario): \(NumberFormat.trim(NumberFormat.fixed(f.days - f.warmupDays, decimals: 2))) measured days, \
      \(f.devices) devices, \(f.widgets) widgets, \(f.strategies.count) strategies, seed \(f.seed)\
      \(f.replications > 1 ? ", \(f.replications) replications" : "")

      """
    text += TextTable.render(report.results.summary) + "\n"
    for sentence in Findings.compute(report.results) { text += "- " + sentence + "\n" }
    if let rec = report.recommendation {
      text += report.objectiveLines.isEmpty
        ? "\nRecommended: \(rec.strategy): \(rec.reason).\n"
        : "\nRecommended: \(rec.strategy), by the scenario's objective:\n" + report.objectiveLines.joined(separator: "\n") + "\n"
    }
    let names = report.files.map(\.name).joined(separator: ", ")
    text += "\nWrote \(dir)/{\(names)}\n"
    text += String(
      format: "Simulated %@ widget-days in %.2f s: %@ widget-days/s, %@ events/s (%d thread%@).\n",
      NumberFormat.short(f.simulatedWidgetDays), f.wallSeconds, NumberFormat.short(f.widgetDaysPerSecond),
      NumberFormat.short(f.eventsPerSecond), f.threads, f.threads == 1 ? "" : "s")
    let phases = ["setup", "simulation", "merge", "report"].map {
      String(format: "%@ %.3f s", $0, f.phaseSeconds[$0] ?? 0)
    }
    text += "Phases: " + phases.joined(separator: ", ") + ".\n"
    Terminal.out(text)
  }
}
