import ReloadEngine

/// Each widget's one pending action (a policy request, a request waiting
/// for the minimum interval, or a reload about to execute), its last
/// reload, and the generation that marks a superseded event stale.
struct PendingReloads {
  private let generation: Column<UInt32>
  private let at: Column<SimTime>
  private let event: Column<DeviceEvent>
  private let reason: Column<ReloadCause>
  /// The pending reload waits for budget to return.
  let withheld: Column<Bool>
  /// When the widget last reloaded.
  let lastReload: Column<SimTime>

  init(widgets: Int, storage: _DeviceStorage) {
    generation = storage.column(widgets, 0)
    at = storage.column(widgets, .never)
    event = storage.column(widgets, .exec)
    reason = storage.column(widgets, .policy)
    withheld = storage.column(widgets, false)
    lastReload = storage.column(widgets, .zero)
  }

  func reset(_ w: Int) {
    generation[w] = 0
    at[w] = .never
    event[w] = .exec
    reason[w] = .policy
    withheld[w] = false
    lastReload[w] = SimTime(milliseconds: -(1 << 40))
  }

  /// When widget `w`'s pending action is due (`.never` when none is).
  @inline(__always)
  func time(_ w: Int) -> SimTime { at[w] }

  /// Why widget `w`'s pending action happens.
  @inline(__always)
  func cause(_ w: Int) -> ReloadCause { reason[w] }

  /// `true` when an event of generation `g` for widget `w` is still current.
  @inline(__always)
  func isCurrent(_ w: Int, generation g: UInt32) -> Bool { (generation[w] & 0x7FFFF) == g }

  /// The event has been taken: nothing is pending any more.
  @inline(__always)
  func take(_ w: Int) { at[w] = .never }

  /// Makes `kind` at `t` widget `w`'s one pending action, unless an
  /// earlier one is already pending (it will capture the same data, or
  /// later data).
  @inline(__always)
  func set(_ w: Int, _ kind: DeviceEvent, at t: SimTime, cause: ReloadCause, on queue: inout Simulator<EventQueue>) {
    if at[w] <= t { return }
    generation[w] &+= 1
    at[w] = t
    event[w] = kind
    reason[w] = cause
    withheld[w] = false
    queue.schedule(kind, w, at: t, generation: generation[w] & 0x7FFFF)
  }

  /// The widget reloaded at `t`: whatever was pending is superseded.
  @inline(__always)
  func reloaded(_ w: Int, at t: SimTime) {
    lastReload[w] = t
    generation[w] &+= 1
    at[w] = .never
    withheld[w] = false
  }
}
