/// Fixed-capacity storage for the per-widget and per-kind state of a
/// `DeviceSimulator`, allocated once and reused for every device.
///
/// NOTE: raw pointers, for performance: the simulator's state changes on
/// every event, and arrays would pay a copy-on-write check per write. Only
/// trivial types live here, so nothing needs deinitializing. The simulator
/// never hands these pointers out.
final class _Arena: @unchecked Sendable {
  private var allocations: [UnsafeMutableRawPointer] = []

  /// A buffer of `count` values, all `initial`.
  func make<T>(_ count: Int, _ initial: T) -> UnsafeMutablePointer<T> {
    precondition(_isPOD(T.self), "_Arena holds trivial types only")
    let p = UnsafeMutablePointer<T>.allocate(capacity: max(1, count))
    p.initialize(repeating: initial, count: max(1, count))
    allocations.append(UnsafeMutableRawPointer(p))
    return p
  }

  deinit {
    for a in allocations { a.deallocate() }
  }
}
