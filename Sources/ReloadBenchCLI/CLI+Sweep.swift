import Foundation
import ReloadMetrics
import ReloadReports
import WidgetModel

/// `reloadbench sweep SCENARIO`: run a scenario at every point of its
/// `sweep` grid and write `sweep.csv`, `sweep.html` and `sweep.json`.
///
/// Points run one after another, each on all threads (the runner spreads a
/// point's devices over them), so memory stays that of one run and the
/// results do not depend on the thread count. Every point uses the
/// scenario's seed: common random numbers across the grid.
struct SweepCommand: Command {
  static let configuration = CommandConfiguration(
    name: "sweep",
    abstract: "Run a scenario over its sweep grid; write sweep.csv + sweep.html + sweep.json and a recommendation.",
    usage: "SCENARIO [OPTIONS]",
    discussion: """
      Runs SCENARIO once per point of its "sweep" grid (every combination of the
      swept parameters' values, same seed for every point) and writes sweep.csv
      (one row per point x strategy x segment), sweep.html (metric against
      parameter charts, the freshness/cost frontier, a sensitivity table, the
      recommendation of the scenario's "objective" and each strategy's best point)
      and sweep.json (the results and the recommendation: strategy, point,
      margins, runner-up, best point per strategy, findings) to Reports/<name>/.
      Prints the recommendation on stdout. 'reloadbench run' on a scenario with a
      sweep does the same. See "Sweeps and objectives" in Scenarios/README.md.
      """,
    arguments: [("SCENARIO", "A scenario file with a \"sweep\" block.")],
    exitStatus:
      "0 success; 2 bad input (scenario, a swept value, flags, unwritable --out, an output that would replace an "
      + "input)."
  )

  static let options: [OptionSpec] =
    ScenarioOverrides.declarations + [
      OptionSpec("--dry-run", nil, "Check the scenario and every point, print the grid; simulate nothing.")
    ] + ShardSpec.declarations
  static let common: [CommonOptions.Key: String?] = [
    .out: "Write sweep.csv, sweep.html and sweep.json to DIR (default Reports/<scenario name>).",
    .threads: nil, .seed: "Override the scenario's seed (every point uses it).", .quiet: nil, .reproducible: nil,
  ]

  var path: String
  var pipeline: Pipeline
  var dryRun: Bool
  var positionals: Int

  init(_ parsed: ParsedArguments, strategies: StrategyRegistry) throws(CLIError) {
    positionals = parsed.positionals.count
    path = parsed.positionals.first ?? ""
    var overrides = try ScenarioOverrides(parsed, seed: nil, command: "sweep")
    let common = try CommonOptions(parsed, command: "sweep")
    overrides.seed = common.seed
    pipeline = Pipeline(options: common, overrides: overrides, strategies: strategies)
    pipeline.shard = try ShardSpec.parse(parsed, command: "sweep")
    dryRun = parsed.has("--dry-run")
  }

  func validate() throws(CLIError) {
    guard positionals == 1 else {
      throw .badInput("sweep takes one scenario file, got \(positionals) (see 'reloadbench sweep --help')")
    }
  }

  func run() throws(CLIError) -> Int32 {
    let loaded = try pipeline.load(path)
    guard loaded.sweep != nil else {
      throw .badInput(
        "\(path) has no \"sweep\" block (fix: add one, see \"Sweeps and objectives\" in Scenarios/README.md, "
          + "or use 'reloadbench run')")
    }
    // The same stages as `run` (which runs a sweep scenario the same way).
    guard let job = try RunCommand.jobs([loaded], pipeline).first, let points = job.points else {
      return ExitStatus.success
    }
    if dryRun {
      pipeline.warnAboutModelVersions([loaded])
      let shard = pipeline.shard.map { "\n" + Shards.plan(job, $0) } ?? ""
      Terminal.out(Self.plan(job.loaded, points, dir: job.directory, threads: pipeline.options.threads) + shard + "\n")
      return ExitStatus.success
    }
    try pipeline.prepare(job.directory, files: pipeline.outputFiles(sweep: true))
    pipeline.warnAboutModelVersions([loaded])
    if let shard = pipeline.shard {
      try Shards.run(job, shard, pipeline: pipeline)
      return ExitStatus.success
    }
    try Self.execute(job.loaded, points, pipeline: pipeline, dir: job.directory)
    return ExitStatus.success
  }

  static func plan(_ loaded: LoadedScenario, _ plans: [SweepPointPlan], dir: String, threads: Int) -> String {
    guard let spec = loaded.sweep else { return "" }
    var text = RunCommand.plan(loaded.scenario, dir: dir, threads: threads) + "\n"
    text +=
      "  sweep: \(NumberFormat.count(plans.count, "point")) (max_points \(spec.maxPoints)); writes sweep.csv, "
      + "sweep.html, sweep.json\n"
    for p in spec.parameters {
      text += "    \(p.name) (\(p.pathText)): \(p.values.map(SweepSpec.text).joined(separator: ", "))\n"
    }
    if let o = loaded.objective { text += "  objective: \(o.text)\n" }
    text += "  sweep \(MemoryEstimate.summary(plans.map(\.scenario), threads: threads))\n"
    return text.hasSuffix("\n") ? String(text.dropLast()) : text
  }

  /// Runs every point and writes the sweep's files. `merged`: each point's
  /// tallies from a sweep's shards (`reloadbench merge`), in place of
  /// simulating.
  static func execute(
    _ loaded: LoadedScenario, _ plans: [SweepPointPlan], pipeline: Pipeline, dir: String,
    merged: [RunOutcome]? = nil
  ) throws(CLIError) {
    let s = pipeline.options
    guard let spec = loaded.sweep else { return }
    let clock = ContinuousClock()
    let start = clock.now
    let base = loaded.scenario
    var facts = Pipeline.facts(base)
    // The seed and replications the points ran with.
    facts.seed = plans.first?.scenario.seed ?? base.seed
    facts.replications = plans.first?.scenario.replications ?? base.replications
    facts.threads = s.reproducible ? 0 : s.threads
    pipeline.warnAboutBuild()
    let header = merged == nil ? pipeline.announce(plans.map(\.scenario), name: base.name) : nil
    if !s.quiet {
      let sizes = spec.parameters.map { "\($0.name): \(NumberFormat.count($0.values.count, "value"))" }.joined(
        separator: ", ")
      Terminal.out(
        "\(base.name): sweep of \(NumberFormat.count(plans.count, "point")) (\(sizes)) x "
          + "\(NumberFormat.count(base.strategies.count, "strategy")), \(NumberFormat.count(base.devices, "device")), "
          + "seed \(facts.seed)\n")
    }
    var points: [SweepPoint] = []
    points.reserveCapacity(plans.count)
    for plan in plans {
      let pointStart = clock.now
      let label = "\(base.name) \(plan.index + 1)/\(plans.count)"
      let outcome = merged?[plan.index] ?? pipeline.simulate(plan.scenario, label: label, header: header)
      let results = ResultsBuilder.build(
        plan.scenario, replications: outcome.replications, facts: Pipeline.facts(plan.scenario, widgets: 0),
        parameters: [])
      facts.events &+= outcome.events
      let seconds = ProgressLine.seconds(clock.now - pointStart)
      points.append(
        SweepPoint(
          index: plan.index, valueIndices: plan.valueIndices, rows: results.summary.rows,
          wallSeconds: s.reproducible ? 0 : seconds))
      if !s.quiet {
        Terminal.out(
          String(
            format: "  point %d/%d: %@ (%.2f s)\n", plan.index + 1, plans.count, spec.describe(plan.valueIndices),
            seconds))
      }
    }
    var results = SweepResults(
      facts: facts, parameters: spec.resultParameters, points: points, objective: loaded.objective)
    let outcome = loaded.objective?.evaluate(results.candidates, columns: results.columns)
    results.recommendation = outcome.map { SweepRecommendation(results, outcome: $0) }
    results.facts.wallSeconds = s.reproducible ? 0 : ProgressLine.seconds(clock.now - start)
    let files: [(name: String, contents: String)] = [
      ("sweep.csv", CSVReport.sweep(results)),
      ("sweep.html", SweepReport.render(results, outcome: outcome)),
      ("sweep.json", JSON.text(results) + "\n"),
    ]
    assert(files.map(\.name) == Pipeline.sweepFiles, "sweepFiles is out of step with the sweep's files")
    try pipeline.write(files, to: dir)
    guard !s.quiet else { return }
    var text = "\n"
    if let outcome {
      let summary = ObjectiveSummary(sweep: results, outcome: outcome)
      text += summary.lines.joined(separator: "\n") + "\n"
    } else {
      text += "No objective in the scenario: add \"objective\" for a recommendation (see Scenarios/README.md).\n"
    }
    text += "\nWrote \(dir)/{sweep.csv, sweep.html, sweep.json}\n"
    let wall = ProgressLine.seconds(clock.now - start)
    text += String(
      format: "Swept %@ in %.2f s (%.2f s per point, %@).\n", NumberFormat.count(points.count, "point"), wall,
      wall / Double(max(1, points.count)), NumberFormat.count(s.threads, "thread"))
    Terminal.out(text)
  }
}
