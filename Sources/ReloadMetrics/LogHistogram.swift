/// A mergeable histogram of non-negative integers with bounded relative
/// error (log-linear buckets, as in HdrHistogram).
///
/// Values below 64 have a bucket each; above, every power of two is split
/// into 32 buckets, so a bucket is at most 1/32 (about 3 %) of its value
/// wide. Counts are integers, so histograms filled by different threads or
/// shards merge exactly, in any order: percentiles of a merged run are
/// byte-identical whatever the thread count.
///
///     var h = LogHistogram()
///     for ms in [0, 0, 60_000, 120_000] { h.record(UInt64(ms)) }
///     h.quantile(0.5)      // 0 ... 60_000 (half the values are 0)
///     h.count              // 4
///
/// - Complexity: `record` is O(1); `quantile` is O(buckets).
@frozen
public struct LogHistogram: Sendable, Equatable, Codable {
  /// Buckets per power of two above the exact range.
  public static let subBuckets = 32
  /// Values below this have a bucket each.
  public static let exactLimit: UInt64 = 64
  /// Enough buckets for values up to 2^48 (about 8,900 years in ms).
  public static let bucketCount = 64 + (48 - 6) * 32

  @usableFromInline internal var _counts: [UInt64]
  @usableFromInline internal var _count: UInt64
  @usableFromInline internal var _sum: UInt64
  /// The number of recorded values.
  public var count: UInt64 { _count }
  /// The sum of recorded values (exact, wrapping above 2^64).
  public var sum: UInt64 { _sum }

  public init() {
    _counts = Array(repeating: 0, count: LogHistogram.bucketCount)
    _count = 0
    _sum = 0
  }

  /// A histogram from bucket counts (as a `CounterBlock` slice holds them)
  /// and the exact sum of the recorded values.
  public init(counts: [UInt64], sum: UInt64) {
    precondition(
      counts.count == LogHistogram.bucketCount, "need \(LogHistogram.bucketCount) buckets, got \(counts.count)")
    _counts = counts
    _count = counts.reduce(0, &+)
    _sum = sum
  }

  /// The bucket that holds `value`.
  @inlinable @inline(__always)
  public static func bucket(of value: UInt64) -> Int {
    if value < exactLimit { return Int(value) }
    let e = 63 &- value.leadingZeroBitCount  // >= 6
    let shift = e &- 5
    let mantissa = Int(value &>> UInt64(shift))  // 32 ... 63
    return min(bucketCount &- 1, 64 &+ (e &- 6) &* 32 &+ (mantissa &- 32))
  }

  /// The smallest value of `bucket`.
  public static func lowerBound(of bucket: Int) -> UInt64 {
    if bucket < 64 { return UInt64(bucket) }
    let e = (bucket - 64) / 32 + 6
    let mantissa = UInt64((bucket - 64) % 32 + 32)
    return mantissa << UInt64(e - 5)
  }

  /// One past the largest value of `bucket`.
  public static func upperBound(of bucket: Int) -> UInt64 {
    if bucket < 64 { return UInt64(bucket) + 1 }
    let e = (bucket - 64) / 32 + 6
    return lowerBound(of: bucket) + (UInt64(1) << UInt64(e - 5))
  }

  /// Records one value.
  @inlinable @inline(__always)
  public mutating func record(_ value: UInt64) {
    _counts[LogHistogram.bucket(of: value)] &+= 1
    _count &+= 1
    _sum &+= value
  }

  /// Records `n` copies of `value`.
  @inlinable
  public mutating func record(_ value: UInt64, times n: UInt64) {
    _counts[LogHistogram.bucket(of: value)] &+= n
    _count &+= n
    _sum &+= value &* n
  }

  /// Adds every count of `other`.
  public mutating func merge(_ other: LogHistogram) {
    for i in 0..<_counts.count { _counts[i] &+= other._counts[i] }
    _count &+= other._count
    _sum &+= other._sum
  }

  /// The count of one bucket.
  public func count(inBucket bucket: Int) -> UInt64 { _counts[bucket] }

  /// Non-empty buckets in order: (lower bound, upper bound, count).
  public var nonEmptyBuckets: [(lower: UInt64, upper: UInt64, count: UInt64)] {
    _counts.indices.compactMap { i in
      _counts[i] == 0 ? nil : (LogHistogram.lowerBound(of: i), LogHistogram.upperBound(of: i), _counts[i])
    }
  }

  /// The mean of the recorded values, or 0 when empty.
  public var mean: Double { count == 0 ? 0 : Double(sum) / Double(count) }

  /// The `q`-quantile (0 ... 1), interpolated linearly inside its bucket;
  /// exact for values below 64. Returns 0 when empty.
  public func quantile(_ q: Double) -> Double {
    if count == 0 { return 0 }
    let target = max(0, min(1, q)) * Double(count)
    var seen = 0.0
    for i in _counts.indices where _counts[i] > 0 {
      let c = Double(_counts[i])
      if seen + c >= target {
        let lower = Double(LogHistogram.lowerBound(of: i))
        if i < 64 { return lower }
        let width = Double(LogHistogram.upperBound(of: i)) - lower
        let within = c == 0 ? 0 : (target - seen) / c
        return lower + width * max(0, min(1, within))
      }
      seen += c
    }
    return Double(LogHistogram.lowerBound(of: LogHistogram.bucketCount - 1))
  }

  /// The fraction of values `<= value` (exact at bucket bounds).
  public func fraction(atOrBelow value: UInt64) -> Double {
    if count == 0 { return 0 }
    let b = LogHistogram.bucket(of: value)
    var c: UInt64 = 0
    for i in 0...b { c &+= _counts[i] }
    return Double(c) / Double(count)
  }
}
