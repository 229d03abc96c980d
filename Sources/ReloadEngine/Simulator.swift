/// The kernel of a discrete-event simulation: a clock and a pending-event
/// set, with the five verbs of SimPy's `Environment` (`now`, `schedule`,
/// `peek`, `step`, `run(until:)`).
///
/// The simulator never interprets an event: `step(before:)` hands the next
/// one back and the model dispatches on its payload with a `switch`. That
/// keeps the hot loop free of closures and existentials.
///
///     var sim = Simulator()
///     sim.schedule(payload: 7, at: .zero + .minutes(5))
///     while let event = sim.step(before: .zero + .hours(1)) {
///       // switch on event.payload ...
///     }
///
/// - Important: `now` never goes backwards: scheduling an event before `now`
///   is a programming error and traps with the offending times.
@frozen
public struct Simulator<Queue: EventSet> {
  /// The pending events.
  @usableFromInline internal var _queue: Queue
  @usableFromInline internal var _now: SimTime
  /// The current simulated time: the time of the last event handed out.
  @inlinable public var now: SimTime { _now }
  @usableFromInline internal var _nextSeq: UInt32
  /// The event `step` last handed out is still the queue's root: the first
  /// event scheduled while it is handled takes its place (one sift, with
  /// `replaceMin`, instead of a pop and an insert), and the next `step`
  /// pops it if nothing did. NOTE: for performance: most events schedule
  /// exactly one successor (a request its execution, an execution the next
  /// request), and this halves their queue work.
  @usableFromInline internal var _handling: Bool

  @inlinable
  public init(queue: Queue = Queue(), start: SimTime = .zero) {
    _queue = queue
    _now = start
    _nextSeq = 0
    _handling = false
  }

  /// The number of pending events.
  @inlinable
  public var pendingCount: Int { _handling ? _queue.count &- 1 : _queue.count }

  /// Drops the handed-out event if it is still the queue's root.
  @inlinable @inline(__always)
  mutating func _dropHandled() {
    if _handling {
      _handling = false
      _ = _queue.popMin()
    }
  }

  /// Clears all pending events and moves the clock back to `start`, keeping
  /// the storage, so one simulator can be reused for many small runs.
  @inlinable
  public mutating func reset(to start: SimTime = .zero) {
    _queue.removeAll(keepingCapacity: true)
    _now = start
    _nextSeq = 0
    _handling = false
  }

  /// Schedules an event with `payload` at `time`.
  ///
  /// Events at the same time and `priority` are handed out in the order they
  /// were scheduled.
  ///
  /// - Precondition: `time >= now`.
  /// - Complexity: O(log n)
  @inlinable @inline(__always)
  public mutating func schedule(payload: UInt32, at time: SimTime, priority: UInt8 = 0) {
    precondition(time >= now, "cannot schedule an event at \(time), before now (\(now))")
    let event = Event(time: time, priority: priority, seq: _nextSeq, payload: payload)
    if _handling {
      _handling = false
      _ = _queue.replaceMin(with: event)
    } else {
      _queue.insert(event)
    }
    _nextSeq &+= 1
  }

  /// The next event, without removing it.
  @inlinable
  public mutating func peek() -> Event? {
    _dropHandled()
    return _queue.min
  }

  /// Removes the next event if it happens before `end`, advances `now` to its
  /// time and returns it; returns `nil` (and leaves the clock alone) when no
  /// event is due before `end`. Events exactly at `end` are not handed out.
  ///
  /// - Complexity: O(log n)
  @inlinable @inline(__always)
  public mutating func step(before end: SimTime) -> Event? {
    step(before: end, or: .vacant)
  }

  /// The sequence number of an event at `time` that the model keeps
  /// outside the queue, in a slot of its own (see `step(before:or:)`): it
  /// is numbered as `schedule` would number it, so it takes the same place
  /// among the queue's events.
  ///
  /// - Precondition: `time >= now`.
  @inlinable @inline(__always)
  public mutating func sequence(at time: SimTime) -> UInt32 {
    precondition(time >= now, "cannot schedule an event at \(time), before now (\(now))")
    let seq = _nextSeq
    _nextSeq &+= 1
    return seq
  }

  /// `step(before:)` with one more candidate: `other`, the earliest event
  /// the model keeps outside the queue (`Event.vacant` when it has none),
  /// numbered with `sequence(at:)`. Whichever comes first in (time,
  /// priority, seq) order is handed out; when it is `other`, the queue is
  /// left alone and the model takes the event out of its slot.
  ///
  /// An entity with exactly one pending event at a time (a widget's next
  /// reload, a lifecycle's next change) is cheaper in a slot than in the
  /// queue: replacing the event leaves no stale one behind to pop and
  /// ignore later, and handing it out costs a compare, not a pop (NOTE:
  /// for performance).
  @inlinable @inline(__always)
  public mutating func step(before end: SimTime, or other: Event) -> Event? {
    _dropHandled()
    if let next = _queue.min, Event.precedes(next, other) {
      guard next.time < end else { return nil }
      _now = next.time
      _handling = true
      return next
    }
    guard !other.isVacant && other.time < end else { return nil }
    _now = other.time
    return other
  }

  /// Removes the next event, whatever its time, and advances `now`.
  @inlinable
  public mutating func step() -> Event? { step(before: .never) }

  /// Hands every event before `until` to `handler` in order, then sets `now`
  /// to `until`. An event exactly at `until` is not processed (it stays
  /// pending), so `run(until: a)` then `run(until: b)` processes the same
  /// events as `run(until: b)`.
  ///
  /// - Precondition: `until > now`, as in SimPy.
  @inlinable
  public mutating func run<H: EventHandler>(until: SimTime, handler: inout H) {
    precondition(
      until > now,
      "until (\(until)) must be later than the current simulation time (\(now))")
    while let event = step(before: until) {
      handler.handle(event, in: &self)
    }
    _now = until
  }
}

/// A model that reacts to events handed out by `Simulator.run(until:handler:)`.
///
/// The run loop is generic over the handler, so the call is specialized and
/// inlined: no existential per event.
public protocol EventHandler {
  mutating func handle<Q: EventSet>(_ event: Event, in simulator: inout Simulator<Q>)
}
