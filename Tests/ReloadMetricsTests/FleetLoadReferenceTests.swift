import ReloadMetrics
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `FleetLoad.estimate` takes shortcuts for speed (whole minutes counted
/// without the per-second width walk, runs of one count tallied at once);
/// these tests hold it to the definition in its documentation, written
/// out one second at a time, on series that exercise every path: empty,
/// shorter than the widest window, sparse, dense, widths changing within
/// a minute, bursts above the table, and running sums that wrap.
@Suite struct FleetLoadReferenceTests {
  /// The definition, one second at a time: the narrowest clamped window
  /// holding `minimumWindowCount` requests (else the widest); whole
  /// windows with a count below the table's size tallied per (width,
  /// count) and added to the histograms after the pass, as the estimate
  /// does (so the histograms' sums are added in the same order), every
  /// other second added as it comes; each minute the mean of its seconds'
  /// rates, and of their intervals' ends.
  static func reference(prefix: [UInt32], scale: Double) -> FleetLoad {
    let n = prefix.count - 1
    guard n > 0, scale > 0 else { return .zero }
    let widths = FleetLoad.halfWidths
    var table = [[UInt32]](repeating: [UInt32](repeating: 0, count: FleetLoad.tableCounts), count: widths.count)
    var mid = RateHistogram()
    var low = RateHistogram()
    var high = RateHistogram()
    var minutes = RateHistogram()
    var minutesLow = RateHistogram()
    var minutesHigh = RateHistogram()
    func interval(_ c: Double) -> (Double, Double) {
      let spread = 1.96 * c.squareRoot()
      return (max(0, c - spread), c > 0 ? c + spread : 3)
    }
    func add(count: UInt64, length: Int, times: Double) {
      let c = Double(count)
      let perSecond = scale / Double(length)
      let spread = 1.96 * c.squareRoot()
      mid.add(c * perSecond, times: times)
      low.add(max(0, c - spread) * perSecond, times: times)
      high.add((c > 0 ? c + spread : 3) * perSecond, times: times)
    }
    var any = false
    var minuteSum = 0.0
    var minuteLow = 0.0
    var minuteHigh = 0.0
    var minuteSeconds = 0
    for i in 0..<n {
      var k = 0
      var window = (count: UInt64(0), length: 0)
      for (j, h) in widths.enumerated() {
        let a = max(0, i - h)
        let b = min(n, i + h + 1)
        (k, window) = (j, (UInt64(prefix[b] &- prefix[a]), b - a))
        if window.count >= FleetLoad.minimumWindowCount { break }
      }
      let (count, length) = window
      any = any || count > 0
      if length == 2 * widths[k] + 1, count < UInt64(FleetLoad.tableCounts) {
        table[k][Int(count)] += 1
      } else {
        add(count: count, length: length, times: 1)
      }
      minuteSum += Double(count) * (scale / Double(length))
      let (l, h) = interval(Double(count))
      minuteLow += l * (scale / Double(length))
      minuteHigh += h * (scale / Double(length))
      minuteSeconds += 1
      if minuteSeconds == 60 || i == n - 1 {
        minutes.add(minuteSum / Double(minuteSeconds), times: 1)
        minutesLow.add(minuteLow / Double(minuteSeconds), times: 1)
        minutesHigh.add(minuteHigh / Double(minuteSeconds), times: 1)
        (minuteSum, minuteLow, minuteHigh) = (0, 0, 0)
        minuteSeconds = 0
      }
    }
    guard any else { return .zero }
    for k in widths.indices {
      for c in 0..<FleetLoad.tableCounts where table[k][c] > 0 {
        add(count: UInt64(c), length: 2 * widths[k] + 1, times: Double(table[k][c]))
      }
    }
    return FleetLoad(
      peakSecond: mid.quantile(seconds: 1, FleetLoad.quantile),
      peakSecondLow: low.quantile(seconds: 1, FleetLoad.quantile),
      peakSecondHigh: high.quantile(seconds: 1, FleetLoad.quantile),
      peakMinute: minutes.quantile(seconds: 60, FleetLoad.quantile),
      peakMinuteLow: minutesLow.quantile(seconds: 60, FleetLoad.quantile),
      peakMinuteHigh: minutesHigh.quantile(seconds: 60, FleetLoad.quantile))
  }

  /// A series of `seconds` seconds: Poisson-like counts at a rate that
  /// moves through the day (so the chosen width changes), with optional
  /// bursts, from a fixed seed.
  static func series(seconds: Int, meanPerSecond: Double, burst: UInt32 = 0, start: UInt32 = 0, seed: UInt64)
    -> [UInt32]
  {
    var state = seed
    func uniform() -> Double {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return Double((z ^ (z >> 31)) >> 11) / Double(1 << 53)
    }
    var prefix = [UInt32](repeating: start, count: seconds + 1)
    for t in 0..<seconds {
      let rate = meanPerSecond * (1 + 0.9 * sin(2 * Double.pi * Double(t) / 20_000))
      // A count with mean `rate`: the integer part plus a Bernoulli draw.
      var v = UInt32(rate.rounded(.down)) + (uniform() < rate - rate.rounded(.down) ? 1 : 0)
      if burst > 0, t % 7_200 < 30 { v &+= burst }
      prefix[t + 1] = prefix[t] &+ v
    }
    return prefix
  }

  static func expectSame(_ prefix: [UInt32], scale: Double, sourceLocation: SourceLocation = #_sourceLocation) {
    let fast = FleetLoad.estimate(prefix: prefix, scale: scale)
    let slow = reference(prefix: prefix, scale: scale)
    #expect(fast.peakSecond == slow.peakSecond, sourceLocation: sourceLocation)
    #expect(fast.peakSecondLow == slow.peakSecondLow, sourceLocation: sourceLocation)
    #expect(fast.peakSecondHigh == slow.peakSecondHigh, sourceLocation: sourceLocation)
    // A whole minute's mean is summed as an integer count times the
    // width's rate, the definition's one second at a time: they may
    // differ in the last bits.
    for (a, b) in [
      (fast.peakMinute, slow.peakMinute), (fast.peakMinuteLow, slow.peakMinuteLow),
      (fast.peakMinuteHigh, slow.peakMinuteHigh),
    ] {
      #expect(abs(a - b) <= 1e-12 * max(1, b), sourceLocation: sourceLocation)
    }
    // The minute's interval holds its estimate.
    #expect(
      fast.peakMinuteLow <= fast.peakMinute && fast.peakMinute <= fast.peakMinuteHigh, sourceLocation: sourceLocation)
  }

  @Test(arguments: [
    (3_000, 0.0), (3_000, 0.5), (7_300, 0.02), (86_400, 0.003), (86_400, 0.08), (86_400, 0.9), (86_400, 40.0),
  ])
  func theShortcutsGiveTheDefinitionsEstimate(seconds: Int, mean: Double) {
    for seed: UInt64 in [1, 2] {
      Self.expectSame(Self.series(seconds: seconds, meanPerSecond: mean, seed: seed), scale: 166.7)
    }
  }

  @Test func burstsAboveTheTableAndWrappingSums() {
    // Bursts of 5,000 requests a second put window counts above the
    // table's 4,096; a start near 2^32 makes the running sums wrap.
    let prefix = Self.series(seconds: 86_400, meanPerSecond: 0.2, burst: 5_000, start: UInt32.max - 50_000, seed: 3)
    #expect(prefix.last! < prefix.first!)
    Self.expectSame(prefix, scale: 25)
  }

  /// A histogram keeps only a window of its bins, widened as rates fall
  /// outside it: each bin holds what it would in an array of every bin,
  /// for rates from below the first bin to above the last, arriving in an
  /// order that widens the window both ways.
  @Test func theHistogramsWindowHoldsEveryBin() {
    var histogram = RateHistogram()
    var weight = [Double](repeating: 0, count: RateHistogram.binCount)
    var total = [Double](repeating: 0, count: RateHistogram.binCount)
    var state: UInt64 = 7
    for i in 0..<20_000 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      let r = i % 97 == 0 ? 0 : exp2(Double(state >> 11) / Double(1 << 53) * 90 - 35)
      let times = Double(i % 3 + 1)
      histogram.add(r, times: times)
      guard r > 0 else { continue }
      let key =
        r <= RateHistogram.lowest
        ? 0
        : min(
          RateHistogram.binCount - 1,
          Int(truncatingIfNeeded: r.bitPattern >> RateHistogram.shift) - RateHistogram.firstKey)
      weight[key] += times
      total[key] += r * times
    }
    for key in 0..<RateHistogram.binCount {
      let b = key - histogram.first
      let kept = b >= 0 && 2 * b < histogram.bins.count
      #expect((kept ? histogram.bins[2 * b] : 0) == weight[key])
      #expect((kept ? histogram.bins[2 * b + 1] : 0) == total[key])
    }
  }

  @Test func aSingleRequestAndAnEmptySeries() {
    var prefix = [UInt32](repeating: 0, count: 10_001)
    for i in 5_001...10_000 { prefix[i] = 1 }
    Self.expectSame(prefix, scale: 1_000)
    #expect(FleetLoad.estimate(prefix: [UInt32](repeating: 7, count: 5_000), scale: 10) == .zero)
  }
}
