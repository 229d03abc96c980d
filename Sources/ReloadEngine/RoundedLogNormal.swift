// A log-normal duration rounded to the millisecond, computed mostly without
// the C library and always equal to the C library's answer.
//
// NOTE: for performance. Push delivery delays, background latency, session
// lengths and `.after` lateness are each `median * exp(sigma * N(0, 1))`,
// rounded to a millisecond; the Box–Muller normal and the `exp` took three
// C library calls (`log`, `cos`, `exp`), about 18 % of a `fleet-1m` run.
// Here each of the three is a table lookup and a short polynomial whose
// error is far below a known bound; the bound carries through to the
// rounded value, and only a draw whose value lies within that bound of a
// rounding boundary (a half millisecond) is recomputed with the C library.
// So every draw is the millisecond the C library's arithmetic gives, bit
// for bit in the results, and the fallback is taken for a few draws in a
// million.

extension LogNormalSampler {
  /// The definition of a log-normal duration: the C library's draw
  /// (`sample(using:)`) rounded to the millisecond. Clear and slow; the
  /// simulation draws with `sampleRounded(using:)`, which gives exactly
  /// this value from the same two random numbers (tested draw by draw).
  @inlinable
  public func sampleRoundedDefinition<G: RandomNumberGenerator>(using rng: inout G) -> SimDuration {
    .saturating(sample(using: &rng))
  }

  /// `sampleRoundedDefinition(using:)`, mostly without the C library: the
  /// same two random numbers and the same millisecond, for every draw.
  @inlinable @inline(__always)
  public func sampleRounded<G: RandomNumberGenerator>(using rng: inout G) -> SimDuration {
    let r1 = rng.next()
    let r2 = rng.next()
    if let fast = _RoundedLogNormal.fastMilliseconds(median: median, sigma: sigma, r1, r2) {
      return SimDuration(milliseconds: fast)
    }
    return .saturating(value(r1, r2))  // the definition, for these two numbers
  }
}

/// The Box–Muller transform as `nextStandardNormal` computes it, with the C
/// library: one definition for the sampler and its exact fallback.
@usableFromInline
enum _BoxMuller {
  /// One of the pair: `sqrt(-2 log u1) cos(2 pi u2)`.
  @inlinable @inline(__always)
  static func standardNormal(u1: Double, u2: Double) -> Double {
    _sqrt(-2 * _log(u1)) * _cos(2 * Double.pi * u2)
  }
}

/// The polynomial path of `LogNormalSampler.sampleRounded(using:)`.
///
/// Each function is a table lookup and a short polynomial, with no branch
/// on the random numbers (they would be mispredicted): 27 ns a draw against
/// the C library's 45 ns in a tight loop.
///
/// Error budget, relative to the value before rounding. The C library's
/// `log`, `cos` and `exp` are each within 1 ulp, so its chain of roundings
/// is within `sigma * 1.4e-14 + 1e-15` of the exact value (the argument of
/// `cos` is rounded once; the normal is at most 8.6 in size, so the
/// exponent `x` carries `8.6 sigma` times a few ulp). The functions below
/// are within 1e-15 relative plus 5e-16 absolute (`log`), 6e-16
/// absolute (`cos`) and 1e-15 relative (`exp`); `log`'s absolute error
/// only occurs where `|log u| > 1e-4`, so the exponent is within
/// `sigma * 5e-14` and this chain within `sigma * 5e-14 + 2e-15`.
/// `tolerance` allows `(1 + sigma) * 1e-12`: 20 times the sum (and 300
/// times the largest difference measured over millions of draws). The
/// tests check each function against the C library across its whole range,
/// and the rounded values against the C library's for millions of draws and
/// for draws made to land next to a half millisecond.
@usableFromInline
package enum _RoundedLogNormal {
  /// Relative distance from the C library's value that is certain to round
  /// the same way, per unit of `1 + sigma`.
  @usableFromInline static let tolerance = 1e-12

  /// log 2, rounded.
  @inlinable static var ln2: Double { 0.693_147_180_559_945_3 }

  /// The rounded milliseconds, or `nil` when the value lies within the
  /// error bound of a half millisecond, is not far below the saturation
  /// limit, or its exponent is outside `exp`'s easy range.
  @inlinable @inline(__always)
  static package func fastMilliseconds(median: Double, sigma: Double, _ r1: UInt64, _ r2: UInt64) -> Int64? {
    let tables = _LogNormalTables.shared
    let radius = (-2 * log(_unitPositive(r1), tables)).squareRoot()
    let x = sigma * (radius * cos2pi(k: r2 &>> 11, tables))
    guard x > -700 && x < 700 else { return nil }
    let v = median * exp(x, tables)
    // Far below `SimDuration.max` (2^61 ms), where the truncation is exact.
    guard v < 0x1.0p52 && v >= 0 else { return nil }
    let whole = Int64(v)
    let frac = v - Double(whole)
    let bound = v * (tolerance * (1 + sigma))
    let fromHalf = frac - 0.5
    guard abs(fromHalf) > bound else { return nil }
    // A flag, not a branch: which way the value rounds is a coin toss.
    let up: Int64 = fromHalf > 0 ? 1 : 0
    return whole &+ up
  }

  /// `log(u)` for `u` in (0, 1] with 53 significant bits (`_unitPositive`).
  ///
  /// `u = 2^e z` with `z` in [sqrt(1/2), sqrt(2)) (Arm's optimized-routines
  /// reduction: subtracting sqrt(1/2)'s bits puts `e` in the top bits and
  /// the subinterval in the next 7), then `log z = log c + log1p(r)`,
  /// `r = z / c - 1`, `|r| < 0.0056`, `log1p` by its series to `r^6`.
  /// The subinterval holding 1 has `c = 1`, so near `u = 1`, where the
  /// normal's radius is small, `r` is exact and the error relative.
  @inlinable @inline(__always)
  static package func log(_ u: Double, _ tables: _LogNormalTables) -> Double {
    let bits = u.bitPattern
    let shifted = bits &- _LogNormalTables.sqrtHalfBits
    let i = Int((shifted &>> 45) & 127)
    let e = Int64(bitPattern: shifted) >> 52
    let z = Double(bitPattern: bits &- (shifted & (0xFFF &<< 52)))
    let r = z * tables.logInverse(i) - 1
    let r2 = r * r
    let high = (-0.25 + r * 0.2) + r2 * (-1.0 / 6)
    let q = (-0.5 + r * (1.0 / 3)) + r2 * high
    return (Double(e) * ln2 + tables.logCenter(i)) + (r + r2 * q)
  }

  /// `cos(2 pi k 2^-53)` for `k` in 0..<2^53.
  ///
  /// `2 pi k 2^-53 = a + b`, `a` the nearest of 256 steps of a turn
  /// (taken off exactly in `k`) and `|b| <= pi/256`; then
  /// `cos a cos b - sin a sin b` with `cos b`, `sin b` by their series to
  /// `b^6` and `b^5`.
  @inlinable @inline(__always)
  static package func cos2pi(k: UInt64, _ tables: _LogNormalTables) -> Double {
    let step = (k &+ (1 << 44)) &>> 45  // 0...256; 256 is a whole turn
    let rest = Int64(bitPattern: k) &- Int64(bitPattern: step &<< 45)  // |rest| <= 2^44
    let b = Double(rest) * (0x1.0p-53 * 2 * Double.pi)
    let b2 = b * b
    let cosB = 1 + b2 * (-0.5 + b2 * (1.0 / 24 - b2 * (1.0 / 720)))
    let sinB = b + b * (b2 * (-1.0 / 6 + b2 * (1.0 / 120)))
    let j = Int(step & 255)
    return tables.turnCos(j) * cosB - tables.turnSin(j) * sinB
  }

  /// `exp(x)` for `|x| < 700`.
  ///
  /// `x = (64 n + j) log(2)/64 + r`, `|r| <= log(2)/128` (plus a
  /// rounding); `exp x = 2^n 2^(j/64) exp(r)`, `exp r` by its series to
  /// `r^5`, `2^n` built from bits.
  @inlinable @inline(__always)
  static package func exp(_ x: Double, _ tables: _LogNormalTables) -> Double {
    // Round to the nearest integer by adding and removing 1.5 * 2^52; the
    // integer is then in the low bits of the sum.
    let shifter = 0x1.8p52
    let sum = x * (64 / ln2) + shifter
    let m = sum - shifter
    let mi = Int64(bitPattern: sum.bitPattern &<< 13) >> 13  // the low 51 bits, signed
    // log(2)/64 in two parts; the high part has 32 bits, so `m * high`
    // (|m| < 2^17) is exact.
    let r = (x - m * 0x1.62e42ffp-7) - m * -0x1.718432a1b0e26p-41
    let r2 = r * r
    let p = (1 + r) + r2 * ((0.5 + r * (1.0 / 6)) + r2 * (1.0 / 24 + r * (1.0 / 120)))
    let j = Int(mi & 63)
    // |n| <= 1010, so 2^n's exponent field is in range.
    let scale = Double(bitPattern: UInt64(bitPattern: (mi >> 6) &+ 1023) << 52)
    return (tables.exp2Step(j) * p) * scale
  }
}

/// The tables of `_RoundedLogNormal`, computed once with the C library.
///
/// Immutable after `init`, so sharing it across threads is safe. Every
/// index is masked to its table's size by the accessors' callers.
@usableFromInline
package final class _LogNormalTables: Sendable {
  /// The bits of sqrt(1/2), where `log`'s subintervals start.
  @usableFromInline static package let sqrtHalfBits: UInt64 = 0x3FE6_A09E_667F_3BCD
  @usableFromInline static package let shared = _LogNormalTables()

  /// `[0, 128)`: `1/c` of `log`'s subintervals; `[128, 256)`: `log c`;
  /// `[256, 320)`: `2^(j/64)`; `[320, 576)`: `cos(2 pi j/256)`;
  /// `[576, 832)`: `sin(2 pi j/256)`.
  @usableFromInline let values: _SamplerTable<Double>

  init() {
    var values = [Double](repeating: 0, count: 832)
    for i in 0..<128 {
      // The midpoint of subinterval i of [sqrt(1/2), sqrt(2)); the one
      // holding 1 uses 1 itself.
      let low = Double(bitPattern: Self.sqrtHalfBits &+ UInt64(i) << 45)
      let high = Double(bitPattern: Self.sqrtHalfBits &+ UInt64(i + 1) << 45)
      let inverse = (low <= 1 && 1 < high) ? 1 : 1 / ((low + high) / 2)
      values[i] = inverse
      values[128 + i] = -_log(inverse)
    }
    for j in 0..<64 { values[256 + j] = _pow(2, Double(j) / 64) }
    for j in 0..<256 {
      values[320 + j] = _cos(2 * Double.pi * Double(j) / 256)
      values[576 + j] = _sin(2 * Double.pi * Double(j) / 256)
    }
    self.values = _SamplerTable(values)
  }

  deinit { values.deallocate() }

  @inlinable @inline(__always) func logInverse(_ i: Int) -> Double { values[i] }
  @inlinable @inline(__always) func logCenter(_ i: Int) -> Double { values[128 &+ i] }
  @inlinable @inline(__always) func exp2Step(_ j: Int) -> Double { values[256 &+ j] }
  @inlinable @inline(__always) func turnCos(_ j: Int) -> Double { values[320 &+ j] }
  @inlinable @inline(__always) func turnSin(_ j: Int) -> Double { values[576 &+ j] }
}
