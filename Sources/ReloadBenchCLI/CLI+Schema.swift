import Foundation

/// `reloadbench schema`: regenerate the JSON Schema and the README's field
/// reference from the one table the decoder uses.
enum SchemaCommand {
  static let options: [OptionSpec] = [
    OptionSpec("--dir", "DIR", "The Scenarios folder (default: Scenarios)."),
    OptionSpec("--check", nil, "Write nothing; exit 1 if either file is out of date."),
  ]

  static let help = """
    USAGE: reloadbench schema [--dir DIR] [--check]

    Writes DIR/scenario.schema.json and the field reference between the markers in
    DIR/README.md, both generated from the table the scenario decoder validates with.

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
    let schema = SchemaExport.jsonSchema()
    if parsed.has("--check") {
      let current = FileManager.default.contents(atPath: schemaPath).flatMap { String(data: $0, encoding: .utf8) }
      var stale: [String] = []
      if current != schema { stale.append(schemaPath) }
      if newReadme != readme { stale.append(readmePath) }
      if stale.isEmpty {
        Terminal.out("schema and field reference are up to date\n")
        return ExitStatus.success
      }
      Terminal.err("error: out of date: \(stale.joined(separator: ", ")) (fix: run 'reloadbench schema')\n")
      return ExitStatus.failure
    }
    try OutputWriter.writeFile(schemaPath, schema)
    try OutputWriter.writeFile(readmePath, newReadme)
    Terminal.out("wrote \(schemaPath) and the field reference in \(readmePath)\n")
    return ExitStatus.success
  }
}
