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
package func _sqrt(_ x: Double) -> Double { x.squareRoot() }

@inlinable @inline(__always)
package func _lgamma(_ x: Double) -> Double { lgamma(x) }

@inlinable @inline(__always)
package func _pow(_ x: Double, _ y: Double) -> Double { pow(x, y) }
