import Foundation
import ReloadMetrics
import Testing

/// `reloadbench robustness`, and the robustness verdict of `run`, end to
/// end on the built binary.
@Suite struct RobustnessCommandTests {
  /// `smallScenario` with a `robustness` block.
  static func scenario(_ block: String, devices: Int = 60) -> Data {
    let text = smallScenario(name: "rob", devices: devices)
    let end = text.lastIndex(of: "}")!
    return Data((text[..<end] + ",\n  \"robustness\": \(block)\n}\n").utf8)
  }

  static func json(_ url: URL) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
  }

  static func csv(_ url: URL) throws -> [[String]] {
    try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map {
      $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    }
  }

  @Test func writesTheThreeFilesWithARowPerVariantStrategyAndHeadlineMetric() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    try Self.scenario(#"{"assumptions": ["silent_push_throttle", "when_empty"], "sample_devices": null}"#)
      .write(to: dir.appendingPathComponent("s.json"))
    let r = try Binary.run(["robustness", "s.json", "--out", "out", "--threads", "2"], in: dir)
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout.contains("Wrote out/{robustness.csv, robustness.json, robustness.html}"))
    let out = dir.appendingPathComponent("out")
    let json = try Self.json(out.appendingPathComponent("robustness.json"))
    let metrics = try #require(json["metrics"] as? [[String: Any]])
    let variants = try #require(json["variants"] as? [[String: Any]])
    // 2 + 1 alternatives and the profile(s), in order.
    // In docs/model.md's order of the assumptions, whatever the block's order.
    #expect(variants.prefix(3).compactMap { $0["name"] as? String } == [
      "when_empty = drop", "silent_push_throttle = two_per_hour", "silent_push_throttle = dropped_in_low_power",
    ])
    #expect(variants.count > 3 && variants.dropFirst(3).allSatisfy { $0["assumption"] is NSNull })
    let rows = try Self.csv(out.appendingPathComponent("robustness.csv"))
    #expect(rows[0].prefix(9) == ["scenario", "assumption", "alternative", "policy", "metric", "value", "base",
      "difference", "difference_ci95"])
    #expect(rows.count == 1 + variants.count * 3 * metrics.count)
    #expect(Set(rows.dropFirst().map { $0[4] }).count == metrics.count)
    // Each difference is the value minus the base, as written (each at its metric's decimals).
    for row in rows.dropFirst() where !row[5].isEmpty && !row[6].isEmpty {
      let d = try #require(Double(row[7]))
      let rounding = 1.1 * pow(10, -Double(SummaryMetrics.metric(named: row[4])?.decimals ?? 2))
      #expect(abs(d - ((Double(row[5]) ?? 0) - (Double(row[6]) ?? 0))) < rounding, "\(row)")
    }
    // poll-15m sends no silent push: its results stand under the throttle's alternatives.
    #expect(rows.filter { $0[1] == "silent_push_throttle" && $0[3] == "poll-15m" }.allSatisfy { $0[9] == "0" })
    let rec = try #require(json["recommendation"] as? [String: Any])
    #expect(rec["robust"] is Bool && rec["sentence"] is String)
    let html = try String(contentsOf: out.appendingPathComponent("robustness.html"), encoding: .utf8)
    #expect(html.contains("id=\"tornado-fresh_glance_pct\"") && html.contains("id=\"tornado-fresh_glance_pct-n\""))
    #expect(html.contains("narrow-only") && html.contains("<script type=\"application/json\" id=\"robustness-data\">"))
  }

  /// A case where an alternative changes the recommendation: the golden
  /// token-bucket scenario's poll-15m is the cheapest within tolerance,
  /// and realistic lateness (1-2 h late) lets it fall below 90 %.
  @Test func aRecommendationThatChangesIsNotRobustAndNamesTheAlternative() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Scenarios/golden/budget-token-bucket.json")
    var object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: golden)) as? [String: Any])
    object["$schema"] = nil
    object["robustness"] = ["assumptions": ["lateness"], "profiles": false, "sample_devices": NSNull()]
    try JSONSerialization.data(withJSONObject: object).write(to: dir.appendingPathComponent("g.json"))
    let r = try Binary.run(["robustness", "g.json", "--out", "out"], in: dir)
    #expect(r.status == 0, "\(r.stderr)")
    let json = try Self.json(dir.appendingPathComponent("out/robustness.json"))
    let rec = try #require(json["recommendation"] as? [String: Any])
    #expect(rec["robust"] as? Bool == false)
    let changes = try #require(rec["changes"] as? [[String: Any]])
    let change = try #require(changes.first { $0["variant"] as? String == "lateness = realistic" })
    let instead = try #require(change["strategy"] as? String)
    #expect(instead != rec["strategy"] as? String)
    // The CSV says the same.
    let rows = try Self.csv(dir.appendingPathComponent("out/robustness.csv"))
    #expect(rows.filter { $0[2] == "realistic" }.allSatisfy { $0[10] == instead })
    let sentence = try #require(rec["sentence"] as? String)
    #expect(sentence.contains("except under `lateness = realistic`, where \(instead) is"), "\(sentence)")
    // stdout wraps the sentence at 100 columns.
    #expect(r.stdout.replacingOccurrences(of: "\n  ", with: " ").contains(sentence))
  }

  @Test func theRunReportSaysWhetherTheRecommendationIsRobustOnlyWithTheBlock() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    try Self.scenario(#"{"assumptions": ["min_interval"], "profiles": false, "sample_devices": null}"#)
      .write(to: dir.appendingPathComponent("s.json"))
    let r = try Binary.run(["run", "s.json", "--out", "out"], in: dir)
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout.contains("Robust: ") || r.stdout.contains("Not robust: "))
    let results = try Self.json(dir.appendingPathComponent("out/results.json"))
    let rec = try #require(results["recommendation"] as? [String: Any])
    let robustness = try #require(rec["robustness"] as? [String: Any])
    #expect(robustness["robust"] is Bool && robustness["variants"] as? Int == 2)
    #expect(robustness["strategy"] as? String == rec["strategy"] as? String)
    let html = try String(contentsOf: dir.appendingPathComponent("out/report.html"), encoding: .utf8)
    #expect(html.contains("class=\"rec-robust\""))
    // Without the block (or with it disabled): nothing of it.
    try Self.scenario(#"{"enabled": false}"#).write(to: dir.appendingPathComponent("t.json"))
    try Data(smallScenario(name: "rob").utf8).write(to: dir.appendingPathComponent("u.json"))
    for file in ["t.json", "u.json"] {
      let plain = try Binary.run(["run", file, "--out", "plain-" + file, "--quiet"], in: dir)
      #expect(plain.status == 0, "\(plain.stderr)")
      let text = try String(contentsOf: dir.appendingPathComponent("plain-\(file)/results.json"), encoding: .utf8)
      #expect(!text.contains("\"robustness\""))
    }
  }

  @Test func dryRunPrintsEachReadingAndWhatItSimulatesAndWritesNothing() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    try Self.scenario(#"{"assumptions": ["silent_push_throttle", "wake_sources"], "profiles": false}"#)
      .write(to: dir.appendingPathComponent("s.json"))
    let r = try Binary.run(["robustness", "s.json", "--out", "out", "--dry-run"], in: dir)
    #expect(r.status == 0, "\(r.stderr)")
    // hybrid sends silent pushes; none of the three has a wake source.
    #expect(r.stdout.contains("  silent_push_throttle = two_per_hour: hybrid\n"), "\(r.stdout)")
    #expect(r.stdout.contains("  wake_sources = low_power_stops_all: the base's results\n"))
    #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("out").path))
  }

  @Test func aCalibrationsRuledOutAlternativesDoNotRun() throws {
    // A calibration.json whose log rules out the window and the small bucket (Scenarios/log-format.md).
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    try Self.scenario(#"{"assumptions": ["budget_accrual"], "profiles": false}"#)
      .write(to: dir.appendingPathComponent("s.json"))
    let calibration = #"{"format": "reloadbench-calibration", "assumptions": [{"assumption": "budget_accrual", "#
      + #""allowed": ["default", "large_bucket"], "ruled_out": ["sliding_window", "small_bucket"]}]}"#
    try Data(calibration.utf8).write(to: dir.appendingPathComponent("calibration.json"))
    let all = try Binary.run(["robustness", "s.json", "--out", "out", "--dry-run"], in: dir)
    #expect(all.stdout.contains("  budget_accrual = sliding_window:"), "\(all.stdout)")
    let r = try Binary.run(
      ["robustness", "s.json", "--out", "out", "--dry-run", "--calibration", "calibration.json"], in: dir)
    #expect(r.status == 0, "\(r.stderr)")
    #expect(!r.stdout.contains("  budget_accrual = sliding_window:") && !r.stdout.contains("= small_bucket:"))
    #expect(r.stdout.contains("  budget_accrual = large_bucket:"), "\(r.stdout)")
    #expect(r.stdout.contains("ruled out by the calibration: budget_accrual = sliding_window, "), "\(r.stdout)")
    // Not a calibration: one line, exit 2.
    let bad = try Binary.run(["robustness", "s.json", "--out", "out", "--calibration", "s.json"], in: dir)
    #expect(bad.status == 2 && bad.stderr.contains("not a calibration.json"), "\(bad.stderr)")
  }

  @Test func badInputIsOneLineExitTwoAndWritesNothing() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let out = dir.appendingPathComponent("out")
    try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
    try Data("kept\n".utf8).write(to: out.appendingPathComponent("robustness.csv"))
    try Self.scenario(#"{"assumptions": ["budget_acrual"]}"#).write(to: dir.appendingPathComponent("s.json"))
    try Self.scenario(#"{"assumptions": ["lateness", "lateness"]}"#).write(to: dir.appendingPathComponent("t.json"))
    for (args, what) in [
      (["robustness", "s.json", "--out", "out"], "$.robustness.assumptions[0]"),
      (["robustness", "t.json", "--out", "out"], "$.robustness.assumptions[1]"),
      (["robustness", "s.json", "t.json", "--out", "out"], "one scenario file"),
      (["robustness", "missing.json", "--out", "out"], "missing.json"),
    ] {
      let r = try Binary.run(args, in: dir)
      #expect(r.status == 2, "\(args)")
      #expect(r.stderr.split(separator: "\n").count == 1 && r.stderr.contains(what), "\(r.stderr)")
    }
    #expect(try String(contentsOf: out.appendingPathComponent("robustness.csv"), encoding: .utf8) == "kept\n")
    #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("robustness.json").path))
  }
}
