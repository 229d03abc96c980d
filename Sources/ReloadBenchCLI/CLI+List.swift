import Foundation
import ReloadStrategies
import WidgetModel

/// `reloadbench list`: the strategy presets, the strategies registered in
/// Swift (none in `reloadbench` itself) and the scenario files.
struct ListCommand: Command {
  static let configuration = CommandConfiguration(
    name: "list",
    abstract: "List the strategy presets and the scenarios in Scenarios/.",
    usage: "[--assumptions]",
    discussion: """
      Lists the strategy presets (usable by name in a scenario's "strategies"), the
      strategies this executable registered in Swift (a team's own executable; see
      Examples/CustomStrategy) and the scenario files in Scenarios/. With --assumptions,
      lists instead the model's assumptions (docs/model.md#assumptions), each with its
      parameters and the named alternatives the sources allow.
      """)

  static let options = [
    OptionSpec("--assumptions", nil, "List the model's assumptions and their named alternatives instead.")
  ]

  let strategies: StrategyRegistry
  let assumptions: Bool

  init(_ parsed: ParsedArguments, strategies: StrategyRegistry) throws(CLIError) {
    self.strategies = strategies
    assumptions = parsed.has("--assumptions")
  }

  func run() throws(CLIError) -> Int32 {
    if assumptions {
      Terminal.out(Self.assumptionList())
      return ExitStatus.success
    }
    var out = "Strategy presets:\n"
    let width = (strategies.names.map(\.count).max() ?? 0) + 2
    for p in StrategyCatalog.presets {
      out += "  " + p.name + String(repeating: " ", count: width - p.name.count) + p.summary + "\n"
    }
    if !strategies.registered.isEmpty {
      out += "\nStrategies registered in Swift by this executable:\n"
      for s in strategies.registered {
        let what = s.code == nil ? "parts given in Swift" : "timelines from Swift code"
        out +=
          "  " + TerminalText.oneLine(s.name) + String(repeating: " ", count: max(1, width - s.name.count)) + what
          + "\n"
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

  /// The assumptions, their parameters and their alternatives, as text.
  static func assumptionList() -> String {
    var out = ""
    for a in Assumption.allCases {
      out +=
        "\(a.number). \(a.summary) (docs/model.md#\(a.anchors.joined(separator: ", #")))"
        + " [robustness: \(a.key)]\n"
      for p in a.parameters {
        out += "     model.\(p.path) = \(AssumptionReference.text(p.defaultValue, of: p)) (default)\n"
      }
      for alt in a.alternatives {
        out += "   \(alt.name): \(alt.summary) [\(alt.source)]\n"
        out +=
          "     sets "
          + alt.patch.settings.map {
            "model.\($0.parameter.path) = \(AssumptionReference.text($0.value, of: $0.parameter))"
          }.joined(separator: ", ") + "\n"
      }
    }
    return out
  }
}
