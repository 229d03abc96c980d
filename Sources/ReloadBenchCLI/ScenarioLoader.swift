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
  /// For a file written for an older model version: the warning naming the
  /// defaults changed since (`ScenarioDecoder.versionWarning`), which the
  /// command prints once, on stderr, unless `--quiet`.
  var versionWarning: String? = nil
  /// Defaults the file probably did not mean (`ScenarioDecoder.clockWarnings`).
  var clockWarnings: [String] = []
  /// Every warning, printed like the version warning.
  var warnings: [String] { (versionWarning.map { [$0] } ?? []) + clockWarnings }
  /// The file's `robustness` block, if any: then `run` says whether its
  /// recommendation is robust, and `robustness` runs what it chooses.
  var robustness: RobustnessSpec? = nil
}

enum ScenarioLoader {
  static let defaultPath = "Scenarios/default.json"

  /// Reads and decodes `path`, whose `strategies` may name the presets and
  /// `strategies`' registered ones; every failure is bad input (exit 2)
  /// with the file, the JSON path and a fix on one line.
  ///
  /// With `profile` (`--profile`), the file runs under that model profile
  /// as if its `model` named it, its own model fields still over it.
  static func load(
    _ path: String, strategies: StrategyRegistry, profile: String? = nil
  ) throws(CLIError) -> LoadedScenario {
    var json = try resolvedJSON(path, chain: [])
    if let profile {
      json = overlay(json, with: .object(["model": .object([ScenarioSchema.profileKey: .string(profile)])]))
    }
    do {
      var file = try ScenarioDecoder.decode(json: json, strategies: strategies)
      file.path = path
      return file
    } catch {
      throw .badInput(error.line(file: path))
    }
  }

  /// How many files one `extends` chain may hold.
  static let maxExtendsDepth = 8

  /// The file's JSON with its `extends` chain resolved: the base file
  /// (a path relative to this file's folder, itself resolved first), with
  /// this file's keys laid over it (`ScenarioLoader.overlay`). `chain`
  /// holds the files that extend this one, to refuse a cycle.
  static func resolvedJSON(_ path: String, chain: [String]) throws(CLIError) -> JSONValue {
    let data = try read(path, extendedBy: chain.last)
    let json: JSONValue
    do {
      json = try JSONValue.parse(data)
    } catch {
      throw .badInput(ScenarioDecoder.parseError(error).line(file: path))
    }
    guard case .object(var fields) = json, let base = fields["extends"] else { return json }
    guard case .string(let relative) = base, !relative.isEmpty else {
      throw .badInput(
        "\(path): $.extends: is \(base.kindName), not a file name "
          + "(fix: give the path of the scenario this one builds on, relative to this file, e.g. \"../apps/loop.json\")"
      )
    }
    let basePath = relative.hasPrefix("/") ? relative : PathText.join(PathText.folder(of: path), relative)
    let here = chain + [path]
    let key = PathText.standardized(basePath)
    if here.map(PathText.standardized).contains(key) {
      throw .badInput(
        "\(path): $.extends: \(basePath) extends, directly or through other files, \(path) itself "
          + "(fix: break the cycle: a scenario builds on a file that does not build on it)")
    }
    if here.count >= maxExtendsDepth {
      throw .badInput(
        "\(path): $.extends: the chain of files built on one another is longer than \(maxExtendsDepth) "
          + "(fix: copy the settings you need into fewer files)")
    }
    fields["extends"] = nil
    return overlay(try resolvedJSON(basePath, chain: here), with: .object(fields))
  }

  /// `top` laid over `base`: objects merge key by key (recursively), any
  /// other value of `top` (a number, a string, an array) replaces the
  /// base's. So a file that extends another changes one model parameter by
  /// naming only it, and replaces a whole list (`strategies`) by giving it.
  static func overlay(_ base: JSONValue, with top: JSONValue) -> JSONValue {
    guard case .object(var merged) = base, case .object(let over) = top else { return top }
    for (key, value) in over {
      merged[key] = merged[key].map { overlay($0, with: value) } ?? value
    }
    return .object(merged)
  }

  /// The bytes of a scenario file; every failure is bad input with a fix.
  static func read(_ path: String, extendedBy parent: String?) throws(CLIError) -> Data {
    let via = parent.map { " (named by $.extends of \($0))" } ?? ""
    var contents: Data? = nil
    switch JSONLimits.read(path, max: JSONLimits.maxScenarioBytes) {
    case .data(let d): contents = d
    case .tooLarge(let size):
      throw .badInput(
        "\(path)\(via): the file is \(size) bytes, over the \(JSONLimits.size(JSONLimits.maxScenarioBytes)) a "
          + "scenario may have "
          + "(fix: a scenario is a few KB; see \"Limits\" in Scenarios/README.md)")
    case .unreadable: break
    }
    if let data = contents { return data }
    var isDir: ObjCBool = false
    if FileManager.default.fileExists(atPath: path, isDirectory: &isDir) {
      throw .badInput(
        isDir.boolValue
          ? "\(path)\(via) is a folder, not a scenario file (fix: pass a .json file, e.g. \(path)/default.json)"
          : access(path, R_OK) == 0
            ? "cannot read \(path)\(via): not a regular file (fix: pass a scenario .json file)"
            : "cannot read \(path)\(via): permission denied (fix: make the file readable, e.g. chmod a+r \(path))")
    }
    if path == defaultPath && parent == nil {
      throw .badInput(
        "no \(defaultPath) here (fix: run from the ReloadBench repository root, or pass a scenario file)")
    }
    if let parent {
      throw .badInput(
        "\(parent): $.extends: cannot read \(path): no such file (fix: the path is relative to \(parent)'s folder)")
    }
    throw .badInput("cannot read \(path): no such file (fix: check the path; 'reloadbench list' shows the scenarios)")
  }
}
