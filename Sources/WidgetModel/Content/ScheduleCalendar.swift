import ReloadEngine
import Synchronization

/// The part of a schedule beyond a plain grid, independent of the clock it
/// is read in: one day's pattern for weekdays and one for weekends (a grid,
/// a list of clock times, or nothing), the daily drift of clock times, the
/// weekday of day 0 and the publication rule
/// (docs/model.md#clock-times, #weekday-patterns, #publication-lag).
///
/// Immutable and built once per kind (`PreparedScenario`), so a device's
/// `ChangeSchedule` only holds a reference: generating a device allocates
/// nothing. Every calendar is interned (`intern`) and kept for the life of
/// the process, which is what lets schedules hold it unretained.
@usableFromInline
final class ScheduleCalendar: Sendable, Hashable {
  /// One day's changes.
  struct Day: Sendable, Equatable {
    enum Shape: Sendable, Equatable {
      case none
      /// `offset + k * every` (local ms since day 0), inside `[fromMs, toMs)` of the day.
      case grid
      /// `times[first ..< end]` (ms since local midnight, increasing) plus the drift.
      case times
    }
    var shape: Shape
    var every: Int64 = 1
    var offset: Int64 = 0
    var fromMs: Int64 = 0
    var toMs = SimDuration.day.milliseconds
    var first = 0
    var end = 0

    static let none = Day(shape: .none)
  }

  let weekday: Day
  let weekend: Day
  /// The clock times of both patterns, one run each.
  let times: [Int64]
  let driftMs: Int64
  let week: WeekCalendar
  @usableFromInline let publishes: Bool
  /// The data of local date D is published at UTC `D * day + publicationMs`.
  let publicationMs: Int64

  static var dayMs: Int64 { SimDuration.day.milliseconds }

  init(weekday: Day, weekend: Day, times: [Int64], driftMs: Int64, week: WeekCalendar, publication: Publication?) {
    self.weekday = weekday
    self.weekend = weekend
    self.times = times
    self.driftMs = driftMs
    self.week = week
    publishes = publication != nil
    if let p = publication {
      publicationMs = p.atUTC.milliseconds - Int64(p.daysAhead) * Self.dayMs
    } else {
      publicationMs = 0
    }
  }

  /// The calendar of `spec` (interned), or `nil` for a plain grid (which needs none).
  static func make(_ spec: ScheduledChanges, startWeekday: Weekday) -> ScheduleCalendar? {
    if spec.isPlainGrid { return nil }
    var times: [Int64] = []
    func pattern(every: SimDuration, offset: SimDuration, from: Int, to: Int, at: [SimDuration]) -> Day {
      if at.isEmpty {
        return Day(
          shape: .grid, every: max(1, every.milliseconds), offset: offset.milliseconds,
          fromMs: Int64(from) * SimDuration.hour.milliseconds, toMs: Int64(to) * SimDuration.hour.milliseconds)
      }
      let first = times.count
      times.append(contentsOf: at.map(\.milliseconds).sorted())
      return Day(shape: .times, first: first, end: times.count)
    }
    let main = pattern(every: spec.every, offset: spec.offset, from: spec.fromHour, to: spec.toHour, at: spec.at)
    var weekdays = main
    var weekends = main
    switch spec.days {
    case .everyDay:
      if let w = spec.weekend {
        weekends = pattern(every: w.every, offset: w.offset, from: w.fromHour, to: w.toHour, at: w.at)
      }
    case .weekdays: weekends = .none
    case .weekends: weekdays = .none
    }
    return intern(
      ScheduleCalendar(
        weekday: weekdays, weekend: weekends, times: times, driftMs: spec.driftPerDay.milliseconds,
        week: WeekCalendar(startWeekday: startWeekday), publication: spec.publication))
  }

  @usableFromInline
  static func == (a: ScheduleCalendar, b: ScheduleCalendar) -> Bool {
    a === b
      || (a.weekday == b.weekday && a.weekend == b.weekend && a.times == b.times && a.driftMs == b.driftMs
        && a.week == b.week && a.publishes == b.publishes && a.publicationMs == b.publicationMs)
  }

  @usableFromInline
  func hash(into h: inout Hasher) {
    h.combine(times)
    h.combine(driftMs)
    h.combine(week.start)
    h.combine(publicationMs)
    for d in [weekday, weekend] {
      h.combine(d.every)
      h.combine(d.offset)
      h.combine(d.fromMs)
      h.combine(d.toMs)
      h.combine(d.first)
      h.combine(d.end)
    }
  }

  /// Every calendar made so far, one per distinct value (a sweep of a
  /// thousand points adds at most a thousand small objects per kind).
  private static let registry = Mutex<Set<ScheduleCalendar>>([])

  /// The registry's calendar equal to `c` (adding `c` if it is new); it is
  /// never freed.
  static func intern(_ c: ScheduleCalendar) -> ScheduleCalendar {
    registry.withLock { set in
      if let i = set.firstIndex(of: c) { return set[i] }
      set.insert(c)
      return c
    }
  }

  /// The first change strictly after `time` on a clock `clockOffset` ms east of UTC.
  @usableFromInline
  func next(after time: SimTime, clockOffset: Int64) -> SimTime {
    let day = Self.dayMs
    let local = time.milliseconds &+ clockOffset
    var d = ChangeSchedule.floorDiv(local, day)
    var after = local &- d &* day  // find a time of day strictly after this on day d
    for _ in 0..<64 {
      let weekendDay = week.isWeekend(localDay: d)
      let p = weekendDay ? weekend : weekday
      let dayStart = d &* day
      switch p.shape {
      case .none:
        // Skip to the first day of the other type.
        d = week.nextChangeOfDayType(after: d)
      case .times:
        if let tod = firstTime(p, day: d, after: after) { return SimTime(milliseconds: dayStart &+ tod &- clockOffset) }
        d &+= 1
      case .grid:
        let lo = dayStart &+ max(after &+ 1, p.fromMs)
        let k = ChangeSchedule.floorDiv(lo &- p.offset &- 1, p.every) &+ 1  // first grid point >= lo
        let c = p.offset &+ k &* p.every
        if c < dayStart &+ min(p.toMs, day) { return SimTime(milliseconds: c &- clockOffset) }
        // No point left today: go to the day of the next grid point, but not
        // past a day whose other pattern might have changes.
        var nextDay = ChangeSchedule.floorDiv(c, day)
        if (weekendDay ? weekday : weekend).shape != .none {
          nextDay = min(nextDay, week.nextChangeOfDayType(after: d))
        }
        d = max(d &+ 1, nextDay)
      }
      after = -1
    }
    return .never
  }

  /// The first of `p`'s clock times on day `d` (drift applied) strictly
  /// after `after`, if it falls inside the day. Binary search.
  @inline(__always)
  func firstTime(_ p: Day, day d: Int64, after: Int64) -> Int64? {
    let shift = driftMs &* d
    let target = after &- shift  // first base time > target
    var lo = p.first
    var hi = p.end
    while lo < hi {
      let mid = (lo &+ hi) >> 1
      if times[mid] > target { hi = mid } else { lo = mid &+ 1 }
    }
    guard lo < p.end else { return nil }
    let tod = times[lo] &+ shift
    return tod >= 0 && tod < Self.dayMs ? tod : nil
  }

  /// The changes on local dates up to the day before the first date whose
  /// data is unpublished at `time` are known (docs/model.md#publication-lag).
  @usableFromInline
  func publishedThrough(at time: SimTime, clockOffset: Int64) -> SimTime {
    let day = Self.dayMs
    // Local date D is unpublished at t when D * day + publicationMs > t.
    let firstUnpublishedDay = ChangeSchedule.floorDiv(time.milliseconds &- publicationMs, day) &+ 1
    let dayStart = SimTime(milliseconds: firstUnpublishedDay &* day &- clockOffset)
    let first = next(after: dayStart - .milliseconds(1), clockOffset: clockOffset)
    return first == .never ? .never : first - .milliseconds(1)
  }

  /// The first time after `time` a change can be shown: `max(change, its
  /// publication)` of the first change for which that is after `time`.
  @usableFromInline
  func nextShowable(after time: SimTime, clockOffset: Int64) -> SimTime {
    let afterTime = next(after: time, clockOffset: clockOffset)
    let known = publishedThrough(at: time, clockOffset: clockOffset)
    let unpublished = known == .never ? SimTime.never : next(after: known, clockOffset: clockOffset)
    let c = min(afterTime, unpublished)
    if c == .never { return .never }
    let date = ChangeSchedule.floorDiv(c.milliseconds &+ clockOffset, Self.dayMs)
    return max(c, SimTime(milliseconds: date &* Self.dayMs &+ publicationMs))
  }
}
