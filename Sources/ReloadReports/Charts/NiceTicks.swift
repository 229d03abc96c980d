// The C library's log10 for log-scale axes (no Foundation needed here).
#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#elseif canImport(ucrt)
  import ucrt
#endif

/// Axis ticks people can read: steps of 1, 2 or 5 times a power of ten, a
/// domain widened to whole steps, and time ladders for durations.
///
/// The classic "nice numbers" scheme (Heckbert, *Graphics Gems*, 1990):
/// pick the step from 1-2-5 x 10^k that gives at most `maxCount` intervals,
/// then round the domain outwards to multiples of it.
///
///     NiceTicks.linear(0, 67.2)         // (0, 80, [0, 20, 40, 60, 80])
///     NiceTicks.linear(0, 67.2, maxCount: 8)   // step 10: 0 ... 70
///     NiceTicks.log(12, 250_000)        // [10, 100, 1000, 10000, 100000, 1e6]
package enum NiceTicks {
  /// A step of `mantissa` x 10^`exponent` (`mantissa` is 1, 2 or 5); kept
  /// apart so ticks are computed exactly (`3 x 0.1` is not `0.3`, `3 / 10` is).
  package struct Step: Equatable, Sendable {
    package var mantissa: Int
    package var exponent: Int

    /// The step as a number.
    package var value: Double { Self.scaled(Double(mantissa), exponent) }

    /// `n` steps: `n x mantissa x 10^exponent`, correctly rounded.
    package func times(_ n: Int) -> Double { Self.scaled(Double(n * mantissa), exponent) }

    static func scaled(_ x: Double, _ exponent: Int) -> Double {
      var p = 1.0
      for _ in 0..<abs(exponent) { p *= 10 }
      return exponent >= 0 ? x * p : x / p
    }
  }

  /// The smallest 1-2-5 step that cuts `span` into at most `maxCount` intervals.
  package static func step(span: Double, maxCount: Int) -> Step {
    precondition(maxCount >= 1, "maxCount must be at least 1, got \(maxCount)")
    guard span.isFinite, span > 0 else { return Step(mantissa: 1, exponent: 0) }
    let raw = span / Double(maxCount)
    // The power of ten at or below `raw`.
    var exponent = 0
    var power = 1.0
    while power * 10 <= raw {
      power *= 10
      exponent += 1
    }
    while power > raw {
      power /= 10
      exponent -= 1
    }
    let ratio = raw / power  // 1 ..< 10
    for mantissa in [1, 2, 5] where ratio <= Double(mantissa) * (1 + 1e-9) {
      return Step(mantissa: mantissa, exponent: exponent)
    }
    return Step(mantissa: 1, exponent: exponent + 1)
  }

  /// A domain covering `lo ... hi`, widened to whole steps, and its ticks.
  ///
  /// An empty or degenerate range (`lo == hi`) is widened around the value.
  /// At most `maxCount + 1` ticks, both ends included.
  package static func linear(_ lo: Double, _ hi: Double, maxCount: Int = 5) -> (
    lo: Double, hi: Double, ticks: [Double]
  ) {
    var lo = lo.isFinite ? lo : 0
    var hi = hi.isFinite ? hi : 1
    if lo > hi { swap(&lo, &hi) }
    if lo == hi {
      let pad = lo == 0 ? 1 : abs(lo) / 2
      lo -= lo == 0 ? 0 : pad
      hi += pad
    }
    let step = self.step(span: hi - lo, maxCount: maxCount)
    let s = step.value
    // Tolerate rounding error: 0.30000000000000004 / 0.1 is a whole step.
    let first = Int((lo / s + 1e-9).rounded(.down))
    let last = Int((hi / s - 1e-9).rounded(.up))
    let ticks = (first...max(first, last)).map { step.times($0) }
    return (ticks[0], ticks[ticks.count - 1], ticks)
  }

  /// Ticks for a log axis over `lo ... hi` (both > 0): the decades that
  /// cover it, plus 2 and 5 within each decade when there are few decades.
  ///
  /// The domain is widened to whole decades.
  package static func log(_ lo: Double, _ hi: Double, maxCount: Int = 8) -> (
    lo: Double, hi: Double, ticks: [Double]
  ) {
    let lo = lo > 0 && lo.isFinite ? lo : 1
    let hi = hi > lo && hi.isFinite ? hi : lo * 10
    let first = Int((log10(lo) + 1e-9).rounded(.down))
    var last = Int((log10(hi) - 1e-9).rounded(.up))
    if last <= first { last = first + 1 }
    var ticks: [Double] = []
    let decades = last - first
    let mantissas = decades * 3 <= maxCount ? [1, 2, 5] : [1]
    let every = max(1, (decades + maxCount - 1) / maxCount)
    for e in first...last where (e - first) % every == 0 {
      for m in mantissas {
        let v = Step(mantissa: m, exponent: e).value
        if e == last && m > 1 { break }
        ticks.append(v)
      }
    }
    return (Step(mantissa: 1, exponent: first).value, Step(mantissa: 1, exponent: last).value, ticks)
  }

  /// Durations in minutes that read well on a log time axis: 1 s, 10 s,
  /// 1 min, 10 min, 1 h, 6 h, 1 d, 7 d, 30 d: about one every 0.8 decade.
  package static let durationLadderMinutes: [Double] = [
    1.0 / 60, 10.0 / 60, 1, 10, 60, 6 * 60, 24 * 60, 7 * 24 * 60, 30 * 24 * 60,
  ]

  /// Ticks for a log time axis in minutes: the ladder entries inside
  /// `lo ... hi`, thinned to at most `maxCount` while keeping both ends.
  package static func durationMinutes(_ lo: Double, _ hi: Double, maxCount: Int = 7) -> [Double] {
    var ticks = durationLadderMinutes.filter { $0 >= lo * (1 - 1e-9) && $0 <= hi * (1 + 1e-9) }
    // Drop the entries that sit closest (in log terms) to a neighbour until few enough.
    while ticks.count > max(2, maxCount) {
      var closest = 1
      var gap = Double.infinity
      for i in 1..<(ticks.count - 1) {
        let g = log10(ticks[i + 1] / ticks[i - 1])
        if g < gap {
          gap = g
          closest = i
        }
      }
      ticks.remove(at: closest)
    }
    return ticks
  }
}

/// `log10` for chart code, in one place.
@inline(__always)
func _log10(_ x: Double) -> Double { log10(x) }

/// `10^x` for chart code (log-axis padding), in one place.
@inline(__always)
func _pow10(_ x: Double) -> Double { pow(10, x) }

/// `sin` and `cos` for chart code (markers set apart on a circle), in one place.
@inline(__always)
func _sin(_ x: Double) -> Double { sin(x) }

@inline(__always)
func _cos(_ x: Double) -> Double { cos(x) }
