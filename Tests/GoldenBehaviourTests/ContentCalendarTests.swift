import Foundation
import ReloadBenchCLI
import ReloadMetrics
import Testing
import WidgetModel

/// Publication lag, clock-time schedules and weekday-only content through
/// the public pipeline: a scenario file's JSON, decoded and validated like
/// the CLI's, simulated, and read from its results
/// (docs/model.md#publication-lag, #clock-times, #weekday-patterns).
@Suite struct ContentCalendarTests {
  /// Decodes `json` as the CLI does and simulates it in process.
  static func run(_ json: String) throws -> GoldenRun {
    try simulated(Data(json.utf8), file: "inline.json")
  }

  /// A day's list (Wikipedia's "most read") that changes at local midnight,
  /// polled every 15 minutes by users in one time zone.
  static func mostRead(utcOffset: Double, published: String?) -> String {
    let publication = published.map { #", "published_at_utc": "\#($0)""# } ?? ""
    return """
      {
        "name": "most-read", "seed": 4, "days": 5, "warmup_days": 1, "devices": 60,
        "kinds": [{ "name": "top", "scheduled": { "at": ["00:00"]\(publication) }, "tolerance_min": 30 }],
        "segments": [{ "name": "users", "utc_offsets": [{ "hours": \(utcOffset) }], "wake_hour": [7, 7], "sleep_hour": [23, 23],
                       "view_profile": "flat", "app_sessions_per_day": 0, "widgets": [{ "kind": "top" }] }],
        "strategies": ["poll-15m"]
      }
      """
  }

  /// Sydney (UTC+10): the list for the new day appears at 02:00 UTC = 12:00
  /// local, so a widget reloaded every 15 minutes since midnight still
  /// shows yesterday's list all morning, stale since midnight.
  @Test func aWidgetReloadedBeforeThePublicationStaysStaleUntilThen() throws {
    let lagged = try Self.run(Self.mostRead(utcOffset: 10, published: "02:00"))
    let morning = lagged.stalePct("poll-15m", localHours: 7..<12)
    #expect(morning == 100, "glances 07:00-12:00 are stale from midnight: \(morning) %")
    let afternoon = lagged.stalePct("poll-15m", localHours: 13..<23)
    #expect(afternoon < 1, "after the publication and a reload the list is current: \(afternoon) %")
    // Staleness at those glances counts from midnight: 7 to 12 hours
    // (5 of the 16 awake hours are stale, so p95 falls among them).
    let p95 = lagged.value(.stalenessP95Min, "poll-15m")
    #expect(p95 > 7 * 60 && p95 <= 12 * 60 + 30, "p95 staleness \(p95) min")

    // Without the lag the same users see the new list from the first
    // reload after they wake (policy reloads wait for the wake-up hour).
    let prompt = try Self.run(Self.mostRead(utcOffset: 10, published: nil))
    #expect(prompt.stalePct("poll-15m", localHours: 9..<12) < 1)
    // West of UTC the list is published before local midnight: no lag.
    let newYork = try Self.run(Self.mostRead(utcOffset: -5, published: "02:00"))
    #expect(newYork.stalePct("poll-15m", localHours: 9..<12) < 1)
    #expect(newYork.stalePct("poll-15m", localHours: 13..<23) < 1)
  }

  /// A provider that knows the schedule dates its entries at the clock
  /// times, so every glance is fresh with a handful of reloads a day;
  /// weekday-only content has no change at weekends.
  @Test func entriesDatedAtClockTimesShowEachChangeOnTime() throws {
    let json = """
      {
        "name": "prices", "seed": 2, "days": 8, "warmup_days": 1, "devices": 40, "start_weekday": "thursday",
        "kinds": [{ "name": "prices", "scheduled": { "at": ["06:00", "13:10"], "days": "weekdays", "horizon_h": 48 } }],
        "segments": [{ "name": "users", "utc_offsets": [{ "hours": 1 }, { "hours": -7 }], "widgets": [{ "kind": "prices" }] }],
        "strategies": ["future-entries", "poll-60m"]
      }
      """
    let g = try Self.run(json)
    #expect(g.value(.freshGlancePct, "future-entries") > 99)
    // 7 measured days from a Friday: 5 weekdays with 2 changes each, where
    // every day would have 7.
    let everyDay = try Self.run(json.replacingOccurrences(of: #""days": "weekdays""#, with: #""days": "every_day""#))
    let ratio = g.value(.dataChangesPerWidgetDay, "future-entries") / everyDay.value(.dataChangesPerWidgetDay, "future-entries")
    #expect(abs(ratio - 10.0 / 14) < 1e-9, "weekday changes / every-day changes = \(ratio)")
    // Polling shows each change up to an hour late: stale only right after 06:00 and 13:10.
    #expect(g.stalePct("poll-60m", localHours: 7..<13) > 0)
    #expect(g.stalePct("poll-60m", localHours: 15..<23) == 0)
  }
}
