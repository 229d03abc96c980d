import Foundation
import Testing

/// results.json carries the recommendation the page and stdout give, and
/// the fleet peak columns are in summary.csv.
@Suite struct RecommendationJSONTests {
  @Test func resultsJSONCarriesTheRecommendation() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    try smallScenario(name: "rec").write(to: dir.appendingPathComponent("rec.json"), atomically: true, encoding: .utf8)
    let r = try Binary.run(["run", "rec.json", "--out", "out"], in: dir)
    #expect(r.status == 0, "\(r.stderr)")
    let data = try Data(contentsOf: dir.appendingPathComponent("out/results.json"))
    let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let rec = try #require(json["recommendation"] as? [String: Any], "no recommendation in results.json")
    let strategy = try #require(rec["strategy"] as? String)
    #expect(r.stdout.contains("Recommended: \(strategy)"), "\(r.stdout)")
    #expect((rec["objective"] as? String)?.contains("glances within tolerance") == true)
    #expect(rec["meetsObjective"] is Bool)
    let runnerUp = rec["runnerUp"] as? String
    #expect(runnerUp != strategy)
    let findings = try #require(rec["findings"] as? [String])
    #expect(!findings.isEmpty)
    // The reason names the cost: budgeted reloads, backend requests, peak, pushes.
    if rec["meetsObjective"] as? Bool == true {
      let reason = try #require(rec["reason"] as? String)
      for word in ["budgeted reloads", "backend requests", "backend peak", "pushes a day"] {
        #expect(reason.contains(word), "\(word): \(reason)")
      }
    }
    let header = try String(contentsOf: dir.appendingPathComponent("out/summary.csv"), encoding: .utf8)
      .split(separator: "\n")[0]
    #expect(header.contains(
      "backend_fleet_peak_rps,backend_fleet_peak_low_rps,backend_fleet_peak_high_rps,backend_fleet_peak_minute_rps,"
        + "backend_fleet_peak_minute_low_rps,backend_fleet_peak_minute_high_rps,silent_pushes_per_fleet_day,"
        + "widget_pushes_per_fleet_day,silent_push_fleet_peak_per_s,widget_push_fleet_peak_per_s,"))
  }

  /// The fleet's pushes in its busiest second, silent and WidgetKit apart,
  /// on the all-segments row only: a strategy that sends none has 0; the
  /// silent and the WidgetKit push strategies push at the same moments (the
  /// same trigger), so their peaks agree; a peak is at least the mean rate.
  @Test func pushFleetPeakColumns() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    try smallScenario(name: "push", devices: 300, strategies: #"["poll-15m", "silent-push", "widget-push"]"#)
      .write(to: dir.appendingPathComponent("p.json"), atomically: true, encoding: .utf8)
    let r = try Binary.run(["run", "p.json", "--out", "out", "--quiet"], in: dir)
    #expect(r.status == 0, "\(r.stderr)")
    let csv = try String(contentsOf: dir.appendingPathComponent("out/summary.csv"), encoding: .utf8)
    let lines = csv.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
    let header = lines[0]
    let silentPeak = try #require(header.firstIndex(of: "silent_push_fleet_peak_per_s"))
    let widgetPeak = try #require(header.firstIndex(of: "widget_push_fleet_peak_per_s"))
    let silentDay = try #require(header.firstIndex(of: "silent_pushes_per_fleet_day"))
    let widgetDay = try #require(header.firstIndex(of: "widget_pushes_per_fleet_day"))
    #expect(widgetPeak == silentPeak + 1 && silentPeak == widgetDay + 1, "in the order they were added")
    #expect(header.suffix(4) == [
      "budget_limited_widget_day_pct", "budget_limited_request_pct", "budget_limited_hours_per_widget_day",
      "first_budget_limited_hour_median",
    ], "new columns go at the end")
    func row(_ strategy: String, _ segment: String = "all") throws -> [String] {
      try #require(lines.first { $0[1] == strategy && $0[2] == segment })
    }
    for strategy in ["poll-15m", "silent-push", "widget-push"] {
      #expect(try row(strategy, "a")[silentPeak].isEmpty && row(strategy, "b")[widgetPeak].isEmpty, "segment rows")
    }
    #expect(try row("poll-15m")[silentPeak] == "0.0" && row("poll-15m")[widgetPeak] == "0.0")
    let silent = try row("silent-push")
    let widget = try row("widget-push")
    #expect(silent[widgetPeak] == "0.0" && widget[silentPeak] == "0.0")
    let s = try #require(Double(silent[silentPeak]))
    let w = try #require(Double(widget[widgetPeak]))
    #expect(s > 0 && s == w, "silent \(s), WidgetKit \(w)")
    let perDay = try #require(Double(silent[silentDay]))
    #expect(perDay == Double(widget[widgetDay]))
    #expect(s >= perDay / 86_400, "the busiest second is at least the mean second")
    #expect(s < perDay, "but far below a day's pushes")
  }
}
