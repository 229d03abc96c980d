import Foundation
import ReloadReports

/// `reloadbench baseline save SCENARIO ...`: run scenarios and store their
/// summaries for `reloadbench check`.
enum BaselineCommand {
  static let options: [OptionSpec] = [
    OptionSpec("--to", "FILE", "Write the baseline to FILE (default Scenarios/baselines/<name>.json; one scenario only)."),
    OptionSpec("--threads", "N", "Worker threads (default: all cores). Results do not depend on it."),
    OptionSpec("--quiet", nil, "Print nothing but errors."),
  ]

  static let help = """
    USAGE: reloadbench baseline save SCENARIO ... [--to FILE] [OPTIONS]

    Runs each scenario and saves its summary as the baseline 'reloadbench check'
    compares with: every row and column of summary.csv at full precision (with the
    _ci95 half-widths when the scenario has replications), in
    Scenarios/baselines/<name>.json or FILE. The file records the scenario's content
    hash (sha256 of its canonical JSON without "$schema", "description", "expect",
    "check" and "objective", which change no result), the tool version and the model
    version; check
    refuses the baseline once the scenario or the model version has changed (a new
    tool version with the same model version is accepted).

    The run uses the scenario's own seed, replications and engine (--seed,
    --replications and --engine are refused): check reruns it exactly as saved.
    After an intended change, re-save and commit the baselines, e.g.

      reloadbench baseline save Scenarios/golden/*.json Scenarios/example.json

    OPTIONS:
    \(ArgumentParser.describe(options))

    The baseline never replaces a scenario file, and --to needs a file path ('-',
    stdout, is not supported).

    EXIT STATUS: 0 saved; 2 bad input (scenario, flags, unwritable path, a --to
    that names a scenario).
    """

  static func run(_ arguments: [String]) throws(CLIError) -> Int32 {
    guard let sub = arguments.first else {
      throw .badInput("baseline needs a subcommand: reloadbench baseline save SCENARIO (see 'reloadbench baseline --help')")
    }
    if sub == "--help" || sub == "-h" || sub == "help" {
      Terminal.out(help + "\n")
      return ExitStatus.success
    }
    guard sub == "save" else {
      let hint = SchemaValidator.nearest(sub, in: ["save"]).map { " (did you mean '\($0)'?)" } ?? ""
      throw .badInput("unknown baseline subcommand '\(sub)'\(hint); see 'reloadbench baseline --help'")
    }
    let rest = Array(arguments.dropFirst())
    try CheckCommand.refuseOverrides(rest, command: "baseline save")
    let parsed = try ArgumentParser.parse(rest, options: options, command: "baseline")
    if parsed.has("--help") {
      Terminal.out(help + "\n")
      return ExitStatus.success
    }
    guard !parsed.positionals.isEmpty else {
      throw .badInput("baseline save needs a scenario file: reloadbench baseline save SCENARIO ... (see 'reloadbench baseline --help')")
    }
    if parsed.value("--to") != nil && parsed.positionals.count > 1 {
      throw .badInput("--to names one file, but \(parsed.positionals.count) scenarios were given (fix: drop --to; each goes to Scenarios/baselines/<name>.json)")
    }
    if parsed.value("--to") == "-" {
      throw .badInput("--to needs a file path; '-' (stdout) is not supported for baselines (fix: pass --to FILE)")
    }
    let threads = try parsed.integer("--threads", in: 1...256, command: "baseline") ?? ProcessInfo.processInfo.activeProcessorCount
    let quiet = parsed.has("--quiet")
    var loaded: [LoadedScenario] = []
    for path in parsed.positionals { loaded.append(try ScenarioLoader.load(path)) }
    let targets = loaded.map { parsed.value("--to") ?? Baseline.defaultPath(for: $0.scenario.name) }
    if Set(targets).count < targets.count {
      throw .badInput("two scenarios would save to the same baseline file (fix: give them different names)")
    }
    // A baseline must not replace a scenario (or another baseline).
    var claims = PathClaims()
    for l in loaded { try claims.read(l.path, as: "the scenario") }
    for t in targets {
      if parsed.value("--to") != nil {
        try claims.write(t, as: "--to")
      } else {
        try claims.write(
          t, as: "the baseline file",
          fix: "pass --to with another file, or keep scenario files out of Scenarios/baselines/")
      }
    }
    for l in loaded { try MemoryEstimate.check(l.scenario) }
    for t in targets { try OutputWriter.prepare(parentDirectory(t), option: "--to") }
    let settings = RunCommand.Settings(out: nil, seed: nil, threads: threads, replications: nil, engine: nil, quiet: quiet)
    for (l, target) in zip(loaded, targets) {
      let report = RunCommand.simulate(l, settings: settings)
      let baseline = Baseline(l, summary: report.results.summary)
      try OutputWriter.writeFile(target, baseline.rendered())
      if !quiet {
        Terminal.out(
          "saved \(target): \(l.scenario.name), \(baseline.rows.count) rows x \(baseline.columns.count) metrics, "
            + "sha256 \(baseline.scenarioSHA256.prefix(12)), model \(baseline.modelVersion) "
            + String(format: "(%.2f s)\n", report.results.facts.wallSeconds))
      }
    }
    return ExitStatus.success
  }

  static func parentDirectory(_ path: String) -> String {
    PathText.folder(of: path)
  }
}
