import Foundation
import Testing

/// `reloadbench run` on a scenario with Live Activities, through the built
/// binary (docs/model.md#live-activities; Scenarios/README.md, "Writing a
/// Live Activity").
@Suite struct LiveActivityCommandTests {
  static func scenario(contentBytes: Int = 1200, extra: String = "") -> String {
    """
    {"model_version": 4, "name": "la", "seed": 3, "days": 3, "warmup_days": 1, "devices": 300, "fleet_devices": 100000,
     "kinds": [{"name": "score", "scope": "shared", "tolerance_min": 2,
                "unpredictable": {"per_day": 0.1, "bursts": {"daily_probability": 1, "from_hour": 20, "to_hour": 21,
                                  "duration_min": 90, "per_hour": 3}}}],
     "segments": [{"name": "fans", "lock_views_per_day": 80,
                   "widgets": [{"kind": "score", "placement": "lock_screen"}]}],
     "strategies": ["poll-15m", "widget-push"],
     "live_activities": {"content_bytes": \(contentBytes), \(extra)
       "events": [{"name": "match", "kind": "score", "at": "20:00", "share": 0.5,
                   "length": {"dist": "constant", "value_s": 6000}}],
       "strategies": ["activity-push-every-change", "activity-priority-mix"]}}
    """
  }

  @Test func aRunWritesTheLiveActivityColumnsAndTheReportSectionTheSameAtAnyThreadCount() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    try Self.scenario().write(to: dir.appendingPathComponent("la.json"), atomically: true, encoding: .utf8)
    var csv: [Data] = []
    for threads in ["1", "3"] {
      let r = try Binary.run(["run", "la.json", "--threads", threads, "--out", "out\(threads)", "--quiet"], in: dir)
      #expect(r.status == 0, "\(r.stderr)")
      csv.append(try Data(contentsOf: dir.appendingPathComponent("out\(threads)/live_activities.csv")))
    }
    #expect(csv[0] == csv[1])
    let text = String(decoding: csv[0], as: UTF8.self)
    let lines = text.split(separator: "\n")
    #expect(lines[0].hasPrefix("scenario,strategy,segment,devices,activities_per_device_day"))
    #expect(lines[0].contains("fleet_activity_push_peak_per_s"))
    #expect(lines.count == 1 + 2 * 2)  // two strategies, a segment and `all`
    let page = try String(contentsOf: dir.appendingPathComponent("out1/report.html"), encoding: .utf8)
    #expect(page.contains("id=\"live-activities\"") && page.contains("id=\"fig-la-pushes\""))
    // The activity figures name their set of strategies, so the page script gives them a row of
    // buttons of their own; the widget figures do not.
    for id in ["fig-la-pushes", "fig-la-age"] {
      #expect(page.contains("<figure class=\"fig\" id=\"\(id)\" data-strategy-set=\"Live Activity strategies\">"))
    }
    #expect(page.contains("<figure class=\"fig\" id=\"fig-staleness\">"))
    // A scenario without Live Activities writes no such file.
    let plain = try String(contentsOf: dir.appendingPathComponent("la.json"), encoding: .utf8)
    let key = try #require(plain.range(of: "\"live_activities\""))
    let comma = try #require(plain[..<key.lowerBound].lastIndex(of: ","))
    try (String(plain[..<comma]) + "}").write(
      to: dir.appendingPathComponent("plain.json"), atomically: true, encoding: .utf8)
    let r = try Binary.run(["run", "plain.json", "--out", "plain", "--quiet"], in: dir)
    #expect(r.status == 0, "\(r.stderr)")
    #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("plain/live_activities.csv").path))
  }

  @Test func contentOverFourKilobytesIsRefusedWithOneLine() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    try Self.scenario(contentBytes: 5000).write(
      to: dir.appendingPathComponent("la.json"), atomically: true, encoding: .utf8)
    let r = try Binary.run(["run", "la.json", "--out", "out", "--quiet"], in: dir)
    #expect(r.status == 2)
    #expect(r.stderr.contains("live_activities.content_bytes") && r.stderr.contains("4 KB"))
    #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
    #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("out").path))
  }

  /// `check` bounds `live_activities.csv` columns as it bounds `summary.csv`
  /// ones: the value it judges is the run's own (read back from the CSV
  /// here), `policy` names an activity strategy, and a bound that makes no
  /// sense for the scenario is refused with one line.
  @Test func checkBoundsTheLiveActivityFigures() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    func write(_ expect: String, to name: String) throws {
      let text = Self.scenario().replacingOccurrences(
        of: "{\"model_version\"", with: "{\"expect\": [\(expect)], \"model_version\"")
      try text.write(to: dir.appendingPathComponent(name), atomically: true, encoding: .utf8)
    }
    try write("", to: "la.json")
    let run = try Binary.run(["run", "la.json", "--out", "out", "--quiet"], in: dir)
    #expect(run.status == 0, "\(run.stderr)")
    let csv = try String(contentsOf: dir.appendingPathComponent("out/live_activities.csv"), encoding: .utf8)
    let lines = csv.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false) }
    let column = try #require(lines[0].firstIndex(of: "activity_pushes_per_device_day"))
    let row = try #require(lines.first { $0[1] == "activity-push-every-change" && $0[2] == "all" })
    let value = try #require(Double(row[column]))
    #expect(value > 0)

    let metric = "\"metric\": \"activity_pushes_per_device_day\""
    try write(
      "{\"policy\": \"activity-push-every-change\", \(metric), \"min\": \(value - 0.01), \"max\": \(value + 0.01), "
        + "\"note\": \"the run's own figure\"}", to: "holds.json")
    let holds = try Binary.run(["check", "holds.json"], in: dir)
    #expect(holds.status == 0, "\(holds.stdout)\(holds.stderr)")

    // Without `policy`, every activity strategy is judged (and no widget strategy).
    try write("{\(metric), \"max\": \(value - 0.5)}", to: "fails.json")
    let fails = try Binary.run(["check", "fails.json"], in: dir)
    #expect(fails.status == 1, "\(fails.stdout)\(fails.stderr)")
    #expect(fails.stdout.contains("| activity-push-every-change | all | `activity_pushes_per_device_day` |"))
    #expect(fails.stdout.contains("| activity-priority-mix | all | `activity_pushes_per_device_day` |"))
    #expect(!fails.stdout.contains("| poll-15m | all | `activity_pushes"))

    // A widget strategy for an activity figure, a kind, or no Live Activities: refused.
    try write("{\"policy\": \"poll-15m\", \(metric), \"max\": 1}", to: "widget.json")
    let widget = try Binary.run(["check", "widget.json"], in: dir)
    #expect(widget.status == 2)
    #expect(widget.stderr.contains("$.expect[0].policy") && widget.stderr.contains("not a Live Activity strategy"))
    try write("{\"kind\": \"score\", \(metric), \"max\": 1}", to: "kind.json")
    let kind = try Binary.run(["check", "kind.json"], in: dir)
    #expect(kind.status == 2 && kind.stderr.contains("no value per widget kind"), "\(kind.stderr)")
    let plain = try String(contentsOf: dir.appendingPathComponent("widget.json"), encoding: .utf8)
    let key = try #require(plain.range(of: "\"live_activities\""))
    let comma = try #require(plain[..<key.lowerBound].lastIndex(of: ","))
    try (String(plain[..<comma]) + "}").write(
      to: dir.appendingPathComponent("none.json"), atomically: true, encoding: .utf8)
    let none = try Binary.run(["check", "none.json"], in: dir)
    #expect(none.status == 2 && none.stderr.contains("this scenario has none"), "\(none.stderr)")
    for r in [widget, kind, none] { #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)") }
  }

  /// `robustness` runs the Live Activities under every reading too: a
  /// larger push budget never makes more activities hit it, and the page
  /// and robustness.json say which activity strategy is best and whether it
  /// holds.
  @Test func robustnessJudgesTheLiveActivitiesUnderEveryReading() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    // The push budget's assumption and one of the widgets' only, to stay fast.
    let scenario = Self.scenario().replacingOccurrences(
      of: "{\"model_version\"",
      with: "{\"robustness\": {\"assumptions\": [\"activity_push_budget\", \"budget_accrual\"], \"profiles\": false}, "
        + "\"model_version\"")
    try scenario.write(to: dir.appendingPathComponent("la.json"), atomically: true, encoding: .utf8)
    let r = try Binary.run(["robustness", "la.json", "--out", "rob", "--quiet"], in: dir)
    #expect(r.status == 0, "\(r.stderr)")
    let csv = try String(contentsOf: dir.appendingPathComponent("rob/robustness.csv"), encoding: .utf8)
    let rows = csv.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false) }
    let header = rows[0].map(String.init)
    func col(_ name: String) -> Int { header.firstIndex(of: name)! }
    let exhausted = rows.filter {
      $0[col("metric")] == "budget_exhausted_activity_pct" && $0[col("policy")] == "activity-push-every-change"
    }
    let larger = try #require(exhausted.first { $0[col("alternative")] == "twelve_an_hour" })
    let value = try #require(Double(larger[col("value")]))
    let base = try #require(Double(larger[col("base")]))
    #expect(value <= base, "12 an hour: \(value) % of activities hit the budget, 10 an hour: \(base) %")
    #expect(larger[col("simulated")] == "1")
    // A reading of the widgets' budget leaves the activities as they were
    // (docs/model.md#live-activities: no timeline budget applies).
    let widgetOnly = rows.filter { $0[col("assumption")] == "budget_accrual" && $0[col("metric")].contains("activit") }
    #expect(!widgetOnly.isEmpty && widgetOnly.allSatisfy { Double($0[col("difference")]) == 0 })
    let json = try String(contentsOf: dir.appendingPathComponent("rob/robustness.json"), encoding: .utf8)
    #expect(json.contains("\"liveActivities\"") && json.contains("\"best\": \"activity-"))
    let page = try String(contentsOf: dir.appendingPathComponent("rob/robustness.html"), encoding: .utf8)
    #expect(page.contains("id=\"live-activities\"") && page.contains("is the best Live Activity strategy"))
  }
}
