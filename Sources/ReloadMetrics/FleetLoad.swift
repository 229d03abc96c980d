#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#elseif canImport(ucrt)
  import ucrt
#endif

/// The fleet's backend load per second, estimated from a simulated sample:
/// the figure behind `backend_fleet_peak_rps` and its interval
/// (docs/model.md, "Backend load at fleet scale").
///
/// Why not the sample's busiest second times `F = fleet / n`: with few
/// simulated devices a second holds 0, 1 or 2 requests, so the product is
/// a multiple of `F` and mostly noise (7 requests x 166.67 at 3,000 of
/// 500,000 devices, 233 req/s at 30,000). The fleet's own count in a second
/// is a sum over many devices, close to Poisson with mean the fleet's rate
/// in that second, so its busy seconds follow from that rate:
///
/// 1. **Rate.** For each second, the sample's requests in the narrowest
///    centred window (11 s, 31 s, 61 s, ... up to `maxHalfWidth` either
///    side) that holds at least `minimumWindowCount` of them, divided by
///    the window's length, times `F`. Requests synchronised across the
///    fleet (a shared content change, a push sent to everyone, the top of
///    the hour, wake-up times) pile up in a few seconds and are resolved at
///    the narrowest window, 11 s, whatever the sample size (a narrower one
///    would resolve a large sample's bursts more sharply than a small
///    one's, and the peak would again depend on the sample); independent
///    requests are averaged over a longer window, where their rate is
///    smooth.
/// 2. **Seconds.** The fleet's count in second `i` is taken as
///    Poisson(rate_i) (normal with continuity correction); the reported
///    peak is the `quantile` (p99.9) of all measured seconds' counts: the
///    level that 0.1 % of seconds exceed, about 10 minutes a week. Seconds
///    whose rates differ by less than about half a per cent share one
///    Poisson term (`RateHistogram`), whose mean is exact.
/// 3. **Interval.** The same quantile with every window's count at the
///    bounds of its Poisson 95 % interval (`count ± 1.96 sqrt(count)`): an
///    interval for the sampling error of the rate, conservative because
///    the bounds are taken together.
/// 4. **Minute.** The same for minutes: the fleet's mean requests per
///    second in a minute, p99.9 of the measured minutes.
///
/// Only the sample's per-second counts are read, in one pass that keeps
/// nothing per second; no device is re-simulated.
public struct FleetLoad: Sendable, Equatable {
  /// The p99.9 of the fleet's requests per second over the measured seconds.
  public var peakSecond: Double
  /// The 95 % interval of `peakSecond`.
  public var peakSecondLow: Double
  public var peakSecondHigh: Double
  /// The p99.9 of the fleet's mean requests per second in a minute.
  public var peakMinute: Double

  public static let zero = FleetLoad(peakSecond: 0, peakSecondLow: 0, peakSecondHigh: 0, peakMinute: 0)

  /// The share of seconds whose load is above the reported peak.
  public static let quantile = 0.999
  /// Sample requests a rate window must hold (a relative error of about 6 %).
  public static let minimumWindowCount: UInt64 = 250
  /// The widest window, either side of the second (30 min: the fleet's
  /// independent load varies with the hour of the day, not faster).
  public static let maxHalfWidth = 1800
  /// The window half-widths tried, narrowest first (seconds).
  static let halfWidths = [5, 15, 30, 60, 150, 300, 600, 900, 1800]

  public init(peakSecond: Double, peakSecondLow: Double, peakSecondHigh: Double, peakMinute: Double) {
    self.peakSecond = peakSecond
    self.peakSecondLow = peakSecondLow
    self.peakSecondHigh = peakSecondHigh
    self.peakMinute = peakMinute
  }

  /// The estimate from `prefix`, the running sum of the sample's requests
  /// per second (`prefix[0] == 0`, `prefix[i + 1] - prefix[i]` = second
  /// `i`), scaled by `scale` (fleet devices per simulated device-replication).
  /// The sums are kept in 32 bits and may wrap in a long run: only
  /// differences over at most an hour and a minute are read, and those are
  /// exact modulo 2^32.
  public static func estimate(prefix: [UInt32], scale: Double) -> FleetLoad {
    let n = prefix.count - 1
    guard n > 0, scale > 0 else { return .zero }
    // One pass over the seconds. A second's rate (and its interval's two
    // ends) depends only on its window's count and length, and a length is
    // one of the nine widths away from the series' ends, so those seconds
    // are only counted per (width, count); each distinct pair is turned
    // into three rates afterwards. Seconds near the ends, and counts too
    // large for the table, go into the histograms one by one.
    let widths = halfWidths
    let perSecond = widths.map { scale / Double(2 * $0 + 1) }
    // seconds[k * tableCounts + c]: interior seconds of width k and count c.
    let tableCounts = Self.tableCounts
    var seconds = [UInt32](repeating: 0, count: widths.count * tableCounts)
    var mid = RateHistogram(), low = RateHistogram(), high = RateHistogram()
    var minutes = RateHistogram()
    func add(count: UInt64, length: Int, times: Double) {
      let c = Double(count)
      let perSecond = scale / Double(length)
      let spread = 1.96 * c.squareRoot()
      mid.add(c * perSecond, times: times)
      low.add(Swift.max(0, c - spread) * perSecond, times: times)
      // An empty window's upper bound: 3 requests (the one-sided 95 % bound of 0).
      high.add((c > 0 ? c + spread : 3) * perSecond, times: times)
    }
    var any = false
    // A wider window holds every second of a narrower one, so its count is
    // never smaller. Neighbouring seconds mostly need the same width, so
    // the search starts from the last second's: it walks to the narrowest
    // width with enough requests in one or two steps.
    var k = 0
    // The seconds at least `maxHalfWidth` from both ends: every window is
    // whole there, so the loop over them does no clamping.
    let interior = maxHalfWidth..<Swift.max(maxHalfWidth, n - maxHalfWidth)
    prefix.withUnsafeBufferPointer { prefix in
      seconds.withUnsafeMutableBufferPointer { seconds in
        // The window of width `k` around second `i`, clamped to the series.
        @inline(__always) func window(_ i: Int, _ k: Int) -> (count: UInt64, length: Int) {
          let h = widths[k]
          let a = Swift.max(0, i - h)
          let b = Swift.min(n, i + h + 1)
          return (UInt64(prefix[b] &- prefix[a]), b - a)
        }
        // The same inside `interior`, where no window is clamped.
        @inline(__always) func whole(_ i: Int, _ k: Int) -> UInt64 {
          let h = widths[k]
          return UInt64(prefix[i &+ h &+ 1] &- prefix[i &- h])
        }
        // One minute at a time: the minute's rate is the mean of its
        // seconds' rates (for a minute of one width, its counts' sum times
        // the width's rate).
        for minute in stride(from: 0, to: n, by: 60) {
          let end = Swift.min(minute + 60, n)
          var minuteSum = 0.0
          var i = minute
          // A whole interior minute whose seconds all keep the last
          // second's width (their counts at width k are enough and at
          // k - 1 are not) is counted without the walk: `WindowCounts`
          // decides that from bounds, or else from branch-free passes,
          // then tallies the minute's counts into row k of the table.
          if minute >= interior.lowerBound, end <= interior.upperBound {
            let counts = WindowCounts(prefix, from: minute, to: end, halfWidth: widths[k])
            let narrower = k > 0 ? WindowCounts(prefix, from: minute, to: end, halfWidth: widths[k - 1]) : nil
            if counts.keepWidth(enough: UInt32(minimumWindowCount), narrower: narrower, widest: k == widths.count - 1),
              counts.below(UInt32(tableCounts))
            {
              let sum = counts.tally(into: UnsafeMutableBufferPointer(rebasing: seconds[(k * tableCounts)..<((k + 1) * tableCounts)]))
              any = any || sum > 0
              minutes.add(Double(sum) * perSecond[k] / Double(end - minute), times: 1)
              continue
            }
          }
          while i < end {
            if interior.contains(i) {
              // NOTE: for performance: no clamping, and the table reached
              // through a buffer pointer (minutes whose width changes).
              let last = Swift.min(end, interior.upperBound)
              while i < last {
                var count = whole(i, k)
                if count >= minimumWindowCount {
                  while k > 0 {
                    let narrower = whole(i, k &- 1)
                    if narrower < minimumWindowCount { break }
                    k &-= 1
                    count = narrower
                  }
                } else {
                  while k < widths.count &- 1 {
                    k &+= 1
                    count = whole(i, k)
                    if count >= minimumWindowCount { break }
                  }
                }
                any = any || count > 0
                if count < UInt64(tableCounts) {
                  seconds[k &* tableCounts &+ Int(count)] &+= 1
                } else {
                  add(count: count, length: 2 * widths[k] + 1, times: 1)
                }
                minuteSum += Double(count) * perSecond[k]
                i &+= 1
              }
              continue
            }
            if window(i, k).count >= minimumWindowCount {
              while k > 0, window(i, k - 1).count >= minimumWindowCount { k -= 1 }
            } else {
              while k < widths.count - 1 {
                k += 1
                if window(i, k).count >= minimumWindowCount { break }
              }
            }
            let (count, length) = window(i, k)
            any = any || count > 0
            if length == 2 * widths[k] + 1, count < UInt64(tableCounts) {
              seconds[k &* tableCounts &+ Int(count)] &+= 1
              minuteSum += Double(count) * perSecond[k]
            } else {
              add(count: count, length: length, times: 1)
              minuteSum += Double(count) * (scale / Double(length))
            }
            i += 1
          }
          minutes.add(minuteSum / Double(end - minute), times: 1)
        }
      }
    }
    guard any else { return .zero }
    for k in widths.indices {
      for c in 0..<tableCounts where seconds[k * tableCounts + c] > 0 {
        add(count: UInt64(c), length: 2 * widths[k] + 1, times: Double(seconds[k * tableCounts + c]))
      }
    }
    return FleetLoad(
      peakSecond: mid.quantile(seconds: 1, quantile),
      peakSecondLow: low.quantile(seconds: 1, quantile),
      peakSecondHigh: high.quantile(seconds: 1, quantile),
      peakMinute: minutes.quantile(seconds: 60, quantile))
  }

  /// Window counts below this are tallied per (width, count); the rare
  /// larger ones (bursts in a large sample) are added one by one.
  static let tableCounts = 1 << 12
}

/// The window counts of one stretch of whole windows (no clamping) of one
/// half-width: second `i`'s count is `prefix[i + h + 1] - prefix[i - h]`.
/// NOTE: for performance. The stretch's windows all hold their common
/// part and lie in their union, so two subtractions bound every count;
/// only when the bounds cannot decide are the counts read, in branch-free
/// passes the compiler vectorises. `tally` then adds each count's seconds
/// to a table row. Together they are most of `FleetLoad.estimate`.
struct WindowCounts {
  let enters: UnsafeBufferPointer<UInt32>
  let leaves: UnsafeBufferPointer<UInt32>
  /// Every count is at least `atLeast` (the windows' common part) and at
  /// most `atMost` (their union, at most an hour and a minute: exact
  /// modulo 2^32 like every window).
  let atLeast: UInt32
  let atMost: UInt32

  /// The counts of seconds `from..<to` (at least one); every window must
  /// lie in `prefix`.
  init(_ prefix: UnsafeBufferPointer<UInt32>, from: Int, to: Int, halfWidth h: Int) {
    enters = UnsafeBufferPointer(rebasing: prefix[(from + h + 1)..<(to + h + 1)])
    leaves = UnsafeBufferPointer(rebasing: prefix[(from - h)..<(to - h)])
    let last = enters.count - 1
    atMost = enters[last] &- leaves[0]
    atLeast = last <= 2 * h ? enters[0] &- leaves[last] : 0
  }

  /// Whether every count reaches `enough` (not asked of the `widest`) and
  /// no count at the `narrower` half-width does: then every second of the
  /// stretch takes this width.
  func keepWidth(enough: UInt32, narrower: WindowCounts?, widest: Bool) -> Bool {
    let wide = widest || atLeast >= enough || !any { $0 < enough }
    guard wide, let narrower else { return wide }
    return narrower.atMost < enough || !narrower.any { $0 >= enough }
  }

  /// Whether every count is below `limit`.
  func below(_ limit: UInt32) -> Bool { atMost < limit || !any { $0 >= limit } }

  /// Whether some count is `isIn` (a branch-free pass).
  @inline(__always)
  private func any(_ isIn: (UInt32) -> Bool) -> Bool {
    var found: UInt32 = 0
    for j in 0..<enters.count { found |= isIn(enters[j] &- leaves[j]) ? 1 : 0 }
    return found != 0
  }

  /// Adds one to `row[c]` for each second whose count is `c` (every count
  /// must be below `row.count`) and returns the counts' sum. Neighbouring
  /// seconds mostly share a count, so a run of one count is added once:
  /// adding one at a time to the same slot waits on the last store.
  @inline(never)
  func tally(into row: UnsafeMutableBufferPointer<UInt32>) -> UInt64 {
    guard let e = enters.baseAddress, let l = leaves.baseAddress, enters.count > 0 else { return 0 }
    let n = enters.count
    if atLeast == atMost {
      row[Int(atMost)] &+= UInt32(n)
      return UInt64(atMost) * UInt64(n)
    }
    var sum: UInt64 = 0
    var last = e[0] &- l[0]
    var run: UInt32 = 0
    var j = 0
    while j < n {
      let c = e[j] &- l[j]
      if c != last {
        row[Int(last)] &+= run
        sum &+= UInt64(last) &* UInt64(run)
        last = c
        run = 0
      }
      run &+= 1
      j &+= 1
    }
    row[Int(last)] &+= run
    return sum &+ UInt64(last) &* UInt64(run)
  }
}

/// Rates grouped in bins about 0.4–0.8 % wide: the bin is the rate's
/// binary exponent and the top 7 bits of its mantissa (128 bins an octave,
/// read off the bits: no `log`), from 2^-30 (smaller rates, and 0, fold
/// into the first bin) to 2^50 requests per second. A bin keeps how many
/// rates fell in it and their sum, so its mean is exact.
struct RateHistogram {
  static let mantissaBits: UInt64 = 7
  static let shift: UInt64 = 52 - mantissaBits
  static let lowest = 0x1p-30
  static let firstKey = Int(truncatingIfNeeded: lowest.bitPattern >> shift)
  static let binCount = 80 << Int(mantissaBits)

  var weight = [Double](repeating: 0, count: binCount)
  var total = [Double](repeating: 0, count: binCount)
  /// Rates in all (including zeros) and the largest.
  var count = 0.0
  var top = 0.0

  /// Adds `times` seconds at rate `r`.
  mutating func add(_ r: Double, times: Double) {
    count += times
    // A second with no load is never above a level: it only counts.
    guard r > 0 else { return }
    if r > top { top = r }
    let key = r <= Self.lowest ? 0 : Swift.min(Self.binCount - 1, Int(truncatingIfNeeded: r.bitPattern >> Self.shift) - Self.firstKey)
    weight[key] += times
    total[key] += r * times
  }

  /// The `q` quantile of the mixture: the count's tail taken as normal with
  /// continuity correction, the level found by bisection.
  func quantile(seconds: Double, _ q: Double) -> Double {
    guard top > 0 else { return 0 }
    let target = (1 - q) * count
    // The occupied bins' weights, means and spreads, in increasing mean.
    var weights: [Double] = []
    var means: [Double] = []
    var spreads: [Double] = []
    for b in 0..<Self.binCount where weight[b] > 0 {
      let mean = total[b] / weight[b] * seconds
      weights.append(weight[b])
      means.append(mean)
      spreads.append((2 * mean).squareRoot())
    }
    // Most bins are far from any level the bisection tries: a bin whose
    // z is at least 9 adds less than 1e-36 of its weight (erfc(9) is
    // 4e-37: added before the larger terms, such a term cannot change a
    // sum that is compared with `target`, at least 1e-3), and one whose z
    // is below -6.5 adds exactly its weight (erfc is 2.0 in double
    // precision from -5.9 down), so only the bins between are given an
    // erfc. The bins' means grow with their index, so the first
    // kind is a prefix of the bins and the second a suffix, found by
    // binary search.
    let zeroFrom = means.indices.map { means[$0] + 9 * spreads[$0] }
    let twoFrom = means.indices.map { means[$0] - 6.5 * spreads[$0] }
    func firstIndex(in xs: [Double], where isAbove: (Double) -> Bool) -> Int {
      var lo = 0
      var hi = xs.count
      while lo < hi {
        let m = (lo + hi) / 2
        if isAbove(xs[m]) { hi = m } else { lo = m + 1 }
      }
      return lo
    }
    // Expected number of draws above `x` requests/s.
    func above(_ x: Double) -> Double {
      var s = 0.0
      let level = x * seconds + 0.5
      let first = firstIndex(in: zeroFrom) { level < $0 }
      let tail = Swift.max(first, firstIndex(in: twoFrom) { level < $0 })
      for j in first..<tail {
        let z = (level - means[j]) / spreads[j]
        s += weights[j] * 0.5 * erfc(z)
      }
      for j in tail..<weights.count { s += weights[j] }
      return s
    }
    var lo = 0.0
    var hi = top + 10 * (top / seconds).squareRoot() + 10 / seconds
    if above(lo) <= target { return 0 }
    // Bisection to a relative precision of 1e-9 of the upper bound.
    while hi - lo > 1e-9 * hi {
      let m = (lo + hi) / 2
      if above(m) > target { lo = m } else { hi = m }
    }
    return (lo + hi) / 2
  }
}
