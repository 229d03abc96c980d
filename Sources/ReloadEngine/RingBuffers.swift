/// Many small rings of recent times in one flat buffer: the per-widget
/// windows of recent budgeted reloads.
///
/// Ring `r` owns slots `r * capacity ..< (r + 1) * capacity` of one
/// `ContiguousArray`; a header per ring keeps its next write slot and count
/// (the `{capacity, count, startSlot}` of swift-collections' `Deque`). Once a
/// ring is full, the slot about to be overwritten holds its oldest time, so
/// the sliding-window budget question "did `B` reloads happen in the last
/// 24 hours?" is answered in O(1), and "how many since `t`?" by a binary
/// search over at most `capacity` sorted entries.
///
///     var rings = RingBuffers(rings: 2, capacity: 3)
///     for s in [10, 20, 30, 40] { rings.append(SimTime(milliseconds: Int64(s)), to: 0) }
///     rings.count(of: 0)                         // 3
///     rings.oldest(of: 0)                        // 20 ms
///     rings.countNewer(than: SimTime(milliseconds: 25), in: 0)   // 2
///
/// - Important: times appended to one ring must not decrease; the binary
///   searches rely on it (checked under RELOADBENCH_INTERNAL_CHECKS).
@frozen
public struct RingBuffers: Sendable {
  /// One array for every ring: first a header per ring (its next write
  /// slot in the low 32 bits, its count in the high 32), then the rings'
  /// slots. NOTE: one array, so an append pays one copy-on-write check
  /// instead of three (2 % of R1's instructions, measured with callgrind).
  @usableFromInline internal var _storage: ContiguousArray<Int64>
  /// Slots per ring.
  public private(set) var capacity: Int
  /// Number of rings.
  public private(set) var ringCount: Int

  public init(rings: Int = 0, capacity: Int = 1) {
    _storage = []
    self.capacity = 1
    self.ringCount = 0
    reset(rings: rings, capacity: capacity)
  }

  /// Empties every ring and resizes, reusing the storage.
  public mutating func reset(rings: Int, capacity: Int) {
    precondition(capacity >= 1 && rings >= 0, "RingBuffers: rings \(rings), capacity \(capacity)")
    self.capacity = capacity
    self.ringCount = rings
    let size = rings &+ rings * capacity
    if _storage.count < size {
      _storage.append(contentsOf: repeatElement(0, count: size - _storage.count))
    }
    _storage.withUnsafeMutableBufferPointer { s in
      for r in 0..<rings { s[r] = 0 }
    }
  }

  @inlinable @inline(__always)
  func _next(_ ring: Int) -> Int { Int(truncatingIfNeeded: _storage[ring] & 0xFFFF_FFFF) }

  @inlinable @inline(__always)
  func _slot(_ ring: Int, _ slot: Int) -> Int { ringCount &+ ring &* capacity &+ slot }

  /// The number of times held by `ring` (at most `capacity`).
  ///
  /// - Complexity: O(1)
  @inlinable @inline(__always)
  public func count(of ring: Int) -> Int { Int(truncatingIfNeeded: _storage[ring] &>> 32) }

  /// Records `time` in `ring`, overwriting its oldest entry when full.
  ///
  /// - Complexity: O(1)
  @inlinable @inline(__always)
  public mutating func append(_ time: SimTime, to ring: Int) {
    #if RELOADBENCH_INTERNAL_CHECKS
      if count(of: ring) > 0 {
        precondition(time >= newest(of: ring), "RingBuffers: \(time) appended after \(newest(of: ring))")
      }
    #endif
    let capacity = self.capacity
    let index = _slot(ring, 0)
    _storage.withUnsafeMutableBufferPointer { s in
      let header = s[ring]
      let slot = Int(truncatingIfNeeded: header & 0xFFFF_FFFF)
      var count = header &>> 32
      s[index &+ slot] = time.milliseconds
      let next = slot &+ 1 == capacity ? 0 : slot &+ 1
      if count < Int64(capacity) { count &+= 1 }
      s[ring] = count &<< 32 | Int64(next)
    }
  }

  /// The `k`-th most recent time of `ring`, `k = 0` being the newest.
  ///
  /// - Precondition: `k < count(of: ring)`.
  /// - Complexity: O(1)
  @inlinable @inline(__always)
  public func time(ofRing ring: Int, fromNewest k: Int) -> SimTime {
    assert(k >= 0 && k < count(of: ring), "ring \(ring) has \(count(of: ring)) entries, asked for \(k)")
    var slot = _next(ring) &- 1 &- k
    if slot < 0 { slot &+= capacity }
    return SimTime(milliseconds: _storage[_slot(ring, slot)])
  }

  /// The newest time of a non-empty ring.
  @inlinable @inline(__always)
  public func newest(of ring: Int) -> SimTime { time(ofRing: ring, fromNewest: 0) }

  /// The oldest time of a non-empty ring.
  @inlinable @inline(__always)
  public func oldest(of ring: Int) -> SimTime {
    time(ofRing: ring, fromNewest: count(of: ring) &- 1)
  }

  /// How many times of `ring` are strictly later than `time`.
  ///
  /// - Complexity: O(log capacity)
  @inlinable
  public func countNewer(than time: SimTime, in ring: Int) -> Int {
    // Binary search on "k-th newest > time", which holds for k < answer.
    var lo = 0
    var hi = count(of: ring)
    while lo < hi {
      let mid = (lo &+ hi) &>> 1
      if self.time(ofRing: ring, fromNewest: mid) > time { lo = mid &+ 1 } else { hi = mid }
    }
    return lo
  }
}
