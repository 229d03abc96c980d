/// The one place a device simulation keeps raw memory: fixed-capacity
/// columns of plain values (the struct-of-arrays state of a device's
/// widgets and kinds), allocated once per simulator and reused for every
/// device.
///
/// NOTE: raw pointers, for performance: the state changes on every event,
/// and arrays would pay a copy-on-write check per write. Only trivial types
/// live here, so nothing needs deinitializing. No other type in the
/// simulator touches a pointer: everything goes through `Column`'s
/// subscript, which checks its bounds in debug builds (an `assert`, compiled
/// out in release).
///
///     let storage = _DeviceStorage()
///     let lastReload = storage.column(64, SimTime.zero)
///     lastReload[3] = .hours(1)
///     lastReload[64]           // traps in a debug build
///
/// - Important: a column lives as long as the storage that made it; the
///   simulator owns both and hands neither out.
@usableFromInline
package final class _DeviceStorage: @unchecked Sendable {
  private var allocations: [UnsafeMutableRawPointer] = []

  package init() {}

  /// A column of `count` values, all `initial`.
  package func column<T>(_ count: Int, _ initial: T) -> Column<T> {
    precondition(_isPOD(T.self), "_DeviceStorage holds trivial types only")
    precondition(count >= 0, "a column of \(count) values")
    let p = UnsafeMutablePointer<T>.allocate(capacity: max(1, count))
    p.initialize(repeating: initial, count: max(1, count))
    allocations.append(UnsafeMutableRawPointer(p))
    return Column(base: p, count: count)
  }

  /// A column holding `values`.
  package func column<T>(copying values: [T], filler: T) -> Column<T> {
    let c = column(values.count, filler)
    for (i, v) in values.enumerated() { c[i] = v }
    return c
  }

  deinit {
    for a in allocations { a.deallocate() }
  }
}

/// A fixed-length column of plain values in a `_DeviceStorage`.
///
/// Its subscript reads and writes in place (no copy-on-write check) and
/// checks the index in debug builds only.
@usableFromInline
package struct Column<T> {
  private let base: UnsafeMutablePointer<T>
  /// The number of values.
  package let count: Int

  fileprivate init(base: UnsafeMutablePointer<T>, count: Int) {
    self.base = base
    self.count = count
  }

  @inline(__always)
  private func check(_ i: Int) {
    assert(UInt(bitPattern: i) < UInt(bitPattern: count), "index \(i) out of a column of \(count)")
  }

  package subscript(i: Int) -> T {
    @inline(__always) unsafeAddress {
      check(i)
      return UnsafePointer(base + i)
    }
    @inline(__always) nonmutating unsafeMutableAddress {
      check(i)
      return base + i
    }
  }
}
