import Foundation
import ReloadMetrics
import ReloadReports

/// `reloadbench compare BASE NEW`: two runs side by side (compare.md,
/// compare.html), for a pull request or a planning meeting.
struct CompareCommand: Command {
  static let configuration = CommandConfiguration(
    name: "compare",
    abstract: "Compare two runs: headline figures side by side with their noise bands (compare.md, compare.html).",
    usage: "BASE NEW [--out DIR] [OPTIONS]",
    discussion: """
      Each of BASE and NEW is a run folder (its results.json), a results.json, a
      baseline ('reloadbench baseline save') or a scenario file (run now, with its own
      seed). Strategies and segments are matched by name, metrics by the catalogue;
      each change is judged against its noise band (the check's tolerance per unit, or
      the 95 % interval of the difference when both have replications). When both
      sides carry their scenario (a scenario file, or a baseline saved by this
      version), the fields that changed are named.

      Writes compare.md (the headline table and what moved, for a pull request's
      description; with $GITHUB_STEP_SUMMARY set it is appended there too) and
      compare.html (the same with a chart per headline metric), and prints the
      Markdown.
      """,
    arguments: [
      ("BASE", "The run before: a run folder, results.json, baseline or scenario file."),
      ("NEW", "The run after, of the same kinds."),
    ],
    exitStatus: "0 compared (whatever moved); 2 bad input (unreadable or unknown files, unwritable --out).")

  static let common: [CommonOptions.Key: String?] = [
    .out: "Write compare.md and compare.html to DIR (default Reports/compare).", .threads: nil, .quiet: nil,
  ]

  static let files = ["compare.md", "compare.html"]

  var paths: [String]
  var pipeline: Pipeline

  init(_ parsed: ParsedArguments, strategies: StrategyRegistry) throws(CLIError) {
    paths = parsed.positionals
    pipeline = Pipeline(options: try CommonOptions(parsed, command: "compare"), strategies: strategies)
  }

  func validate() throws(CLIError) {
    guard paths.count == 2 else {
      throw .badInput(
        "compare takes two runs, BASE and NEW, got \(paths.count) (see 'reloadbench compare --help')")
    }
  }

  /// One side: its summary, a name, and its scenario as hashed when known.
  struct Side {
    var name: String
    var table: ResultTable
    var scenario: JSONValue?
  }

  func run() throws(CLIError) -> Int32 {
    let dir = pipeline.options.out ?? "Reports/compare"
    try pipeline.validate(
      paths: paths.map { .read($0, as: "a run to compare") } + [
        .folder(dir, as: "the --out folder", files: Self.files, fix: "pass --out with another folder")
      ])
    let base = try side(paths[0])
    let new = try side(paths[1])
    try pipeline.prepare(dir, files: Self.files)
    var change: String? = nil
    if let a = base.scenario, let b = new.scenario, a != b {
      change = ScenarioDiff.summary(ScenarioDiff.paths(from: a, to: b))
    }
    let spec = CheckSpec()
    let (comparisons, notes) = new.table.compared(with: base.table) { spec.tolerance(for: $0, flagPct: nil) }
    let report = CompareReport(
      baseName: base.name, newName: new.name, scenarioChange: change, comparisons: comparisons, notes: notes,
      toolVersion: ReloadBenchCLI.version)
    let markdown = report.markdown()
    try pipeline.write([("compare.md", markdown), ("compare.html", report.html())], to: dir)
    if !pipeline.options.quiet { Terminal.out(markdown + "\nWrote \(dir)/{\(Self.files.joined(separator: ", "))}\n") }
    CheckCommand.appendStepSummary(markdown)
    return ExitStatus.success
  }

  /// Reads one side: a folder's results.json, a results.json, a baseline, or a scenario (run now).
  func side(_ path: String) throws(CLIError) -> Side {
    var isFolder: ObjCBool = false
    let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isFolder)
    let file = isFolder.boolValue ? (path as NSString).appendingPathComponent("results.json") : path
    guard exists, let data = FileManager.default.contents(atPath: file) else {
      throw .badInput(
        "cannot read \(file) (fix: pass a run folder, a results.json, a baseline or a scenario file)")
    }
    let json: JSONValue
    do {
      json = try JSONValue.parse(data)
    } catch {
      throw .badInput(
        "\(file): not JSON (\(error.path), \(error.location)) (fix: pass a results.json, a baseline "
          + "or a scenario file)")
    }
    guard case .object(let o) = json else {
      throw .badInput("\(file): expected a JSON object (fix: pass a results.json, a baseline or a scenario file)")
    }
    if case .string(Baseline.formatName)? = o["format"] {
      let b = try Baseline.decode(data, path: file, save: "reloadbench baseline save SCENARIO")
      let scenario = b.scenarioCanonical.flatMap { try? JSONValue.parse(Data($0.utf8)) }
      return Side(name: "\(PathText.name(file)) (\(b.scenario))", table: b.table, scenario: scenario)
    }
    if case .object(let summary)? = o["summary"], let table = Self.table(summary) {
      return Side(name: isFolder.boolValue ? path : file, table: table, scenario: nil)
    }
    let loaded = try pipeline.load(file)
    let header = pipeline.announce([loaded.scenario], name: loaded.scenario.name)
    let report = pipeline.report(loaded, header: header)
    let canonical = try? JSONValue.parse(Data(ScenarioHash.canonicalText(loaded.json).utf8))
    return Side(name: file, table: report.results.summary, scenario: canonical)
  }

  /// results.json's `summary` (columns with names, rows of values) as a result table.
  static func table(_ summary: [String: JSONValue]) -> ResultTable? {
    guard case .array(let columns)? = summary["columns"], case .array(let rows)? = summary["rows"] else { return nil }
    let names = columns.compactMap { c -> String? in
      if case .object(let o) = c, case .string(let n)? = o["name"] { return n }
      return nil
    }
    guard names.count == columns.count else { return nil }
    let metrics = names.map { name in
      SummaryMetrics.metric(named: name)
        ?? Metric(name, unit: .count, polarity: .neutral, decimals: 3, definition: "Not a metric of this version.")
    }
    var out: [ResultRow] = []
    for r in rows {
      guard case .object(let o) = r, case .string(let policy)? = o["policy"], case .string(let segment)? = o["segment"],
        case .array(let values)? = o["values"]
      else { return nil }
      func numbers(_ a: [JSONValue]) -> [Double?] { a.map { if case .number(let d) = $0 { d } else { nil } } }
      var ci: [Double?]? = nil
      if case .array(let c)? = o["ci95"] { ci = numbers(c) }
      let scenario: String
      if case .string(let s)? = o["scenario"] { scenario = s } else { scenario = "" }
      out.append(
        ResultRow(scenario: scenario, strategy: policy, segment: segment, values: numbers(values), ci95: ci))
    }
    return ResultTable(columns: metrics, rows: out)
  }
}
