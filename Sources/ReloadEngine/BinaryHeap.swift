/// A binary min-heap of events: the textbook alternative to
/// `QuaternaryHeap`, kept so the two can be measured side by side.
///
/// Children of node `i` are `2i + 1` and `2i + 2`. `replaceMin(with:)` uses
/// the same bottom-up sift as the 4-ary heap, so the comparison is about the
/// arity alone.
@frozen
public struct BinaryHeap: EventSet, Sendable {
  @usableFromInline internal var _storage: ContiguousArray<Event>

  @inlinable
  public init() { _storage = [] }

  @inlinable
  public var count: Int { _storage.count }

  @inlinable
  public var min: Event? { _storage.first }

  @inlinable
  public mutating func reserveCapacity(_ minimumCapacity: Int) {
    _storage.reserveCapacity(minimumCapacity)
  }

  @inlinable
  public mutating func removeAll(keepingCapacity: Bool) {
    _storage.removeAll(keepingCapacity: keepingCapacity)
  }

  @inlinable
  public mutating func insert(_ event: Event) {
    _storage.append(event)
    _storage.withUnsafeMutableBufferPointer { buffer in
      _BinaryHandle(buffer).siftUp(from: buffer.count &- 1, event)
    }
    _checkInvariants()
  }

  @inlinable
  public mutating func popMin() -> Event? {
    guard let last = _storage.popLast() else { return nil }
    if _storage.isEmpty { return last }
    return replaceMin(with: last)
  }

  @inlinable
  public mutating func replaceMin(with event: Event) -> Event {
    precondition(!_storage.isEmpty, "replaceMin(with:) on an empty BinaryHeap")
    let first = _storage.withUnsafeMutableBufferPointer { buffer -> Event in
      let first = buffer[0]
      _BinaryHandle(buffer).replaceRoot(with: event)
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
  init(_ buffer: UnsafeMutableBufferPointer<Event>) {
    base = buffer.baseAddress.unsafelyUnwrapped
    count = buffer.count
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
