// The C math functions the fit needs (no Foundation in this module).
#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#elseif canImport(ucrt)
  import ucrt
#endif

extension Double {
  static func log(_ x: Double) -> Double { Glibc.log(x) }
  static func pow(_ x: Double, _ y: Double) -> Double { Glibc.pow(x, y) }
  static func exp(_ x: Double) -> Double { Glibc.exp(x) }
}
