import Foundation
import Testing

/// `reloadbench schema --check` fails when the metric table of
/// Reports/README.md drifts from the catalogue, and `reloadbench schema`
/// repairs it.
@Suite struct MetricTableSyncTests {
  @Test func schemaCheckFailsOnADriftedMetricTableAndSchemaRepairsIt() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let fm = FileManager.default
    for sub in ["Scenarios", "Reports", "docs"] {
      try fm.createDirectory(at: dir.appendingPathComponent(sub), withIntermediateDirectories: true)
    }
    for f in ["Scenarios/README.md", "Scenarios/scenario.schema.json", "docs/model.md"] {
      try fm.copyItem(at: repositoryRoot.appendingPathComponent(f), to: dir.appendingPathComponent(f))
    }
    let committed = try String(contentsOf: repositoryRoot.appendingPathComponent("Reports/README.md"), encoding: .utf8)
    let drifted = committed.replacingOccurrences(of: ", newly added widgets.", with: ".")
    #expect(drifted != committed)
    let readme = dir.appendingPathComponent("Reports/README.md")
    try drifted.write(to: readme, atomically: true, encoding: .utf8)

    let check = try Binary.run(["schema", "--check"], in: dir)
    #expect(check.status == 1, "\(check.stdout)\(check.stderr)")
    #expect(check.stderr.contains("Reports/README.md") && !check.stderr.contains("scenario.schema.json"))
    #expect(try String(contentsOf: readme, encoding: .utf8) == drifted, "--check wrote a file")

    let write = try Binary.run(["schema"], in: dir)
    #expect(write.status == 0, "\(write.stderr)")
    #expect(try String(contentsOf: readme, encoding: .utf8) == committed)
    #expect(try Binary.run(["schema", "--check"], in: dir).status == 0)
  }

  @Test func schemaCheckFailsOnADriftedAssumptionTableAndSchemaRepairsIt() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let fm = FileManager.default
    for sub in ["Scenarios", "Reports", "docs"] {
      try fm.createDirectory(at: dir.appendingPathComponent(sub), withIntermediateDirectories: true)
    }
    for f in ["Scenarios/README.md", "Scenarios/scenario.schema.json", "Reports/README.md"] {
      try fm.copyItem(at: repositoryRoot.appendingPathComponent(f), to: dir.appendingPathComponent(f))
    }
    let committed = try String(contentsOf: repositoryRoot.appendingPathComponent("docs/model.md"), encoding: .utf8)
    let drifted = committed.replacingOccurrences(of: "| `sliding_window` |", with: "| `daily_reset` |")
    #expect(drifted != committed)
    let doc = dir.appendingPathComponent("docs/model.md")
    try drifted.write(to: doc, atomically: true, encoding: .utf8)

    let check = try Binary.run(["schema", "--check"], in: dir)
    #expect(check.status == 1 && check.stderr.contains("docs/model.md"), "\(check.stdout)\(check.stderr)")
    #expect(try String(contentsOf: doc, encoding: .utf8) == drifted, "--check wrote a file")
    #expect(try Binary.run(["schema"], in: dir).status == 0)
    #expect(try String(contentsOf: doc, encoding: .utf8) == committed)
  }

  @Test func aReportsReadmeWithoutMarkersIsBadInput() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let fm = FileManager.default
    try fm.createDirectory(at: dir.appendingPathComponent("Scenarios"), withIntermediateDirectories: true)
    try fm.createDirectory(at: dir.appendingPathComponent("docs"), withIntermediateDirectories: true)
    for f in ["Scenarios/README.md", "Scenarios/scenario.schema.json"] {
      try fm.copyItem(at: repositoryRoot.appendingPathComponent(f), to: dir.appendingPathComponent(f))
    }
    try "# Reports\n".write(to: dir.appendingPathComponent("docs/README.md"), atomically: true, encoding: .utf8)
    let r = try Binary.run(["schema", "--check", "--reports-dir", "docs"], in: dir)
    #expect(r.status == 2 && r.stderr.contains("docs/README.md") && r.stderr.contains("METRIC TABLE"), "\(r.stderr)")
  }
}
