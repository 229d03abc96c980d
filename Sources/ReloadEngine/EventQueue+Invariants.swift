// Heap-order checks, compiled in only with RELOADBENCH_INTERNAL_CHECKS.

extension EventHeap {
  /// Verifies that no event precedes its parent. A no-op unless the package
  /// is built with `RELOADBENCH_INTERNAL_CHECKS` (see Package.swift).
  @inlinable @inline(__always)
  public func _checkInvariants() {
    #if RELOADBENCH_INTERNAL_CHECKS
      for i in 1..<Swift.max(1, _count) {
        let parent = (i - 1) / Arity.children
        precondition(
          !Event.precedes(_storage[i], _storage[parent]),
          "\(Self.self): event \(_storage[i]) at \(i) precedes its parent \(_storage[parent])")
      }
    #endif
  }
}

/// `true` when the package was built with `RELOADBENCH_INTERNAL_CHECKS`.
public let internalChecksEnabled: Bool = {
  #if RELOADBENCH_INTERNAL_CHECKS
    return true
  #else
    return false
  #endif
}()
