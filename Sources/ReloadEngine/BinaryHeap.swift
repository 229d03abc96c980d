/// A binary min-heap of events: the textbook alternative to
/// `QuaternaryHeap`, kept so the two can be measured side by side.
///
/// Children of node `i` are `2i + 1` and `2i + 2`. `replaceMin(with:)` uses
/// the same bottom-up sift as the 4-ary heap, so the comparison is about the
/// arity alone.
@frozen
public struct BinaryHeap: EventSet, Sendable {
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
      _BinaryHandle(buffer.baseAddress.unsafelyUnwrapped, count: n &+ 1).siftUp(from: n, event)
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
      if n > 0 { _BinaryHandle(buffer.baseAddress.unsafelyUnwrapped, count: n).replaceRoot(with: buffer[n]) }
      return first
    }
    _checkInvariants()
    return first
  }

  @inlinable
  public mutating func replaceMin(with event: Event) -> Event {
    precondition(_count > 0, "replaceMin(with:) on an empty BinaryHeap")
    let n = _count
    let first = _storage.withUnsafeMutableBufferPointer { buffer -> Event in
      let first = buffer[0]
      _BinaryHandle(buffer.baseAddress.unsafelyUnwrapped, count: n).replaceRoot(with: event)
      return first
    }
    _checkInvariants()
    return first
  }
}

/// The unsafe core of `BinaryHeap`.
///
/// NOTE: raw pointer index math, for performance.
@usableFromInline @frozen
internal struct _BinaryHandle {
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
      let parent = (i &- 1) &>> 1
      let p = base[parent]
      if !Event.precedes(event, p) { break }
      base[i] = p
      i = parent
    }
    base[i] = event
  }

  @inlinable @inline(__always)
  func replaceRoot(with event: Event) {
    var i = 0
    while true {
      let c = i &* 2 &+ 1
      if c >= count { break }
      var m = c
      if c &+ 1 < count && Event.precedes(base[c &+ 1], base[c]) { m = c &+ 1 }
      base[i] = base[m]
      i = m
    }
    siftUp(from: i, event)
  }
}
