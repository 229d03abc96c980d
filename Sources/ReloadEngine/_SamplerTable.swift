/// A fixed table of plain values that a sampler computes once and then
/// reads in its hot path (`_LogNormalTables`, `_ExponentialZiggurat`): the
/// one place the engine's samplers keep raw memory.
///
/// NOTE: raw memory, for performance: a table is read several times per
/// draw. Reads check the index in debug builds only (an `assert`, compiled
/// out in release), like `Column` in WidgetModel; the table never changes
/// after it is filled, so sharing it across threads is safe.
///
///     let squares = _SamplerTable(count: 4) { Double($0 * $0) }
///     squares[3]    // 9
///     squares[4]    // traps in a debug build
///
/// - Important: the table's owner (a final class, shared for the life of
///   the process) calls `deallocate()` in its `deinit`; copies of the
///   table are views of the same memory.
@frozen @usableFromInline
package struct _SamplerTable<T>: @unchecked Sendable {
  @usableFromInline let base: UnsafeMutablePointer<T>
  /// The number of values.
  @usableFromInline package let count: Int

  /// A table of `count` values, value `i` being `value(i)`.
  package init(count: Int, _ value: (Int) -> T) {
    precondition(_isPOD(T.self) && count > 0, "a sampler table holds one or more plain values")
    base = .allocate(capacity: count)
    for i in 0..<count { (base + i).initialize(to: value(i)) }
    self.count = count
  }

  /// A table holding `values`.
  package init(_ values: [T]) {
    self.init(count: values.count) { values[$0] }
  }

  @inlinable
  package subscript(i: Int) -> T {
    @inline(__always) get {
      assert(UInt(bitPattern: i) < UInt(bitPattern: count), "index \(i) out of a table of \(count)")
      return base[i]
    }
  }

  /// Frees the memory (the owner's `deinit`).
  package func deallocate() { base.deallocate() }
}
