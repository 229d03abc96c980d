import Foundation
import ReloadMetrics
import Testing

/// docs/model.md#frozen-widgets and #budget-left on R1
/// (`Scenarios/r1-polling.json`, loaded through the CLI's decoder, at 1,000
/// of its 10,000 widgets): its widgets first run out after about 13 hours
/// of 15-minute polling (docs/r1.md, findings) and are frozen from half an
/// hour later (their tolerance) until the first slots free after midnight;
/// the waits of a full 24 h window before that do not count.
@Suite struct R1FrozenTests {
  static func r1() throws -> GoldenRun {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    let url = root.appendingPathComponent("Scenarios/r1-polling.json")
    var json = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as! [String: Any]
    json["devices"] = 1000
    return try simulated(JSONSerialization.data(withJSONObject: json), file: "r1-polling.json")
  }

  @Test func r1FreezesAfterAboutFourteenHours() throws {
    let g = try Self.r1()
    let first = g.value(.firstFrozenHourMedian, "poll-15m")
    #expect(first > 13 && first < 15, "R1's median first frozen hour is \(first) h")
    // Every widget-day is frozen and budget-limited (the window is full from the first day on).
    #expect(g.value(.frozenWidgetDayPct, "poll-15m") == 100)
    #expect(g.value(.budgetLimitedWidgetDayPct, "poll-15m") == 100)
    // Deferrals are counted whatever their wait (docs/r1.md: 12.1 a widget-day).
    #expect(abs(g.value(.withheldRequestsPerWidgetDay, "poll-15m") - 12.1) < 0.5)
    // The hourly shares agree: after the first day, the evening's stretch
    // ends soon after midnight (24 h after the first day's first reloads);
    // then no widget is frozen until 13:00 (a reload waiting for a freeing
    // slot comes within the tolerance), and all are from 15:00 to midnight.
    let shares = g.series("poll-15m").hourly[.widgetsFrozenPct]
    for day in 1..<7 {
      for h in 1..<13 { #expect(shares[day * 24 + h] < 1, "day \(day) \(h):00: \(shares[day * 24 + h]) % frozen") }
      for h in 15..<24 { #expect(shares[day * 24 + h] > 99, "day \(day) \(h):00: \(shares[day * 24 + h]) % frozen") }
    }
    // The budget-left series reads what the widgets can still spend within
    // the hour: slots keep freeing in the morning although the window is full.
    let left = g.series("poll-15m").budgetLeftByLocalHour
    for h in 8..<12 { #expect(left[h].p50 >= 1, "\(h):00: \(left[h].p50) reloads within the hour") }
    for h in 16..<23 { #expect(left[h].p50 == 0, "\(h):00: \(left[h].p50) reloads within the hour") }
  }
}
