import ReloadEngine
import WidgetModel

/// A kind's schedule: a grid or clock times, days of the week, a weekend
/// schedule, drift and publication (docs/model.md#clock-times,
/// #weekday-patterns, #publication-lag).
extension ScenarioDecoder {
  static func scheduled(_ s: SchemaReader, days runDays: Double) throws(ScenarioError) -> ScheduledChanges {
    let main = try dailyPattern(s)
    let dayRule = ScheduleDays(rawValue: s.string("days")) ?? .everyDay
    var weekend: WeekendSchedule? = nil
    if let w = s.object("weekend", ScenarioSchema.weekendSchedule) {
      guard dayRule == .everyDay else {
        throw ScenarioError(
          path: w.path, message: "is set but days is \"\(dayRule.rawValue)\"",
          fix: "remove weekend (no changes on the other days), or set days to \"every_day\"")
      }
      let p = try dailyPattern(w)
      weekend = WeekendSchedule(every: p.every, offset: p.offset, fromHour: p.from, toHour: p.to, at: p.at)
    }
    let drift = s.number("drift_min_per_day")
    if drift != 0 {
      guard !main.at.isEmpty || !(weekend?.at.isEmpty ?? true) else {
        throw ScenarioError(
          path: "\(s.path).drift_min_per_day", message: "moves clock times, but the schedule has no \"at\"",
          fix: "list the clock times in \"at\", or remove drift_min_per_day")
      }
      try checkDrift(main.at + (weekend?.at ?? []), drift: drift, runDays: runDays, path: "\(s.path).drift_min_per_day")
    }
    var publication: Publication? = nil
    if case .string(let text) = s.value("published_at_utc"), let minutes = ClockTime.minutes(text) {
      publication = Publication(atUTC: .minutes(Double(minutes)), daysAhead: s.int("published_days_ahead"))
    } else if s.has("published_days_ahead") {
      throw ScenarioError(
        path: "\(s.path).published_days_ahead", message: "is set without published_at_utc",
        fix: "add \"published_at_utc\": the UTC time the data appears, e.g. \"02:15\"")
    }
    return ScheduledChanges(
      every: main.every, offset: main.offset, fromHour: main.from, toHour: main.to,
      horizon: .hours(s.number("horizon_h")),
      sharedUTCOffsetHours: s.number("utc_offset_h"), at: main.at, driftPerDay: .minutes(drift), days: dayRule,
      weekend: weekend, publication: publication)
  }

  /// One day's pattern of a schedule object: the grid (`every_min` and its
  /// window) or the clock times (`at`), exactly one of the two.
  static func dailyPattern(_ s: SchemaReader) throws(ScenarioError) -> (
    every: SimDuration, offset: SimDuration, from: Int, to: Int, at: [SimDuration]
  ) {
    let hasEvery = s.has("every_min")
    let hasAt = s.has("at")
    if hasEvery == hasAt {
      throw ScenarioError(
        path: hasAt ? "\(s.path).at" : "\(s.path).every_min",
        message: hasAt ? "is given together with every_min" : "is missing",
        fix: hasAt
          ? "give either every_min (a grid) or at (clock times), not both"
          : "add \"every_min\" (minutes between changes) or \"at\" (clock times, e.g. [\"06:00\", \"13:10\"])")
    }
    if hasAt {
      for key in ["offset_min", "from_hour", "to_hour"] where s.has(key) {
        throw ScenarioError(
          path: "\(s.path).\(key)", message: "applies to every_min only, but the schedule lists clock times in at",
          fix: "remove \(key): the times in at are the changes")
      }
      var minutes: [Int] = []
      for (i, v) in s.array("at").enumerated() {
        guard case .string(let text) = v, let m = ClockTime.minutes(text) else { continue }  // validated
        if let last = minutes.last, m <= last {
          throw ScenarioError(
            path: "\(s.path).at[\(i)]",
            message: "\(TerminalText.quoted(text)) \(m == last ? "repeats" : "comes before") the time before it",
            fix: "list the clock times in increasing order, each once")
        }
        minutes.append(m)
      }
      return (.day, .zero, 0, 24, minutes.map { .minutes(Double($0)) })
    }
    let from = s.int("from_hour")
    let to = s.int("to_hour")
    if to <= from {
      throw ScenarioError(
        path: "\(s.path).to_hour", message: "\(to) is not after from_hour \(from)",
        fix: "make to_hour greater than from_hour")
    }
    return (.minutes(s.number("every_min")), .minutes(s.number("offset_min")), from, to, [])
  }

  /// Drifting clock times must stay within their day from day -1 (a clock
  /// west of UTC) to the last day of the run.
  static func checkDrift(_ times: [SimDuration], drift: Double, runDays: Double, path: String) throws(ScenarioError) {
    let lastDay = runDays.rounded(.up)
    for t in times {
      let m = t.minutes
      for d in [-1.0, lastDay] {
        let moved = m + drift * d
        if moved < 0 || moved >= 1440 {
          throw ScenarioError(
            path: path,
            message: "moves \(TerminalText.quoted(ClockTime.text(Int(m)))) out of its day by day \(Int(d)) of the run",
            fix: "use a smaller drift, a shorter run, or clock times further from midnight")
        }
      }
    }
  }
}
