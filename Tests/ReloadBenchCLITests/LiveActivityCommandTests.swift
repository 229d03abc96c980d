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
     "segments": [{"name": "fans", "lock_views_per_day": 80, "widgets": [{"kind": "score", "placement": "lock_screen"}]}],
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
}
