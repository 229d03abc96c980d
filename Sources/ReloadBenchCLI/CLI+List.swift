import Foundation
import ReloadCalibration
import ReloadReports
import ReloadStrategies
import WidgetModel

/// `reloadbench list`: the strategy presets, the strategies registered in
/// Swift (none in `reloadbench` itself) and the scenario files.
struct ListCommand: Command {
  static let configuration = CommandConfiguration(
    name: "list",
    abstract: "List the strategy presets and the scenarios in Scenarios/.",
    usage: "[--assumptions | --profiles] [--json]",
    discussion: """
      Lists the strategy presets (usable by name in a scenario's "strategies"), the
      strategies this executable registered in Swift (a team's own executable; see
      Examples/CustomStrategy) and the scenario files in Scenarios/. With --assumptions,
      lists instead the model's assumptions (docs/model.md#assumptions), each with its
      parameters and the named alternatives the sources allow. With --profiles, the
      model profiles a scenario can start from ("model": {"profile": NAME};
      docs/model.md#model-profiles), each with what it reads, rests on and sets.
      With --json, either list as JSON on stdout, each alternative's or profile's
      settings as a scenario's "model" block (for scripts that run them).
      """)

  static let options = [
    OptionSpec("--assumptions", nil, "List the model's assumptions and their named alternatives instead."),
    OptionSpec("--profiles", nil, "List the model profiles instead."),
    OptionSpec("--json", nil, "With --assumptions or --profiles: write the list as JSON."),
  ]

  let strategies: StrategyRegistry
  let assumptions: Bool
  let profiles: Bool
  let json: Bool

  init(_ parsed: ParsedArguments, strategies: StrategyRegistry) throws(CLIError) {
    self.strategies = strategies
    assumptions = parsed.has("--assumptions")
    profiles = parsed.has("--profiles")
    json = parsed.has("--json")
    if assumptions && profiles {
      throw .badInput("list: --assumptions and --profiles are two lists (fix: give one of them)")
    }
    if json && !assumptions && !profiles {
      throw .badInput("list: --json writes the assumptions or the profiles (fix: add --assumptions or --profiles)")
    }
  }

  func run() throws(CLIError) -> Int32 {
    if assumptions {
      Terminal.out(json ? Self.assumptionJSON().text(.document) + "\n" : Self.assumptionList())
      return ExitStatus.success
    }
    if profiles {
      Terminal.out(json ? Self.profileJSON().text(.document) + "\n" : Self.profileList())
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

  /// `model.budget.accrual = "sliding_window", ...`: what a patch sets.
  static func settings(_ patch: ModelPatch) -> String {
    patch.isEmpty
      ? "nothing: every parameter at its default"
      : patch.settings.map { "model.\($0.parameter.path) = \(AssumptionReference.text($0.value, of: $0.parameter))" }
        .joined(separator: ", ")
  }

  /// The model profiles, what each reads, rests on and sets, as text.
  static func profileList() -> String {
    var out = "Model profiles (\"model\": {\"profile\": NAME}; docs/model.md#model-profiles):\n"
    for p in ModelProfile.all {
      out += "  \(p.name): \(p.summary) [\(p.sources)]\n"
      out += "     sets \(settings(p.patch))\n"
    }
    return out + "Model version \(ModelVersion.current) (docs/model.md#model-versions).\n"
  }

  /// The profiles as JSON: name, reading, sources, the alternatives they
  /// take, and their settings as a scenario's `model` block.
  static func profileJSON() -> JSON {
    let list = ModelProfile.all.map { p -> JSON in
      .object([
        (key: "name", value: .string(p.name)), (key: "summary", value: .string(p.summary)),
        (key: "sources", value: .string(p.sources)), (key: "anchor", value: .string(p.anchor)),
        (
          key: "alternatives",
          value: .array(
            p.alternatives.map {
              .object([
                (key: "assumption", value: .integer($0.assumption.number)), (key: "name", value: .string($0.name)),
              ])
            })
        ),
        (key: "model", value: p.patch.scenarioBlock),
      ])
    }
    return .object([
      (key: "model_version", value: .integer(ModelVersion.current)), (key: "profiles", value: .array(list)),
    ])
  }

  /// The assumptions as JSON: number, summary, parameters, and each named
  /// alternative with its settings as a scenario's `model` block.
  static func assumptionJSON() -> JSON {
    let list = Assumption.allCases.map { a -> JSON in
      .object([
        (key: "number", value: .integer(a.number)), (key: "summary", value: .string(a.summary)),
        (key: "parameters", value: .array(a.parameters.map { .string($0.path) })),
        (
          key: "alternatives",
          value: .array(
            a.alternatives.map { alt in
              .object([
                (key: "name", value: .string(alt.name)), (key: "summary", value: .string(alt.summary)),
                (key: "source", value: .string(alt.source)), (key: "model", value: alt.patch.scenarioBlock),
              ])
            })
        ),
      ])
    }
    return .object([
      (key: "model_version", value: .integer(ModelVersion.current)), (key: "assumptions", value: .array(list)),
    ])
  }
}
