import ReloadMetrics

/// Small statistics: quantiles, least squares, a seeded generator for the bootstrap.
enum Stats {
  static func median(_ v: [Double]) -> Double { quantile(v, 0.5) }

  /// The `q` quantile by linear interpolation between order statistics (`SampleQuantile`).
  static func quantile(_ v: [Double], _ q: Double) -> Double { SampleQuantile.of(v, q) }

  static func sortedQuantile(_ s: [Double], _ q: Double) -> Double { SampleQuantile.ofSorted(s, q) }

  static func mean(_ v: [Double]) -> Double { v.isEmpty ? .nan : v.reduce(0, +) / Double(v.count) }

  /// Running sums for the least-squares slope of y on x, which add across
  /// devices (a bootstrap resample adds each device's sums as often as drawn).
  struct Sums {
    var n = 0.0, x = 0.0, y = 0.0, xy = 0.0, xx = 0.0

    /// A point, counted `weight` times.
    mutating func add(_ x: Double, _ y: Double, weight k: Double = 1) {
      n += k
      self.x += k * x
      self.y += k * y
      xy += k * x * y
      xx += k * x * x
    }

    mutating func add(_ o: Sums, times k: Double) {
      n += k * o.n
      x += k * o.x
      y += k * o.y
      xy += k * o.xy
      xx += k * o.xx
    }

    /// The slope of y on x; nil below 3 points or without spread in x
    /// (a variance under 1e-12 is rounding, not data).
    var slope: Double? {
      guard n >= 3 else { return nil }
      let sxx = xx - x * x / n
      guard sxx / n > 1e-12 else { return nil }
      return (xy - x * y / n) / sxx
    }
  }

  static func standardDeviation(_ v: [Double]) -> Double {
    guard v.count > 1 else { return .nan }
    let m = mean(v)
    return (v.reduce(0) { $0 + ($1 - m) * ($1 - m) } / Double(v.count - 1)).squareRoot()
  }
}

/// SplitMix64: the bootstrap's seeded draws (the same seed gives the same intervals).
struct SeededGenerator: RandomNumberGenerator {
  var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
