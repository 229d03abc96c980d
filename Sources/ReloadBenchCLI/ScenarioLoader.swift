import Foundation
import WidgetModel

/// A scenario file, read and decoded.
struct LoadedScenario {
  let path: String
  var scenario: Scenario
  let json: JSONValue
  /// What `reloadbench check` enforces (`expect`, `check`).
  var checkSpec = CheckSpec()
}

enum ScenarioLoader {
  static let defaultPath = "Scenarios/default.json"

  /// Reads and decodes `path`; every failure is bad input (exit 2) with the
  /// file, the JSON path and a fix on one line.
  static func load(_ path: String) throws(CLIError) -> LoadedScenario {
    guard let data = FileManager.default.contents(atPath: path) else {
      var isDir: ObjCBool = false
      if FileManager.default.fileExists(atPath: path, isDirectory: &isDir) {
        throw .badInput(
          isDir.boolValue
            ? "\(path) is a folder, not a scenario file (fix: pass a .json file, e.g. \(path)/default.json)"
            : "cannot read \(path): permission denied")
      }
      if path == defaultPath {
        throw .badInput(
          "no \(defaultPath) here (fix: run from the ReloadBench repository root, or pass a scenario file)")
      }
      throw .badInput("cannot read \(path): no such file (fix: check the path; 'reloadbench list' shows the scenarios)")
    }
    do {
      let (scenario, json) = try ScenarioDecoder.decode(data)
      let spec = try ScenarioDecoder.checkSpec(SchemaReader(json, ScenarioSchema.root, path: "$", log: nil), scenario: scenario)
      return LoadedScenario(path: path, scenario: scenario, json: json, checkSpec: spec)
    } catch {
      throw .badInput(error.line(file: path))
    }
  }
}
