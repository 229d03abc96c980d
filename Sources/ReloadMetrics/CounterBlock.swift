/// A fixed number of integer counters in one allocation, written through a
/// pointer: the storage of the tallies a simulation's hot loop increments.
///
/// It is a class on purpose: the loop increments `base[i]` with no
/// copy-on-write check, bounds check or exclusivity check per event (a
/// profile of the array-based version spent about 9 % of R1 in
/// `swift_isUniquelyReferenced`). The price is reference semantics: use
/// `copy()` when a separate block is needed, and `add(_:)` to merge.
///
///     let block = CounterBlock<UInt64>(count: 4)
///     block.base[2] &+= 1
///     let total = block.copy()
///     total.add(block)          // total[2] == 2
///
/// - Important: one writer at a time; blocks are merged only after the
///   threads that filled them have finished.
public final class CounterBlock<Element: FixedWidthInteger & UnsignedInteger>: @unchecked Sendable {
  public let count: Int
  /// The counters. NOTE: raw pointer access, for performance.
  public let base: UnsafeMutablePointer<Element>

  @inlinable
  public init(count: Int) {
    precondition(count >= 0, "CounterBlock count \(count)")
    self.count = count
    base = .allocate(capacity: Swift.max(1, count))
    base.initialize(repeating: 0, count: Swift.max(1, count))
  }

  deinit { base.deallocate() }

  @inlinable
  public subscript(i: Int) -> Element {
    get {
      precondition(i >= 0 && i < count, "counter \(i) out of 0..<\(count)")
      return base[i]
    }
    set {
      precondition(i >= 0 && i < count, "counter \(i) out of 0..<\(count)")
      base[i] = newValue
    }
  }

  /// Adds every counter of `other` (same count) to this block.
  @inlinable
  public func add(_ other: CounterBlock<Element>) {
    precondition(other.count == count, "merging blocks of \(other.count) and \(count) counters")
    for i in 0..<count { base[i] &+= other.base[i] }
  }

  /// An independent block with the same values.
  @inlinable
  public func copy() -> CounterBlock<Element> {
    let c = CounterBlock<Element>(count: count)
    c.base.update(from: base, count: count)
    return c
  }

  /// The counters `range` as an array.
  @inlinable
  public func values(_ range: Range<Int>) -> [Element] {
    precondition(range.lowerBound >= 0 && range.upperBound <= count)
    return Array(UnsafeBufferPointer(start: base + range.lowerBound, count: range.count))
  }

  /// The largest counter in `range` and its index (nil when empty).
  public func max(in range: Range<Int>) -> (index: Int, value: Element)? {
    guard !range.isEmpty else { return nil }
    var best = range.lowerBound
    for i in range where base[i] > base[best] { best = i }
    return (best, base[best])
  }
}
