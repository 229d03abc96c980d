import ReloadMetrics

/// A buffer of backend requests waiting to be added to the per-second
/// tallies, grouped by (segment, stretch of seconds) before they are added.
///
/// The per-second tallies are large (a month is 2.6 million seconds per
/// segment) and requests arrive in no order across devices, so adding each
/// one as it happens missed the cache on nearly every request: a profile of
/// the fleet scenario put about 30 % of its time on that one store. One
/// counting-sort pass on the key's top 11 bits groups the requests into at
/// most 2,048 stretches of seconds, each small enough for the cache (a
/// stretch of a month-long run is 8,192 seconds, 32 KB of counters), so the
/// additions that follow hit the cache. (A full sort, three passes of 11
/// bits, bought no more locality: R1 spent 7 % of its time in it; on a
/// fleet's full logs, two passes of 12 bits bought under 1 %.) Integer
/// addition is exact in any order, so results do not change.
///
/// NOTE: a hand-written counting sort over two storage columns, for performance.
package struct RequestLog {
  /// Keys the log holds before it is added to the tallies.
  let capacity: Int

  /// The capacity for a run of `devices` devices: 65,536 keys (512 KB
  /// with the scratch copy) for a small run, growing with the devices to
  /// 2^20 keys (8 MB) for a fleet. A fleet's tallies are far larger than
  /// the caches, and a flush adds its keys stretch by stretch, so the more
  /// keys a flush holds, the more of them share each cache line it loads
  /// (NOTE: for performance: with the logs filled across a worker's ranges
  /// of devices, `DeviceWorker.simulateBuffered`, a 50,000-device
  /// `fleet-1m` ran 7 % faster than with a flush after every range of at
  /// most 256 devices; a log 8 times larger bought 1 % more for 85 MB).
  /// Results do not depend on it.
  static package func capacity(devices: Int) -> Int {
    let wanted = max(1, devices).multipliedReportingOverflow(by: 8)
    if wanted.overflow || wanted.partialValue >= 1 << 20 { return 1 << 20 }
    return max(1 << 16, wanted.partialValue)
  }

  static let bucketBits = 11
  /// `segment << secondBits | second`.
  private var entries: Column<UInt32>
  private var scratch: Column<UInt32>
  package private(set) var count = 0
  /// Bits of a measured second, and the shift from a key to its stretch.
  private let secondBits: Int
  private let shift: Int

  /// A log for `segments` segments of `seconds` measured seconds each.
  package init(_ storage: _DeviceStorage, segments: Int, seconds: Int, capacity: Int) {
    self.capacity = capacity
    entries = storage.column(capacity, 0)
    scratch = storage.column(capacity, 0)
    let bits = { (n: Int) in n <= 1 ? 0 : Int.bitWidth - (n - 1).leadingZeroBitCount }
    secondBits = bits(max(1, seconds))
    let keyBits = secondBits + bits(max(1, segments))
    precondition(keyBits <= 32, "RequestLog: \(segments) segments of \(seconds) s do not fit a 32-bit key")
    shift = max(0, keyBits - Self.bucketBits)
  }

  /// Buffers one request of `segment` at measured second `second`; a full
  /// buffer is added to `perSecond` first.
  @inline(__always)
  mutating package func append(segment: Int, second: Int64, flushingInto perSecond: [CounterBlock<UInt32>]) {
    entries[count] = UInt32(truncatingIfNeeded: segment) << UInt32(secondBits) | UInt32(truncatingIfNeeded: second)
    count &+= 1
    if count == capacity { flush(into: perSecond) }
  }

  /// Adds the buffered requests to `perSecond[segment]` and empties the log.
  mutating package func flush(into perSecond: [CounterBlock<UInt32>]) {
    guard count > 0 else { return }
    let source = entries
    let target = scratch
    let shift = UInt32(self.shift)
    withUnsafeTemporaryAllocation(of: Int.self, capacity: 1 << Self.bucketBits) { buckets in
      buckets.initialize(repeating: 0)
      for i in 0..<count { buckets[Int(source[i] >> shift)] &+= 1 }
      var total = 0
      for b in 0..<buckets.count {
        let c = buckets[b]
        buckets[b] = total
        total &+= c
      }
      for i in 0..<count {
        let v = source[i]
        let b = Int(v >> shift)
        target[buckets[b]] = v
        buckets[b] &+= 1
      }
    }
    // `target` now holds the keys stretch by stretch, so segment by
    // segment: each block is looked up once per run of a segment.
    let secondMask = (UInt32(1) << UInt32(secondBits)) &- 1
    let segmentShift = UInt32(secondBits)
    var segment = Int(target[0] >> segmentShift)
    var block = perSecond[segment]
    for i in 0..<count {
      let v = target[i]
      let s = Int(v >> segmentShift)
      if s != segment {
        segment = s
        block = perSecond[s]
      }
      block.increment(Int(v & secondMask))
    }
    count = 0
  }
}
