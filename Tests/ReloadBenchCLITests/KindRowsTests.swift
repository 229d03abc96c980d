import Foundation
import Testing

/// Each widget kind on its own, end to end on the built binary: the `kind`
/// rows of summary.csv and results.json, the report's per-kind table and
/// chart, `expect` and `evidence` naming a kind, and shards merged into the
/// single run's kind rows.
@Suite struct KindRowsTests {
  /// Two kinds on every device, polled hourly: scores change 30 times a
  /// day with a 10-minute tolerance (stale), a quote once a day with a
  /// day's tolerance (fine). `extra`: more top-level members.
  static func scenario(_ extra: String = "", kinds: Int = 2) -> String {
    let quote = #", { "name": "quote", "unpredictable": { "per_day": 1 }, "tolerance_min": 1440 }"#
    let quoteSlot = #", { "kind": "quote" }"#
    return """
      {
        "name": "two-kinds", "seed": 5, "days": 3, "warmup_days": 1, "devices": 60,
        "kinds": [
          { "name": "scores", "unpredictable": { "per_day": 30 }, "tolerance_min": 10 }\(kinds > 1 ? quote : "")
        ],
        "segments": [
          { "name": "a", "home_views_per_day": 40, "widgets": [{ "kind": "scores" }\(kinds > 1 ? quoteSlot : "")] },
          { "name": "b", "home_views_per_day": 10, "widgets": [{ "kind": "scores" }\(kinds > 1 ? quoteSlot : "")] }
        ],
        "strategies": ["poll-60m", "poll-15m"]\(extra)
      }
      """
  }

  static func write(_ text: String, _ name: String, in dir: URL) throws {
    try CheckCommandTests.write(text, name, in: dir)
  }

  /// summary.csv's records as label-keyed dictionaries.
  static func records(_ csv: String) -> [[String: String]] {
    let lines = csv.split(separator: "\n").map {
      $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    }
    guard let header = lines.first else { return [] }
    return lines.dropFirst().map { Dictionary(uniqueKeysWithValues: zip(header, $0)) }
  }

  @Test func summaryResultsAndReportHaveTheKindRows() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    try Self.write(Self.scenario(), "s.json", in: dir)
    let r = try Binary.run(["run", "s.json", "--out", "o", "--quiet"], in: dir)
    #expect(r.status == 0, "\(r.stderr)")
    let csv = try CheckCommandTests.read("o/summary.csv", in: dir)
    #expect(csv.hasPrefix("scenario,policy,segment,kind,devices,"))
    let rows = Self.records(csv)
    // 2 strategies x (2 segments + all) x (2 kinds + all).
    #expect(rows.count == 2 * 3 * 3)
    #expect(rows.map { $0["kind"] ?? "" }.prefix(3) == ["all", "scores", "quote"])
    func row(_ kind: String) throws -> [String: String] {
      try #require(rows.first { $0["policy"] == "poll-60m" && $0["segment"] == "all" && $0["kind"] == kind })
    }
    let scores = try #require(Double(try row("scores")["acceptable_glance_pct"] ?? ""))
    let quote = try #require(Double(try row("quote")["acceptable_glance_pct"] ?? ""))
    #expect(scores < 90 && quote > 99, "the scores are stale by the evidence rule, the quote is not")
    // Widgets add up; a device figure is empty in a kind's row.
    let widgets = try ["scores", "quote", "all"].map { try #require(Double(try row($0)["widgets"] ?? "")) }
    #expect(widgets[0] + widgets[1] == widgets[2])
    #expect(try row("scores")["devices"] == "" && row("all")["devices"] != "")
    // results.json: the kind rows beside the rows.
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("o/results.json")))
        as? [String: Any])
    let summary = try #require(json["summary"] as? [String: Any])
    let kindRows = try #require(summary["kindRows"] as? [[String: Any]])
    #expect(kindRows.count == 2 * 3 * 2)
    #expect(Set(kindRows.compactMap { $0["kind"] as? String }) == ["scores", "quote"])
    #expect((summary["rows"] as? [[String: Any]])?.allSatisfy { $0["kind"] == nil } == true)
    // The report: the per-kind table and the freshness chart per kind.
    let html = try CheckCommandTests.read("o/report.html", in: dir)
    #expect(html.contains("id=\"kinds\"") && html.contains("<span class=\"badge stale\">stale</span>"))
    #expect(html.contains("id=\"fig-freshness-kinds\"") && html.contains("Widget kind quote: "))
  }

  @Test func oneKindKeepsTheFileWithoutAKindColumn() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    try Self.write(Self.scenario(kinds: 1), "s.json", in: dir)
    let r = try Binary.run(["run", "s.json", "--out", "o", "--quiet"], in: dir)
    #expect(r.status == 0, "\(r.stderr)")
    let csv = try CheckCommandTests.read("o/summary.csv", in: dir)
    #expect(csv.hasPrefix("scenario,policy,segment,devices,"))
    #expect(Self.records(csv).count == 2 * 3)
    let html = try CheckCommandTests.read("o/report.html", in: dir)
    #expect(!html.contains("id=\"kinds\"") && !html.contains("fig-freshness-kinds") && !html.contains("kindRows"))
  }

  @Test func expectationsOnAKindHoldAndFailByThatKindsFigures() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let expect = { (kind: String) in
      #", "expect": [{"policy": "poll-60m", "kind": "\#(kind)", "metric": "acceptable_glance_pct", "min": 90}]"#
    }
    try Self.write(Self.scenario(expect("quote")), "quote.json", in: dir)
    try Self.write(Self.scenario(expect("scores")), "scores.json", in: dir)
    let holds = try Binary.run(["check", "quote.json", "--json", "q.json", "--quiet"], in: dir)
    #expect(holds.status == 0, "\(holds.stderr)")
    let report = try CheckCommandTests.read("q.json", in: dir)
    #expect(report.contains(#""kind": "quote""#) || report.contains(#""kind":"quote""#), "\(report)")
    let fails = try Binary.run(["check", "scores.json", "--markdown", "s.md", "--quiet"], in: dir)
    #expect(fails.status == 1, "\(fails.stderr)")
    #expect(try CheckCommandTests.read("s.md", in: dir).contains("| poll-60m | all / scores | `acceptable_glance_pct`"))
  }

  @Test func aKindThatIsNotTheScenariosOrAFigureWithoutKindsIsBadInput() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let cases: [(String, String)] = [
      (
        #", "expect": [{"kind": "qoute", "metric": "acceptable_glance_pct", "min": 90}]"#,
        #"$.expect[0].kind: "qoute" is not a widget kind of this scenario (fix: did you mean "quote"?)"#
      ),
      (
        #", "expect": [{"kind": "quote", "metric": "app_wakes_per_device_day", "max": 9}]"#,
        "$.expect[0].metric: app_wakes_per_device_day has no value per widget kind"
      ),
      (
        #", "evidence": [{"policy": "poll-60m", "kind": "news", "reported": "stale", "strength": "weak", "#
          + #""source": "x"}]"#,
        #"$.evidence[0].kind: "news" is not a widget kind of this scenario"#
      ),
    ]
    for (i, (extra, message)) in cases.enumerated() {
      try Self.write(Self.scenario(extra), "bad\(i).json", in: dir)
      let r = try Binary.run(["check", "bad\(i).json", "--quiet"], in: dir)
      #expect(r.status == 2, "\(extra): \(r.stderr)")
      #expect(r.stderr.contains(message), "\(r.stderr)")
    }
  }

  @Test func evidenceOnAKindIsScoredOnThatKind() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let claim = { (kind: String) in
      #"{"policy": "poll-60m", "kind": "\#(kind)", "reported": "stale", "strength": "reported", "source": "t#1"}"#
    }
    try Self.write(Self.scenario(#", "evidence": [\#(claim("scores")), \#(claim("quote"))]"#), "e.json", in: dir)
    let r = try Binary.run(["check", "e.json", "--json", "e-out.json", "--quiet"], in: dir)
    #expect(r.status == 0, "\(r.stderr)")
    let root = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("e-out.json")))
        as? [String: Any])
    let scenarios = try #require(root["scenarios"] as? [[String: Any]])
    let evidence = try #require(scenarios.first?["evidence"] as? [[String: Any]])
    #expect(evidence.map { $0["kind"] as? String } == ["scores", "quote"])
    // Stale is right for the scores and wrong for the quote.
    #expect(evidence.map { $0["agrees"] as? Bool } == [true, false])
  }

  @Test func mergedShardsGiveTheSingleRunsKindRows() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    try Self.write(Self.scenario(), "s.json", in: dir)
    let single = try Binary.run(["run", "s.json", "--out", "single", "--threads", "2", "--quiet"], in: dir)
    #expect(single.status == 0, "\(single.stderr)")
    for k in 1...3 {
      let r = try Binary.run(
        ["run", "s.json", "--shard", "\(k)/3", "--out", "parts", "--threads", "1", "--quiet"], in: dir)
      #expect(r.status == 0, "\(r.stderr)")
    }
    let parts = (1...3).map { "parts/shard-\($0)-of-3.rbpart" }
    let merged = try Binary.run(["merge"] + parts + ["--out", "merged", "--quiet"], in: dir)
    #expect(merged.status == 0, "\(merged.stderr)")
    let a = try CheckCommandTests.read("single/summary.csv", in: dir)
    #expect(a.contains(",all,scores,") && a.contains(",a,quote,"))
    #expect(try CheckCommandTests.read("merged/summary.csv", in: dir) == a)
  }
}
