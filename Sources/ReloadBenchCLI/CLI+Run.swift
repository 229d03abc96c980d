import Foundation
import ReloadCalibration
import ReloadEngine
import ReloadMetrics
import ReloadReports
import WidgetModel

/// `reloadbench run [SCENARIO ...]`: simulate and write reports.
struct RunCommand: Command {
  static let configuration = CommandConfiguration(
    name: "run",
    abstract: "Simulate scenarios and write CSV + HTML reports (the default command).",
    usage: "[SCENARIO ...] [OPTIONS]",
    discussion: """
      Simulates each scenario file (default: Scenarios/default.json) and writes
      summary.csv, timeseries.csv, staleness.csv and report.html to Reports/<name>/.
      Prints a comparison table and findings on stdout; on a terminal, a progress
      line with simulated days per second on stderr (elsewhere, as in CI logs, a
      progress line about every 10 s once a run takes that long; a run estimated
      at an hour or more says so before it starts). A scenario with a "sweep"
      block runs as 'reloadbench sweep' (sweep.csv, sweep.html, sweep.json).
      """,
    arguments: [("SCENARIO", "A scenario file (default: Scenarios/default.json).")],
    notes: """
      A run that would need more memory than the machine has (counting --threads)
      is refused with its estimate; --dry-run prints the estimates. No report may
      replace an input: a --out folder that would overwrite a scenario file is
      refused.

      ENVIRONMENT:
        RELOADBENCH_MEMORY_BYTES       Memory to plan for instead of the machine's.
        RELOADBENCH_PROGRESS_INTERVAL  Seconds between progress lines off a terminal (10).
      """,
    exitStatus: "0 success; 2 bad input (scenario, flags, unwritable --out, an output that would replace an input).")

  static let options: [OptionSpec] =
    ScenarioOverrides.declarations + [
      OptionSpec("--dry-run", nil, "Check the scenarios and print what would run; simulate nothing."),
      EmitLog.option,
    ] + ShardSpec.declarations
  static let common = CommonOptions.all

  var paths: [String]
  var pipeline: Pipeline
  var dryRun: Bool
  var emitLog: String?

  init(_ parsed: ParsedArguments, strategies: StrategyRegistry) throws(CLIError) {
    var overrides = try ScenarioOverrides(parsed, seed: nil, command: "run")
    let common = try CommonOptions(parsed, command: "run")
    overrides.seed = common.seed
    pipeline = Pipeline(options: common, overrides: overrides, strategies: strategies)
    pipeline.shard = try ShardSpec.parse(parsed, command: "run")
    paths = parsed.positionals.isEmpty ? [ScenarioLoader.defaultPath] : parsed.positionals
    dryRun = parsed.has("--dry-run")
    emitLog = parsed.value("--emit-log")
  }

  /// A scenario to run, and where its reports go (a sweep's points too).
  struct Job {
    let loaded: LoadedScenario
    let directory: String
    let points: [SweepPointPlan]?
  }

  /// Stage 2 for the loaded scenarios, together and before anything runs:
  /// distinct folders, no output over an input, sweep points, memory.
  /// (`sweep` takes the same path.)
  /// `also`: more outputs, checked with the reports (`--emit-log`'s file).
  static func jobs(_ loaded: [LoadedScenario], _ pipeline: Pipeline, also: [Pipeline.PathUse] = []) throws(CLIError)
    -> [Job]
  {
    let dirs = loaded.map { pipeline.reportDirectory(for: $0.scenario, several: loaded.count > 1) }
    try Pipeline.validateDistinct(dirs)
    var uses: [Pipeline.PathUse] = loaded.map { .read($0.path, as: "the scenario") }
    for (l, dir) in zip(loaded, dirs) {
      uses.append(
        .folder(
          dir, as: pipeline.options.out == nil ? "the report folder" : "the --out folder",
          files: pipeline.outputFiles(sweep: l.sweep != nil), fix: "pass --out with another folder"))
    }
    try pipeline.validate(paths: uses + also)
    var jobs: [Job] = []
    for (l, dir) in zip(loaded, dirs) {
      // A scenario with a sweep runs as `reloadbench sweep`; its points are
      // decoded and checked here, before anything runs.
      if l.sweep != nil {
        let points = try pipeline.sweepPoints(l)
        for p in points { try pipeline.validateMemory(p.scenario) }
        jobs.append(Job(loaded: l, directory: dir, points: points))
      } else {
        try pipeline.validateMemory(l.scenario)
        jobs.append(Job(loaded: l, directory: dir, points: nil))
      }
    }
    return jobs
  }

  func run() throws(CLIError) -> Int32 {
    if emitLog != nil, let shard = pipeline.shard {
      throw .badInput(
        "--emit-log writes one deployment's log from a whole run, and --shard \(shard.text) runs part of one "
          + "(fix: drop --emit-log from the shards, and run once without --shard to write the log)")
    }
    var loaded: [LoadedScenario] = []
    for path in paths { loaded.append(try pipeline.load(path)) }
    // The log is checked with the reports: it may replace neither a report nor an input.
    let jobs = try Self.jobs(
      loaded, pipeline,
      also: emitLog.map { [.file($0, as: "the --emit-log file", fix: "pass --emit-log with another file name")] } ?? [])
    let logFormat = try emitLog.map { (p: String) throws(CLIError) -> LogFormat in
      try EmitLog.validate(p, jobs: jobs)
    }
    let threads = pipeline.options.threads
    if dryRun {
      pipeline.warnAboutModelVersions(loaded)
      for job in jobs {
        let text =
          job.points.map { SweepCommand.plan(job.loaded, $0, dir: job.directory, threads: threads) }
          ?? Self.plan(job.loaded.scenario, dir: job.directory, threads: threads)
        Terminal.out(text + (pipeline.shard.map { "\n" + Shards.plan(job, $0) } ?? "") + "\n")
      }
      return ExitStatus.success
    }
    // Folders made here are removed again (when still empty) if the run fails.
    var made = MadeFolders()
    do {
      return try run(jobs, loaded, logFormat: logFormat, made: &made)
    } catch {
      made.removeEmpty()
      throw error
    }
  }

  /// The run once everything is checked: folders made (and recorded in
  /// `made`) before the first simulation, the log's too.
  func run(_ jobs: [Job], _ loaded: [LoadedScenario], logFormat: LogFormat?, made: inout MadeFolders)
    throws(CLIError) -> Int32
  {
    for job in jobs {
      made.note(job.directory)
      try pipeline.prepare(job.directory, files: pipeline.outputFiles(sweep: job.points != nil))
    }
    if let emitLog {
      let folder = PathText.folder(of: emitLog)
      made.note(folder)
      try OutputWriter.prepare(folder, option: "--emit-log", files: [PathText.name(emitLog)])
    }
    pipeline.warnAboutModelVersions(loaded)
    if let shard = pipeline.shard {
      for job in jobs { try Shards.run(job, shard, pipeline: pipeline) }
      return ExitStatus.success
    }
    pipeline.warnAboutBuild()
    for job in jobs {
      if let points = job.points {
        try SweepCommand.execute(job.loaded, points, pipeline: pipeline, dir: job.directory)
        continue
      }
      let header = pipeline.announce([job.loaded.scenario], name: job.loaded.scenario.name)
      let report = pipeline.report(job.loaded, header: header, robustness: true)
      try pipeline.write(report.files, to: job.directory)
      if !pipeline.options.quiet { Self.printSummary(report, dir: job.directory) }
      if let emitLog, let logFormat {
        let written = try EmitLog.write(job.loaded.scenario, to: emitLog, format: logFormat)
        if !pipeline.options.quiet { EmitLog.announce(written, path: emitLog, scenario: job.loaded.scenario) }
      }
    }
    return ExitStatus.success
  }

  static func plan(_ scenario: Scenario, dir: String, threads: Int) -> String {
    let prepared = PreparedScenario(scenario)
    let sizes = zip(scenario.segments, prepared.segmentSizes).map { "\($0.name) \($1)" }.joined(separator: ", ")
    var text = """
      \(scenario.name): \(NumberFormat.count(scenario.days, "day")) \
      (\(NumberFormat.trim(NumberFormat.fixed(scenario.warmupDays, decimals: 2))) warm-up), \
      \(NumberFormat.count(scenario.devices, "device")) [\(sizes)], seed \(scenario.seed), \
      \(NumberFormat.count(scenario.replications, "replication")), engine \(scenario.engine.rawValue)
        strategies: \(scenario.strategies.map(\.name).joined(separator: ", "))
        threads: \(threads); reports to \(dir)/
        \(MemoryEstimate.summary([scenario], threads: threads))
      """
    if let notice = MemoryEstimate.longRunNotice(scenario, threads: threads) {
      text += "\n  note: " + notice
    }
    return text + "\n" + DryRunPlan.text(scenario).dropLast()
  }

  /// `line` in lines of at most `TextTable.defaultWidth` columns, the
  /// later ones indented two spaces more than the first.
  static func wrapped(_ line: String) -> String {
    let indent = String(line.prefix { $0 == " " }) + "  "
    let lines = TextWrap.lines(line, width: TextTable.defaultWidth - indent.count)
    return (String(line.prefix { $0 == " " }) + lines.joined(separator: "\n" + indent)) + "\n"
  }

  /// What `run` prints after writing a report: the table, findings,
  /// recommendation, the files and the speed. A merged report (`merge`,
  /// `mergedParts` parts) simulated nothing here: it says what it merged.
  static func printSummary(_ report: Pipeline.Report, dir: String, mergedParts: Int? = nil) {
    let f = report.results.facts
    var text = """
      \(f.scenario): \(NumberFormat.count(f.days - f.warmupDays, "measured day")), \
      \(NumberFormat.count(f.devices, "device")), \(NumberFormat.count(f.widgets, "widget")), \
      \(NumberFormat.count(f.strategies.count, "strategy")), seed \(f.seed)\
      \(f.replications > 1 ? ", \(f.replications) replications" : "")

      """
    text += TextTable.render(report.results.summary) + "\n"
    for sentence in report.results.conclusions?.findings ?? [] { text += wrapped("- " + sentence) }
    if let rec = report.results.conclusions?.recommendation {
      text += "\n"
      if report.objectiveLines.isEmpty {
        text += wrapped("Recommended: \(rec.strategy): \(rec.reason).")
      } else {
        text += "Recommended: \(rec.strategy), by the scenario's objective:\n"
        for line in report.objectiveLines { text += wrapped(line) }
      }
      if let robustness = report.results.conclusions?.robustness {
        text += wrapped((robustness.robust ? "Robust: " : "Not robust: ") + robustness.sentence)
      }
    }
    let names = report.files.map(\.name).joined(separator: ", ")
    text += "\nWrote \(dir)/{\(names)}\n"
    if let parts = mergedParts {
      text += String(
        format: "Merged %@ of %@ widget-days in %.2f s (the simulation ran in the parts).\n",
        NumberFormat.count(parts, "part"), NumberFormat.short(f.simulatedWidgetDays), f.wallSeconds)
      Terminal.out(text)
      return
    }
    // The rates are the run's own: the robustness readings' time is said apart.
    let robustnessSeconds = f.phaseSeconds["robustness"] ?? 0
    let seconds = max(0, f.wallSeconds - robustnessSeconds)
    let scale = seconds > 0 ? f.wallSeconds / seconds : 1
    text += String(
      format: "Simulated %@ widget-days in %.2f s: %@ widget-days/s, %@ events/s (%@)%@.\n",
      NumberFormat.short(f.simulatedWidgetDays), seconds, NumberFormat.short(f.widgetDaysPerSecond * scale),
      NumberFormat.short(f.eventsPerSecond * scale), NumberFormat.count(f.threads, "thread"),
      robustnessSeconds > 0 ? String(format: "; the robustness readings in %.2f s", robustnessSeconds) : "")
    let phases =
      (["setup", "simulation", "merge", "report"] + (f.phaseSeconds["robustness"] == nil ? [] : ["robustness"])).map {
        String(format: "%@ %.3f s", $0, f.phaseSeconds[$0] ?? 0)
      }
    text += "Phases: " + phases.joined(separator: ", ") + ".\n"
    Terminal.out(text)
  }
}
