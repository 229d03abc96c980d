import ReloadMetrics
import Testing

/// The fleet peak estimate on synthetic samples whose true fleet load is
/// known: independent requests at a rate that follows the day, plus
/// fleet-synchronised bursts at the top of every hour. A sample of n
/// devices sees each second's fleet count thinned by n / fleet.
@Suite struct FleetLoadTests {
  static let fleet = 500_000.0
  static let seconds = 2 * 86_400

  /// The fleet's true rate in second `t` (requests/s).
  static func fleetRate(_ t: Int) -> Double {
    let day = Double(t % 86_400) / 86_400
    var rate = 60 + 50 * sin(2 * Double.pi * day)
    // A push to everyone at the top of each hour: 2 minutes at 900 req/s.
    if t % 3600 < 120 { rate += 900 }
    return rate
  }

  /// A deterministic Poisson draw (Knuth for small means, normal above).
  struct Draws {
    var state: UInt64
    mutating func uniform() -> Double {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return Double((z ^ (z >> 31)) >> 11) / Double(1 << 53)
    }
    mutating func poisson(_ mean: Double) -> UInt64 {
      if mean > 30 {
        let u1 = max(uniform(), 1e-300)
        let u2 = uniform()
        let z = (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
        return UInt64(max(0, (mean + z * mean.squareRoot()).rounded()))
      }
      let limit = exp(-mean)
      var k: UInt64 = 0
      var p = uniform()
      while p > limit {
        k += 1
        p *= uniform()
      }
      return k
    }
  }

  /// The running sum of a sample of `devices` devices' requests per second.
  static func samplePrefix(devices: Double, seed: UInt64, start: UInt32 = 0) -> [UInt32] {
    var draws = Draws(state: seed)
    var prefix = [UInt32](repeating: start, count: seconds + 1)
    for t in 0..<seconds {
      prefix[t + 1] = prefix[t] &+ UInt32(draws.poisson(fleetRate(t) * devices / fleet))
    }
    return prefix
  }

  /// The true p99.9 of the fleet's seconds: the fleet's counts drawn from
  /// the true rate, sorted.
  static func trueQuantile() -> Double {
    var draws = Draws(state: 99)
    let counts = (0..<seconds).map { draws.poisson(fleetRate($0)) }.sorted()
    return Double(counts[Int(FleetLoad.quantile * Double(seconds))])
  }

  @Test func peakDoesNotDependOnTheSampleSize() {
    let small = FleetLoad.estimate(prefix: Self.samplePrefix(devices: 3_000, seed: 1), scale: Self.fleet / 3_000)
    let large = FleetLoad.estimate(prefix: Self.samplePrefix(devices: 30_000, seed: 2), scale: Self.fleet / 30_000)
    let truth = Self.trueQuantile()
    #expect(abs(small.peakSecond / large.peakSecond - 1) < 0.10, "3k \(small.peakSecond) vs 30k \(large.peakSecond)")
    #expect(abs(small.peakSecond / truth - 1) < 0.10, "3k \(small.peakSecond) vs true \(truth)")
    #expect(abs(large.peakSecond / truth - 1) < 0.10, "30k \(large.peakSecond) vs true \(truth)")
    // The interval holds the estimate and, here, the truth.
    for e in [small, large] {
      #expect(e.peakSecondLow <= e.peakSecond && e.peakSecond <= e.peakSecondHigh)
      #expect(e.peakSecondLow <= truth * 1.02 && truth * 0.98 <= e.peakSecondHigh, "\(e) vs \(truth)")
    }
    // The busiest minute: the bursts last 2 minutes, so about 960 req/s.
    #expect(abs(small.peakMinute / large.peakMinute - 1) < 0.10)
    #expect(small.peakMinute > 800 && small.peakMinute < 1_100, "\(small.peakMinute)")
    // Its interval holds the estimate and the bursts' level, within a
    // quarter of the estimate (a window holds about 250 sampled requests
    // whatever the sample's size, so the width does not shrink with it).
    for e in [small, large] {
      #expect(e.peakMinuteLow <= e.peakMinute && e.peakMinute <= e.peakMinuteHigh, "\(e)")
      #expect(e.peakMinuteLow < 960 && 960 < e.peakMinuteHigh, "\(e)")
      #expect(e.peakMinuteHigh - e.peakMinuteLow < 0.25 * e.peakMinute, "\(e)")
    }
  }

  /// The sample's busiest second times fleet/n, the figure this estimate
  /// replaces, moves with the sample size by far more than 10 %.
  @Test func sampleMaximumScaledUpIsNoise() {
    func naive(_ devices: Double, seed: UInt64) -> Double {
      let p = Self.samplePrefix(devices: devices, seed: seed)
      return Double((0..<Self.seconds).map { p[$0 + 1] - p[$0] }.max()!) * Self.fleet / devices
    }
    #expect(naive(3_000, seed: 1) > 1.3 * naive(30_000, seed: 2))
  }

  /// Running sums that wrap past 2^32 give the same estimate: only
  /// differences over windows are read.
  @Test func wrappingRunningSumsGiveTheSameEstimate() {
    let plain = Self.samplePrefix(devices: 3_000, seed: 1)
    let wrapped = Self.samplePrefix(devices: 3_000, seed: 1, start: UInt32.max - 1_000)
    #expect(wrapped.last! < wrapped.first!)
    #expect(FleetLoad.estimate(prefix: plain, scale: 100) == FleetLoad.estimate(prefix: wrapped, scale: 100))
  }

  @Test func noRequestsNoPeak() {
    #expect(FleetLoad.estimate(prefix: [0, 0, 0], scale: 10) == .zero)
    #expect(FleetLoad.estimate(prefix: [0], scale: 10) == .zero)
  }
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The ★ rule: ties and leads inside the noise are not marked.
@Suite struct DistinctBestTests {
  static func table(_ rows: [(String, [SummaryMetric: Double], ci: [SummaryMetric: Double]?)]) -> ResultTable {
    ResultTable(
      columns: SummaryMetrics.all,
      rows: rows.map { r in
        ResultRow(
          scenario: "s", strategy: r.0, segment: "all", values: SummaryMetric.allCases.map { r.1[$0] },
          ci95: r.ci.map { ci in SummaryMetric.allCases.map { ci[$0] } })
      })
  }

  @Test func aTieIsNotABest() {
    let t = Self.table([("a", [.backendPeakRps: 1166.67], ci: nil), ("b", [.backendPeakRps: 1166.67], ci: nil)])
    #expect(t.best(.backendPeakRps, among: t.rows) == 1166.67)
    #expect(t.distinctBest(column: SummaryMetric.backendPeakRps.rawValue, among: t.rows) == nil)
  }

  @Test func aClearLeadIsABest() {
    let t = Self.table([("a", [.freshGlancePct: 90], ci: nil), ("b", [.freshGlancePct: 80], ci: nil)])
    #expect(t.distinctBest(column: SummaryMetric.freshGlancePct.rawValue, among: t.rows) == 90)
  }

  @Test func aLeadInsideTheReplicationIntervalIsNotABest() {
    let t = Self.table([
      ("a", [.freshGlancePct: 90], ci: [.freshGlancePct: 3]), ("b", [.freshGlancePct: 88], ci: [.freshGlancePct: 3]),
    ])
    #expect(t.distinctBest(column: SummaryMetric.freshGlancePct.rawValue, among: t.rows) == nil)
  }

  @Test func overlappingFleetPeakIntervalsAreATie() {
    let overlapping = Self.table([
      ("a", [.backendFleetPeakRps: 50, .backendFleetPeakLowRps: 45, .backendFleetPeakHighRps: 56], ci: nil),
      ("b", [.backendFleetPeakRps: 54, .backendFleetPeakLowRps: 49, .backendFleetPeakHighRps: 60], ci: nil),
    ])
    #expect(
      overlapping.distinctBest(column: SummaryMetric.backendFleetPeakRps.rawValue, among: overlapping.rows) == nil)
    let apart = Self.table([
      ("a", [.backendFleetPeakRps: 50, .backendFleetPeakLowRps: 45, .backendFleetPeakHighRps: 56], ci: nil),
      ("b", [.backendFleetPeakRps: 200, .backendFleetPeakLowRps: 180, .backendFleetPeakHighRps: 220], ci: nil),
    ])
    #expect(apart.distinctBest(column: SummaryMetric.backendFleetPeakRps.rawValue, among: apart.rows) == 50)
  }
}
