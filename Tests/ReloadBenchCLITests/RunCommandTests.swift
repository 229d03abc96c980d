import Foundation
import ReloadBenchCLI
import Testing

@Suite struct RunCommandTests {
  /// Same scenario and seed: byte-identical CSV files whatever the thread
  /// count, and across two runs.
  @Test func csvFilesAreByteIdenticalAcrossThreadCountsAndRuns() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    try smallScenario(name: "det", devices: 700).write(to: dir.appendingPathComponent("det.json"), atomically: true, encoding: .utf8)
    var outputs: [[Data]] = []
    for (i, threads) in ["1", "2", "4", "4"].enumerated() {
      let r = try Binary.run(["run", "det.json", "--threads", threads, "--out", "out\(i)", "--quiet"], in: dir)
      #expect(r.status == 0, "\(r.stderr)")
      outputs.append(try ["summary.csv", "timeseries.csv", "staleness.csv"].map {
        try Data(contentsOf: dir.appendingPathComponent("out\(i)/\($0)"))
      })
    }
    for o in outputs.dropFirst() { #expect(o == outputs[0]) }
    #expect(outputs[0][0].count > 500)
  }

  @Test func aDifferentSeedChangesTheResults() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    try smallScenario(name: "seeded").write(to: dir.appendingPathComponent("s.json"), atomically: true, encoding: .utf8)
    _ = try Binary.run(["run", "s.json", "--out", "a", "--quiet"], in: dir)
    _ = try Binary.run(["run", "s.json", "--out", "b", "--quiet", "--seed", "4"], in: dir)
    let a = try Data(contentsOf: dir.appendingPathComponent("a/summary.csv"))
    let b = try Data(contentsOf: dir.appendingPathComponent("b/summary.csv"))
    #expect(a != b)
  }

  @Test func runWritesTheReportsAndPrintsTheTable() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    try FileManager.default.createDirectory(at: dir.appendingPathComponent("Scenarios"), withIntermediateDirectories: true)
    try smallScenario(name: "default").write(
      to: dir.appendingPathComponent("Scenarios/default.json"), atomically: true, encoding: .utf8)
    // No argument: Scenarios/default.json into Reports/default/.
    let r = try Binary.run([], in: dir)
    #expect(r.status == 0, "\(r.stderr)")
    for f in ["summary.csv", "timeseries.csv", "staleness.csv"] {
      #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("Reports/default/\(f)").path), "\(f)")
    }
    #expect(r.stdout.contains("strategy") && r.stdout.contains("hybrid") && r.stdout.contains("on-demand"))
    #expect(r.stdout.contains("Recommended:"))
    // Not a terminal: no progress line on stderr.
    #expect(r.stderr.isEmpty)
    let header = try String(contentsOf: dir.appendingPathComponent("Reports/default/summary.csv"), encoding: .utf8)
      .split(separator: "\n")[0]
    // The default scenario has two widget kinds: a row per kind, after the `kind` column.
    #expect(header.hasPrefix("scenario,policy,segment,kind,devices,widgets,widget_days,glances,fresh_glance_pct"))
  }

  /// Legal values at the edges of their ranges (found by fuzzing: each of
  /// these once trapped or hung) run to a full report.
  @Test(arguments: [
    ("nobody glances", #""segments": [{ "name": "s", "home_views_per_day": 0, "widgets": [{ "kind": "k" }] }]"#, #"["poll-15m", "hybrid"]"#),
    ("largest seed", #""seed": 9007199254740991, "segments": [{ "name": "s", "widgets": [{ "kind": "k" }] }]"#, #"["poll-15m"]"#),
    ("almost no app sessions", #""segments": [{ "name": "s", "app_sessions_per_day": 1e-12, "audio_sessions_per_day": 1e-12, "widgets": [{ "kind": "k" }] }]"#, #"["hybrid"]"#),
    ("almost no silent pushes", #""model": { "silent_push": { "rate_per_hour": 1e-300 } }, "segments": [{ "name": "s", "widgets": [{ "kind": "k" }] }]"#, #"["silent-push"]"#),
    ("BGAppRefresh delay under a millisecond", #""model": { "background_refresh": { "median_delay_min": 1e-7, "reference_sessions_per_day": 1e-9 } }, "segments": [{ "name": "s", "widgets": [{ "kind": "k" }] }]"#, #"["bg-refresh"]"#),
  ])
  func edgeValuesRunToAFullReport(_ label: String, _ segmentsAndModel: String, _ strategies: String) throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let json = """
      { "name": "edge", "days": 2, "devices": 10,
        "kinds": [{ "name": "k", "unpredictable": { "per_day": 5 } }],
        \(segmentsAndModel), "strategies": \(strategies) }
      """
    try json.write(to: dir.appendingPathComponent("e.json"), atomically: true, encoding: .utf8)
    let r = try Binary.run(["run", "e.json", "--out", "out"], in: dir, timeout: 60)
    #expect(r.status == 0, "\(label): \(r.stderr)")
    #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("out/report.html").path), "\(label)")
    #expect(!r.stdout.contains("( %)") && !r.stdout.lowercased().contains("nan"), "\(label): \(r.stdout)")
    if label == "nobody glances" {
      #expect(r.stdout.contains("Nobody glanced at a widget"), "\(r.stdout)")
      #expect(!r.stdout.contains("Recommended:"), "no freshness, so no recommendation: \(r.stdout)")
    }
  }

  @Test func helpAndVersion() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let h = try Binary.run(["--help"], in: dir)
    #expect(h.status == 0 && h.stdout.contains("USAGE") && h.stdout.contains("EXIT STATUS"))
    let rh = try Binary.run(["run", "--help"], in: dir)
    for option in ["--out", "--seed", "--threads", "--quiet", "--replications"] {
      #expect(rh.stdout.contains(option), "run --help lacks \(option)")
    }
    let v = try Binary.run(["--version"], in: dir)
    #expect(v.status == 0 && v.stdout.hasPrefix("reloadbench "))
    #expect(v.stdout.contains("(model version \(ReloadBenchCLI.modelVersion))"))
  }

  @Test func dryRunChecksWithoutSimulating() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    try smallScenario(name: "plan").write(to: dir.appendingPathComponent("p.json"), atomically: true, encoding: .utf8)
    let r = try Binary.run(["run", "p.json", "--dry-run"], in: dir)
    #expect(r.status == 0 && r.stdout.contains("plan:") && r.stdout.contains("hybrid"))
    #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("Reports").path))
  }
}

@Suite struct CommittedReportTests {
  /// `docs/example-report/` is what the documented command writes today.
  @Test func committedExampleReportIsUpToDate() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let scenario = repositoryRoot.appendingPathComponent("Scenarios/example.json").path
    let r = try Binary.run(["run", scenario, "--out", "fresh", "--reproducible", "--quiet"], in: dir)
    #expect(r.status == 0, "\(r.stderr)")
    let committed = repositoryRoot.appendingPathComponent("docs/example-report")
    let files = try FileManager.default.contentsOfDirectory(atPath: committed.path).filter { !$0.hasPrefix(".") }.sorted()
    #expect(files == ["report.html", "results.json", "staleness.csv", "summary.csv", "timeseries.csv"])
    for f in files {
      let a = try String(contentsOf: committed.appendingPathComponent(f), encoding: .utf8)
      let b = try String(contentsOf: dir.appendingPathComponent("fresh/\(f)"), encoding: .utf8)
      let difference = firstDifference(a, b)
      #expect(
        difference == nil,
        "docs/example-report/\(f) is out of date (run the command in Reports/README.md); first change at \(difference ?? "")")
    }
  }

  /// Every summary column is defined in Reports/README.md.
  @Test func everySummaryColumnIsDocumented() throws {
    let readme = try String(contentsOf: repositoryRoot.appendingPathComponent("Reports/README.md"), encoding: .utf8)
    let header = try String(contentsOf: repositoryRoot.appendingPathComponent("docs/example-report/summary.csv"), encoding: .utf8)
      .split(separator: "\n")[0].split(separator: ",")
    for column in header.dropFirst(3) { #expect(readme.contains("`\(column)`"), "\(column) is not in Reports/README.md") }
  }
}
