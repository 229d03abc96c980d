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
    #expect(header.hasSuffix(
      "backend_fleet_peak_rps,backend_fleet_peak_low_rps,backend_fleet_peak_high_rps,backend_fleet_peak_minute_rps,silent_pushes_per_fleet_day,widget_pushes_per_fleet_day"))
  }
}
