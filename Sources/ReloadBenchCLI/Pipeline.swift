import ActivityModel
import Foundation
import ReloadMetrics
import ReloadReports
import WidgetModel

/// The one path every command that runs scenarios takes (`run`, `check`,
/// `baseline save`, `sweep`, and `bench` for its scenario cases):
///
///     load → validate → prepare → simulate → merge → build results → render → write
///
/// Each stage is a function of its own, testable alone:
/// - `load` reads and decodes a scenario file and applies the command
///   line's overrides;
/// - `validate` checks, before anything runs, everything the command will
///   read and write together: no two outputs in one place, no output that
///   would replace an input (the one such check, for every command), the
///   memory the run will need and, for a long run, its time;
/// - `prepare` makes the output folders and proves them writable, and
///   removes temporary files a killed run left there;
/// - `simulate` and `merge` run one replication's devices over the
///   threads and sum the threads' tallies (`ExperimentRunner`);
/// - `buildResults` turns tallies into `ScenarioResults` with the
///   recommendation;
/// - `render` turns results into the report files' text;
/// - `write` writes a set of files atomically.
struct Pipeline {
  var options: CommonOptions
  var overrides: ScenarioOverrides
  /// The strategies scenarios may name: the presets and those registered in Swift.
  let strategies: StrategyRegistry
  /// `--shard K/N`: simulate one shard and write its part, not the reports.
  var shard: ShardSpec? = nil

  init(options: CommonOptions, overrides: ScenarioOverrides = ScenarioOverrides(), strategies: StrategyRegistry) {
    self.options = options
    self.overrides = overrides
    self.strategies = strategies
  }

  // MARK: - 1. Load

  /// Reads and decodes `path`, with the command line's overrides applied.
  func load(_ path: String) throws(CLIError) -> LoadedScenario {
    var l = try ScenarioLoader.load(path, strategies: strategies, profile: overrides.profile)
    apply(to: &l.scenario)
    return l
  }

  /// The command line's overrides (seed, replications, engine).
  func apply(to scenario: inout Scenario) {
    if let seed = overrides.seed { scenario.seed = seed }
    if let r = overrides.replications { scenario.replications = r }
    if let e = overrides.engine { scenario.engine = e }
  }

  /// Where a scenario's reports go: `--out`, else `Reports/<name>`; with
  /// several scenarios, `<out>/<name>`.
  func reportDirectory(for scenario: Scenario, several: Bool) -> String {
    guard let out = options.out else { return "Reports/\(scenario.name)" }
    return several ? (out as NSString).appendingPathComponent(scenario.name) : out
  }

  /// Every point of a sweep, decoded, checked and with the overrides applied.
  func sweepPoints(_ loaded: LoadedScenario) throws(CLIError) -> [SweepPointPlan] {
    guard let spec = loaded.sweep else { return [] }
    var plans: [SweepPointPlan]
    do {
      plans = try spec.points(base: loaded.json, strategies: strategies)
    } catch {
      throw .badInput(error.line(file: loaded.path))
    }
    for i in plans.indices { apply(to: &plans[i].scenario) }
    return plans
  }

  // MARK: - 2. Validate

  /// A path a command reads or writes, as `validate` checks it.
  enum PathUse {
    /// A file read (a scenario, a baseline): no output may replace it.
    case read(String, as: String)
    /// A file written; `fix` says how to choose another path.
    /// `onlyReplacing` says which existing file it may replace: by default
    /// anything but a scenario; a baseline replaces only a baseline.
    case file(String, as: String, fix: String? = nil, onlyReplacing: Replaceable = .notAScenario)
    /// A folder the command writes `files` into.
    case folder(String, as: String, files: [String], fix: String)
  }

  /// Which existing file an output may replace.
  enum Replaceable {
    /// Any file but a scenario (outputs never replace a scenario file,
    /// whether or not this command reads it).
    case notAScenario
    /// Only a file of this format (`"format": NAME` at the top of its JSON).
    case format(String, what: String)
  }

  /// Refuses, before anything runs, an output that would replace an input
  /// or another output, in the order given (the first conflict is reported).
  func validate(paths uses: [PathUse]) throws(CLIError) {
    var claims = PathClaims()
    for use in uses {
      switch use {
      case .read(let path, let what):
        try claims.read(path, as: what)
      case .file(let path, let what, let fix, let replaceable):
        try claims.write(path, as: what, fix: fix)
        switch replaceable {
        case .format(let name, let kind):
          if let existing = Self.existingFormat(path), existing != name {
            throw .badInput(
              "\(what) \(path) is a \(existing) file, not a \(kind): writing it would replace that file "
                + "(fix: \(fix ?? "pass \(what) with another file name"))")
          }
        case .notAScenario:
          if Self.existingFormat(path, largest: 4 << 20) == "scenario" {
            throw .badInput(
              "\(what) \(path) is a scenario file: writing it would replace that file "
                + "(fix: \(fix ?? "pass \(what) with another file name"))")
          }
        }
      case .folder(let path, let what, let files, let fix):
        try claims.folder(path, as: what, files: files, fix: fix)
        // A scenario kept among the report's file names, not given as input.
        for name in files where name.hasSuffix(".json") {
          let file = (path as NSString).appendingPathComponent(name)
          if Self.existingFormat(file, largest: 4 << 20) == "scenario" {
            throw .badInput(
              "\(file) is a scenario file, and it is one of the reports written into \(what) \(path): "
                + "writing it would replace that file (fix: \(fix))")
          }
        }
      }
    }
  }

  /// What an existing file is, when it is a file this tool knows: the
  /// `format` its JSON names at the top level, or "scenario" for a file
  /// with a scenario's "name" and "strategies". Nil for no file, or one it
  /// cannot tell (a corrupt baseline stays replaceable by a good one).
  /// Files over `largest` bytes are not read to find out.
  static func existingFormat(_ path: String, largest: Int = 64 << 20) -> String? {
    let fm = FileManager.default
    var isDir: ObjCBool = false
    guard fm.fileExists(atPath: path, isDirectory: &isDir), !isDir.boolValue else { return nil }
    let attributes = try? fm.attributesOfItem(atPath: path)
    if let size = attributes?[.size] as? NSNumber, size.intValue > largest { return nil }
    // A results.json of an earlier run (keys sorted: "facts" first) is
    // known from its first bytes, without parsing it.
    if let handle = FileHandle(forReadingAtPath: path) {
      let head = (try? handle.read(upToCount: 10)) ?? nil
      try? handle.close()
      if head == Data(#"{"facts":{"#.utf8) { return "results" }
    }
    guard let data = fm.contents(atPath: path), let json = try? JSONValue.parse(data), case .object(let o) = json
    else { return nil }
    if case .string(let format)? = o["format"] { return format }
    return o["name"] != nil && o["strategies"] != nil ? "scenario" : nil
  }

  /// Refuses a run that would need more memory than the machine has,
  /// counting the threads it will use.
  func validateMemory(_ scenario: Scenario) throws(CLIError) {
    try MemoryEstimate.check(scenario, threads: options.threads)
  }

  /// Refuses two jobs that would write into one folder.
  static func validateDistinct(_ directories: [String]) throws(CLIError) {
    if Set(directories).count < directories.count {
      throw .badInput("two scenarios would write to the same folder (fix: give them different names)")
    }
  }

  /// Before a run starts (all of `scenarios`: one, or a sweep's points):
  /// says how long a run of an hour or more should take, and returns the
  /// run's header for a log (off a terminal; nil with --quiet or on a
  /// terminal), printed now when the run should outlast the progress
  /// interval, else with its first progress line. `what` names the run
  /// ("default", "default shard 2/4").
  @discardableResult
  func announce(_ scenarios: [Scenario], name: String, what: String? = nil) -> RunHeader? {
    guard !options.quiet else { return nil }
    if let notice = MemoryEstimate.longRunNotice(scenarios, name: name, threads: options.threads) {
      Terminal.err("note: " + notice + "\n")
    }
    guard ProgressLine.mode(quiet: options.quiet) == .log else { return nil }
    let header = RunHeader(MemoryEstimate.header(scenarios, name: what ?? name, threads: options.threads))
    let seconds = scenarios.reduce(0) { $0 + MemoryEstimate.seconds($1, threads: options.threads) }
    if seconds >= ProgressLine.logInterval { header.say() }
    return header
  }

  // MARK: - 3. Prepare

  /// Creates `directory` and proves it writable, and removes temporary
  /// files that a killed run of this tool left there (`files`: the names
  /// it writes there).
  func prepare(_ directory: String, files: [String], option: String = "--out") throws(CLIError) {
    try OutputWriter.prepare(directory, option: option, files: files)
    OutputWriter.removeStaleTemporaryFiles(in: directory, names: files)
  }

  /// Prints each file's warnings (its model version, docs/model.md#model-versions,
  /// and defaults it probably did not mean), one line each on stderr, once everything was checked and before the
  /// first simulation (a command that fails prints only its error); not
  /// with `--quiet`.
  func warnAboutModelVersions(_ loaded: [LoadedScenario]) {
    guard !options.quiet else { return }
    for l in loaded {
      for warning in l.warnings { Terminal.err("warning: \(l.path): \(warning)\n") }
    }
  }

  /// Prints the debug-build warning once, before the first simulation.
  func warnAboutBuild() {
    if !options.quiet && Terminal.stderrIsTerminal, let warning = BuildWarning.text {
      Terminal.err(warning + "\n")
    }
  }

  // MARK: - 4, 5. Simulate and merge

  /// Simulates every replication (stage 4 per replication, then stage 5:
  /// `ExperimentRunner.simulate` and `.merge`), with progress.
  func simulate(_ scenario: Scenario, label: String? = nil, header: RunHeader? = nil) -> RunOutcome {
    let progress = ProgressLine(label: label ?? scenario.name, quiet: options.quiet, header: header)
    return ExperimentRunner.run(scenario, threads: options.threads, progress: progress)
  }

  // MARK: - 6. Build results

  /// A finished run, with its results and their conclusions.
  struct RunResults {
    var results: ScenarioResults
    let outcome: RunOutcome
    /// The scenario's objective, in words (empty without one).
    var objectiveLines: [String] = []
  }

  /// What `scenario` simulates, as the reports of a run and of a sweep show it.
  static func facts(_ scenario: Scenario) -> SimulationFacts {
    var facts = SimulationFacts(
      scenario: scenario.name, description: scenario.description, toolVersion: ReloadBenchCLI.version,
      seed: scenario.seed, days: scenario.days, warmupDays: scenario.warmupDays, devices: scenario.devices,
      replications: scenario.replications, strategies: scenario.strategies.map(\.name),
      segments: scenario.segments.map(\.name))
    facts.title = scenario.title
    return facts
  }

  /// The run's facts as the reports show them.
  static func facts(_ scenario: Scenario, widgets: Int) -> RunFacts {
    RunFacts(
      facts(scenario), widgets: widgets, fleetDevices: scenario.fleetDevices,
      toleranceMinutes: scenario.kinds.map(\.tolerance.minutes).min() ?? 30)
  }

  /// Tallies to results (summarised on all cores), with their conclusions:
  /// the recommendation and the findings. `parameters`: the scenario's
  /// parameters for the report (none for a sweep point).
  func buildResults(_ loaded: LoadedScenario, _ outcome: RunOutcome, parameters: [ParameterFact]) -> RunResults {
    let scenario = loaded.scenario
    var facts = Self.facts(
      scenario, widgets: outcome.replications[0].first.map { $0.segments.reduce(0) { $0 + Int($1.widgets) } } ?? 0)
    facts.threads = options.threads
    facts.events = outcome.events
    var results = ResultsBuilder.build(
      scenario, replications: outcome.replications, facts: facts, parameters: parameters
    ) { count, body in
      DispatchQueue.concurrentPerform(iterations: count, execute: body)
    }
    let (recommendation, lines) = Self.recommend(results.summary, objective: loaded.objective)
    results.conclusions = Conclusions(
      findings: Findings.compute(results, recommended: recommendation?.strategy), recommendation: recommendation)
    results.liveActivities = LiveActivitySimulation.run(scenario)
    return RunResults(results: results, outcome: outcome, objectiveLines: lines)
  }

  /// The recommendation: the scenario's objective over its strategies when
  /// it has one, else the default rule (`Recommendation.compute`).
  static func recommend(_ table: ResultTable, objective: Objective?) -> (Recommendation?, [String]) {
    guard let objective else { return (Recommendation.compute(table), []) }
    let candidates = table.overallRows.map { ObjectiveCandidate(point: 0, strategy: $0.strategy, values: $0.values) }
    let outcome = objective.evaluate(candidates, columns: table.columns)
    let lines = ObjectiveSummary(outcome, columns: table.columns, points: 1) { _ in "" }.lines
    return (Recommendation.from(outcome, columns: table.columns), lines)
  }

  // MARK: - 7. Render

  /// The files `render` returns, in order.
  static let reportFiles = [
    "summary.csv", "timeseries.csv", "staleness.csv", "live_activities.csv", "report.html", "results.json",
  ]
  /// The files a sweep writes.
  static let sweepFiles = ["sweep.csv", "sweep.html", "sweep.json"]

  /// The files a job writes into its folder: the reports, or a shard's part.
  func outputFiles(sweep: Bool) -> [String] {
    shard.map { [$0.fileName] } ?? (sweep ? Self.sweepFiles : Self.reportFiles)
  }

  /// Every file of a report, rendered on two threads: the CSV files on
  /// one, the JSON and the page on the other (the outputs do not depend on
  /// which thread renders them). `objective`: the scenario's, which the
  /// recommendation was judged by (the page's charts draw its targets).
  static func render(_ results: ScenarioResults, objective: Objective?) -> [(name: String, contents: String)] {
    let box = RenderBox()
    DispatchQueue.concurrentPerform(iterations: 2) { part in
      if part == 0 {
        box.set(
          0,
          [
            ("summary.csv", CSVReport.summary(results.summary)),
            ("timeseries.csv", CSVReport.timeseries(results)),
            ("staleness.csv", CSVReport.staleness(results)),
          ]
            + (results.liveActivities.map {
              [("live_activities.csv", CSVReport.liveActivities($0, scenario: results.facts.scenario))]
            } ?? []))
      } else {
        let page = HTMLReport.render(results, objective: objective)
        box.set(1, [("report.html", page), ("results.json", HTMLReport.resultsJSON(results) + "\n")])
      }
    }
    let files = box.parts[0] + box.parts[1]
    assert(
      files.map(\.name) == reportFiles.filter { $0 != "live_activities.csv" || results.liveActivities != nil },
      "reportFiles is out of step with render")
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

  /// A run rendered: its results and files, with the timings settled.
  struct Report {
    let results: ScenarioResults
    let files: [(name: String, contents: String)]
    let outcome: RunOutcome
    let reportSeconds: Double
    var objectiveLines: [String] = []
  }

  /// Stages 4 to 7 for one scenario: simulate, merge, build results,
  /// render. The page shows the run's timings, so they are settled before
  /// rendering (or left out with `--reproducible`).
  /// `merged`: the tallies of a run's shards (`reloadbench merge`), in
  /// place of simulating.
  /// `robustness`: with the scenario's `robustness` block, also run every
  /// assumption's alternatives and say whether the recommendation holds
  /// (`run` does; `check` and `merge` do not).
  func report(
    _ loaded: LoadedScenario, merged: RunOutcome? = nil, header: RunHeader? = nil, robustness: Bool = false
  ) -> Report {
    let clock = ContinuousClock()
    let start = clock.now
    let outcome = merged ?? simulate(loaded.scenario, header: header)
    let reportStart = clock.now
    var built = buildResults(loaded, outcome, parameters: ParameterListing.facts(loaded))
    var robustnessSeconds: Double? = nil
    if robustness, let spec = loaded.robustness, spec.enabled {
      let t0 = clock.now
      let v = verdict(loaded, spec, built.results)
      built.results.conclusions?.robustness = v
      robustnessSeconds = ProgressLine.seconds(clock.now - t0)
    }
    let beforeHTML = clock.now
    built.results.facts.wallSeconds = ProgressLine.seconds(beforeHTML - start)
    built.results.facts.phaseSeconds = [
      "setup": outcome.setupSeconds, "simulation": outcome.simulationSeconds, "merge": outcome.mergeSeconds,
      "report": ProgressLine.seconds(beforeHTML - reportStart) - (robustnessSeconds ?? 0),
    ]
    if let robustnessSeconds { built.results.facts.phaseSeconds["robustness"] = robustnessSeconds }
    if options.reproducible {
      // What the page shows must not depend on the machine or the moment.
      built.results.facts.wallSeconds = 0
      built.results.facts.phaseSeconds = [:]
      built.results.facts.threads = 0
    }
    let files = Self.render(built.results, objective: loaded.objective)
    let end = clock.now
    var results = built.results
    results.facts.wallSeconds = ProgressLine.seconds(end - start)
    results.facts.phaseSeconds["report"] = ProgressLine.seconds(end - reportStart) - (robustnessSeconds ?? 0)
    return Report(
      results: results, files: files, outcome: outcome, reportSeconds: ProgressLine.seconds(end - reportStart),
      objectiveLines: built.objectiveLines)
  }

  /// Whether the run's recommendation holds under every reading of the
  /// model `spec` chooses (`RobustnessRunner`): on every device, the run's
  /// own results are the base; on a sample, the base runs again on it.
  func verdict(_ loaded: LoadedScenario, _ spec: RobustnessSpec, _ results: ScenarioResults) -> RobustnessVerdict {
    let sampled = RobustnessRunner.sampled(loaded.scenario, spec).devices < loaded.scenario.devices
    let r = RobustnessRunner.run(
      loaded, spec: spec, threads: options.threads, quiet: options.quiet, base: sampled ? nil : results.summary)
    return RobustnessRunner.verdict(
      r, objective: loaded.objective, fullRun: results.conclusions?.recommendation?.strategy)
  }

  // MARK: - 8. Write

  /// Writes the report folder `directory`: `files`, all or none, in one
  /// change (`OutputWriter.writeReport`). `writer` writes one file (tests
  /// inject one that fails).
  func write(
    _ files: [(name: String, contents: String)], to directory: String,
    writer: OutputWriter.FileWriter = OutputWriter.writeBytes
  ) throws(CLIError) {
    try OutputWriter.writeReport(files, to: directory, writer: writer)
  }

  /// Writes one file atomically (a baseline, --json, --markdown).
  func write(file path: String, _ contents: String) throws(CLIError) {
    try OutputWriter.writeFile(path, contents)
  }
}
