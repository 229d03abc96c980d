import Foundation
import ReloadReports

/// `reloadbench schema`: regenerate the JSON Schema and the README's field
/// reference from the one table the decoder uses, and the metric table of
/// the reports' README from the metric catalogue.
enum SchemaCommand {
  static let options: [OptionSpec] = [
    OptionSpec("--dir", "DIR", "The Scenarios folder (default: Scenarios)."),
    OptionSpec("--reports-dir", "DIR", "The Reports folder (default: Reports)."),
    OptionSpec("--docs-dir", "DIR", "The docs folder (default: docs)."),
    OptionSpec("--check", nil, "Write nothing; exit 1 if any of the files is out of date."),
  ]

  static let help = """
    USAGE: reloadbench schema [--dir DIR] [--reports-dir DIR] [--docs-dir DIR] [--check]

    Writes DIR/scenario.schema.json and the field reference between the markers in
    DIR/README.md, both generated from the table the scenario decoder validates with,
    the metric table between the markers in the reports folder's README.md,
    generated from the metric catalogue, and the assumption, profile and version
    tables between the markers in the docs folder's model.md, generated from the
    model's parameter catalogue, its assumptions, profiles and version history.

    OPTIONS:
    \(ArgumentParser.describe(options))
    """

  static func run(_ arguments: [String]) throws(CLIError) -> Int32 {
    let parsed = try ArgumentParser.parse(arguments, options: options, command: "schema")
    if parsed.has("--help") {
      Terminal.out(help + "\n")
      return ExitStatus.success
    }
    let dir = parsed.value("--dir") ?? "Scenarios"
    let schemaPath = (dir as NSString).appendingPathComponent("scenario.schema.json")
    let readmePath = (dir as NSString).appendingPathComponent("README.md")
    guard let readmeData = FileManager.default.contents(atPath: readmePath),
      let readme = String(data: readmeData, encoding: .utf8)
    else { throw .badInput("cannot read \(readmePath) (fix: run from the repository root or pass --dir)") }
    guard let newReadme = SchemaExport.updatingReadme(readme) else {
      throw .badInput("\(readmePath) has no field reference markers (fix: add the BEGIN/END FIELD REFERENCE lines)")
    }
    let reportsDir = parsed.value("--reports-dir") ?? "Reports"
    let reportsReadmePath = (reportsDir as NSString).appendingPathComponent("README.md")
    guard let reportsData = FileManager.default.contents(atPath: reportsReadmePath),
      let reportsReadme = String(data: reportsData, encoding: .utf8)
    else {
      throw .badInput("cannot read \(reportsReadmePath) (fix: run from the repository root or pass --reports-dir)")
    }
    guard let newReportsReadme = MetricReference.updatingReadme(reportsReadme) else {
      throw .badInput(
        "\(reportsReadmePath) has no metric table markers (fix: add the BEGIN/END METRIC TABLE lines)")
    }
    let docsDir = parsed.value("--docs-dir") ?? "docs"
    let modelDocPath = (docsDir as NSString).appendingPathComponent("model.md")
    guard let modelDocData = FileManager.default.contents(atPath: modelDocPath),
      let modelDoc = String(data: modelDocData, encoding: .utf8)
    else { throw .badInput("cannot read \(modelDocPath) (fix: run from the repository root or pass --docs-dir)") }
    guard let newModelDoc = AssumptionReference.updatingModelDoc(modelDoc) else {
      throw .badInput(
        "\(modelDocPath) has no assumption, profile or version table markers "
          + "(fix: add the BEGIN/END ASSUMPTION TABLE, PROFILE TABLE and VERSION TABLE lines)")
    }
    let schema = SchemaExport.jsonSchema()
    if parsed.has("--check") {
      let current = FileManager.default.contents(atPath: schemaPath).flatMap { String(data: $0, encoding: .utf8) }
      var stale: [String] = []
      if current != schema { stale.append(schemaPath) }
      if newReadme != readme { stale.append(readmePath) }
      if newReportsReadme != reportsReadme { stale.append(reportsReadmePath) }
      if newModelDoc != modelDoc { stale.append(modelDocPath) }
      if stale.isEmpty {
        Terminal.out("schema, field reference, metric table and model tables are up to date\n")
        return ExitStatus.success
      }
      Terminal.err("error: out of date: \(stale.joined(separator: ", ")) (fix: run 'reloadbench schema')\n")
      return ExitStatus.failure
    }
    try OutputWriter.writeFile(schemaPath, schema)
    try OutputWriter.writeFile(readmePath, newReadme)
    try OutputWriter.writeFile(reportsReadmePath, newReportsReadme)
    try OutputWriter.writeFile(modelDocPath, newModelDoc)
    Terminal.out(
      "wrote \(schemaPath), the field reference in \(readmePath), the metric table in \(reportsReadmePath) "
        + "and the assumption, profile and version tables in \(modelDocPath)\n")
    return ExitStatus.success
  }
}
