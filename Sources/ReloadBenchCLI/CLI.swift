import Foundation
import ReloadEngine

/// The `reloadbench` command line: parses `argv`, dispatches to a
/// subcommand, and turns errors into one line on stderr and an exit status.
public enum ReloadBenchCLI {
  public static let version = "0.1.0"

  /// The version of the model's semantics, stored in every baseline.
  ///
  /// Bump it when a change to the model, a metric's definition or a
  /// default changes the results of an unchanged scenario on purpose:
  /// `reloadbench check` then refuses the old baselines (exit 2, "re-save
  /// the baseline") instead of reporting the change as regressions. After
  /// bumping, re-save the committed baselines:
  ///
  ///     reloadbench baseline save Scenarios/golden/*.json Scenarios/example.json
  public static let modelVersion = "1"

  static let commands: [(name: String, summary: String)] = [
    ("run", "Simulate scenarios and write CSV + HTML reports (the default command)."),
    ("check", "Rerun scenarios; check their expectations and compare with baselines (for CI)."),
    ("baseline", "Save a scenario's summary as the baseline that 'check' compares with."),
    ("bench", "Benchmark the engine and the model: R1, scenarios, the hold model; medians and memory."),
    ("sweep", "Run a scenario over its sweep grid; write sweep.csv + sweep.html and a recommendation."),
    ("list", "List the strategy presets and the scenarios in Scenarios/."),
    ("schema", "Write Scenarios/scenario.schema.json and the field reference in Scenarios/README.md."),
  ]

  static var helpText: String {
    let width = (commands.map(\.name.count).max() ?? 0) + 2
    let list = commands.map { "  " + $0.name + String(repeating: " ", count: width - $0.name.count) + $0.summary }
    return """
      ReloadBench \(version): simulates how iOS schedules WidgetKit timeline reloads and compares
      reload strategies on the same users: freshness at each glance, budget, backend load, energy.

      USAGE: reloadbench [COMMAND] [OPTIONS]
             reloadbench                       (runs Scenarios/default.json)

      COMMANDS:
      \(list.joined(separator: "\n"))

      Run 'reloadbench COMMAND --help' for a command's options.

      OPTIONS:
        --help       Show this help.
        --version    Print the version.

      EXIT STATUS:
        0  success: every expectation holds and nothing regressed
        1  check: an expectation failed or a metric regressed (with --fail-on-change:
           any metric moved); bench --baseline: a case slowed beyond --noise
        2  bad input: scenario, baseline (missing, corrupt, from another scenario or
           model version), flags or an unwritable path
      """
  }

  /// Runs the command line `arguments` (without the program name).
  public static func main(_ arguments: [String]) -> Int32 {
    do {
      return try dispatch(arguments)
    } catch {
      Terminal.err("error: \(error.message)\n")
      return error.exitCode
    }
  }

  static func dispatch(_ arguments: [String]) throws(CLIError) -> Int32 {
    guard let first = arguments.first else { return try RunCommand.run([]) }
    let rest = Array(arguments.dropFirst())
    switch first {
    case "--help", "-h", "help":
      Terminal.out(helpText + "\n")
      return ExitStatus.success
    case "--version":
      Terminal.out("reloadbench \(version)\n")
      return ExitStatus.success
    case "run": return try RunCommand.run(rest)
    case "sweep": return try SweepCommand.run(rest)
    case "list": return try ListCommand.run(rest)
    case "check": return try CheckCommand.run(rest)
    case "baseline": return try BaselineCommand.run(rest)
    case "bench": return try BenchCommand.run(rest)
    case "schema": return try SchemaCommand.run(rest)
    default:
      if first.hasSuffix(".json") || first.hasPrefix("--") { return try RunCommand.run(arguments) }
      let names = commands.map(\.name)
      let hint = SchemaValidator.nearest(first, in: names).map { " (did you mean '\($0)'?)" } ?? ""
      throw .badInput("unknown command '\(first)'\(hint); see 'reloadbench --help'")
    }
  }
}
