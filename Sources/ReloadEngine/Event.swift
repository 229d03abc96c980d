/// A scheduled occurrence in a simulation: a small plain value.
///
/// Events are ordered by time, then by a priority class, then by their
/// sequence number. The sequence number comes from a counter that only goes
/// up, so events with the same time and class come out in the order they
/// were scheduled (FIFO), and a run is reproducible whatever queue holds it.
/// This is the `(readyTime, id)` order of SwiftNIO's `ScheduledTask` and the
/// `(time, priority, eid)` order of SimPy, with time in integer milliseconds.
///
/// What an event *means* is the model's business: `payload` is 32 opaque bits
/// that the model packs (kind, entity, generation). Dispatch is a `switch` on
/// the unpacked kind, never a closure or an existential per event.
///
/// - Important: `time` must be in `0 ..< 2^55` ms (about a million years) and
///   `priority` fits 8 bits; both are folded into one 64-bit key so that the
///   comparison is two integer compares.
@frozen
public struct Event: Sendable, Equatable {
  /// `(time << 8) | priority`.
  @usableFromInline internal var key: UInt64
  /// `seq << 32 | payload`: the tie-break among equal keys (lower was
  /// scheduled first; sequence numbers are unique in a run, so the payload
  /// never decides), kept as one word so that a comparison is one 128-bit
  /// compare of two words, with no shifts (NOTE: for performance: the
  /// heap compares several times an event).
  @usableFromInline internal var tie: UInt64

  /// Tie-break among equal keys: lower was scheduled first.
  @inlinable public var seq: UInt32 {
    get { UInt32(truncatingIfNeeded: tie >> 32) }
    set { tie = UInt64(newValue) << 32 | (tie & 0xFFFF_FFFF) }
  }

  /// The model's data for this event (kind, entity, generation, ...).
  @inlinable public var payload: UInt32 {
    get { UInt32(truncatingIfNeeded: tie) }
    set { tie = (tie & ~0xFFFF_FFFF) | UInt64(newValue) }
  }

  @inlinable @inline(__always)
  public init(time: SimTime, priority: UInt8 = 0, seq: UInt32, payload: UInt32) {
    assert(time.milliseconds >= 0 && time.milliseconds < (1 << 55), "event time out of range: \(time)")
    self.key = UInt64(truncatingIfNeeded: time.milliseconds) << 8 | UInt64(priority)
    self.tie = UInt64(seq) << 32 | UInt64(payload)
  }

  @inlinable @inline(__always)
  public var time: SimTime { SimTime(milliseconds: Int64(truncatingIfNeeded: key >> 8)) }

  /// Later than every event: an empty slot, which `Simulator.step(before:or:)`
  /// never hands out.
  @inlinable @inline(__always)
  public static var vacant: Event { Event(key: .max, tie: .max) }

  /// `true` for `Event.vacant`.
  @inlinable @inline(__always)
  public var isVacant: Bool { key == .max }

  @usableFromInline @inline(__always)
  init(key: UInt64, tie: UInt64) {
    self.key = key
    self.tie = tie
  }

  /// The class that orders events at the same millisecond (lower first).
  @inlinable @inline(__always)
  public var priority: UInt8 { UInt8(truncatingIfNeeded: key) }

  /// `true` when `a` comes before `b`: (time, priority, seq) lexicographically
  /// (then the payload, which never decides between two events of a run).
  ///
  /// NOTE: built as one 128-bit comparison of the two words so the compiler
  /// emits a compare and a subtract-with-borrow instead of two branches, for performance.
  @inlinable @inline(__always)
  public static func precedes(_ a: Event, _ b: Event) -> Bool {
    let ka = UInt128(a.key) &<< 64 | UInt128(a.tie)
    let kb = UInt128(b.key) &<< 64 | UInt128(b.tie)
    return ka < kb
  }
}
