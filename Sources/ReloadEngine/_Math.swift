// The few C math functions the samplers need. The engine uses the Swift
// standard library and the C library only (no Foundation).
#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#elseif canImport(ucrt)
  import ucrt
#endif

@inlinable @inline(__always)
package func _log(_ x: Double) -> Double { log(x) }

@inlinable @inline(__always)
package func _exp(_ x: Double) -> Double { exp(x) }

@inlinable @inline(__always)
package func _cos(_ x: Double) -> Double { cos(x) }

@inlinable @inline(__always)
package func _sin(_ x: Double) -> Double { sin(x) }

@inlinable @inline(__always)
package func _sqrt(_ x: Double) -> Double { x.squareRoot() }

@inlinable @inline(__always)
package func _lgamma(_ x: Double) -> Double { lgamma(x) }

@inlinable @inline(__always)
package func _pow(_ x: Double, _ y: Double) -> Double { pow(x, y) }

/// `Int64(x.rounded())` (to nearest, halves away from zero) without the C
/// library's `round` call: the conversion truncates toward zero, and the
/// remainder `x - Double(i)` is exact (for |x| >= 2^52 it is 0, since such
/// doubles are integers). Traps where `Int64(x.rounded())` traps.
/// NOTE: for performance: `round` was 1.7 % of the default scenario's time.
@inlinable @inline(__always)
package func _roundedToInt64(_ x: Double) -> Int64 {
  let i = Int64(x)
  let rest = x - Double(i)
  // Flags, not branches: which way a drawn duration rounds is a coin toss
  // that a branch predictor gets wrong half the time.
  let up: Int64 = rest >= 0.5 ? 1 : 0
  let down: Int64 = rest <= -0.5 ? 1 : 0
  return i &+ up &- down
}

/// `Int64(x.rounded(.up))` without the C library's `ceil` call (exact, as
/// `_roundedToInt64`). Traps where `Int64(x.rounded(.up))` traps.
@inlinable @inline(__always)
package func _roundedUpToInt64(_ x: Double) -> Int64 {
  let i = Int64(x)
  return Double(i) < x ? i &+ 1 : i
}
