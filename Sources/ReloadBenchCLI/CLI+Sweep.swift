import Foundation
import ReloadMetrics
import ReloadReports
import WidgetModel

/// `reloadbench sweep SCENARIO`: run a scenario at every point of its
/// `sweep` grid and write `sweep.csv` and `sweep.html`.
///
/// Points run one after another, each on all threads (the runner spreads a
/// point's devices over them), so memory stays that of one run and the
/// results do not depend on the thread count. Every point uses the
/// scenario's seed: common random numbers across the grid.
enum SweepCommand {
  static let options: [OptionSpec] = [
    OptionSpec("--out", "DIR", "Write sweep.csv and sweep.html to DIR (default Reports/<scenario name>)."),
    OptionSpec("--seed", "N", "Override the scenario's seed (every point uses it)."),
    OptionSpec("--threads", "N", "Worker threads (default: all cores). Results do not depend on it."),
    OptionSpec("--replications", "N", "Override the scenario's replications."),
    OptionSpec("--engine", "MODE", "Override the scenario's engine: elided or event_by_event."),
    OptionSpec("--quiet", nil, "Print nothing but errors."),
    OptionSpec("--dry-run", nil, "Check the scenario and every point, print the grid; simulate nothing."),
  ]

  static let help = """
    USAGE: reloadbench sweep SCENARIO [OPTIONS]

    Runs SCENARIO once per point of its "sweep" grid (every combination of the
    swept parameters' values, same seed for every point) and writes sweep.csv
    (one row per point x strategy x segment) and sweep.html (metric against
    parameter charts, the freshness/cost frontier, a sensitivity table, and the
    recommendation of the scenario's "objective") to Reports/<name>/. Prints the
    recommendation on stdout. 'reloadbench run' on a scenario with a sweep does
    the same. See "Sweeps and objectives" in Scenarios/README.md.

    OPTIONS:
    \(ArgumentParser.describe(options))

    EXIT STATUS: 0 success; 2 bad input (scenario, a swept value, flags, unwritable --out).
    """

  static func run(_ arguments: [String]) throws(CLIError) -> Int32 {
    let parsed = try ArgumentParser.parse(arguments, options: options, command: "sweep")
    if parsed.has("--help") {
      Terminal.out(help + "\n")
      return ExitStatus.success
    }
    guard parsed.positionals.count == 1, let path = parsed.positionals.first else {
      throw .badInput(
        "sweep takes one scenario file, got \(parsed.positionals.count) (see 'reloadbench sweep --help')")
    }
    let s = try RunCommand.settings(parsed, command: "sweep")
    let loaded = try ScenarioLoader.load(path)
    guard loaded.sweep != nil else {
      throw .badInput(
        "\(path) has no \"sweep\" block (fix: add one, see \"Sweeps and objectives\" in Scenarios/README.md, "
          + "or use 'reloadbench run')")
    }
    let dir = RunCommand.outputDirectory(for: loaded.scenario, settings: s, several: false)
    let plans = try self.plans(loaded, settings: s)
    if parsed.has("--dry-run") {
      Terminal.out(plan(loaded, plans, dir: dir, threads: s.threads) + "\n")
      return ExitStatus.success
    }
    try OutputWriter.prepare(dir)
    try execute(loaded, plans, settings: s, dir: dir)
    return ExitStatus.success
  }

  /// Every point's scenario, decoded and checked (bad input: exit 2).
  static func plans(_ loaded: LoadedScenario, settings s: RunCommand.Settings) throws(CLIError)
    -> [SweepPointPlan]
  {
    guard let spec = loaded.sweep else { return [] }
    var plans: [SweepPointPlan]
    do {
      plans = try spec.points(base: loaded.json)
    } catch {
      throw .badInput(error.line(file: loaded.path))
    }
    for i in plans.indices { RunCommand.apply(s, to: &plans[i].scenario) }
    for p in plans { try MemoryEstimate.check(p.scenario, threads: s.threads) }
    return plans
  }

  static func plan(_ loaded: LoadedScenario, _ plans: [SweepPointPlan], dir: String, threads: Int) -> String {
    guard let spec = loaded.sweep else { return "" }
    var text = RunCommand.plan(loaded.scenario, dir: dir, threads: threads) + "\n"
    text += "  sweep: \(plans.count) point\(plans.count == 1 ? "" : "s") (max_points \(spec.maxPoints)); writes sweep.csv, sweep.html\n"
    for p in spec.parameters {
      text += "    \(p.name) (\(p.pathText)): \(p.values.map(SweepSpec.text).joined(separator: ", "))\n"
    }
    if let o = loaded.objective { text += "  objective: \(o.text)\n" }
    return text.hasSuffix("\n") ? String(text.dropLast()) : text
  }

  /// Runs every point and writes the sweep's files.
  static func execute(
    _ loaded: LoadedScenario, _ plans: [SweepPointPlan], settings s: RunCommand.Settings, dir: String
  ) throws(CLIError) {
    guard let spec = loaded.sweep else { return }
    let clock = ContinuousClock()
    let start = clock.now
    let base = loaded.scenario
    var facts = SweepFacts(
      scenario: base.name, description: base.description, toolVersion: ReloadBenchCLI.version,
      seed: plans.first?.scenario.seed ?? base.seed, days: base.days, warmupDays: base.warmupDays,
      devices: base.devices, replications: plans.first?.scenario.replications ?? base.replications,
      strategies: base.strategies.map(\.name), segments: base.segments.map(\.name))
    facts.threads = s.reproducible ? 0 : s.threads
    if !s.quiet && Terminal.stderrIsTerminal, let warning = BuildWarning.text {
      Terminal.err(warning + "\n")
    }
    if !s.quiet {
      let sizes = spec.parameters.map { "\($0.name): \($0.values.count) values" }.joined(separator: ", ")
      Terminal.out(
        "\(base.name): sweep of \(plans.count) point\(plans.count == 1 ? "" : "s") (\(sizes)) x "
          + "\(base.strategies.count) strategies, \(base.devices) devices, seed \(facts.seed)\n")
    }
    var points: [SweepPoint] = []
    points.reserveCapacity(plans.count)
    for plan in plans {
      let pointStart = clock.now
      let label = "\(base.name) \(plan.index + 1)/\(plans.count)"
      let progress = ProgressLine(label: label, enabled: !s.quiet && Terminal.stderrIsTerminal)
      let outcome = ExperimentRunner.run(plan.scenario, threads: s.threads, progress: progress)
      let scenario = plan.scenario
      let runFacts = RunFacts(
        scenario: scenario.name, description: scenario.description, toolVersion: ReloadBenchCLI.version,
        seed: scenario.seed, days: scenario.days, warmupDays: scenario.warmupDays, devices: scenario.devices,
        widgets: 0, fleetDevices: scenario.fleetDevices, replications: scenario.replications,
        strategies: scenario.strategies.map(\.name), segments: scenario.segments.map(\.name),
        toleranceMinutes: scenario.kinds.map(\.tolerance.minutes).min() ?? 30)
      let results = ResultsBuilder.build(
        scenario, replications: outcome.replications, facts: runFacts, parameters: [])
      facts.events &+= outcome.events
      let seconds = ProgressLine.seconds(clock.now - pointStart)
      points.append(
        SweepPoint(
          index: plan.index, valueIndices: plan.valueIndices, rows: results.summary.rows,
          wallSeconds: s.reproducible ? 0 : seconds))
      if !s.quiet {
        Terminal.out(
          String(format: "  point %d/%d: %@ (%.2f s)\n", plan.index + 1, plans.count, spec.describe(plan.valueIndices), seconds))
      }
    }
    var results = SweepResults(
      facts: facts, parameters: spec.resultParameters, points: points, objective: loaded.objective)
    let outcome = loaded.objective?.evaluate(results.candidates, columns: results.columns)
    results.facts.wallSeconds = s.reproducible ? 0 : ProgressLine.seconds(clock.now - start)
    let files: [(name: String, contents: String)] = [
      ("sweep.csv", CSVReport.sweep(results)),
      ("sweep.html", SweepReport.render(results, outcome: outcome)),
    ]
    try OutputWriter.write(files, to: dir)
    guard !s.quiet else { return }
    var text = "\n"
    if let outcome {
      let summary = ObjectiveSummary(outcome, columns: results.columns, points: points.count) {
        results.describe($0, in: outcome)
      }
      text += summary.lines.joined(separator: "\n") + "\n"
    } else {
      text += "No objective in the scenario: add \"objective\" for a recommendation (see Scenarios/README.md).\n"
    }
    text += "\nWrote \(dir)/{sweep.csv, sweep.html}\n"
    let wall = ProgressLine.seconds(clock.now - start)
    text += String(
      format: "Swept %d points in %.2f s (%.2f s per point, %d thread%@).\n", points.count, wall,
      wall / Double(max(1, points.count)), s.threads, s.threads == 1 ? "" : "s")
    Terminal.out(text)
  }
}
