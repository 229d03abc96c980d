import ReloadEngine

/// The scheduled changes of one widget's data, seen from one clock: a pure
/// function from a time to the next scheduled change.
///
///     // Hourly forecast on the hour, 06:00-24:00 local, device at UTC+2.
///     let s = ChangeSchedule(ScheduledChanges(every: .hours(1), fromHour: 6),
///                            clockOffset: .hours(2))
///     s.next(after: .zero)     // d0+04:00 UTC (= 06:00 local)
///
/// - Complexity: O(1) for an all-day schedule; a few steps otherwise.
@frozen
public struct ChangeSchedule: Sendable, Equatable {
  @usableFromInline let every: Int64
  @usableFromInline let offset: Int64
  @usableFromInline let fromMs: Int64
  @usableFromInline let toMs: Int64
  @usableFromInline let clockOffset: Int64
  @usableFromInline let allDay: Bool

  public init(_ spec: ScheduledChanges, clockOffset: SimDuration) {
    every = max(1, spec.every.milliseconds)
    offset = spec.offset.milliseconds
    fromMs = Int64(spec.fromHour) * 3_600_000
    toMs = Int64(spec.toHour) * 3_600_000
    self.clockOffset = clockOffset.milliseconds
    allDay = spec.fromHour <= 0 && spec.toHour >= 24
  }

  @inlinable @inline(__always)
  static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
    let q = a / b
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
  }

  /// The first scheduled change strictly after `time`.
  @inlinable
  public func next(after time: SimTime) -> SimTime {
    let local = time.milliseconds &+ clockOffset
    var k = ChangeSchedule.floorDiv(local &- offset, every) &+ 1
    var candidate = offset &+ k &* every
    if allDay { return SimTime(milliseconds: candidate &- clockOffset) }
    let day: Int64 = 86_400_000
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

  /// The number of scheduled changes in `[start, end)`.
  public func count(from start: SimTime, to end: SimTime) -> Int {
    var n = 0
    var t = next(after: start - .milliseconds(1))
    while t < end {
      n += 1
      t = next(after: t)
    }
    return n
  }
}
