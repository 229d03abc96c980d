/// A point in simulated time: whole milliseconds since the start of a run.
///
/// Time zero is 00:00 UTC of day 0 of the scenario. Every model rule and
/// every event works in these integer ticks, so a run is exactly
/// reproducible; minutes and hours as `Double` appear only in reports.
///
///     let reload = SimTime.zero + .minutes(15)
///     reload.milliseconds   // 900_000
@frozen
public struct SimTime: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// Milliseconds since the start of the run.
  public var milliseconds: Int64

  @inlinable @inline(__always)
  public init(milliseconds: Int64) { self.milliseconds = milliseconds }

  // NOTE: computed, not `static let`, so that uses compile to a constant
  // instead of a lazy-global accessor call, for performance.
  /// The start of the run.
  @inlinable public static var zero: SimTime { SimTime(milliseconds: 0) }
  /// A time later than any event of a run; used for "never".
  @inlinable public static var never: SimTime { SimTime(milliseconds: Int64.max / 4) }

  @inlinable @inline(__always)
  public static func < (a: SimTime, b: SimTime) -> Bool { a.milliseconds < b.milliseconds }

  @inlinable @inline(__always)
  public static func + (a: SimTime, d: SimDuration) -> SimTime {
    SimTime(milliseconds: a.milliseconds &+ d.milliseconds)
  }

  @inlinable @inline(__always)
  public static func - (a: SimTime, d: SimDuration) -> SimTime {
    SimTime(milliseconds: a.milliseconds &- d.milliseconds)
  }

  @inlinable @inline(__always)
  public static func - (a: SimTime, b: SimTime) -> SimDuration {
    SimDuration(milliseconds: a.milliseconds &- b.milliseconds)
  }

  @inlinable @inline(__always)
  public static func += (a: inout SimTime, d: SimDuration) { a = a + d }

  /// The time as hours since the start of the run (for reports only).
  public var hours: Double { Double(milliseconds) / Double(SimDuration.hour.milliseconds) }

  public var description: String {
    let ms = milliseconds
    if ms >= SimTime.never.milliseconds { return "never" }
    let day = ms / SimDuration.day.milliseconds
    let rem = ms % SimDuration.day.milliseconds
    let h = rem / SimDuration.hour.milliseconds
    let m = (rem / SimDuration.minute.milliseconds) % 60
    let s = (rem / 1000) % 60
    let frac = rem % 1000
    func two(_ v: Int64) -> String { v < 10 ? "0\(v)" : "\(v)" }
    let f = frac == 0 ? "" : "." + String(String(frac + 1000).dropFirst())
    return "d\(day)+\(two(h)):\(two(m)):\(two(s))\(f)"
  }
}

/// A span of simulated time in whole milliseconds.
///
/// The factories round to the nearest millisecond and saturate instead of
/// overflowing, like `TimeAmount` in SwiftNIO:
///
///     SimDuration.seconds(1.5).milliseconds     // 1_500
///     SimDuration.hours(Double.infinity)        // saturates at .max
@frozen
public struct SimDuration: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// The length in milliseconds (negative for a span backwards in time).
  public var milliseconds: Int64

  @inlinable @inline(__always)
  public init(milliseconds: Int64) { self.milliseconds = milliseconds }

  @inlinable public static var zero: SimDuration { SimDuration(milliseconds: 0) }
  /// The longest span that can still be added to any run time.
  @inlinable public static var max: SimDuration { SimDuration(milliseconds: Int64.max / 4) }

  @inlinable @inline(__always)
  public static func < (a: SimDuration, b: SimDuration) -> Bool {
    a.milliseconds < b.milliseconds
  }

  @inlinable @inline(__always)
  public static func milliseconds(_ ms: Int64) -> SimDuration { SimDuration(milliseconds: ms) }

  @inlinable
  public static func seconds(_ s: Double) -> SimDuration { .saturating(s * 1_000) }
  @inlinable
  public static func minutes(_ m: Double) -> SimDuration { .saturating(m * Double(minute.milliseconds)) }
  @inlinable
  public static func hours(_ h: Double) -> SimDuration { .saturating(h * Double(hour.milliseconds)) }
  @inlinable
  public static func days(_ d: Double) -> SimDuration { .saturating(d * Double(day.milliseconds)) }

  /// Rounds `ms` to the nearest millisecond, clamping to `±max`; NaN is zero.
  @inlinable
  public static func saturating(_ ms: Double) -> SimDuration {
    if ms.isNaN { return .zero }
    let limit = Double(SimDuration.max.milliseconds)
    if ms >= limit { return .max }
    if ms <= -limit { return SimDuration(milliseconds: -SimDuration.max.milliseconds) }
    // `Int64(ms.rounded())` without the C library's `round` call (NOTE:
    // for performance: every drawn duration passes here).
    return SimDuration(milliseconds: _roundedToInt64(ms))
  }

  @inlinable @inline(__always)
  public static func + (a: SimDuration, b: SimDuration) -> SimDuration {
    SimDuration(milliseconds: a.milliseconds &+ b.milliseconds)
  }
  @inlinable @inline(__always)
  public static func - (a: SimDuration, b: SimDuration) -> SimDuration {
    SimDuration(milliseconds: a.milliseconds &- b.milliseconds)
  }
  @inlinable @inline(__always)
  public static func * (a: SimDuration, k: Int64) -> SimDuration {
    SimDuration(milliseconds: a.milliseconds &* k)
  }

  public var seconds: Double { Double(milliseconds) / 1_000 }
  public var minutes: Double { Double(milliseconds) / Double(SimDuration.minute.milliseconds) }
  public var hours: Double { Double(milliseconds) / Double(SimDuration.hour.milliseconds) }

  public var description: String {
    let ms = milliseconds
    let hour = SimDuration.hour.milliseconds
    let minute = SimDuration.minute.milliseconds
    if ms % hour == 0 { return "\(ms / hour)h" }
    if ms % minute == 0 { return "\(ms / minute)min" }
    if ms % 1_000 == 0 { return "\(ms / 1_000)s" }
    return "\(ms)ms"
  }
}

extension SimDuration {
  /// One second, minute, hour and day, for index arithmetic on time
  /// (`.day.milliseconds`, `.hour * 3`): the only place their lengths in
  /// milliseconds are written.
  @inlinable public static var second: SimDuration { SimDuration(milliseconds: 1_000) }
  @inlinable public static var minute: SimDuration { SimDuration(milliseconds: 60_000) }
  @inlinable public static var hour: SimDuration { SimDuration(milliseconds: 3_600_000) }
  @inlinable public static var day: SimDuration { SimDuration(milliseconds: 86_400_000) }

  /// `fraction` of this span, truncated to the millisecond: with a uniform
  /// draw in [0, 1), a point in the span (`.hour.scaled(by: rng.nextUnit())`).
  @inlinable @inline(__always)
  public func scaled(by fraction: Double) -> SimDuration {
    SimDuration(milliseconds: Int64(fraction * Double(milliseconds)))
  }
}
