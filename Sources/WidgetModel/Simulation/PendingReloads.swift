import ReloadEngine

/// Each widget's one pending action (a policy request, a request waiting
/// for the minimum interval, or a reload about to execute) and its last
/// reload.
///
/// A pending action is not in the device's event queue: it waits in its
/// widget's slot, numbered by the queue (`Simulator.sequence(at:)`) so that
/// it keeps its place among the queue's events, and `next` is the earliest
/// of them, which the run loop hands out when it comes before the queue's
/// next event (`Simulator.step(before:or:)`). Replacing a pending action,
/// which WidgetKit does whenever a reload or an earlier request supersedes
/// it, then leaves nothing behind: a queued event would stay and fire for
/// nothing (NOTE: for performance: on `fleet-1m` a quarter of all events
/// were such superseded requests).
package struct PendingReloads {
  /// The pending action as the queue orders it (`Event.vacant`: none).
  private let slot: Column<Event>
  private let reason: Column<ReloadCause>
  /// The pending reload waits for budget to return.
  let withheld: Column<Bool>
  /// When the widget last reloaded.
  package let lastReload: Column<SimTime>
  /// The earliest pending action of the device (`Event.vacant`: none).
  package private(set) var next = Event.vacant
  /// Its widget (-1: none). Derivable from `next`'s payload, but kept
  /// apart (NOTE: for performance: reading the payload of `next` just
  /// after it was stored made R1 about 8 % slower, measured).
  private var nextWidget = -1
  /// The current device's widgets.
  private var count = 0

  package init(widgets: Int, storage: _DeviceStorage) {
    slot = storage.column(widgets, .vacant)
    reason = storage.column(widgets, .policy)
    withheld = storage.column(widgets, false)
    lastReload = storage.column(widgets, .zero)
  }

  /// Nothing is pending for the device's `widgets` widgets.
  mutating package func reset(widgets: Int) {
    count = widgets
    for w in 0..<widgets {
      slot[w] = .vacant
      reason[w] = .policy
      withheld[w] = false
      lastReload[w] = SimTime(milliseconds: -(1 << 40))
    }
    next = .vacant
    nextWidget = -1
  }

  /// When widget `w`'s pending action is due (`.never` when none is).
  @inline(__always)
  package func time(_ w: Int) -> SimTime { slot[w].isVacant ? .never : slot[w].time }

  /// Why widget `w`'s pending action happens.
  @inline(__always)
  func cause(_ w: Int) -> ReloadCause { reason[w] }

  /// Makes `kind` at `t` widget `w`'s one pending action, unless an
  /// earlier one is already pending (it will capture the same data, or
  /// later data).
  @inline(__always)
  mutating package func set(
    _ w: Int, _ kind: DeviceEvent, at t: SimTime, cause: ReloadCause, on queue: inout Simulator<EventQueue>
  ) {
    // (An empty slot's time is later than any event's.)
    if slot[w].time <= t { return }
    let event = Event(
      time: t, priority: DeviceEvent.modelPriority, seq: queue.sequence(at: t),
      payload: DeviceEvent.pack(kind, index: w))
    slot[w] = event
    reason[w] = cause
    withheld[w] = false
    // The new action is earlier than the one it replaces.
    if Event.precedes(event, next) {
      next = event
      nextWidget = w
    }
  }

  /// Widget `w`'s pending action is taken (it is due) or superseded:
  /// nothing is pending any more.
  @inline(__always)
  mutating package func take(_ w: Int) {
    slot[w] = .vacant
    if w == nextWidget { findNext() }
  }

  /// The widget reloaded at `t`: whatever was pending is superseded.
  @inline(__always)
  mutating package func reloaded(_ w: Int, at t: SimTime) {
    lastReload[w] = t
    withheld[w] = false
    take(w)
  }

  /// `next` after the earliest slot was emptied.
  @inline(__always)
  private mutating func findNext() {
    var best = Event.vacant
    var widget = -1
    // A device of one widget has nothing else pending.
    if count > 1 { scan(&best, &widget) }
    next = best
    nextWidget = widget
  }

  private func scan(_ best: inout Event, _ widget: inout Int) {
    for w in 0..<count where Event.precedes(slot[w], best) {
      best = slot[w]
      widget = w
    }
  }
}
