import Foundation
import ReloadMetrics
import Testing

/// docs/model.md#dry-spells on R1 (`Scenarios/r1-polling.json`, loaded through
/// the CLI's decoder, at 1,000 of its 10,000 widgets): its widgets first run
/// out after about 13 hours of 15-minute polling (docs/r1.md, findings); a
/// full 24 h window's waits of a few seconds or minutes do not count.
@Suite struct R1DryTests {
  static func r1() throws -> GoldenRun {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    let url = root.appendingPathComponent("Scenarios/r1-polling.json")
    var json = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as! [String: Any]
    json["devices"] = 1000
    return try simulated(JSONSerialization.data(withJSONObject: json), file: "r1-polling.json")
  }

  @Test func r1FirstRunsDryAfterAboutThirteenHours() throws {
    let g = try Self.r1()
    let first = g.value(.firstDryHourMedian, "poll-15m")
    #expect(abs(first - 13) < 1, "R1's median first dry hour is \(first) h")
    // Every widget-day runs dry (the window is full from the first day on).
    #expect(g.value(.dryWidgetDayPct, "poll-15m") == 100)
    // Deferrals are counted whatever their wait (docs/r1.md: 12.1 a widget-day).
    #expect(abs(g.value(.withheldRequestsPerWidgetDay, "poll-15m") - 12.1) < 0.5)
    // The hourly shares agree: after the first day, the evening's spell
    // ends soon after midnight (24 h after the first day's first reloads);
    // then no widget is dry until 13:00 (waits for a freeing slot are
    // shorter than budget.dry_after_min), and all are from 14:00 to midnight.
    let shares = g.series("poll-15m").hourly[.widgetsDryPct]
    for day in 1..<7 {
      for h in 1..<13 { #expect(shares[day * 24 + h] < 1, "day \(day) \(h):00: \(shares[day * 24 + h]) % dry") }
      for h in 14..<24 { #expect(shares[day * 24 + h] > 99, "day \(day) \(h):00: \(shares[day * 24 + h]) % dry") }
    }
  }
}
