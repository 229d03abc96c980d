import Foundation
import ReloadReports

/// `reloadbench baseline save SCENARIO ...`: run scenarios and store their
/// summaries for `reloadbench check`.
enum BaselineCommand {
  static let abstract = "Save a scenario's summary as the baseline that 'check' compares with."

  /// `baseline` has one subcommand, `save`; its help is the group's.
  static func main(_ arguments: [String], strategies: StrategyRegistry) throws(CLIError) -> Int32 {
    guard let sub = arguments.first else {
      throw .badInput(
        "baseline needs a subcommand: reloadbench baseline save SCENARIO (see 'reloadbench baseline --help')")
    }
    if sub == "--help" || sub == "-h" || sub == "help" {
      Terminal.out(BaselineSaveCommand.help + "\n")
      return ExitStatus.success
    }
    guard sub == "save" else {
      let hint = SchemaValidator.nearest(sub, in: ["save"]).map { " (did you mean '\($0)'?)" } ?? ""
      throw .badInput("unknown baseline subcommand '\(sub)'\(hint); see 'reloadbench baseline --help'")
    }
    return try BaselineSaveCommand.main(Array(arguments.dropFirst()), strategies: strategies)
  }
}

/// `reloadbench baseline save SCENARIO ... [--to FILE]`.
struct BaselineSaveCommand: Command {
  static let configuration = CommandConfiguration(
    name: "baseline save",
    abstract: BaselineCommand.abstract,
    usage: "SCENARIO ... [--to FILE] [OPTIONS]",
    discussion: """
      Runs each scenario and saves its summary as the baseline 'reloadbench check'
      compares with: every row and column of summary.csv at full precision (with the
      _ci95 half-widths when the scenario has replications), in
      Scenarios/baselines/<name>.json or FILE. The file records the scenario's content
      hash (sha256 of its canonical JSON without "$schema", "description", "expect",
      "check", "objective" and "model_version", which change no result), the tool version
      and the model version it was saved under, and the scenario as hashed. Check compares
      an edited scenario with it by strategy, segment and metric name, naming the fields
      that changed; it refuses it once the model version has changed (a new tool version
      with the same model version is accepted). A re-save prints what moved against the
      file it replaces.

      The run uses the scenario's own seed, replications and engine (--seed,
      --replications and --engine are refused): check reruns it exactly as saved.
      After an intended change, re-save and commit the baselines, e.g.

        reloadbench baseline save Scenarios/golden/*.json Scenarios/example.json
      """,
    arguments: [("SCENARIO", "A scenario file to run and save the baseline of.")],
    notes: """
      The baseline never replaces a scenario file (nor any file that is not a
      baseline), and --to needs a file path ('-', stdout, is not supported).
      """,
    exitStatus: "0 saved; 2 bad input (scenario, flags, unwritable path, a --to that names a scenario).")

  static let options: [OptionSpec] = [
    OptionSpec(
      "--to", "FILE", "Write the baseline to FILE (default Scenarios/baselines/<name>.json; one scenario only).")
  ]
  static let common: [CommonOptions.Key: String?] = [.threads: nil, .quiet: nil]

  var paths: [String]
  var to: String?
  var pipeline: Pipeline

  static func refuseBeforeParsing(_ arguments: [String]) throws(CLIError) {
    try CheckCommand.refuseOverrides(arguments, command: "baseline save")
  }

  init(_ parsed: ParsedArguments, strategies: StrategyRegistry) throws(CLIError) {
    paths = parsed.positionals
    to = parsed.value("--to")
    pipeline = Pipeline(options: CommonOptions(), strategies: strategies)
    guard !paths.isEmpty, !(to != nil && paths.count > 1), to != "-" else { return }
    pipeline = Pipeline(options: try CommonOptions(parsed, command: "baseline"), strategies: strategies)
  }

  func validate() throws(CLIError) {
    guard !paths.isEmpty else {
      throw .badInput(
        "baseline save needs a scenario file: reloadbench baseline save SCENARIO ... (see 'reloadbench baseline "
          + "--help')"
      )
    }
    if to != nil && paths.count > 1 {
      throw .badInput(
        "--to names one file, but \(paths.count) scenarios were given (fix: drop --to; each goes to "
          + "Scenarios/baselines/<name>.json)"
      )
    }
    if to == "-" {
      throw .badInput("--to needs a file path; '-' (stdout) is not supported for baselines (fix: pass --to FILE)")
    }
  }

  func run() throws(CLIError) -> Int32 {
    var loaded: [LoadedScenario] = []
    for path in paths { loaded.append(try pipeline.load(path)) }
    let targets = loaded.map { to ?? Baseline.defaultPath(for: $0.scenario.name) }
    if Set(targets).count < targets.count {
      throw .badInput("two scenarios would save to the same baseline file (fix: give them different names)")
    }
    // A baseline must not replace a scenario, another baseline being
    // written, or any file that is not a baseline.
    var uses: [Pipeline.PathUse] = loaded.map { .read($0.path, as: "the scenario") }
    let replaceable = Pipeline.Replaceable.format(Baseline.formatName, what: "baseline")
    for t in targets {
      if to != nil {
        uses.append(.file(t, as: "--to", onlyReplacing: replaceable))
      } else {
        uses.append(
          .file(
            t, as: "the baseline file",
            fix: "pass --to with another file, or keep scenario files out of Scenarios/baselines/",
            onlyReplacing: replaceable))
      }
    }
    try pipeline.validate(paths: uses)
    for l in loaded { try pipeline.validateMemory(l.scenario) }
    for t in targets { try pipeline.prepare(PathText.folder(of: t), files: [PathText.name(t)], option: "--to") }
    pipeline.warnAboutModelVersions(loaded)
    let quiet = pipeline.options.quiet
    for (l, target) in zip(loaded, targets) {
      let header = pipeline.announce([l.scenario], name: l.scenario.name)
      let clock = ContinuousClock()
      let start = clock.now
      // Stages 4 to 6; the baseline is the render stage's only file.
      let outcome = pipeline.simulate(l.scenario, header: header)
      let built = pipeline.buildResults(l, outcome, parameters: [])
      let baseline = Baseline(l, summary: built.results.summary)
      let previous = Self.previous(at: target, of: l)
      try pipeline.write(file: target, baseline.rendered())
      if !quiet, let previous {
        // What the re-save moves, for the reviewer of the diff (the file keeps full precision for check).
        let (comparisons, notes) = built.results.summary.compared(with: previous.table) {
          l.checkSpec.tolerance(for: $0, flagPct: nil)
        }
        var text = "\(target) against the baseline it replaces: " + CheckReport.movedTable(comparisons)
        if let change = previous.scenarioSHA256 == baseline.scenarioSHA256
          ? nil : CheckCommand.scenarioChange(previous, now: l.json, hash: baseline.scenarioSHA256)
        {
          text += "\n" + change + "\n"
        }
        for note in notes { text += "- \(note)\n" }
        Terminal.out(text + "\n")
      }
      if !quiet {
        Terminal.out(
          "saved \(target): \(l.scenario.name), \(NumberFormat.count(baseline.rows.count, "row")) x "
            + "\(NumberFormat.count(baseline.columns.count, "metric")), "
            + "sha256 \(baseline.scenarioSHA256.prefix(12)), model \(baseline.modelVersion) "
            + String(format: "(%.2f s)\n", ProgressLine.seconds(clock.now - start)))
      }
    }
    return ExitStatus.success
  }

  /// The baseline a save replaces, when the file holds one of the same
  /// scenario and model version (anything else is not compared).
  static func previous(at path: String, of l: LoadedScenario) -> Baseline? {
    guard FileManager.default.fileExists(atPath: path),
      let b = try? Baseline.load(path, save: ""), b.scenario == l.scenario.name,
      b.modelVersion == ReloadBenchCLI.modelVersion
    else { return nil }
    return b
  }
}
