import ReloadEngine

/// The device's next change from each lifecycle played back from its
/// pre-drawn arrays: app sessions, audio sessions and Low Power Mode.
///
/// Each lifecycle always has exactly one change ahead (the end of the
/// current session, or the start of the next), so, like a widget's pending
/// reload (`PendingReloads`), it waits in a slot of its own beside the
/// queue, numbered by the queue (`Simulator.sequence(at:)`) so that it
/// keeps its place among the queue's events; `next` is the earliest, which
/// the run loop hands out when it comes first (`Simulator.step(before:or:)`).
/// NOTE: for performance: on `fleet-1m` these changes are a third of the
/// device's events, and a slot costs a compare where the queue cost an
/// insert and a pop.
package struct LifecycleSlots {

  package init() {}
  /// The three lifecycles.
  package enum Lifecycle {
    case session, audio, lowPower
  }

  private var session = Event.vacant
  private var audio = Event.vacant
  private var lowPower = Event.vacant
  /// The earliest of the three (`Event.vacant`: none).
  package private(set) var next = Event.vacant

  /// No change ahead (a new device).
  mutating package func reset() {
    session = .vacant
    audio = .vacant
    lowPower = .vacant
    next = .vacant
  }

  /// `lifecycle`'s next change is `kind` at `t`; it replaces the one that
  /// was just handed out.
  @inline(__always)
  mutating package func set(
    _ lifecycle: Lifecycle, _ kind: DeviceEvent, at t: SimTime, on queue: inout Simulator<EventQueue>
  ) {
    let event = Event(
      time: t, priority: DeviceEvent.modelPriority, seq: queue.sequence(at: t),
      payload: DeviceEvent.pack(kind, index: 0))
    update(lifecycle, event)
  }

  /// `lifecycle` has no change ahead (its last one was handed out).
  @inline(__always)
  mutating package func end(_ lifecycle: Lifecycle) {
    update(lifecycle, .vacant)
  }

  @inline(__always)
  private mutating func update(_ lifecycle: Lifecycle, _ event: Event) {
    switch lifecycle {
    case .session: session = event
    case .audio: audio = event
    case .lowPower: lowPower = event
    }
    let first = Event.precedes(session, audio) ? session : audio
    next = Event.precedes(first, lowPower) ? first : lowPower
  }
}
