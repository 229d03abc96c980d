/// The classic hold model for measuring event sets (Jones, "An empirical
/// comparison of priority-queue and event-set implementations", CACM 1986):
/// fill the set with `size` events, then repeatedly remove the first and
/// insert it again at its time plus a random increment.
///
///     let checksum = HoldModel.run(QuaternaryHeap.self, size: 10_000, holds: 1_000_000, seed: 1)
///
/// Returns a checksum of the popped times, so the work cannot be optimized
/// away and two event sets can be checked to pop the same sequence.
public enum HoldModel {
  @inlinable
  public static func run<Q: EventSet>(_ type: Q.Type, size: Int, holds: Int, seed: UInt64) -> UInt64 {
    // An empty set has no first event to hold (callers check; this keeps it from trapping).
    guard size > 0, holds >= 0 else { return 0 }
    var rng = Xoshiro256StarStar(seed: seed)
    var queue = Q()
    queue.reserveCapacity(size)
    var seq: UInt32 = 0
    // Exponential increments with mean 1 s, in ms.
    for _ in 0..<size {
      let t = SimTime(milliseconds: Int64(rng.nextStandardExponential() * 1000))
      queue.insert(Event(time: t, seq: seq, payload: seq))
      seq &+= 1
    }
    var checksum: UInt64 = 0
    for _ in 0..<holds {
      let first = queue.min.unsafelyUnwrapped
      let next = Event(
        time: first.time + .milliseconds(Int64(rng.nextStandardExponential() * 1000)), seq: seq,
        payload: first.payload)
      seq &+= 1
      _ = queue.replaceMin(with: next)
      checksum = checksum &* 31 &+ UInt64(first.time.milliseconds) &+ UInt64(first.payload)
    }
    return checksum
  }
}
