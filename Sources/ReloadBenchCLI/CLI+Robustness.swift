import Foundation
import ReloadMetrics
import ReloadReports
import WidgetModel

/// `reloadbench robustness SCENARIO`: the scenario under every named
/// alternative of every assumption and the whole-model profiles, on the
/// same users and random streams; writes robustness.csv, robustness.json
/// and robustness.html.
struct RobustnessCommand: Command {
  static let configuration = CommandConfiguration(
    name: "robustness",
    abstract: "Run a scenario under every assumption's alternatives; say whether its recommendation holds.",
    usage: "SCENARIO [OPTIONS]",
    discussion: """
      Runs SCENARIO under each named alternative of each of the model's assumptions
      (one at a time, laid over the scenario's own model: 'reloadbench list
      --assumptions' lists them) and under the whole-model profiles, with the
      scenario's seed: the same users and random streams, only the model differs.
      Writes robustness.csv (one row per assumption x alternative x strategy x
      headline metric: value, base, difference), robustness.json (per metric and
      strategy the range across the alternatives and the assumption that moves it
      most; whether the recommendation is the same under every alternative, else
      where it changes and to what) and robustness.html (a tornado chart per
      headline metric and the sentence to quote) to Reports/<name>/. A scenario
      with Live Activities also gets its activity strategies under every reading:
      their figures' ranges and whether the best activity strategy holds. The
      scenario's "robustness" block chooses the assumptions and a device sample.
      See "Robustness" in Scenarios/README.md.
      """,
    arguments: [("SCENARIO", "A scenario file (without a \"sweep\" block).")],
    exitStatus: "0 success; 2 bad input (scenario, flags, unwritable --out, an output that would replace an input).")

  static let options: [OptionSpec] =
    ScenarioOverrides.declarations + [
      OptionSpec(
        "--dry-run", nil, "Check the scenario and print the readings and what each simulates; simulate nothing."),
      OptionSpec(
        "--calibration", "FILE",
        "Skip the alternatives a calibration.json ('reloadbench calibrate') rules out for your devices."),
    ]
  static let common: [CommonOptions.Key: String?] = [
    .out: "Write robustness.csv, robustness.json and robustness.html to DIR (default Reports/<scenario name>).",
    .threads: nil, .seed: "Override the scenario's seed (every variant uses it).", .quiet: nil, .reproducible: nil,
  ]

  /// The files the command writes, in order.
  static let files = ["robustness.csv", "robustness.json", "robustness.html"]

  var path: String
  var pipeline: Pipeline
  var positionals: Int
  var dryRun: Bool
  var calibration: String?

  init(_ parsed: ParsedArguments, strategies: StrategyRegistry) throws(CLIError) {
    positionals = parsed.positionals.count
    path = parsed.positionals.first ?? ""
    var overrides = try ScenarioOverrides(parsed, seed: nil, command: "robustness")
    let common = try CommonOptions(parsed, command: "robustness")
    overrides.seed = common.seed
    pipeline = Pipeline(options: common, overrides: overrides, strategies: strategies)
    dryRun = parsed.has("--dry-run")
    calibration = parsed.value("--calibration")
  }

  func validate() throws(CLIError) {
    guard positionals == 1 else {
      throw .badInput(
        "robustness takes one scenario file, got \(positionals) (see 'reloadbench robustness --help')")
    }
  }

  func run() throws(CLIError) -> Int32 {
    let loaded = try pipeline.load(path)
    guard loaded.sweep == nil else {
      throw .badInput(
        "\(path) has a \"sweep\" block: robustness runs one scenario (fix: remove the sweep, or run each point's "
          + "values as a scenario of its own)")
    }
    let dir = pipeline.reportDirectory(for: loaded.scenario, several: false)
    try pipeline.validate(paths: [
      .read(loaded.path, as: "the scenario"),
      .folder(
        dir, as: pipeline.options.out == nil ? "the report folder" : "the --out folder", files: Self.files,
        fix: "pass --out with another folder"),
    ])
    var spec = loaded.robustness ?? RobustnessSpec()
    if let calibration { spec.ruledOut = try Self.ruledOut(calibration) }
    try pipeline.validateMemory(RobustnessRunner.sampled(loaded.scenario, spec))
    if dryRun {
      Terminal.out(Self.plan(loaded, spec, dir: dir))
      return ExitStatus.success
    }
    try pipeline.prepare(dir, files: Self.files)
    pipeline.warnAboutBuild()
    let s = pipeline.options
    let clock = ContinuousClock()
    let start = clock.now
    if !s.quiet {
      let variants = spec.variants(of: loaded.scenario).count
      Terminal.out(
        "\(loaded.scenario.name): \(NumberFormat.count(variants, "reading")) of the model x "
          + "\(NumberFormat.count(loaded.scenario.strategies.count, "strategy")), "
          + "\(NumberFormat.count(RobustnessRunner.sampled(loaded.scenario, spec).devices, "device")), "
          + "seed \(loaded.scenario.seed)\n")
    }
    let results = RobustnessRunner.run(loaded, spec: spec, threads: s.threads, quiet: s.quiet)
    let verdict = RobustnessRunner.verdict(results, objective: loaded.objective)
    let files = Self.render(results, verdict: verdict, objective: loaded.objective)
    try pipeline.write(files, to: dir)
    guard !s.quiet else { return ExitStatus.success }
    var text = "\n" + RunCommand.wrapped(verdict.sentence)
    text += "\nWrote \(dir)/{\(Self.files.joined(separator: ", "))}\n"
    text += String(
      format: "Compared %@ in %.2f s (%@).\n", NumberFormat.count(results.variants.count + 1, "reading"),
      ProgressLine.seconds(clock.now - start), NumberFormat.count(s.threads, "thread"))
    Terminal.out(text)
    return ExitStatus.success
  }

  /// The alternatives calibration.json at `path` rules out, as
  /// `ModelVariant` names them (`budget_accrual = sliding_window`): its
  /// "assumptions" block (Scenarios/log-format.md#the-budget-from-ordinary-logs).
  /// The model's own reading (`default`) always runs, as the base.
  static func ruledOut(_ path: String) throws(CLIError) -> Set<String> {
    let fix = "(fix: pass the calibration.json 'reloadbench calibrate' wrote)"
    guard let data = FileManager.default.contents(atPath: path) else {
      throw .badInput("--calibration \(path): cannot read it \(fix)")
    }
    guard let doc = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
      doc["format"] as? String == "reloadbench-calibration"
    else {
      throw .badInput("--calibration \(path): not a calibration.json \(fix)")
    }
    guard let verdicts = doc["assumptions"] as? [[String: Any]] else {
      throw .badInput("--calibration \(path): no \"assumptions\" block (fix: calibrate again with this version)")
    }
    var out = Set<String>()
    for (i, v) in verdicts.enumerated() {
      guard let key = v["assumption"] as? String, let assumption = Assumption(key: key),
        let names = v["ruled_out"] as? [String]
      else {
        throw .badInput("--calibration \(path): $.assumptions[\(i)] is not an assumption's verdict \(fix)")
      }
      for name in names where assumption.alternatives.contains(where: { $0.name == name }) {
        out.insert("\(assumption.key) = \(name)")
      }
    }
    return out
  }

  /// What a run would do: each reading and the strategies it simulates again.
  static func plan(_ loaded: LoadedScenario, _ spec: RobustnessSpec, dir: String) -> String {
    let scenario = RobustnessRunner.sampled(loaded.scenario, spec)
    let variants = spec.variants(of: loaded.scenario)
    let jobs = RobustnessRunner.jobs(scenario, variants, baseGiven: false)
    let names = scenario.strategies.map(\.name)
    let runs = jobs.reduce(0) { $0 + $1.strategies.count }
    var text =
      "\(loaded.scenario.name): \(NumberFormat.count(variants.count, "reading")) of the model besides its own, "
      + "\(NumberFormat.count(scenario.devices, "device")) of \(NumberFormat.grouped(loaded.scenario.devices)), "
      + "seed \(scenario.seed); \(runs) of \((variants.count + 1) * names.count) strategy runs simulated; "
      + "reports to \(dir)/\n"
    if !spec.ruledOut.isEmpty {
      text += "  not run, ruled out by the calibration: \(spec.ruledOut.sorted().joined(separator: ", "))\n"
    }
    for (i, v) in variants.enumerated() {
      let simulated = jobs.first { $0.variant == i }?.strategies.map { names[$0] } ?? []
      text += "  \(v.name): " + (simulated.isEmpty ? "the base's results" : simulated.joined(separator: ", ")) + "\n"
    }
    return text
  }

  /// The three files' text.
  static func render(
    _ r: RobustnessResults, verdict: RobustnessVerdict, objective: Objective?
  ) -> [(name: String, contents: String)] {
    let json = RobustnessReport.json(r, verdict: verdict, objective: objective, toolVersion: ReloadBenchCLI.version)
    let files = [
      ("robustness.csv", CSVReport.robustness(r)),
      ("robustness.json", json.text(.document) + "\n"),
      (
        "robustness.html", RobustnessPage(r, verdict: verdict, toolVersion: ReloadBenchCLI.version, data: json).render()
      ),
    ]
    assert(files.map(\.0) == Self.files, "files is out of step with render")
    return files
  }
}
