import Foundation
import ReloadMetrics
import WidgetModel

/// A scenario file, read and decoded: the one type for a decoded file,
/// whether read from disk (`ScenarioLoader`) or made for a sweep point.
struct LoadedScenario {
  /// The file it was read from (empty when decoded from memory).
  var path: String
  var scenario: Scenario
  let json: JSONValue
  /// The file's `sweep` block, if any: then the file is run once per point.
  var sweep: SweepSpec? = nil
  /// The file's `objective`, if any: it drives the recommendation.
  var objective: Objective? = nil
  /// What `reloadbench check` enforces (`expect`, `check`).
  var checkSpec = CheckSpec()
}

enum ScenarioLoader {
  static let defaultPath = "Scenarios/default.json"

  /// Reads and decodes `path`, whose `strategies` may name the presets and
  /// `strategies`' registered ones; every failure is bad input (exit 2)
  /// with the file, the JSON path and a fix on one line.
  static func load(_ path: String, strategies: StrategyRegistry) throws(CLIError) -> LoadedScenario {
    var contents: Data? = nil
    switch JSONLimits.read(path, max: JSONLimits.maxScenarioBytes) {
    case .data(let d): contents = d
    case .tooLarge(let size):
      throw .badInput(
        "\(path): the file is \(size) bytes, over the \(JSONLimits.size(JSONLimits.maxScenarioBytes)) a scenario may have "
          + "(fix: a scenario is a few KB; see \"Limits\" in Scenarios/README.md)")
    case .unreadable: break
    }
    guard let data = contents else {
      var isDir: ObjCBool = false
      if FileManager.default.fileExists(atPath: path, isDirectory: &isDir) {
        throw .badInput(
          isDir.boolValue
            ? "\(path) is a folder, not a scenario file (fix: pass a .json file, e.g. \(path)/default.json)"
            : access(path, R_OK) == 0
              ? "cannot read \(path): not a regular file (fix: pass a scenario .json file)"
              : "cannot read \(path): permission denied (fix: make the file readable, e.g. chmod a+r \(path))")
      }
      if path == defaultPath {
        throw .badInput(
          "no \(defaultPath) here (fix: run from the ReloadBench repository root, or pass a scenario file)")
      }
      throw .badInput("cannot read \(path): no such file (fix: check the path; 'reloadbench list' shows the scenarios)")
    }
    do {
      var file = try ScenarioDecoder.decodeFile(data, strategies: strategies)
      file.path = path
      return file
    } catch {
      throw .badInput(error.line(file: path))
    }
  }
}
