import ReloadEngine

/// A day of the week. Simulation day 0 is `Scenario.startWeekday`; every
/// clock counts its own days (docs/model.md#calendar), so a device west of
/// UTC is still on the day before when day 0 starts at 00:00 UTC.
public enum Weekday: Int, Sendable, CaseIterable {
  case monday = 0
  case tuesday, wednesday, thursday, friday, saturday, sunday

  /// The scenario file's spelling: "monday" ... "sunday".
  public var name: String {
    switch self {
    case .monday: return "monday"
    case .tuesday: return "tuesday"
    case .wednesday: return "wednesday"
    case .thursday: return "thursday"
    case .friday: return "friday"
    case .saturday: return "saturday"
    case .sunday: return "sunday"
    }
  }

  public init?(name: String) {
    guard let d = Weekday.allCases.first(where: { $0.name == name }) else { return nil }
    self = d
  }

  /// Saturday and Sunday.
  public var isWeekend: Bool { rawValue >= 5 }
}

/// Which days of the week a clock is on: the weekday of its day 0 and the
/// arithmetic from a time to a local day and its weekday
/// (docs/model.md#calendar).
///
///     let c = WeekCalendar(startWeekday: .monday)
///     c.weekday(ofLocalDay: 5)                                  // .saturday
///     c.weekday(at: .zero, clockOffset: .hours(-5))             // .sunday (day -1)
@frozen
public struct WeekCalendar: Sendable, Equatable {
  /// The weekday of day 0 (0 = Monday).
  @usableFromInline let start: Int

  public init(startWeekday: Weekday = .monday) { start = startWeekday.rawValue }

  public var startWeekday: Weekday { Weekday(rawValue: start) ?? .monday }

  /// The local day (0 = the day that starts at 00:00 of day 0 in this
  /// clock) of `time` on a clock `clockOffset` east of UTC.
  @inlinable @inline(__always)
  public static func localDay(of time: SimTime, clockOffset: SimDuration) -> Int64 {
    ChangeSchedule.floorDiv(time.milliseconds &+ clockOffset.milliseconds, SimDuration.day.milliseconds)
  }

  @inlinable @inline(__always)
  public func weekday(ofLocalDay day: Int64) -> Weekday {
    var w = (Int64(start) &+ day) % 7
    if w < 0 { w &+= 7 }
    return Weekday(rawValue: Int(w)) ?? .monday
  }

  /// `true` on Saturdays and Sundays of this clock.
  @inlinable @inline(__always)
  public func isWeekend(localDay day: Int64) -> Bool {
    var w = (Int64(start) &+ day) % 7
    if w < 0 { w &+= 7 }
    return w >= 5
  }

  @inlinable
  public func weekday(at time: SimTime, clockOffset: SimDuration) -> Weekday {
    weekday(ofLocalDay: Self.localDay(of: time, clockOffset: clockOffset))
  }

  @inlinable
  public func isWeekend(at time: SimTime, clockOffset: SimDuration) -> Bool {
    isWeekend(localDay: Self.localDay(of: time, clockOffset: clockOffset))
  }

  /// The first local day after `day` whose weekend-ness differs from `day`'s
  /// (Saturday after a weekday, Monday after a weekend day).
  @inlinable
  func nextChangeOfDayType(after day: Int64) -> Int64 {
    var w = (Int64(start) &+ day) % 7
    if w < 0 { w &+= 7 }
    return w >= 5 ? day &+ (7 &- w) : day &+ (5 &- w)
  }

}

/// A Poisson process whose rate on weekends is `factor` times its weekday
/// rate, drawn exactly by thinning: draw at `scale = max(1, factor)` times
/// the weekday rate, keep an arrival with probability `1 / scale` on a
/// weekday and `factor / scale` on a weekend day (docs/model.md#weekday-patterns).
///
///     let t = WeekendThinning(factor: 0.5)   // scale 1: weekdays kept, half the weekend's
@frozen
public struct WeekendThinning: Sendable, Equatable {
  public let factor: Double
  /// Multiply the weekday rates by this before drawing.
  public let scale: Double
  public let keepWeekday: Double
  public let keepWeekend: Double

  public init(factor: Double) {
    self.factor = factor
    scale = Swift.max(1, factor)
    keepWeekday = 1 / scale
    keepWeekend = factor / scale
  }

  /// `false` when there is nothing to thin (the factor is 1).
  @inlinable public var isActive: Bool { factor != 1 }

  /// Keeps the arrivals of `out[start...]` that survive, in order; `clock`
  /// is the clock the weekend is counted in. Draws one number per arrival.
  public func thin<G: RandomNumberGenerator>(
    _ out: inout [SimTime], from start: Int, calendar: WeekCalendar, clockOffset: SimDuration, using rng: inout G
  ) {
    guard isActive else { return }
    var kept = start
    for i in start..<out.count {
      let t = out[i]
      let keep = calendar.isWeekend(at: t, clockOffset: clockOffset) ? keepWeekend : keepWeekday
      if rng.nextUnit() < keep {
        out[kept] = t
        kept += 1
      }
    }
    out.removeLast(out.count - kept)
  }

  /// Whether an arrival at `t` survives (one draw).
  @inlinable
  public func keeps<G: RandomNumberGenerator>(
    _ t: SimTime, calendar: WeekCalendar, clockOffset: SimDuration, using rng: inout G
  ) -> Bool {
    let keep = calendar.isWeekend(at: t, clockOffset: clockOffset) ? keepWeekend : keepWeekday
    return rng.nextUnit() < keep
  }

  /// The mean over a week relative to weekdays: `(5 + 2 * factor) / 7`.
  public var weeklyMean: Double { (5 + 2 * factor) / 7 }
}
