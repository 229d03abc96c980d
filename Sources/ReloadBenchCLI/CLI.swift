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

  /// A subcommand: its name, its one-line summary, and its entry point.
  struct Entry: Sendable {
    let name: String
    let summary: String
    let main: @Sendable ([String]) throws(CLIError) -> Int32

    init(_ name: String, _ summary: String, _ main: @escaping @Sendable ([String]) throws(CLIError) -> Int32) {
      self.name = name
      self.summary = summary
      self.main = main
    }

    init<C: Command>(_ command: C.Type) {
      self.init(C.configuration.name, C.configuration.abstract) { (a: [String]) throws(CLIError) -> Int32 in
        try C.main(a)
      }
    }
  }

  static let commands: [Entry] = [
    Entry(RunCommand.self),
    Entry(CheckCommand.self),
    Entry("baseline", BaselineCommand.abstract) { (a: [String]) throws(CLIError) -> Int32 in try BaselineCommand.main(a) },
    Entry(BenchCommand.self),
    Entry(SweepCommand.self),
    Entry(ListCommand.self),
    Entry("schema", "Write Scenarios/scenario.schema.json and the field reference in Scenarios/README.md.") {
      (a: [String]) throws(CLIError) -> Int32 in try SchemaCommand.run(a)
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
    guard let first = arguments.first else { return try RunCommand.main([]) }
    let rest = Array(arguments.dropFirst())
    switch first {
    case "--help", "-h", "help":
      Terminal.out(helpText + "\n")
      return ExitStatus.success
    case "--version":
      Terminal.out("reloadbench \(version)\n")
      return ExitStatus.success
    default:
      if let command = commands.first(where: { $0.name == first }) { return try command.main(rest) }
      if first.hasSuffix(".json") || first.hasPrefix("--") { return try RunCommand.main(arguments) }
      let names = commands.map(\.name)
      let hint = SchemaValidator.nearest(first, in: names).map { " (did you mean '\($0)'?)" } ?? ""
      throw .badInput("unknown command '\(first)'\(hint); see 'reloadbench --help'")
    }
  }
}
