import Foundation
import ReloadMetrics
import ReloadReports

/// `reloadbench check SCENARIO ...`: rerun scenarios, check their
/// expectations, compare every metric with a saved baseline, and report
/// in Markdown, JUnit XML and JSON, with an exit status CI can gate on.
struct CheckCommand: Command {
  static let configuration = CommandConfiguration(
    name: "check",
    abstract: "Rerun scenarios; check their expectations and compare with baselines (for CI).",
    usage: "SCENARIO ... [OPTIONS]",
    discussion: """
      Reruns each scenario (writing its usual reports to Reports/<name>/), checks the
      scenario's "expect" bounds, and compares every metric of every strategy and
      segment with the scenario's baseline (Scenarios/baselines/<name>.json, written by
      'reloadbench baseline save'). Prints a Markdown report on stdout, failures first;
      appends it to the file named by $GITHUB_STEP_SUMMARY when that is set.

      A metric has regressed when it moved in its worse direction (higher staleness,
      lower fresh %, more reloads ...) by more than both its relative and its absolute
      tolerance; improved likewise in its better direction; neutral metrics (counts of
      devices, free reloads ...) only report "changed". Tolerances, most specific first:
      the scenario's "check.metrics", --tolerance, "check.tolerance_pct", the defaults
      per unit (0.5 points for %, 2 % for rates, minutes and counts, 5 % for requests/s;
      table in Reports/README.md). Runs are deterministic: under the same seed any move
      is real. With replications of 2 or more, a headline metric must also move beyond
      the 95 % confidence interval of the difference.

      Each scenario runs with its own seed, replications and engine; --seed,
      --replications and --engine are refused, since another seed would compare
      different random draws. A baseline of another scenario or of another model version
      is refused (re-save it with 'reloadbench baseline save'), and so is one whose seed,
      replications or engine do not match the scenario, or, for an unedited scenario,
      whose rows (one per strategy and segment, and "all") do not. An edited scenario
      (a strategy changed, devices added) is compared by strategy, segment and metric
      name, with a line naming the fields that changed. A baseline saved by another
      reloadbench version with the same model version is accepted (a note says so).
      Without a baseline file, only the expectations are checked.

      A scenario's "evidence" states what a real app's users reported for one of its
      strategies (exhausted, stale or fine); check scores each claim with one rule for
      every app (Scenarios/README.md, "Evidence") and prints how many agree. A
      disagreement fails the check only below --min-agreement:
        reloadbench check Scenarios/evidence/*.json --min-agreement 16
      """,
    arguments: [("SCENARIO", "A scenario file to rerun and check.")],
    notes: "Engine speed is checked separately: reloadbench bench --baseline FILE --noise PCT.",
    exitStatus: """
        0  every expectation holds, no metric regressed, and at least --min-agreement
           evidence claims agree
        1  an expectation failed or a metric regressed (with --fail-on-change: moved),
           or fewer evidence claims agree than --min-agreement asks
        2  bad input: scenario, baseline (missing --baseline file, corrupt, of another
           scenario or model version), flags, or an unwritable path or an output that
           names an input or another output; nothing is checked
      """)

  static let options: [OptionSpec] = [
    OptionSpec("--baseline", "FILE", "Compare with FILE (default Scenarios/baselines/<name>.json; one scenario only)."),
    OptionSpec(
      "--baselines", "DIR",
      "Each scenario's baseline is DIR/<name>.json (<name>: the scenario's \"name\", as 'baseline save' names it)."),
    OptionSpec(
      "--results", "PATH",
      "Check a finished run instead of rerunning: PATH is its folder or results.json (a merged shard run's, from "
        + "'reloadbench merge'); one scenario only, and the run must be of it (name, seed, replications)."),
    OptionSpec(
      "--skip-unchecked", nil,
      "Skip, with a note, a scenario that has no baseline and no expectations instead of refusing it (for a glob "
        + "over a folder, as the GitHub Action's default)."),
    OptionSpec(
      "--tolerance", "PCT",
      "Relative tolerance for every metric instead of the defaults per unit; 0: any change counts. The scenario's "
        + "per-metric \"check\" tolerances still win."
    ),
    OptionSpec(
      "--min-agreement", "N", "Fail (exit 1) when fewer than N of the scenarios' evidence claims agree with the runs."),
    OptionSpec(
      "--fail-on-change", nil,
      "Fail on any metric that moved beyond its tolerance, improved and neutral ones too (for a model's own CI)."),
    OptionSpec("--markdown", "FILE", "Write the Markdown report to FILE instead of stdout ('-': stdout)."),
    OptionSpec(
      "--junit", "FILE", "Also write JUnit XML: one test case per expectation and per compared metric ('-': stdout)."),
    OptionSpec("--json", "FILE", "Also write the check as JSON, every compared metric included ('-': stdout)."),
    OptionSpec(
      "--profile", "NAME",
      "Check the evidence and expectations under this model profile (docs/model.md#model-profiles), the files' "
        + "own model fields over it; baselines, saved under the files' own model, are not compared."),
  ]
  static let common: [CommonOptions.Key: String?] = [
    .out: "Write the usual reports to DIR (default Reports/<name>; with several scenarios, DIR/<name>).",
    .threads: nil,
    .quiet: "Print nothing on stdout unless asked with '-' (files and $GITHUB_STEP_SUMMARY are still written).",
    .reproducible: nil,
  ]

  var paths: [String]
  var pipeline: Pipeline
  var baselineFlag: String?
  /// `--baselines DIR`: where each scenario's `<name>.json` baseline is.
  var baselineFolder: String?
  var skipUnchecked: Bool
  /// `--results PATH`: a finished run's results, checked instead of a rerun.
  var resultsPath: String?
  var flagPct: Double?
  var failOnChange: Bool
  /// `--min-agreement`: how many evidence claims must agree.
  var minAgreement: Int?
  /// `--markdown`, `--junit`, `--json` and their targets.
  var outputs: [String: String]

  static func main(_ arguments: [String], strategies: StrategyRegistry) throws(CLIError) -> Int32 {
    do {
      return try parseAndRun(arguments, strategies: strategies)
    } catch {
      // In CI the job summary is where people look: say why nothing was checked.
      if error.exitCode == ExitStatus.badInput {
        appendStepSummary("## ReloadBench check: ⚠️ not run (exit status 2)\n\n```\nerror: \(error.message)\n```\n")
      }
      throw error
    }
  }

  static func refuseBeforeParsing(_ arguments: [String]) throws(CLIError) {
    try refuseOverrides(arguments, command: "check")
  }

  init(_ parsed: ParsedArguments, strategies: StrategyRegistry) throws(CLIError) {
    paths = parsed.positionals
    baselineFlag = parsed.value("--baseline")
    baselineFolder = parsed.value("--baselines")
    skipUnchecked = parsed.has("--skip-unchecked")
    resultsPath = parsed.value("--results")
    failOnChange = parsed.has("--fail-on-change")
    var o: [String: String] = [:]
    for flag in ["--markdown", "--junit", "--json"] { o[flag] = parsed.value(flag) }
    outputs = o
    flagPct = nil
    minAgreement = nil
    pipeline = Pipeline(options: CommonOptions(), strategies: strategies)
    guard !paths.isEmpty else { return }
    if baselineFlag != nil && paths.count > 1 { return }
    flagPct = try parsed.number("--tolerance", in: 0...1000, command: "check")
    minAgreement = try parsed.integer("--min-agreement", in: 0...100_000, command: "check")
    var overrides = ScenarioOverrides()
    overrides.profile = try ScenarioOverrides.profile(parsed)
    pipeline = Pipeline(
      options: try CommonOptions(parsed, command: "check"), overrides: overrides, strategies: strategies)
  }

  func validate() throws(CLIError) {
    guard !paths.isEmpty else {
      throw .badInput("check needs a scenario file: reloadbench check SCENARIO ... (see 'reloadbench check --help')")
    }
    if baselineFlag != nil && paths.count > 1 {
      throw .badInput(
        "--baseline names one file, but \(paths.count) scenarios were given "
          + "(fix: drop --baseline; each scenario uses Scenarios/baselines/<name>.json, or --baselines DIR)")
    }
    if resultsPath != nil && paths.count > 1 {
      throw .badInput(
        "--results names one run, but \(paths.count) scenarios were given (fix: check each merged run on its own)")
    }
    if baselineFlag != nil && baselineFolder != nil {
      throw .badInput("--baseline and --baselines both name baselines (fix: keep one)")
    }
  }

  /// Options of `run` that would make a rerun differ from its baseline.
  static let refused: [(option: String, key: String, why: String)] = [
    ("--seed", "seed", "another seed would compare different random draws"),
    ("--replications", "replications", "other replications would compare other runs"),
    ("--engine", "engine", "the engine is part of what was saved"),
  ]

  /// Refuses `--seed`, `--replications` and `--engine` with the reason,
  /// before the generic "unknown option".
  static func refuseOverrides(_ arguments: [String], command: String) throws(CLIError) {
    for arg in arguments {
      if arg == "--" { break }
      let name = arg.split(separator: "=", maxSplits: 1).first.map(String.init) ?? arg
      guard let r = refused.first(where: { $0.option == name }) else { continue }
      throw .badInput(
        "\(command) does not take \(name): check reruns each scenario exactly as its baseline was saved, and \(r.why) "
          + "(fix: change \"\(r.key)\" in the scenario file, then re-save its baseline with 'reloadbench baseline "
          + "save')"
      )
    }
  }

  /// One scenario to check, with everything read and validated up front.
  struct Plan {
    let loaded: LoadedScenario
    let baselinePath: String
    let baseline: Baseline?
    /// How the scenario changed since its baseline (nil: it did not).
    let scenarioChange: String?
    let reportDirectory: String
  }

  func run() throws(CLIError) -> Int32 {
    // Read and validate every scenario and baseline before running anything.
    var plans: [Plan] = []
    var skipped: [String] = []
    let several = paths.count > 1
    for path in paths {
      let loaded = try pipeline.load(path)
      let explicit =
        baselineFlag
        ?? baselineFolder.map {
          ($0 as NSString).appendingPathComponent(
            "\(loaded.scenario.name).json")
        }
      let baselinePath = explicit ?? Baseline.defaultPath(for: loaded.scenario.name)
      let resave = "reloadbench baseline save \(path)" + (explicit == nil ? "" : " --to \(baselinePath)")
      var baseline: Baseline? = nil
      var scenarioChange: String? = nil
      if let profile = pipeline.overrides.profile {
        // Under another profile the runs are not the baseline's: only the claims are checked.
        if explicit != nil {
          throw .badInput(
            "--baseline and --profile: the baseline was saved under the scenario's own model, not profile "
              + "'\(profile)' (fix: drop --baseline to check the evidence and expectations under the profile)")
        }
        if loaded.checkSpec.expectations.isEmpty && loaded.checkSpec.evidence.isEmpty {
          throw .badInput(
            "nothing to check in \(path) under --profile \(profile): baselines are not compared under another "
              + "profile, and the scenario has no \"expect\" or \"evidence\" "
              + "(fix: drop --profile, or add expectations)")
        }
      } else if baselineFlag != nil || FileManager.default.fileExists(atPath: baselinePath) {
        let b = try Baseline.load(baselinePath, save: resave)
        scenarioChange = try Self.verify(b, path: baselinePath, against: loaded, resave: resave)
        baseline = b
      } else if loaded.checkSpec.expectations.isEmpty && loaded.checkSpec.evidence.isEmpty {
        if skipUnchecked {
          skipped.append(
            "\(path): no baseline at \(baselinePath) and no \"expect\" or \"evidence\" (to check it: \(resave))")
          continue
        }
        throw .badInput(
          "nothing to check in \(path): no baseline at \(baselinePath), and no \"expect\" or \"evidence\" in the "
            + "scenario (fix: save a baseline with '\(resave)', or add expectations)")
      }
      plans.append(
        Plan(
          loaded: loaded, baselinePath: baselinePath, baseline: baseline, scenarioChange: scenarioChange,
          reportDirectory: pipeline.reportDirectory(for: loaded.scenario, several: several)))
    }
    if plans.isEmpty {
      throw .badInput(
        "nothing to check: every scenario has no baseline and no expectations (\(skipped[0]))")
    }
    let claims = plans.reduce(0) { $0 + $1.loaded.checkSpec.evidence.count }
    if let k = minAgreement, k > claims {
      throw .badInput(
        "--min-agreement \(k) asks more claims to agree than the \(claims) the scenarios state in \"evidence\" "
          + "(fix: pass at most \(claims), or add the scenarios with the evidence)")
    }
    // A finished run (a merged shard run's results.json) is checked as it is: nothing runs or is written.
    let storedResults = try resultsPath.map { (path: String) throws(CLIError) in
      try Self.storedResults(path, of: plans[0].loaded)
    }
    try Pipeline.validateDistinct(plans.map(\.reportDirectory))
    try pipeline.validate(paths: pathUses(plans, writesReports: storedResults == nil))
    if storedResults == nil {
      for p in plans { try pipeline.validateMemory(p.loaded.scenario) }
      for p in plans { try pipeline.prepare(p.reportDirectory, files: Pipeline.reportFiles) }
    }
    for flag in Self.outputFlags {
      if let target = outputs[flag], target != "-" {
        try pipeline.prepare(PathText.folder(of: target), files: [PathText.name(target)], option: flag)
      }
    }

    pipeline.warnAboutModelVersions(plans.map(\.loaded))
    var checks: [ScenarioCheck] = []
    for p in plans {
      if let stored = storedResults {
        checks.append(Self.check(p, results: stored, flagPct: flagPct, failOnChange: failOnChange))
        continue
      }
      let header = pipeline.announce([p.loaded.scenario], name: p.loaded.scenario.name)
      let report = pipeline.report(p.loaded, header: header)
      try pipeline.write(report.files, to: p.reportDirectory)
      checks.append(Self.check(p, results: report.results, flagPct: flagPct, failOnChange: failOnChange))
    }
    let run = CheckRun(
      toolVersion: ReloadBenchCLI.version, modelVersion: ReloadBenchCLI.modelVersion, scenarios: checks,
      minAgreement: minAgreement, skipped: skipped)
    try emit(run)
    return run.passed ? ExitStatus.success : ExitStatus.failure
  }

  static let outputFlags = ["--markdown", "--junit", "--json"]

  /// What the check reads and writes, for the pipeline's one check that
  /// no output (--markdown, --junit, --json, a report folder) names an
  /// input (a scenario, the baseline read) or another output.
  func pathUses(_ plans: [Plan], writesReports: Bool = true) -> [Pipeline.PathUse] {
    var uses: [Pipeline.PathUse] = []
    for p in plans {
      uses.append(.read(p.loaded.path, as: "the scenario"))
      if p.baseline != nil { uses.append(.read(p.baselinePath, as: "the baseline")) }
    }
    for flag in Self.outputFlags {
      if let target = outputs[flag] { uses.append(.file(target, as: flag)) }
    }
    for p in plans where writesReports {
      uses.append(
        .folder(
          p.reportDirectory, as: pipeline.options.out == nil ? "the report folder" : "the --out folder",
          files: Pipeline.reportFiles, fix: "pass --out with another folder"))
    }
    return uses
  }

  /// Refuses a baseline that does not belong to this scenario and model.
  /// A baseline of an earlier version of the same scenario (same name, model
  /// and seed) is compared by strategy, segment and metric name: the
  /// returned line says how the scenario changed (nil: it did not).
  static func verify(
    _ b: Baseline, path: String, against l: LoadedScenario, resave: String
  ) throws(CLIError) -> String? {
    let hash = ScenarioHash.sha256(l.json)
    var change: String? = nil
    if b.scenarioSHA256 != hash {
      if b.scenario != l.scenario.name {
        throw .badInput(
          "\(path) is the baseline of scenario \"\(b.scenario)\", not of \"\(l.scenario.name)\" (\(l.path)) "
            + "(fix: \(ownBaselineFix(l, notAt: path)))")
      }
      change = scenarioChange(b, now: l.json, hash: hash)
    }
    if b.modelVersion != ReloadBenchCLI.modelVersion {
      throw .badInput(
        "\(path) was saved with model version \(b.modelVersion) (reloadbench \(b.toolVersion)); this reloadbench "
          + "simulates model version \(ReloadBenchCLI.modelVersion), whose results differ by design "
          + "(fix: re-save the baseline: \(resave))")
    }
    if b.seed != l.scenario.seed || b.replications != l.scenario.replications {
      throw .badInput(
        "\(path) records seed \(b.seed) and \(NumberFormat.count(b.replications, "replication")), the scenario runs "
          + "seed "
          + "\(l.scenario.seed) and \(l.scenario.replications) (fix: re-save the baseline: \(resave))")
    }
    if b.engine != l.scenario.engine.rawValue {
      throw .badInput(
        "\(path) records engine \(b.engine), the scenario runs engine \(l.scenario.engine.rawValue) "
          + "(fix: re-save the baseline: \(resave))")
    }
    // The content hash pins the strategies and segments, so the rows must
    // be exactly one per strategy and segment (and "all"): a row more or
    // less means the file was not saved from this scenario as it is. A
    // changed scenario is compared row by row where names match.
    if change != nil { return change }
    let segments = l.scenario.segments.map(\.name) + ["all"]
    let expected = l.scenario.strategies.flatMap { s in segments.map { [s.name, $0] } }
    let rows = b.rows.map { [$0.policy, $0.segment] }
    let expectedSet = Set(expected)
    let rowSet = Set(rows)
    if let extra = rows.first(where: { !expectedSet.contains($0) }) {
      let what =
        l.scenario.strategies.contains(where: { $0.name == extra[0] })
        ? "segment \"\(extra[1])\"" : "strategy \"\(extra[0])\""
      throw .badInput(
        "\(path) has a row for \(extra[0]) / \(extra[1]), but \(l.path) has no \(what): the baseline is of another "
          + "strategy or segment list (fix: re-save the baseline: \(resave))")
    }
    if let missing = expected.first(where: { !rowSet.contains($0) }) {
      throw .badInput(
        "\(path) has no row for \(missing[0]) / \(missing[1]) of \(l.path): the baseline is of another strategy "
          + "or segment list (fix: re-save the baseline: \(resave))")
    }
    return nil
  }

  /// The line that says how the scenario changed since `b` was saved.
  static func scenarioChange(_ b: Baseline, now json: JSONValue, hash: String) -> String {
    let hashes = "sha256 \(b.scenarioSHA256.prefix(12)) then, \(hash.prefix(12)) now"
    guard let text = b.scenarioCanonical, let then = try? JSONValue.parse(Data(text.utf8)) else {
      return "the scenario changed since the baseline was saved (\(hashes); the baseline predates the record of "
        + "its fields: re-save it to name them); compared by strategy, segment and metric name"
    }
    let now = (try? JSONValue.parse(Data(ScenarioHash.canonicalText(json).utf8))) ?? json
    let fields = ScenarioDiff.paths(from: then, to: now)
    return "the scenario changed since the baseline was saved (\(hashes)): \(ScenarioDiff.summary(fields)); "
      + "compared by strategy, segment and metric name"
  }

  /// The fix when `--baseline` names another scenario's baseline: never
  /// re-save over that file (it is good, just not this scenario's). Point
  /// at the scenario's own baseline, or save one where no file is: the
  /// default path when it is free, else a new name beside it.
  static func ownBaselineFix(_ l: LoadedScenario, notAt path: String) -> String {
    let own = Baseline.defaultPath(for: l.scenario.name)
    let save = "reloadbench baseline save \(l.path)"
    let ownIsGiven = PathClaims.resolved(own) == PathClaims.resolved(path)
    if !ownIsGiven && !FileManager.default.fileExists(atPath: own) { return "save \(l.scenario.name)'s own: \(save)" }
    let fresh = freeName(near: own)
    if ownIsGiven { return "save \(l.scenario.name)'s baseline under another name: \(save) --to \(fresh)" }
    return "drop --baseline to compare with \(own), or save a new one: \(save) --to \(fresh)"
  }

  /// `path` if no file is there, else the first of `NAME-2.json`,
  /// `NAME-3.json`, ... beside it that is free.
  static func freeName(near path: String) -> String {
    guard FileManager.default.fileExists(atPath: path) else { return path }
    let stem = path.hasSuffix(".json") ? String(path.dropLast(5)) : path
    var n = 2
    while FileManager.default.fileExists(atPath: "\(stem)-\(n).json") { n += 1 }
    return "\(stem)-\(n).json"
  }

  /// Compares one finished run with its plan's baseline and expectations.
  /// The results.json at `path` (or in the folder `path`), refused unless
  /// it is a run of `loaded`'s scenario with its seed and replications.
  static func storedResults(_ path: String, of loaded: LoadedScenario) throws(CLIError) -> ScenarioResults {
    var isFolder: ObjCBool = false
    _ = FileManager.default.fileExists(atPath: path, isDirectory: &isFolder)
    let file = isFolder.boolValue ? (path as NSString).appendingPathComponent("results.json") : path
    let fix = "(fix: pass the folder or results.json that 'reloadbench run' or 'reloadbench merge' wrote for it)"
    guard let data = FileManager.default.contents(atPath: file) else {
      throw .badInput("--results: cannot read \(file) \(fix)")
    }
    guard let results = try? JSONDecoder().decode(ScenarioResults.self, from: data) else {
      throw .badInput("--results: \(file) is not a reloadbench results.json \(fix)")
    }
    let s = loaded.scenario
    let f = results.facts
    if f.scenario != s.name || f.seed != s.seed || f.replications != s.replications {
      throw .badInput(
        "--results: \(file) is a run of \"\(f.scenario)\" (seed \(f.seed), \(f.replications) replications), not of "
          + "\(loaded.path) (\"\(s.name)\", seed \(s.seed), \(s.replications)) \(fix)")
    }
    return results
  }

  static func check(_ p: Plan, results: ScenarioResults, flagPct: Double?, failOnChange: Bool) -> ScenarioCheck {
    let table = results.summary
    let spec = p.loaded.checkSpec
    var comparisons: [MetricComparison] = []
    var notes: [String] = []
    if let b = p.baseline {
      (comparisons, notes) = table.compared(with: b.table) { spec.tolerance(for: $0, flagPct: flagPct) }
      if b.toolVersion != ReloadBenchCLI.version {
        notes.append(
          "baseline saved by reloadbench \(b.toolVersion), this is \(ReloadBenchCLI.version) (same model version)")
      }
    } else if !spec.expectations.isEmpty {
      notes.append(
        "no baseline at \(p.baselinePath): only the expectations were checked "
          + "(save one with 'reloadbench baseline save \(p.loaded.path)')")
    }
    let scenario = p.loaded.scenario
    return ScenarioCheck(
      scenario: scenario.name, file: p.loaded.path, scenarioSHA256: ScenarioHash.sha256(p.loaded.json),
      seed: scenario.seed, replications: scenario.replications, strategies: scenario.strategies.map(\.name),
      segments: scenario.segments.map(\.name),
      baseline: p.baseline.map {
        ScenarioCheck.Baseline(
          file: p.baselinePath, toolVersion: $0.toolVersion, modelVersion: $0.modelVersion,
          scenarioChange: p.scenarioChange)
      },
      toleranceSource: spec.toleranceSource(flagPct: flagPct), failOnChange: failOnChange, comparisons: comparisons,
      expectations: spec.expectations.flatMap { $0.evaluate(on: table, activities: results.liveActivities) },
      evidence: spec.evidence.map { $0.evaluate(on: table) }, notes: notes,
      seconds: results.facts.wallSeconds, summary: table)
  }

  /// Writes the requested outputs, prints the report, and appends it to
  /// GitHub's job summary.
  func emit(_ run: CheckRun) throws(CLIError) {
    let markdown = CheckReport.markdown(run)
    var toStdout = ""
    var written: [String] = []
    let renderers: [(flag: String, render: () -> String)] = [
      ("--markdown", { markdown }), ("--junit", { CheckReport.junit(run) }), ("--json", { CheckReport.json(run) }),
    ]
    for (flag, render) in renderers {
      guard let target = outputs[flag] else { continue }
      if target == "-" {
        toStdout += render()
      } else {
        try pipeline.write(file: target, render())
        written.append(target)
      }
    }
    if toStdout.isEmpty && !pipeline.options.quiet {
      if outputs["--markdown"] == nil {
        toStdout = markdown
      } else {
        toStdout = CheckReport.brief(run) + "Wrote \(written.joined(separator: ", ")).\n"
      }
    }
    Terminal.out(toStdout)
    Self.appendStepSummary(markdown)
  }

  /// Appends `markdown` to `$GITHUB_STEP_SUMMARY` (the job summary page of
  /// GitHub Actions) when set. A failure to write it is a warning: the
  /// check's verdict stands.
  static func appendStepSummary(_ markdown: String) {
    guard let path = ProcessInfo.processInfo.environment["GITHUB_STEP_SUMMARY"], !path.isEmpty else { return }
    let fm = FileManager.default
    if !fm.fileExists(atPath: path) { _ = fm.createFile(atPath: path, contents: nil) }
    guard let handle = FileHandle(forWritingAtPath: path) else {
      Terminal.err("warning: cannot open $GITHUB_STEP_SUMMARY (\(path)) to append the report\n")
      return
    }
    defer { try? handle.close() }
    do {
      try handle.seekToEnd()
      try handle.write(contentsOf: Data((markdown + "\n").utf8))
    } catch {
      Terminal.err("warning: cannot append to $GITHUB_STEP_SUMMARY (\(path)): \(OutputWriter.reason(error))\n")
    }
  }
}
