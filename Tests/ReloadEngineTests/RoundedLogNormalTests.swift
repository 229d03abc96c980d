import Testing

import ReloadEngine

/// The polynomial log-normal (`LogNormalSampler.sampleRounded`) gives the
/// C library's millisecond for every draw: each function stays within the
/// error its budget assumes, and a draw next to a half millisecond is
/// handed to the C library.
@Suite struct RoundedLogNormalTests {
  /// Hands out the given numbers, then a SplitMix64 sequence.
  struct Scripted: RandomNumberGenerator {
    var queue: [UInt64]
    var rest = SplitMix64(seed: 1)
    mutating func next() -> UInt64 { queue.isEmpty ? rest.next() : queue.removeFirst() }
  }

  /// The value the C library's chain gives before rounding.
  static func libraryValue(median: Double, sigma: Double, _ r1: UInt64, _ r2: UInt64) -> Double {
    LogNormalSampler(median: median, sigma: sigma).value(r1, r2)
  }

  @Test func logIsWithinItsBudgetEverywhere() {
    let tables = _LogNormalTables.shared
    var rng = SplitMix64(seed: 11)
    var ks: [UInt64] = [1, 2, 3, 1 << 52, (1 << 53) - 1, 1 << 53, (1 << 53) - (1 << 40)]
    for _ in 0..<200_000 {
      // Every binade of u, and the top one (u near 1) densely.
      let shift = rng.next() % 54
      ks.append(max(1, (rng.next() >> 11) >> shift))
      ks.append((1 << 53) - (rng.next() >> (11 + rng.next() % 53)))
    }
    // Both sides of every subinterval boundary.
    for i in 0...128 {
      let edge = Double(bitPattern: _LogNormalTables.sqrtHalfBits &+ UInt64(i) << 45)
      for scale in [1, 0.5, 0x1.0p-20] where edge * scale <= 1 {
        let k = UInt64(edge * scale * 0x1.0p53)
        ks.append(contentsOf: [k - 1, k, k + 1])
      }
    }
    for k in ks where k >= 1 && k <= 1 << 53 {
      let exact = _log(Double(k) * 0x1.0p-53)
      let fast = _RoundedLogNormal.log(Double(k) * 0x1.0p-53, tables)
      let allowed = abs(exact) > 1e-4 ? 1e-15 * abs(exact) + 5e-16 : 1e-15 * abs(exact)
      #expect(abs(fast - exact) <= allowed, "k \(k): \(fast) against \(exact)")
    }
  }

  @Test func cosIsWithinItsBudgetEverywhere() {
    let tables = _LogNormalTables.shared
    var rng = SplitMix64(seed: 12)
    var ks: [UInt64] = [0, 1, (1 << 53) - 1]
    for _ in 0..<200_000 { ks.append(rng.next() >> 11) }
    // Next to every table step and every step's midpoint.
    for j in UInt64(0)...256 {
      for edge in [j << 45, (j << 45) + (1 << 44)] {
        for d: UInt64 in [0, 1, 2, 1000] {
          ks.append(edge &+ d)
          if edge >= d { ks.append(edge - d) }
        }
      }
    }
    for k in ks where k < 1 << 53 {
      let exact = _cos(2 * Double.pi * (Double(k) * 0x1.0p-53))
      let fast = _RoundedLogNormal.cos2pi(k: k, tables)
      // 6e-16 of its own, plus the C library's: its argument 2 pi u is
      // rounded (up to 4.4e-16) and so is its cos (1.1e-16).
      #expect(abs(fast - exact) <= 1.2e-15, "k \(k): \(fast) against \(exact)")
    }
  }

  @Test func expIsWithinItsBudgetEverywhere() {
    let tables = _LogNormalTables.shared
    var rng = SplitMix64(seed: 13)
    var xs: [Double] = [0, -0.0, 1, -1, 699.9, -699.9, 0.693_147_180_559_945_3 / 128, 1e-300]
    for _ in 0..<200_000 {
      let unit = Double(rng.next() >> 11) * 0x1.0p-53
      xs.append((unit * 2 - 1) * 45)  // sigma <= 5 times a normal <= 8.6
      xs.append((unit * 2 - 1) * 699.9)
    }
    for x in xs {
      let exact = _exp(x)
      let fast = _RoundedLogNormal.exp(x, tables)
      #expect(abs(fast - exact) <= 1e-15 * exact, "x \(x): \(fast) against \(exact)")
    }
  }

  /// The shapes the scenarios use (push delays, background latency,
  /// session and audio lengths, `.after` lateness) and the edges of the
  /// scenario schema (sigma 0 and 5, a median of 0 or 1 ms, a huge median).
  static let shapes: [(median: Double, sigma: Double)] = [
    (2_000, 1), (20_000, 1), (120_000, 0.8), (1_800_000, 0.5), (4_800_000, 0.45),
    (1, 5), (0, 1), (7, 0), (1_000, 5), (123_456_789, 3), (86_400_000, 2),
  ]

  @Test(arguments: 0..<11) func everyDrawIsTheCLibrarysMillisecond(shape: Int) {
    let (median, sigma) = Self.shapes[shape]
    let sampler = LogNormalSampler(median: median, sigma: sigma)
    var a = Xoshiro256StarStar(seed: UInt64(100 + shape))
    var b = a
    for _ in 0..<200_000 {
      let fast = sampler.sampleRounded(using: &a)
      let exact = sampler.sampleRoundedDefinition(using: &b)
      if fast != exact {
        Issue.record("median \(median), sigma \(sigma): \(fast.milliseconds) against \(exact.milliseconds)")
        return
      }
    }
    #expect(a.next() == b.next(), "the same random numbers are used")
  }

  /// A draw is made to land within a few ulp of a half millisecond (by
  /// picking the median): the polynomial path declines, and the sampler's
  /// answer is still the C library's rounding of the same value.
  @Test func drawsNextToAHalfMillisecondAreLeftToTheCLibrary() {
    var rng = SplitMix64(seed: 14)
    var declined = 0
    for _ in 0..<20_000 {
      let r1 = rng.next()
      let r2 = rng.next()
      let sigma = Double(rng.next() % 500) / 100
      let e = Self.libraryValue(median: 1, sigma: sigma, r1, r2)
      guard e > 1e-9 && e < 1e9 else { continue }
      let target = (Double(rng.next() % 10_000_000) + 0.5)
      var median = target / e
      // Nudge the median by ulps, so the value falls either side of the half.
      for _ in 0..<Int(rng.next() % 3) { median = median.nextUp }
      let value = Self.libraryValue(median: median, sigma: sigma, r1, r2)
      let fast = _RoundedLogNormal.fastMilliseconds(median: median, sigma: sigma, r1, r2)
      if fast == nil { declined += 1 }
      var scripted = Scripted(queue: [r1, r2])
      let drawn = LogNormalSampler(median: median, sigma: sigma).sampleRounded(using: &scripted)
      #expect(drawn == SimDuration.saturating(value), "median \(median), sigma \(sigma)")
      if let fast { #expect(fast == SimDuration.saturating(value).milliseconds) }
    }
    #expect(declined > 15_000, "values this close to a half are not certain: \(declined) of 20,000 declined")
  }

  /// The polynomial path is the one taken: for durations of seconds to
  /// hours the C library is asked for a few draws in a million. (The
  /// tolerance is relative, so medians of days decline more often.)
  @Test func thePolynomialPathIsTakenAlmostAlways() {
    var rng = Xoshiro256StarStar(seed: 15)
    var declined = 0
    let n = 900_000
    for i in 0..<n {
      let (median, sigma) = Self.shapes[i % 9]
      if _RoundedLogNormal.fastMilliseconds(median: median, sigma: sigma, rng.next(), rng.next()) == nil {
        declined += 1
      }
    }
    #expect(declined < n / 10_000, "\(declined) of \(n) declined")
  }
}
