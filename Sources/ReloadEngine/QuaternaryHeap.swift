/// A 4-ary min-heap of events, the default event set.
///
/// Children of node `i` are `4i + 1 ... 4i + 4`. A 4-ary heap is half as deep
/// as a binary one and a node's four children share a cache line (16-byte
/// events), so a sift touches fewer lines; it trades that for three compares
/// per level instead of one. `replaceMin(with:)` walks the hole to a leaf
/// along the smallest children, then sifts the new event up from there
/// (Floyd's bottom-up variant): in a simulation the successor of an event is
/// usually later than most pending ones, so it belongs near the bottom.
///
///     var q = QuaternaryHeap()
///     q.insert(Event(time: .zero + .seconds(5), seq: 0, payload: 1))
///     q.insert(Event(time: .zero + .seconds(1), seq: 1, payload: 2))
///     q.popMin()?.payload   // 2
@frozen
public struct QuaternaryHeap: EventSet, Sendable {
  /// Slots `0 ..< _count` hold the heap; slots past it are spare capacity
  /// kept for reuse (so popping and pushing back costs one uniqueness check
  /// each, not two: NOTE, for performance).
  @usableFromInline internal var _storage: ContiguousArray<Event>
  @usableFromInline internal var _count: Int

  @inlinable
  public init() {
    _storage = []
    _count = 0
  }

  @inlinable
  public var count: Int { _count }

  @inlinable
  public var min: Event? { _count > 0 ? _storage[0] : nil }

  @inlinable
  public mutating func reserveCapacity(_ minimumCapacity: Int) {
    _storage.reserveCapacity(minimumCapacity)
  }

  @inlinable
  public mutating func removeAll(keepingCapacity: Bool) {
    if !keepingCapacity { _storage = [] }
    _count = 0
  }

  @inlinable
  public mutating func insert(_ event: Event) {
    let n = _count
    if n == _storage.count { _storage.append(event) }
    _storage.withUnsafeMutableBufferPointer { buffer in
      _QuaternaryHandle(buffer.baseAddress.unsafelyUnwrapped, count: n &+ 1).siftUp(from: n, event)
    }
    _count = n &+ 1
    _checkInvariants()
  }

  @inlinable
  public mutating func popMin() -> Event? {
    guard _count > 0 else { return nil }
    let n = _count &- 1
    _count = n
    let first = _storage.withUnsafeMutableBufferPointer { buffer -> Event in
      let first = buffer[0]
      if n > 0 { _QuaternaryHandle(buffer.baseAddress.unsafelyUnwrapped, count: n).replaceRoot(with: buffer[n]) }
      return first
    }
    _checkInvariants()
    return first
  }

  @inlinable
  public mutating func replaceMin(with event: Event) -> Event {
    precondition(_count > 0, "replaceMin(with:) on an empty QuaternaryHeap")
    let n = _count
    let first = _storage.withUnsafeMutableBufferPointer { buffer -> Event in
      let first = buffer[0]
      _QuaternaryHandle(buffer.baseAddress.unsafelyUnwrapped, count: n).replaceRoot(with: event)
      return first
    }
    _checkInvariants()
    return first
  }
}

/// The unsafe core of `QuaternaryHeap`: index math over a buffer pointer.
///
/// NOTE: the only place that touches the heap's memory directly, for
/// performance; `assert`s compile away in release builds.
@usableFromInline @frozen
internal struct _QuaternaryHandle {
  @usableFromInline let base: UnsafeMutablePointer<Event>
  @usableFromInline let count: Int

  @inlinable @inline(__always)
  init(_ base: UnsafeMutablePointer<Event>, count: Int) {
    self.base = base
    self.count = count
  }

  @inlinable @inline(__always)
  func siftUp(from start: Int, _ event: Event) {
    var i = start
    while i > 0 {
      let parent = (i &- 1) &>> 2
      let p = base[parent]
      if !Event.precedes(event, p) { break }
      base[i] = p
      i = parent
    }
    base[i] = event
  }

  /// The index of the smallest of the four children starting at `c`
  /// (`c + 3 < count`), without branches on the comparisons.
  @inlinable @inline(__always)
  func minOfFour(_ c: Int) -> Int {
    let m01 = Event.precedes(base[c &+ 1], base[c]) ? c &+ 1 : c
    let m23 = Event.precedes(base[c &+ 3], base[c &+ 2]) ? c &+ 3 : c &+ 2
    return Event.precedes(base[m23], base[m01]) ? m23 : m01
  }

  @inlinable @inline(__always)
  func replaceRoot(with event: Event) {
    var i = 0
    while true {
      let c = i &* 4 &+ 1
      var m: Int
      if c &+ 3 < count {
        m = minOfFour(c)
      } else {
        if c >= count { break }
        m = c
        var j = c &+ 1
        while j < count {
          if Event.precedes(base[j], base[m]) { m = j }
          j &+= 1
        }
      }
      base[i] = base[m]
      i = m
    }
    siftUp(from: i, event)
  }
}
