import Foundation
import ReloadBenchCLI
import Testing

/// The schema file, the README's field reference and the decoder come from
/// one table; these tests fail when any of them drifts.
@Suite struct SchemaSyncTests {
  @Test func committedJSONSchemaIsUpToDate() throws {
    let committed = try String(contentsOf: repositoryRoot.appendingPathComponent("Scenarios/scenario.schema.json"), encoding: .utf8)
    #expect(committed == CLITesting.jsonSchema(), "run 'reloadbench schema' to regenerate")
  }

  @Test func readmeFieldReferenceIsUpToDate() throws {
    let readme = try String(contentsOf: repositoryRoot.appendingPathComponent("Scenarios/README.md"), encoding: .utf8)
    let refreshed = try #require(CLITesting.refreshedReadme(readme), "the README lost its generated-block markers")
    #expect(readme == refreshed, "run 'reloadbench schema' to regenerate")
  }

  /// Every field the schema declares is in the docs, and appears in the
  /// JSON Schema as a property.
  @Test func everySchemaFieldIsDocumentedAndInTheJSONSchema() throws {
    let readme = try String(contentsOf: repositoryRoot.appendingPathComponent("Scenarios/README.md"), encoding: .utf8)
    let schema = CLITesting.jsonSchema()
    for field in CLITesting.allFields {
      let key = String(field.split(separator: ".", maxSplits: 1)[1])
      #expect(readme.contains("| `\(key)` |"), "\(field) missing from Scenarios/README.md")
      #expect(schema.contains("\"\(key)\": {"), "\(field) missing from scenario.schema.json")
    }
  }

  /// The decoder reads every field the schema declares (and, by a
  /// precondition in the reader, no field it does not declare).
  @Test func decoderReadsEveryDeclaredField() throws {
    var read: Set<String> = []
    for name in ["every-field.json", "every-field-2.json"] {
      let data = try Data(contentsOf: fixture(name))
      switch CLITesting.decodeFields(data) {
      case .success(let fields): read.formUnion(fields)
      case .failure(let error): Issue.record("\(name) did not decode: \(error)")
      }
    }
    let unread = CLITesting.allFields.subtracting(read)
    #expect(unread.isEmpty, "declared but never read by the decoder: \(unread.sorted())")
    #expect(read.isSubset(of: CLITesting.allFields))
  }

  @Test func shippedScenariosDecode() throws {
    let dir = repositoryRoot.appendingPathComponent("Scenarios")
    let files = try FileManager.default.subpathsOfDirectory(atPath: dir.path)
      .filter { $0.hasSuffix(".json") && !$0.hasSuffix("schema.json") && !$0.hasPrefix("baselines") }
    #expect(files.count >= 2)
    for f in files {
      // Read as the tool reads a file, so that "extends" is resolved.
      let error = CLITesting.fileErrorLine(dir.appendingPathComponent(f).path)
      #expect(error == nil, "\(f): \(error ?? "")")
    }
  }
}
