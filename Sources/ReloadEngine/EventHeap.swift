/// A min-heap of events stored in one array, generic over the number of
/// children per node (`Arity`): `QuaternaryHeap` (4-ary, the default event
/// set) and `BinaryHeap` (2-ary, kept so the two can be measured side by
/// side) are this type with two arities, so they share every line but the
/// index math.
///
/// `replaceMin(with:)` walks the hole to a leaf along the smallest children,
/// then sifts the new event up from there (Floyd's bottom-up variant): in a
/// simulation the successor of an event is usually later than most pending
/// ones, so it belongs near the bottom. Both arities use it, so a comparison
/// of the two is about the arity alone.
///
///     var q = QuaternaryHeap()
///     q.insert(Event(time: .zero + .seconds(5), seq: 0, payload: 1))
///     q.insert(Event(time: .zero + .seconds(1), seq: 1, payload: 2))
///     q.popMin()?.payload   // 2
@frozen
public struct EventHeap<Arity: HeapArity>: EventSet, Sendable {
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
    Arity._siftUp(&_storage, from: n, event)
    _count = n &+ 1
    _checkInvariants()
  }

  @inlinable
  public mutating func popMin() -> Event? {
    guard _count > 0 else { return nil }
    let n = _count &- 1
    _count = n
    let first = Arity._removeRoot(&_storage, count: n)
    _checkInvariants()
    return first
  }

  @inlinable
  public mutating func replaceMin(with event: Event) -> Event {
    precondition(_count > 0, "replaceMin(with:) on an empty event heap")
    let n = _count
    let first = Arity._replaceRoot(&_storage, count: n, with: event)
    _checkInvariants()
    return first
  }
}

/// A 4-ary min-heap of events, the default event set (`EventQueue`).
///
/// Children of node `i` are `4i + 1 ... 4i + 4`. A 4-ary heap is half as deep
/// as a binary one and a node's four children share a cache line (16-byte
/// events), so a sift touches fewer lines; it trades that for three compares
/// per level instead of one.
public typealias QuaternaryHeap = EventHeap<FourChildren>

/// A binary min-heap of events: the textbook alternative to
/// `QuaternaryHeap`, kept so the two can be measured side by side.
///
/// Children of node `i` are `2i + 1` and `2i + 2`.
public typealias BinaryHeap = EventHeap<TwoChildren>

/// The shape of an `EventHeap`: how many children a node has, and the index
/// math over the heap's buffer that follows from it. Conformers are empty
/// enums; everything else about a heap is shared.
///
/// NOTE: these functions are the only code that touches a heap's memory
/// directly, for performance; they run inside `EventHeap`'s
/// `withUnsafeMutableBufferPointer`, on slots `0 ..< count`.
public protocol HeapArity: Sendable {
  /// Children per node: the parent of node `i` is `(i - 1) / children`.
  static var children: Int { get }

  /// Places `event` at slot `start` or above it, moving the parents it
  /// precedes down (slots `0 ..< start` are a heap).
  static func siftUp(_ base: UnsafeMutablePointer<Event>, from start: Int, _ event: Event)

  /// Replaces the root of the heap in slots `0 ..< count` with `event`: walks
  /// the hole down to a leaf along the smallest children, then sifts `event`
  /// up from there (Floyd's bottom-up variant).
  static func replaceRoot(_ base: UnsafeMutablePointer<Event>, count: Int, with event: Event)
}

extension HeapArity {
  // The buffer access of `EventHeap`'s operations. NOTE: written here, in
  // always-inlined functions of the arity, rather than as closures in the
  // generic `EventHeap` methods, because the compiler then inlines the whole
  // operation into its caller (as it did for the two separate heaps this
  // type replaced); closures in the generic methods were left as calls.

  /// Sifts `event` up from slot `start` of `heap` (`start < heap.count`).
  @inlinable @inline(__always)
  static func _siftUp(_ heap: inout ContiguousArray<Event>, from start: Int, _ event: Event) {
    heap.withUnsafeMutableBufferPointer { buffer in
      siftUp(buffer.baseAddress.unsafelyUnwrapped, from: start, event)
    }
  }

  /// Returns the root of the heap in slots `0 ... count` and moves slot
  /// `count` into its place (the heap shrinks to `0 ..< count`).
  @inlinable @inline(__always)
  static func _removeRoot(_ heap: inout ContiguousArray<Event>, count n: Int) -> Event {
    heap.withUnsafeMutableBufferPointer { buffer -> Event in
      let first = buffer[0]
      if n > 0 { replaceRoot(buffer.baseAddress.unsafelyUnwrapped, count: n, with: buffer[n]) }
      return first
    }
  }

  /// Returns the root of the heap in slots `0 ..< count` and replaces it
  /// with `event`.
  @inlinable @inline(__always)
  static func _replaceRoot(_ heap: inout ContiguousArray<Event>, count n: Int, with event: Event) -> Event {
    heap.withUnsafeMutableBufferPointer { buffer -> Event in
      let first = buffer[0]
      replaceRoot(buffer.baseAddress.unsafelyUnwrapped, count: n, with: event)
      return first
    }
  }
}

/// Four children per node (`QuaternaryHeap`): children of `i` are
/// `4i + 1 ... 4i + 4`.
public enum FourChildren: HeapArity {
  @inlinable
  public static var children: Int { 4 }

  @inlinable @inline(__always)
  public static func siftUp(_ base: UnsafeMutablePointer<Event>, from start: Int, _ event: Event) {
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
  static func minOfFour(_ base: UnsafeMutablePointer<Event>, _ c: Int) -> Int {
    let m01 = Event.precedes(base[c &+ 1], base[c]) ? c &+ 1 : c
    let m23 = Event.precedes(base[c &+ 3], base[c &+ 2]) ? c &+ 3 : c &+ 2
    return Event.precedes(base[m23], base[m01]) ? m23 : m01
  }

  @inlinable @inline(__always)
  public static func replaceRoot(_ base: UnsafeMutablePointer<Event>, count: Int, with event: Event) {
    var i = 0
    while true {
      let c = i &* 4 &+ 1
      var m: Int
      if c &+ 3 < count {
        m = minOfFour(base, c)
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
    siftUp(base, from: i, event)
  }
}

/// Two children per node (`BinaryHeap`): children of `i` are `2i + 1` and
/// `2i + 2`.
public enum TwoChildren: HeapArity {
  @inlinable
  public static var children: Int { 2 }

  @inlinable @inline(__always)
  public static func siftUp(_ base: UnsafeMutablePointer<Event>, from start: Int, _ event: Event) {
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
  public static func replaceRoot(_ base: UnsafeMutablePointer<Event>, count: Int, with event: Event) {
    var i = 0
    while true {
      let c = i &* 2 &+ 1
      if c >= count { break }
      var m = c
      if c &+ 1 < count && Event.precedes(base[c &+ 1], base[c]) { m = c &+ 1 }
      base[i] = base[m]
      i = m
    }
    siftUp(base, from: i, event)
  }
}
