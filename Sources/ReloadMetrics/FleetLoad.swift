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
///    second in a minute, p99.9 of the measured minutes; its interval from
///    the same minutes with every second's rate at its interval's ends.
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
  /// The 95 % interval of `peakMinute`.
  public var peakMinuteLow: Double
  public var peakMinuteHigh: Double

  public static let zero = FleetLoad(
    peakSecond: 0, peakSecondLow: 0, peakSecondHigh: 0, peakMinute: 0, peakMinuteLow: 0, peakMinuteHigh: 0)

  /// The share of seconds whose load is above the reported peak.
  public static let quantile = 0.999
  /// Sample requests a rate window must hold (a relative error of about 6 %).
  public static let minimumWindowCount: UInt64 = 250
  /// The widest window, either side of the second (30 min: the fleet's
  /// independent load varies with the hour of the day, not faster).
  public static let maxHalfWidth = 1800
  /// The window half-widths tried, narrowest first (seconds).
  package static let halfWidths = [5, 15, 30, 60, 150, 300, 600, 900, 1800]

  public init(
    peakSecond: Double, peakSecondLow: Double, peakSecondHigh: Double, peakMinute: Double, peakMinuteLow: Double,
    peakMinuteHigh: Double
  ) {
    self.peakSecond = peakSecond
    self.peakSecondLow = peakSecondLow
    self.peakSecondHigh = peakSecondHigh
    self.peakMinute = peakMinute
    self.peakMinuteLow = peakMinuteLow
    self.peakMinuteHigh = peakMinuteHigh
  }

  /// The ends of a window count's Poisson 95 % interval (`c ± 1.96 sqrt(c)`,
  /// at least 0; an empty window's upper end is 3, the one-sided 95 % bound
  /// of 0), in requests: the rate's interval is these times the window's
  /// rate per request.
  @inline(__always)
  static func countInterval(_ c: Double) -> (low: Double, high: Double) {
    let spread = 1.96 * c.squareRoot()
    return (Swift.max(0, c - spread), c > 0 ? c + spread : 3)
  }

  /// The estimate from `prefix`, the running sum of the sample's requests
  /// per second (`prefix[0] == 0`, `prefix[i + 1] - prefix[i]` = second
  /// `i`), scaled by `scale` (fleet devices per simulated device-replication).
  /// The sums are kept in 32 bits and may wrap in a long run: only
  /// differences over at most an hour and a minute are read, and those are
  /// exact modulo 2^32.
  public static func estimate(prefix: [UInt32], scale: Double) -> FleetLoad {
    prefix.withUnsafeBufferPointer { estimate(prefix: $0, scale: scale) }
  }

  /// The same from running sums in any memory (`ResultsBuilder` writes them
  /// into scratch buffers it reuses from series to series).
  public static func estimate(prefix: UnsafeBufferPointer<UInt32>, scale: Double) -> FleetLoad {
    let n = prefix.count - 1
    guard n > 0, scale > 0, let p = prefix.baseAddress else { return .zero }
    // One pass over the seconds. A second's rate (and its interval's two
    // ends) depends only on its window's count and length, and a length is
    // one of the nine widths away from the series' ends, so those seconds
    // are only counted per (width, count); each distinct pair is turned
    // into three rates afterwards. Seconds near the ends, and counts too
    // large for the table, go into the histograms one by one.
    var seconds = SecondTally(scale: scale)
    defer { seconds.deallocate() }
    var minutes = RateHistogram()
    var minutesLow = RateHistogram()
    var minutesHigh = RateHistogram()
    // A wider window holds every second of a narrower one, so its count is
    // never smaller. Neighbouring seconds mostly need the same width, so
    // the search starts from the last second's: it walks to the narrowest
    // width with enough requests in one or two steps.
    var k = 0
    // The seconds at least `maxHalfWidth` from both ends: every window is
    // whole there, so the loop over them does no clamping.
    let interior = maxHalfWidth..<Swift.max(maxHalfWidth, n - maxHalfWidth)
    // One minute at a time: the minute's rate is the mean of its seconds'
    // rates (for a minute of one width, its counts' sum times the width's
    // rate).
    for minute in stride(from: 0, to: n, by: 60) {
      let end = Swift.min(minute + 60, n)
      // A whole interior minute whose seconds all keep the last second's
      // width is counted without the walk (`SecondTally.wholeMinute`).
      if minute >= interior.lowerBound, end <= interior.upperBound,
        let whole = seconds.wholeMinute(p, from: minute, width: k)
      {
        let (rate, length) = (seconds.perSecond[k], Double(end - minute))
        minutes.add(Double(whole.sum) * rate / length, times: 1)
        minutesLow.add(whole.low * rate / length, times: 1)
        minutesHigh.add(whole.high * rate / length, times: 1)
        continue
      }
      var minuteSum = 0.0
      var lowSum = 0.0
      var highSum = 0.0
      var i = minute
      while i < end {
        if interior.contains(i) {
          let last = Swift.min(end, interior.upperBound)
          seconds.walk(p, from: i, to: last, width: &k, sum: &minuteSum, low: &lowSum, high: &highSum)
          i = last
          continue
        }
        let rate = seconds.clamped(p, i, n: n, width: &k)
        minuteSum += rate.mid
        lowSum += rate.low
        highSum += rate.high
        i += 1
      }
      minutes.add(minuteSum / Double(end - minute), times: 1)
      minutesLow.add(lowSum / Double(end - minute), times: 1)
      minutesHigh.add(highSum / Double(end - minute), times: 1)
    }
    guard seconds.any else { return .zero }
    seconds.flushTable()
    return FleetLoad(
      peakSecond: seconds.mid.quantile(seconds: 1, quantile),
      peakSecondLow: seconds.low.quantile(seconds: 1, quantile),
      peakSecondHigh: seconds.high.quantile(seconds: 1, quantile),
      peakMinute: minutes.quantile(seconds: 60, quantile),
      peakMinuteLow: minutesLow.quantile(seconds: 60, quantile),
      peakMinuteHigh: minutesHigh.quantile(seconds: 60, quantile))
  }

  /// Window counts below this are tallied per (width, count); the rare
  /// larger ones (bursts in a large sample) are added one by one.
  package static let tableCounts = 1 << 12
}

/// The seconds' rates of one `FleetLoad.estimate`: a table of whole
/// windows per (width, count), and the three histograms (the rate and its
/// interval's two ends) that seconds outside the table go into as they
/// come and the table's entries after the pass, in (width, count) order.
/// NOTE: for performance: the table is raw memory read through pointers,
/// and the estimate's state is in this struct rather than in variables a
/// closure captures (each would cost an exclusivity check per access).
struct SecondTally {
  let scale: Double
  let widths = FleetLoad.halfWidths
  /// The rate of one request in a whole window of each width.
  let perSecond: [Double]
  /// `table[k * FleetLoad.tableCounts + c]`: whole windows of width `k`
  /// and count `c`. Row `k` is initialised up to `top[k]`, the largest
  /// count it has held (-1: none), and zeroed further only as counts reach
  /// it (most rows stay empty, and most counts are small).
  let table: UnsafeMutablePointer<UInt32>
  let top: UnsafeMutablePointer<Int>
  var mid = RateHistogram(), low = RateHistogram(), high = RateHistogram()
  /// Whether some second's window holds a request.
  var any = false

  init(scale: Double) {
    self.scale = scale
    perSecond = widths.map { scale / Double(2 * $0 + 1) }
    table = .allocate(capacity: widths.count * FleetLoad.tableCounts)
    top = .allocate(capacity: widths.count)
    top.initialize(repeating: -1, count: widths.count)
  }

  func deallocate() {
    table.deallocate()
    top.deallocate()
  }

  /// Makes row `k` hold counts up to `c` (below the table's size).
  @inline(__always)
  func reach(_ k: Int, _ c: Int) {
    let t = top[k]
    guard c > t else { return }
    (table + (k &* FleetLoad.tableCounts &+ t &+ 1)).initialize(repeating: 0, count: c &- t)
    top[k] = c
  }

  /// Adds `times` seconds whose window of `length` seconds holds `count` requests.
  mutating func add(count: UInt64, length: Int, times: Double) {
    let c = Double(count)
    let perSecond = scale / Double(length)
    let (l, h) = FleetLoad.countInterval(c)
    mid.add(c * perSecond, times: times)
    low.add(l * perSecond, times: times)
    high.add(h * perSecond, times: times)
  }

  /// Counts one second of width `k` and count `count` in a whole window.
  @inline(__always)
  mutating func whole(count: UInt64, width k: Int) {
    any = any || count > 0
    if count < UInt64(FleetLoad.tableCounts) {
      reach(k, Int(count))
      table[k &* FleetLoad.tableCounts &+ Int(count)] &+= 1
    } else {
      add(count: count, length: 2 * widths[k] + 1, times: 1)
    }
  }

  /// Adds the table's entries to the histograms (after the pass).
  mutating func flushTable() {
    for k in widths.indices {
      let row = table + k * FleetLoad.tableCounts
      for c in 0..<(top[k] + 1) where row[c] > 0 {
        add(count: UInt64(c), length: 2 * widths[k] + 1, times: Double(row[c]))
      }
    }
  }

  /// Counts whole interior minute `m..<m + 60` (every window lies in
  /// `p`) into row `k` and returns the sum of its seconds' counts (and of
  /// their intervals' ends, `FleetLoad.countInterval`), if
  /// every one of its seconds takes width `k` (its count there is enough,
  /// or `k` is the widest, and at `k - 1` it is not) and every count is
  /// below the table's size; else counts nothing and returns nil.
  /// NOTE: for performance, most of `FleetLoad.estimate`. Second `m + j`'s
  /// count is `e[j] - l[j]`; the minute's windows all hold their common
  /// part and lie in their union, so two subtractions bound every count
  /// and decide most minutes; only when they cannot are the counts read,
  /// in branch-free passes the compiler vectorises. Each second is then
  /// one increment of its count's slot.
  mutating func wholeMinute(
    _ p: UnsafePointer<UInt32>, from m: Int, width k: Int
  ) -> (sum: UInt64, low: Double, high: Double)? {
    let enough = UInt32(FleetLoad.minimumWindowCount)
    let h = widths[k]
    let e = p + (m + h + 1)
    let l = p + (m - h)
    // The union (at most an hour and a minute: exact modulo 2^32 like
    // every window) and, when the windows overlap, the common part.
    let atMost = e[59] &- l[0]
    let atLeast = 59 <= 2 * h ? e[0] &- l[59] : 0
    if k < widths.count - 1, atLeast < enough, Self.lowest(e, l) < enough { return nil }
    if k > 0 {
      let h = widths[k - 1]
      let e = p + (m + h + 1)
      let l = p + (m - h)
      if e[59] &- l[0] >= enough, Self.highest(e, l) >= enough { return nil }
    }
    let limit = UInt32(FleetLoad.tableCounts)
    if atMost >= limit, Self.highest(e, l) >= limit { return nil }
    let row = table + k * FleetLoad.tableCounts
    reach(k, Int(Swift.min(atMost, limit - 1)))
    if atLeast == atMost {
      row[Int(atMost)] &+= 60
      any = any || atMost > 0
      let (low, high) = FleetLoad.countInterval(Double(atMost))
      return (UInt64(atMost) * 60, 60 * low, 60 * high)
    }
    // The counts and their sum (below 60 * limit: 32 bits hold it) in a
    // pass the compiler vectorises, then one increment a second.
    let (sum, low, high) = withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 60) { counts in
      var sum: UInt32 = 0
      for j in 0..<60 {
        let c = e[j] &- l[j]
        counts[j] = c
        sum &+= c
      }
      var low = 0.0
      var high = 0.0
      for j in 0..<60 {
        row[Int(counts[j])] &+= 1
        let (a, b) = FleetLoad.countInterval(Double(counts[j]))
        low += a
        high += b
      }
      return (sum, low, high)
    }
    any = any || sum > 0
    return (UInt64(sum), low, high)
  }

  /// The smallest and the largest of a minute's 60 counts (branch-free).
  @inline(__always)
  static func lowest(_ e: UnsafePointer<UInt32>, _ l: UnsafePointer<UInt32>) -> UInt32 {
    var x = UInt32.max
    for j in 0..<60 { x = Swift.min(x, e[j] &- l[j]) }
    return x
  }

  @inline(__always)
  static func highest(_ e: UnsafePointer<UInt32>, _ l: UnsafePointer<UInt32>) -> UInt32 {
    var x: UInt32 = 0
    for j in 0..<60 { x = Swift.max(x, e[j] &- l[j]) }
    return x
  }

  /// Counts interior seconds `from..<to` one at a time, each at the
  /// narrowest width with enough requests (searched from `k`, the last
  /// second's, and left at this stretch's last), and adds their rates to
  /// `sum` in order (and their intervals' ends to `low` and `high`).
  /// NOTE: for performance: no clamping (every window is whole).
  mutating func walk(
    _ p: UnsafePointer<UInt32>, from: Int, to: Int, width k: inout Int, sum: inout Double, low: inout Double,
    high: inout Double
  ) {
    let enough = UInt32(FleetLoad.minimumWindowCount)
    let limit = UInt32(FleetLoad.tableCounts)
    let widest = widths.count - 1
    var seen = false
    let widths = self.widths
    widths.withUnsafeBufferPointer { widths in
      @inline(__always) func count(_ i: Int, _ k: Int) -> UInt32 {
        let h = widths[k]
        return p[i &+ h &+ 1] &- p[i &- h]
      }
      // Width `k`'s row and rate, and the next narrower width's half-width
      // (none at the narrowest), updated when `k` changes.
      var row = table + k &* FleetLoad.tableCounts
      var rate = perSecond[k]
      var i = from
      while i < to {
        var c = count(i, k)
        let was = k
        if c >= enough {
          while k > 0 {
            let narrower = count(i, k &- 1)
            if narrower < enough { break }
            k &-= 1
            c = narrower
          }
        } else {
          while k < widest {
            k &+= 1
            c = count(i, k)
            if c >= enough { break }
          }
        }
        if k != was {
          row = table + k &* FleetLoad.tableCounts
          rate = perSecond[k]
        }
        seen = seen || c > 0
        if c < limit {
          reach(k, Int(c))
          row[Int(c)] &+= 1
        } else {
          add(count: UInt64(c), length: 2 * widths[k] + 1, times: 1)
        }
        sum += Double(c) * rate
        let (a, b) = FleetLoad.countInterval(Double(c))
        low += a * rate
        high += b * rate
        i &+= 1
      }
    }
    any = any || seen
  }

  /// Counts second `i` of a series of `n`, whose windows are clamped to
  /// the series (a second near an end), and returns its rate and its
  /// interval's ends.
  mutating func clamped(
    _ p: UnsafePointer<UInt32>, _ i: Int, n: Int, width k: inout Int
  ) -> (mid: Double, low: Double, high: Double) {
    let enough = FleetLoad.minimumWindowCount
    func window(_ k: Int) -> (count: UInt64, length: Int) {
      let h = widths[k]
      let a = Swift.max(0, i - h)
      let b = Swift.min(n, i + h + 1)
      return (UInt64(p[b] &- p[a]), b - a)
    }
    if window(k).count >= enough {
      while k > 0, window(k - 1).count >= enough { k -= 1 }
    } else {
      while k < widths.count - 1 {
        k += 1
        if window(k).count >= enough { break }
      }
    }
    let (count, length) = window(k)
    let (low, high) = FleetLoad.countInterval(Double(count))
    if length == 2 * widths[k] + 1 {
      whole(count: count, width: k)
      return (Double(count) * perSecond[k], low * perSecond[k], high * perSecond[k])
    }
    any = any || count > 0
    add(count: count, length: length, times: 1)
    let rate = scale / Double(length)
    return (Double(count) * rate, low * rate, high * rate)
  }
}

/// Rates grouped in bins about 0.4–0.8 % wide: the bin is the rate's
/// binary exponent and the top 7 bits of its mantissa (128 bins an octave,
/// read off the bits: no `log`), from 2^-30 (smaller rates, and 0, fold
/// into the first bin) to 2^50 requests per second. A bin keeps how many
/// rates fell in it and their sum, so its mean is exact.
package struct RateHistogram {
  static let mantissaBits: UInt64 = 7
  package static let shift: UInt64 = 52 - mantissaBits
  package static let lowest = 0x1p-30
  package static let firstKey = Int(truncatingIfNeeded: lowest.bitPattern >> shift)
  package static let binCount = 80 << Int(mantissaBits)

  /// The weight and the sum of bins `first..<first + bins.count / 2`,
  /// the only ones kept: the window widens to an octave past any rate that
  /// falls outside it. Bin `first + b`'s weight is `bins[2 * b]`, its sum
  /// `bins[2 * b + 1]`. NOTE: for performance: a sample's rates span a few
  /// of the 80 octaves, and zeroing them all for each histogram cost more
  /// than filling it; one array is one uniqueness check an add.
  package var first = 0
  package var bins: [Double] = []
  /// Rates in all (including zeros) and the largest.
  var count = 0.0
  var top = 0.0

  package init() {}

  /// Adds `times` seconds at rate `r`.
  mutating package func add(_ r: Double, times: Double) {
    count += times
    // A second with no load is never above a level: it only counts.
    guard r > 0 else { return }
    if r > top { top = r }
    let key =
      r <= Self.lowest
      ? 0 : Swift.min(Self.binCount - 1, Int(truncatingIfNeeded: r.bitPattern >> Self.shift) - Self.firstKey)
    let b = key &- first
    if b < 0 || 2 &* b >= bins.count { widen(to: key) }
    bins.withUnsafeMutableBufferPointer { bins in
      let b = 2 &* (key &- first)
      bins[b] += times
      bins[b &+ 1] += r * times
    }
  }

  /// Widens the window of kept bins to hold `key` and an octave beyond it.
  mutating func widen(to key: Int) {
    let octave = 1 << Int(Self.mantissaBits)
    let kept = bins.count / 2
    let (lower, upper) =
      kept == 0
      ? (Swift.max(0, key - octave), Swift.min(Self.binCount, key + octave + 1))
      : (
        Swift.max(0, Swift.min(first, key - octave)),
        Swift.min(Self.binCount, Swift.max(first + kept, key + octave + 1))
      )
    var wider = [Double](repeating: 0, count: 2 * (upper - lower))
    if kept > 0 { wider.replaceSubrange((2 * (first - lower))..<(2 * (first - lower + kept)), with: bins) }
    (first, bins) = (lower, wider)
  }

  /// The `q` quantile of the mixture: the count's tail taken as normal with
  /// continuity correction, the level found by bisection.
  package func quantile(seconds: Double, _ q: Double) -> Double {
    guard top > 0 else { return 0 }
    let target = (1 - q) * count
    // The occupied bins' weights, means and spreads, in increasing mean.
    var weights: [Double] = []
    var means: [Double] = []
    var spreads: [Double] = []
    for b in 0..<(bins.count / 2) where bins[2 * b] > 0 {
      let weight = bins[2 * b]
      let mean = bins[2 * b + 1] / weight * seconds
      weights.append(weight)
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
