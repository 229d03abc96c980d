import Foundation
import ReloadStrategies

/// `reloadbench list`: the strategy presets, the strategies registered in
/// Swift (none in `reloadbench` itself) and the scenario files.
struct ListCommand: Command {
  static let configuration = CommandConfiguration(
    name: "list",
    abstract: "List the strategy presets and the scenarios in Scenarios/.",
    usage: "",
    discussion: """
      Lists the strategy presets (usable by name in a scenario's "strategies"), the
      strategies this executable registered in Swift (a team's own executable; see
      Examples/CustomStrategy) and the scenario files in Scenarios/.
      """)

  let strategies: StrategyRegistry

  init(_ parsed: ParsedArguments, strategies: StrategyRegistry) throws(CLIError) { self.strategies = strategies }

  func run() throws(CLIError) -> Int32 {
    var out = "Strategy presets:\n"
    let width = (strategies.names.map(\.count).max() ?? 0) + 2
    for p in StrategyCatalog.presets {
      out += "  " + p.name + String(repeating: " ", count: width - p.name.count) + p.summary + "\n"
    }
    if !strategies.registered.isEmpty {
      out += "\nStrategies registered in Swift by this executable:\n"
      for s in strategies.registered {
        let what = s.code == nil ? "parts given in Swift" : "timelines from Swift code"
        out += "  " + TerminalText.oneLine(s.name) + String(repeating: " ", count: max(1, width - s.name.count)) + what + "\n"
      }
    }
    let files = ((try? FileManager.default.contentsOfDirectory(atPath: "Scenarios")) ?? [])
      .filter { $0.hasSuffix(".json") && $0 != "scenario.schema.json" }.sorted()
    if !files.isEmpty {
      out += "\nScenarios:\n" + files.map { "  Scenarios/\($0)" }.joined(separator: "\n") + "\n"
    }
    Terminal.out(out)
    return ExitStatus.success
  }
}
