import Foundation
import ReloadStrategies

/// `reloadbench list`: the strategy presets and the scenario files.
struct ListCommand: Command {
  static let configuration = CommandConfiguration(
    name: "list",
    abstract: "List the strategy presets and the scenarios in Scenarios/.",
    usage: "",
    discussion: """
      Lists the strategy presets (usable by name in a scenario's "strategies") and
      the scenario files in Scenarios/.
      """)

  init(_ parsed: ParsedArguments) throws(CLIError) {}

  func run() throws(CLIError) -> Int32 {
    var out = "Strategy presets:\n"
    let width = (StrategyCatalog.names.map(\.count).max() ?? 0) + 2
    for p in StrategyCatalog.presets {
      out += "  " + p.name + String(repeating: " ", count: width - p.name.count) + p.summary + "\n"
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
