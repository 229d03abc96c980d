/// A fixed number of integer counters in one allocation: the storage of the
/// tallies a simulation's hot loop increments.
///
/// It is a class on purpose: the loop increments counters with no
/// copy-on-write check or exclusivity check per event (a profile of the
/// array-based version spent about 9 % of R1 in
/// `swift_isUniquelyReferenced`). The price is reference semantics: use
/// `copy()` when a separate block is needed, and `add(_:)` to merge. The
/// memory itself is handed out only to be read, inside
/// `withUnsafeBufferPointer(_:)`: `increment(_:by:)` is the hot path
/// (bounds checked in debug builds), the subscript the checked one.
///
///     let block = CounterBlock<UInt64>(count: 4)
///     block.increment(2)
///     let total = block.copy()
///     total.add(block)          // total[2] == 2
///
/// - Important: one writer at a time; blocks are merged only after the
///   threads that filled them have finished.
public final class CounterBlock<Element: FixedWidthInteger & UnsignedInteger>: @unchecked Sendable {
  public let count: Int
  /// NOTE: raw memory, for performance; never leaves this type.
  @usableFromInline let _base: UnsafeMutablePointer<Element>

  @inlinable
  public init(count: Int) {
    precondition(count >= 0, "CounterBlock count \(count)")
    self.count = count
    _base = .allocate(capacity: Swift.max(1, count))
    _base.initialize(repeating: 0, count: Swift.max(1, count))
  }

  deinit { _base.deallocate() }

  @inlinable
  public subscript(i: Int) -> Element {
    get {
      precondition(i >= 0 && i < count, "counter \(i) out of 0..<\(count)")
      return _base[i]
    }
    set {
      precondition(i >= 0 && i < count, "counter \(i) out of 0..<\(count)")
      _base[i] = newValue
    }
  }

  /// Adds `n` to counter `i` (wrapping). The hot loop's one write: the
  /// index is checked in debug builds only.
  @inlinable @inline(__always)
  public func increment(_ i: Int, by n: Element = 1) {
    assert(UInt(bitPattern: i) < UInt(bitPattern: count), "counter \(i) out of 0..<\(count)")
    _base[i] &+= n
  }

  /// Counter `i`, checked in debug builds only (for reading tallies in bulk).
  @inlinable @inline(__always)
  public func value(at i: Int) -> Element {
    assert(UInt(bitPattern: i) < UInt(bitPattern: count), "counter \(i) out of 0..<\(count)")
    return _base[i]
  }

  /// Calls `body` with the counters, for reading them in bulk (the report
  /// phase's passes over per-second series); the buffer must not be used
  /// after `body` returns.
  @inlinable
  public func withUnsafeBufferPointer<R>(_ body: (UnsafeBufferPointer<Element>) throws -> R) rethrows -> R {
    try withExtendedLifetime(self) { try body(UnsafeBufferPointer(start: _base, count: count)) }
  }

  /// A handle that increments this block's counters in place, for a hot
  /// loop that owns the block while it runs (it keeps the block alive).
  @inlinable
  public var writer: Writer { Writer(self) }

  /// Increments a `CounterBlock`'s counters with no reference-counting or
  /// uniqueness check per write; bounds are checked in debug builds.
  /// NOTE: for performance: one load less per increment than going through
  /// the block (a measured 2-3 % of R1's instructions).
  @frozen
  public struct Writer {
    @usableFromInline let _block: CounterBlock<Element>
    @usableFromInline let _base: UnsafeMutablePointer<Element>
    @usableFromInline let _count: Int

    @inlinable
    init(_ block: CounterBlock<Element>) {
      _block = block
      _base = block._base
      _count = block.count
    }

    /// Adds `n` to counter `i` (wrapping).
    @inlinable @inline(__always)
    public func increment(_ i: Int, by n: Element = 1) {
      assert(UInt(bitPattern: i) < UInt(bitPattern: _count), "counter \(i) out of 0..<\(_count)")
      _base[i] &+= n
    }
  }

  /// Adds every counter of `other` (same count) to this block.
  @inlinable
  public func add(_ other: CounterBlock<Element>) {
    precondition(other.count == count, "merging blocks of \(other.count) and \(count) counters")
    for i in 0..<count { _base[i] &+= other._base[i] }
  }

  /// An independent block with the same values.
  @inlinable
  public func copy() -> CounterBlock<Element> {
    let c = CounterBlock<Element>(count: count)
    c._base.update(from: _base, count: count)
    return c
  }

  /// The counters `range` as an array.
  @inlinable
  public func values(_ range: Range<Int>) -> [Element] {
    precondition(range.lowerBound >= 0 && range.upperBound <= count)
    return Array(UnsafeBufferPointer(start: _base + range.lowerBound, count: range.count))
  }

  /// The largest counter in `range` and its index (nil when empty).
  public func max(in range: Range<Int>) -> (index: Int, value: Element)? {
    guard !range.isEmpty else { return nil }
    var best = range.lowerBound
    for i in range where _base[i] > _base[best] { best = i }
    return (best, _base[best])
  }
}
