/// Tables of the ziggurat method for the standard exponential distribution
/// (Marsaglia and Tsang, "The Ziggurat Method for Generating Random
/// Variables", Journal of Statistical Software 5(8), 2000), 256 layers.
///
/// About 99 % of draws take one 64-bit random number, a table lookup, a
/// compare and a multiply; the rest fall back to an exact rejection step.
/// The distribution is exact, not an approximation.
///
/// Immutable after `init`, so sharing it across threads is safe.
///
/// NOTE: replaces `-log(u)` in the hot path (about 40 % fewer instructions
/// for glance and data-change generation), for performance.
@usableFromInline
final class _ExponentialZiggurat: Sendable {
  /// `k[i]`: the acceptance threshold of layer `i` in units of 2^-53.
  @usableFromInline let k: _SamplerTable<UInt64>
  /// `w[i]`: layer `i`'s width per unit of a 53-bit random number.
  @usableFromInline let w: _SamplerTable<Double>
  /// `f[i] = exp(-x[i])`.
  @usableFromInline let f: _SamplerTable<Double>
  /// The start of the tail.
  @usableFromInline static let r = 7.69711747013104972

  @usableFromInline static let shared = _ExponentialZiggurat()

  init() {
    let n = 256
    var k = [UInt64](repeating: 0, count: n)
    var w = [Double](repeating: 0, count: n)
    var f = [Double](repeating: 0, count: n)
    let m = 9007199254740992.0  // 2^53
    let v = 3.949659822581572e-3  // area of each layer
    var de = Self.r
    var te = de
    let q = v / _exp(-de)
    k[0] = UInt64((de / q) * m)
    k[1] = 0
    w[0] = q / m
    w[n - 1] = de / m
    f[0] = 1
    f[n - 1] = _exp(-de)
    for i in stride(from: n - 2, through: 1, by: -1) {
      de = -_log(v / de + _exp(-de))
      k[i + 1] = UInt64((de / te) * m)
      te = de
      f[i] = _exp(-de)
      w[i] = de / m
    }
    self.k = _SamplerTable(k)
    self.w = _SamplerTable(w)
    self.f = _SamplerTable(f)
  }

  deinit {
    k.deallocate()
    w.deallocate()
    f.deallocate()
  }
}

extension RandomNumberGenerator {
  /// A standard exponential variate by the ziggurat method.
  @inlinable @inline(__always)
  public mutating func nextStandardExponentialZiggurat() -> Double {
    let z = _ExponentialZiggurat.shared
    while true {
      let bits = next()
      let i = Int(bits & 0xFF)
      let u = bits &>> 11  // 53 bits
      if u < z.k[i] { return Double(u) * z.w[i] }
      if i == 0 { return _ExponentialZiggurat.r - _log(nextUnitPositive()) }
      let x = Double(u) * z.w[i]
      if z.f[i] + nextUnit() * (z.f[i &- 1] - z.f[i]) < _exp(-x) { return x }
    }
  }
}
