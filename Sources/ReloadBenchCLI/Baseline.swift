import Foundation
import ReloadMetrics
import WidgetModel

/// A stored summary that `reloadbench check` compares new runs with:
/// every row and column of `summary.csv` at full precision (with the
/// `_ci95` half-widths when the scenario has replications), tied to the
/// scenario by a content hash and to the model by `modelVersion`.
///
/// The file is pretty-printed JSON with sorted keys and one metric per line
/// (values by name, not by position), so a re-saved baseline reads as a
/// diff of named metrics in review. It holds no date, so saving twice gives
/// the same bytes.
struct Baseline: Codable, Equatable {
  static let formatName = "reloadbench-baseline"
  static let currentFormatVersion = 1
  /// Where `baseline save` writes and `check` looks by default.
  static func defaultPath(for scenario: String) -> String { "Scenarios/baselines/\(scenario).json" }

  struct Row: Codable, Equatable {
    var policy: String
    var segment: String
    var values: [String: Double?]
    var ci95: [String: Double?]?
  }

  var format: String
  var formatVersion: Int
  var scenario: String
  var scenarioSHA256: String
  /// The scenario as hashed (`ScenarioHash.canonicalText`), so that `check`
  /// can name the fields a later version changed (nil in older baselines).
  var scenarioCanonical: String?
  var toolVersion: String
  var modelVersion: String
  var seed: UInt64
  var replications: Int
  var engine: String
  /// The metric columns in `summary.csv` order.
  var columns: [String]
  var rows: [Row]

  enum CodingKeys: String, CodingKey {
    case format, scenario, seed, replications, engine, columns, rows
    case formatVersion = "format_version"
    case scenarioSHA256 = "scenario_sha256"
    case scenarioCanonical = "scenario_canonical"
    case toolVersion = "tool_version"
    case modelVersion = "model_version"
  }

  init(_ loaded: LoadedScenario, summary: ResultTable) {
    format = Self.formatName
    formatVersion = Self.currentFormatVersion
    scenario = loaded.scenario.name
    scenarioSHA256 = ScenarioHash.sha256(loaded.json)
    scenarioCanonical = ScenarioHash.canonicalText(loaded.json)
    toolVersion = ReloadBenchCLI.version
    modelVersion = ReloadBenchCLI.modelVersion
    seed = loaded.scenario.seed
    replications = loaded.scenario.replications
    engine = loaded.scenario.engine.rawValue
    columns = summary.columns.map(\.name)
    rows = summary.rows.map { r in
      var values: [String: Double?] = [:]
      var ci: [String: Double?]? = r.ci95 == nil ? nil : [:]
      for (i, c) in summary.columns.enumerated() {
        // `updateValue` keeps a nil value as an explicit null (a subscript
        // assignment of nil would drop the key).
        let value: Double? = i < r.values.count ? r.values[i] : nil
        values.updateValue(value, forKey: c.name)
        if let half = r.ci95, i < half.count, let h = half[i] { ci?.updateValue(h, forKey: c.name) }
      }
      return Row(policy: r.strategy, segment: r.segment, values: values, ci95: ci)
    }
  }

  /// The stored summary as a result table. Columns this version of the
  /// tool does not know come back as neutral metrics (reported, never a
  /// regression).
  var table: ResultTable {
    let metrics = columns.map { name in
      SummaryMetrics.metric(named: name)
        ?? Metric(name, unit: .count, polarity: .neutral, decimals: 3, definition: "Not a metric of this version.")
    }
    return ResultTable(
      columns: metrics,
      rows: rows.map { r in
        ResultRow(
          scenario: scenario, strategy: r.policy, segment: r.segment, values: columns.map { r.values[$0] ?? nil },
          ci95: r.ci95.map { ci in columns.map { ci[$0] ?? nil } })
      })
  }

  /// The file's text.
  func rendered() -> String {
    JSONFiles.text(self, pretty: true) + "\n"
  }

  /// Reads a baseline; anything wrong with the file is bad input (exit 2)
  /// naming the file and the `save` command that makes a good one.
  static func load(_ path: String, save: String) throws(CLIError) -> Baseline {
    var contents: Data? = nil
    switch JSONLimits.read(path, max: JSONLimits.maxBaselineBytes) {
    case .data(let d): contents = d
    case .tooLarge(let size):
      throw .badInput(
        "\(path): the file is \(size) bytes, over the \(JSONLimits.size(JSONLimits.maxBaselineBytes)) a baseline "
          + "may have "
          + "(fix: pass a baseline file, or re-save it: \(save); see \"Limits\" in Scenarios/README.md)")
    case .unreadable: break
    }
    guard let data = contents else {
      if FileManager.default.fileExists(atPath: path) {
        throw .badInput("cannot read baseline \(path): permission denied or a folder (fix: pass a baseline file)")
      }
      throw .badInput("cannot read baseline \(path): no such file (fix: check the path, or save one: \(save))")
    }
    return try decode(data, path: path, save: save)
  }

  /// Reads a baseline from the bytes of the file at `path`.
  static func decode(_ data: Data, path: String, save: String) throws(CLIError) -> Baseline {
    let fix = "re-save it: \(save)"
    func corrupt(_ why: String) -> CLIError {
      .badInput("\(path): not a reloadbench baseline (\(why)) (fix: \(fix))")
    }
    let json: JSONValue
    do {
      json = try JSONValue.parse(data)
    } catch {
      switch error.kind {
      case .duplicateKey(let key):
        throw corrupt("the key \(TerminalText.quoted(key)) is given twice at \(error.path), \(error.location)")
      case .tooDeep: throw corrupt("arrays and objects nest more than \(JSONLimits.maxDepth) deep at \(error.location)")
      case .syntax, .notRepresentable: throw corrupt("not valid JSON at \(error.location): \(error.detail)")
      }
    }
    guard case .object(let o) = json else { throw corrupt("expected an object, got \(json.kindName)") }
    guard case .string(let format)? = o["format"], format == formatName else {
      throw corrupt("no \"format\": \"\(formatName)\"")
    }
    // Compared as a Double: Int(1e300) would trap.
    if case .number(let v)? = o["format_version"], v > Double(currentFormatVersion) {
      throw .badInput(
        "\(path): baseline format \(SchemaValidator.format(v)) is newer than this reloadbench reads "
          + "(\(currentFormatVersion)) "
          + "(fix: use a newer reloadbench, or \(fix))")
    }
    let baseline: Baseline
    do {
      baseline = try JSONFiles.decode(Baseline.self, from: data)
    } catch {
      throw corrupt(describe(error))
    }
    if baseline.columns.isEmpty || baseline.rows.isEmpty { throw corrupt("no columns or no rows") }
    if Set(baseline.columns).count != baseline.columns.count { throw corrupt("a column is listed twice") }
    if EngineMode(rawValue: baseline.engine) == nil {
      let known = EngineMode.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
      throw corrupt("\"engine\" is \(TerminalText.quoted(baseline.engine)), which is not an engine (\(known))")
    }
    var seen: Set<[String]> = []
    for r in baseline.rows {
      if let unknown = r.values.keys.first(where: { !baseline.columns.contains($0) }) {
        throw corrupt(
          "row \(TerminalText.short(r.policy)) / \(TerminalText.short(r.segment)) has "
            + "\(TerminalText.quoted(unknown)), which is not in \"columns\""
        )
      }
      if !seen.insert([r.policy, r.segment]).inserted {
        throw corrupt("row \(TerminalText.short(r.policy)) / \(TerminalText.short(r.segment)) is listed twice")
      }
    }
    return baseline
  }

  /// A decoding error in a few words: which key, what was wrong.
  static func describe(_ error: Error) -> String {
    guard let e = error as? DecodingError else { return "\(error)" }
    func path(_ keys: [any CodingKey]) -> String {
      keys.map { k in k.intValue.map { "[\($0)]" } ?? ".\(k.stringValue)" }.joined()
    }
    switch e {
    case .keyNotFound(let key, let context): return "missing \"\(key.stringValue)\" at $\(path(context.codingPath))"
    case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
      return "unexpected value at $\(path(context.codingPath))"
    @unknown default: return "\(error)"
    }
  }
}

/// The content hash that ties a baseline to its scenario.
enum ScenarioHash {
  /// Top-level keys that do not change any result, so editing them keeps
  /// the baseline valid: the schema link, the description, what `check`
  /// enforces, the objective (it only picks the recommendation) and the
  /// model version the file was written for (it only warns; the baseline
  /// records the version it was saved under).
  static let ignoredKeys: Set<String> = [
    "$schema", "title", "description", "expect", "check", "objective", ScenarioSchema.modelVersionKey,
  ]

  /// The scenario as canonical JSON text: keys sorted, fixed separators,
  /// numbers in their shortest exact form, without `ignoredKeys`. Two
  /// files that differ only in layout or key order hash the same.
  static func canonicalText(_ json: JSONValue) -> String {
    guard case .object(var o) = json else { return json.jsonText }
    for key in ignoredKeys { o[key] = nil }
    return JSONValue.object(o).jsonText
  }

  static func sha256(_ json: JSONValue) -> String { SHA256.hex(Array(canonicalText(json).utf8)) }
}
