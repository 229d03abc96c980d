import ReloadEngine

/// The scheduled changes of one widget's data, seen from one clock: a pure
/// function from a time to the next scheduled change.
///
///     // Hourly forecast on the hour, 06:00-24:00 local, device at UTC+2.
///     let s = ChangeSchedule(ScheduledChanges(every: .hours(1), fromHour: 6),
///                            clockOffset: .hours(2))
///     s.next(after: .zero)     // d0+04:00 UTC (= 06:00 local)
///
///     // Prices at 13:10 on weekdays only (docs/model.md#clock-times, #weekday-patterns).
///     let p = ChangeSchedule(.clockTimes([.minutes(13 * 60 + 10)], days: .weekdays),
///                            clockOffset: .hours(1), startWeekday: .friday)
///     p.next(after: .zero)     // d0+12:10 UTC (Friday), then d3+12:10 (Monday)
///
/// A plain grid (every day, no clock times, no publication lag) keeps the
/// original arithmetic; anything else goes through its `ScheduleCalendar`,
/// built once per kind and shared by every device's schedule.
///
/// - Important: `ChangeSchedule` is a plain value (no reference counting):
///   it refers to its calendar unretained, and calendars live in a registry
///   for the life of the process (`ScheduleCalendar.intern`), so the
///   reference never dangles.
///
/// - Complexity: O(1) for an all-day grid; a few steps for active hours,
///   weekdays or a weekend schedule; O(log n) in the `n` clock times of a day.
@frozen
public struct ChangeSchedule: Sendable, Equatable {
  public static func == (a: ChangeSchedule, b: ChangeSchedule) -> Bool {
    a.every == b.every && a.offset == b.offset && a.fromMs == b.fromMs && a.toMs == b.toMs
      && a.clockOffset == b.clockOffset && a.allDay == b.allDay
      && a.calendar?.toOpaque() == b.calendar?.toOpaque()  // interned: same calendar, same object
  }

  @usableFromInline let every: Int64
  @usableFromInline let offset: Int64
  @usableFromInline let fromMs: Int64
  @usableFromInline let toMs: Int64
  @usableFromInline let clockOffset: Int64
  @usableFromInline let allDay: Bool
  /// Clock times, days of the week, drift and publication; `nil` for a plain grid.
  // NOTE: unretained for performance: a retained reference made every copy
  // of a schedule (one per glance) reference-count it, about 10 % of a run.
  @usableFromInline let calendar: Unmanaged<ScheduleCalendar>?

  /// `spec` on a clock `clockOffset` east of UTC whose day 0 is `startWeekday`.
  public init(_ spec: ScheduledChanges, clockOffset: SimDuration, startWeekday: Weekday = .monday) {
    self.init(spec, calendar: ScheduleCalendar.make(spec, startWeekday: startWeekday), clockOffset: clockOffset)
  }

  /// `spec` with its calendar already built and interned
  /// (`ScheduleCalendar.make`): no allocation, for a device's schedules.
  init(_ spec: ScheduledChanges, calendar: ScheduleCalendar?, clockOffset: SimDuration) {
    every = max(1, spec.every.milliseconds)
    offset = spec.offset.milliseconds
    fromMs = Int64(spec.fromHour) * SimDuration.hour.milliseconds
    toMs = Int64(spec.toHour) * SimDuration.hour.milliseconds
    self.clockOffset = clockOffset.milliseconds
    allDay = spec.fromHour <= 0 && spec.toHour >= 24
    self.calendar = calendar.map { Unmanaged.passUnretained($0) }
  }

  @inlinable @inline(__always)
  static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
    let q = a / b
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
  }

  /// The first scheduled change strictly after `time`.
  @inlinable
  public func next(after time: SimTime) -> SimTime {
    if let calendar { return Self.calendarNext(calendar, after: time, clockOffset: clockOffset) }
    let local = time.milliseconds &+ clockOffset
    var k = ChangeSchedule.floorDiv(local &- offset, every) &+ 1
    var candidate = offset &+ k &* every
    if allDay { return SimTime(milliseconds: candidate &- clockOffset) }
    let day = SimDuration.day.milliseconds
    for _ in 0..<64 {
      let dayStart = ChangeSchedule.floorDiv(candidate, day) &* day
      let tod = candidate &- dayStart
      if tod >= fromMs && tod < toMs { return SimTime(milliseconds: candidate &- clockOffset) }
      let windowStart = tod < fromMs ? dayStart &+ fromMs : dayStart &+ day &+ fromMs
      k = ChangeSchedule.floorDiv(windowStart &- offset &- 1, every) &+ 1
      candidate = offset &+ k &* every
    }
    return .never
  }

  /// The latest of the first `steps` scheduled changes after `time` that
  /// is not after `limit`; `time` itself when the first is after `limit`.
  /// The same as stepping `next(after:)` `steps` times and stopping at
  /// `limit`, in O(1) for an all-day grid (a timeline of `.content`
  /// entries asks this once per reload: 23 steps for a day of hourly data).
  @inlinable
  public func last(of steps: Int, after time: SimTime, notAfter limit: SimTime) -> SimTime {
    guard steps > 0 else { return time }
    if calendar == nil && allDay {
      let first = next(after: time)
      if first > limit { return time }
      let fit = ChangeSchedule.floorDiv(limit.milliseconds &- first.milliseconds, every)
      let n = min(Int64(steps - 1), fit)
      return SimTime(milliseconds: first.milliseconds &+ n &* every)
    }
    var t = time
    for _ in 0..<steps {
      let s = next(after: t)
      if s > limit { break }
      t = s
    }
    return t
  }

  /// `next(after:)` through a calendar, out of line so the plain grid's
  /// arithmetic stays small where it is inlined.
  @usableFromInline @inline(never)
  static func calendarNext(_ calendar: Unmanaged<ScheduleCalendar>, after time: SimTime, clockOffset: Int64) -> SimTime
  {
    calendar._withUnsafeGuaranteedRef { $0.next(after: time, clockOffset: clockOffset) }
  }

  /// How far the provider can see the schedule's data at `time`: every
  /// change at or before the result is published, the first one after it
  /// is not (`.never` when nothing is held back). A timeline made at
  /// `time` shows no change after it (docs/model.md#publication-lag).
  @inlinable
  public func publishedThrough(at time: SimTime) -> SimTime {
    guard let calendar else { return .never }
    let offset = clockOffset
    return calendar._withUnsafeGuaranteedRef {
      $0.publishes ? $0.publishedThrough(at: time, clockOffset: offset) : .never
    }
  }

  /// The first time strictly after `time` at which a scheduled change can
  /// be shown: the change itself, or its publication if that is later.
  /// Equals `next(after:)` without a publication lag.
  @inlinable
  public func nextShowable(after time: SimTime) -> SimTime {
    guard let calendar else { return next(after: time) }
    let offset = clockOffset
    return calendar._withUnsafeGuaranteedRef { $0.nextShowable(after: time, clockOffset: offset) }
  }

  /// The number of scheduled changes in `[start, end)`.
  public func count(from start: SimTime, to end: SimTime) -> Int {
    var t = next(after: start - .milliseconds(1))
    if calendar == nil && allDay {
      // An all-day grid: the changes in [t, end) are t, t + every, ...
      return t >= end ? 0 : Int(ChangeSchedule.floorDiv(end.milliseconds &- 1 &- t.milliseconds, every) &+ 1)
    }
    var n = 0
    while t < end {
      n += 1
      t = next(after: t)
    }
    return n
  }
}
