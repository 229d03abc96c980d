import ReloadEngine

// The C math functions the fit needs, through ReloadEngine's one bridge to
// the C library (Glibc, Musl, Darwin or ucrt, whichever the platform has).
extension Double {
  static func log(_ x: Double) -> Double { _log(x) }
  static func pow(_ x: Double, _ y: Double) -> Double { _pow(x, y) }
  static func exp(_ x: Double) -> Double { _exp(x) }
}
