import ReloadMetrics
import Testing

import WidgetModel

/// `ResultsBuilder.SecondStats.compute` reads each series through its
/// running sums (32 bits, wrapping) and takes shortcuts: a minute as a
/// difference of two running sums, the sum's seconds as differences of
/// the added-up running sums, series with no request skipped. These tests
/// hold it to the statistics computed second by second in 64 bits, on
/// series that take every path, including counts so large that the
/// shortcuts cannot be exact and the blocks are added up instead.
@Suite struct SecondStatsTests {
  /// The statistics of one series, second by second.
  static func reference(_ values: [UInt64]) -> ResultsBuilder.SecondStats {
    var out = ResultsBuilder.SecondStats()
    out.seconds = values.count
    for start in stride(from: 0, to: values.count, by: 3600) {
      let hour = values[start..<min(values.count, start + 3600)]
      let busiest = hour.max()!
      for minute in stride(from: start, to: hour.endIndex, by: 60) {
        out.peakMinuteSum = max(out.peakMinuteSum, values[minute..<min(hour.endIndex, minute + 60)].reduce(0, +))
      }
      let peak = UInt32(truncatingIfNeeded: busiest)
      if peak > out.peak {
        out.peak = peak
        out.peakIndex = hour.firstIndex(of: busiest)!
      }
      out.hourPeaks.append(peak)
    }
    return out
  }

  static func block(_ values: [UInt32]) -> CounterBlock<UInt32> {
    let block = CounterBlock<UInt32>(count: values.count)
    for (i, v) in values.enumerated() { block[i] = v }
    return block
  }

  /// A series of `seconds` seconds from a fixed seed: mostly small counts,
  /// with a few seconds of `burst` requests.
  static func series(seconds: Int, burst: UInt32, seed: UInt64) -> [UInt32] {
    var state = seed
    return (0..<seconds).map { i in
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      let small = UInt32(truncatingIfNeeded: state >> 61)
      return i % 4_001 == 17 ? burst &+ small : small
    }
  }

  static func expectSame(_ blocks: [[UInt32]], sourceLocation: SourceLocation = #_sourceLocation) {
    let n = blocks.map(\.count).min() ?? 0
    var handed: [Int: [UInt32]] = [:]
    let stats = ResultsBuilder.SecondStats.compute(blocks.map(block), scratch: ResultsBuilder.Scratch()) { g, prefix in
      handed[g] = Array(prefix)
    }
    var sums = [UInt64](repeating: 0, count: n)
    for (g, values) in blocks.enumerated() {
      let series = values[0..<n].map(UInt64.init)
      for i in 0..<n { sums[i] += series[i] }
      expectEqual(stats[g], reference(series), sourceLocation: sourceLocation)
      // The running sums handed over are the series' own (none for a series with no request).
      var running: UInt32 = 0
      let prefix: [UInt32] = [0] + values[0..<n].map { (v: UInt32) -> UInt32 in
        running &+= v
        return running
      }
      #expect(handed[g] == (series.contains { $0 > 0 } ? prefix : nil), sourceLocation: sourceLocation)
    }
    expectEqual(stats[blocks.count], reference(sums), sourceLocation: sourceLocation)
    if sums.contains(where: { $0 > 0 }) {
      var running: UInt32 = 0
      let prefix: [UInt32] = [0] + sums.map { (v: UInt64) -> UInt32 in
        running &+= UInt32(truncatingIfNeeded: v)
        return running
      }
      #expect(handed[blocks.count] == prefix, sourceLocation: sourceLocation)
    } else {
      #expect(handed[blocks.count] == nil, sourceLocation: sourceLocation)
    }
  }

  static func expectEqual(
    _ a: ResultsBuilder.SecondStats, _ b: ResultsBuilder.SecondStats, sourceLocation: SourceLocation
  ) {
    #expect(a.seconds == b.seconds, sourceLocation: sourceLocation)
    #expect(a.peak == b.peak, sourceLocation: sourceLocation)
    #expect(a.peakIndex == b.peakIndex, sourceLocation: sourceLocation)
    #expect(a.peakMinuteSum == b.peakMinuteSum, sourceLocation: sourceLocation)
    #expect(a.hourPeaks == b.hourPeaks, sourceLocation: sourceLocation)
  }

  @Test func ordinarySeriesAndAnEmptyOne() {
    // Hours and minutes cut short at the end (10,007 seconds), one segment
    // with no request, blocks of different lengths.
    Self.expectSame([
      Self.series(seconds: 10_007, burst: 40, seed: 1),
      [UInt32](repeating: 0, count: 10_007),
      Self.series(seconds: 10_100, burst: 900, seed: 2),
    ])
    Self.expectSame([[UInt32](repeating: 0, count: 5_000)])
    Self.expectSame([[], Self.series(seconds: 0, burst: 1, seed: 3)])
  }

  @Test func countsTooLargeForTheShortcuts() {
    // Bursts of 2^31 requests a second: a minute holds more than 2^32
    // (its sum is added up in 64 bits), and so does the segments' sum in
    // one second (the sum's seconds are added up from the blocks).
    let burst = UInt32(1) << 31
    Self.expectSame([
      Self.series(seconds: 7_300, burst: burst, seed: 4),
      Self.series(seconds: 7_300, burst: burst, seed: 4),
      Self.series(seconds: 7_300, burst: 3, seed: 5),
    ])
  }
}
