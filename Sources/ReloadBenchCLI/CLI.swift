import Foundation
import ReloadEngine
import WidgetModel

/// The `reloadbench` command line: parses `argv`, dispatches to a
/// subcommand, and turns errors into one line on stderr and an exit status.
public enum ReloadBenchCLI {
  public static let version = "0.1.0"

  /// The version of the model's semantics (`ModelVersion.current`, from the
  /// version history in WidgetModel), stored in every baseline and checked
  /// against a scenario's `model_version`.
  ///
  /// A new version is one entry in `ModelVersion.history` (a change to the
  /// model, a metric's definition or a default that changes the results of
  /// an unchanged scenario on purpose): `reloadbench check` then refuses the
  /// old baselines (exit 2, "re-save the baseline") instead of reporting the
  /// change as regressions, and scenarios written for the old version warn.
  /// After adding one, re-save the committed baselines and set the shipped
  /// scenarios' `model_version`:
  ///
  ///     reloadbench baseline save Scenarios/golden/*.json Scenarios/example.json
  public static let modelVersion = String(ModelVersion.current)

  /// A subcommand: its name, its one-line summary, and its entry point
  /// (the arguments after its name, and the strategies scenarios may name).
  struct Entry: Sendable {
    typealias Main = @Sendable ([String], StrategyRegistry) throws(CLIError) -> Int32
    let name: String
    let summary: String
    let main: Main

    init(_ name: String, _ summary: String, _ main: @escaping Main) {
      self.name = name
      self.summary = summary
      self.main = main
    }

    init<C: Command>(_ command: C.Type) {
      self.init(C.configuration.name, C.configuration.abstract) {
        (a: [String], s: StrategyRegistry) throws(CLIError) -> Int32 in try C.main(a, strategies: s)
      }
    }
  }

  static let commands: [Entry] = [
    Entry(RunCommand.self),
    Entry(CheckCommand.self),
    Entry("baseline", BaselineCommand.abstract) {
      (a: [String], s: StrategyRegistry) throws(CLIError) -> Int32 in try BaselineCommand.main(a, strategies: s)
    },
    Entry(BenchCommand.self),
    Entry(SweepCommand.self),
    Entry(RobustnessCommand.self),
    Entry(CompareCommand.self),
    Entry(MergeCommand.self),
    Entry(ListCommand.self),
    Entry(CalibrateCommand.self),
    // The schema documents the presets only, whatever is registered.
    Entry("schema", "Write Scenarios/scenario.schema.json and the field reference in Scenarios/README.md.") {
      (a: [String], _: StrategyRegistry) throws(CLIError) -> Int32 in try SchemaCommand.run(a)
    },
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

  /// Runs the command line `arguments` (without the program name): the
  /// `reloadbench` executable, with the strategy presets.
  public static func main(_ arguments: [String]) -> Int32 {
    main(arguments, strategies: [])
  }

  /// The whole command line (`run`, `sweep`, `check`, `baseline save`,
  /// `bench`, `list`, reports) for a team's own executable, with its
  /// `strategies` registered by name: a scenario names one in `strategies`
  /// exactly like a preset (`"strategies": ["prices", "poll-15m"]`), or
  /// starts an object from it (`{"name": ..., "preset": "prices", "app": ...}`).
  ///
  ///     // main.swift of the team's executable
  ///     import Foundation
  ///     import ReloadBenchCLI
  ///     import WidgetModel
  ///
  ///     exit(ReloadBenchCLI.main(strategies: [
  ///       Strategy(name: "prices", code: PricesProvider(), triggers: [AppTrigger(on: .foreground)])
  ///     ]))
  ///
  /// Each strategy needs a name of its own that is no preset's; otherwise
  /// every command exits with status 2 and one line naming the strategy
  /// and the fix, before reading any scenario. `reloadbench schema` still
  /// documents the presets only. See `Examples/CustomStrategy`.
  ///
  /// - Parameters:
  ///   - arguments: the command line without the program name (default:
  ///     this process's).
  ///   - strategies: the strategies written in Swift (`Strategy.code`, or
  ///     parts given in Swift), in the order `reloadbench list` shows them.
  /// - Returns: the exit status (0 success, 1 a check failed, 2 bad input).
  public static func main(
    _ arguments: [String] = Array(CommandLine.arguments.dropFirst()), strategies: [Strategy]
  ) -> Int32 {
    do {
      return try run(arguments, strategies: strategies)
    } catch {
      Terminal.err("error: \(error.message)\n")
      return error.exitCode
    }
  }

  /// `main` without printing the error: checks the registration first,
  /// before any argument or scenario is read.
  static func run(_ arguments: [String], strategies: [Strategy]) throws(CLIError) -> Int32 {
    let registry = strategies.isEmpty ? StrategyRegistry.presets : try StrategyRegistry(strategies)
    return try dispatch(arguments, strategies: registry)
  }

  static func dispatch(_ arguments: [String], strategies: StrategyRegistry) throws(CLIError) -> Int32 {
    guard let first = arguments.first else { return try RunCommand.main([], strategies: strategies) }
    let rest = Array(arguments.dropFirst())
    switch first {
    case "--help", "-h", "help":
      Terminal.out(helpText + "\n")
      return ExitStatus.success
    case "--version":
      // The model version is what a scenario's "model_version" names.
      Terminal.out("reloadbench \(version) (model version \(modelVersion))\n")
      return ExitStatus.success
    default:
      if let command = commands.first(where: { $0.name == first }) { return try command.main(rest, strategies) }
      if first.hasSuffix(".json") || first.hasPrefix("--") {
        return try RunCommand.main(arguments, strategies: strategies)
      }
      let names = commands.map(\.name)
      let hint = SchemaValidator.nearest(first, in: names).map { " (did you mean '\($0)'?)" } ?? ""
      throw .badInput("unknown command '\(first)'\(hint); see 'reloadbench --help'")
    }
  }
}
