import ReloadMetrics

/// A buffer of backend requests waiting to be added to the per-second
/// tallies, in batches sorted by (segment, second).
///
/// The per-second tallies are large (a month is 2.6 million seconds per
/// segment) and requests arrive in no order across devices, so adding each
/// one as it happens missed the cache on nearly every request: a profile of
/// the fleet scenario put about 30 % of its time on that one store. Sorted
/// batches turn the scattered stores into one forward sweep per segment.
/// Integer addition is exact in any order, so results do not change.
///
/// NOTE: a hand-written radix sort over two storage columns, for performance.
struct RequestLog {
  static let capacity = 1 << 16
  /// `segment << 25 | second`: seconds below 2^25 (388 days), 64 segments.
  private var entries: Column<UInt32>
  private var scratch: Column<UInt32>
  private(set) var count = 0

  init(_ storage: _DeviceStorage) {
    entries = storage.column(Self.capacity, 0)
    scratch = storage.column(Self.capacity, 0)
  }

  /// Buffers one request of `segment` at measured second `second`; a full
  /// buffer is added to `perSecond` first.
  @inline(__always)
  mutating func append(segment: Int, second: Int64, flushingInto perSecond: [CounterBlock<UInt32>]) {
    entries[count] = UInt32(truncatingIfNeeded: segment) << 25 | UInt32(truncatingIfNeeded: second)
    count &+= 1
    if count == Self.capacity { flush(into: perSecond) }
  }

  /// Adds the buffered requests to `perSecond[segment]` and empties the log.
  mutating func flush(into perSecond: [CounterBlock<UInt32>]) {
    guard count > 0 else { return }
    // LSD radix sort of the 31-bit keys: three passes of 11 bits,
    // ping-ponging between the two columns.
    var source = entries
    var target = scratch
    withUnsafeTemporaryAllocation(of: Int.self, capacity: 2048) { buckets in
      for pass in 0..<3 {
        let shift = UInt32(pass * 11)
        buckets.initialize(repeating: 0)
        for i in 0..<count { buckets[Int((source[i] >> shift) & 0x7FF)] &+= 1 }
        var total = 0
        for b in 0..<2048 {
          let c = buckets[b]
          buckets[b] = total
          total &+= c
        }
        for i in 0..<count {
          let v = source[i]
          let b = Int((v >> shift) & 0x7FF)
          target[buckets[b]] = v
          buckets[b] &+= 1
        }
        swap(&source, &target)
      }
    }
    // `source` now holds the sorted keys; they come segment by segment,
    // so each block is looked up once per run.
    var segment = Int(source[0] >> 25)
    var block = perSecond[segment]
    for i in 0..<count {
      let v = source[i]
      let s = Int(v >> 25)
      if s != segment {
        segment = s
        block = perSecond[s]
      }
      block.increment(Int(v & 0x1FF_FFFF))
    }
    count = 0
  }
}
