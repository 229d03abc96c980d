import ReloadEngine
import Testing

import WidgetModel

/// A widget's pending action waits in its slot, not in the device's queue;
/// `next` must always be the earliest of the slots in the queue's order
/// (time, priority, sequence number), or the device would handle its
/// reloads in a different order than a queue would.
@Suite struct PendingReloadsTests {
  @Test(arguments: [1, 2, 3, 5, 64])
  func nextIsTheEarliestSlot(widgets: Int) {
    var rng = Xoshiro256StarStar(seed: UInt64(widgets))
    let storage = _DeviceStorage()
    var pending = PendingReloads(widgets: 64, storage: storage)
    var queue = Simulator<EventQueue>()
    for device in 0..<20 {
      pending.reset(widgets: widgets)
      queue.reset()
      // The reference: each widget's pending (time, seq), kept directly.
      var live = [(time: SimTime, seq: UInt32)?](repeating: nil, count: widgets)
      var seq: UInt32 = 0
      var now = SimTime.zero
      for _ in 0..<400 {
        let w = rng.nextIndex(below: widgets)
        switch rng.nextIndex(below: 4) {
        case 0, 1:
          // Few distinct times, so ties between widgets are common.
          let t = now + .milliseconds(Int64(rng.nextIndex(below: 4)))
          let kind: DeviceEvent = [.policyRequest, .appRequest, .exec][rng.nextIndex(below: 3)]
          let earlier = live[w].map { t < $0.time } ?? true
          pending.set(w, kind, at: t, cause: .policy, on: &queue)
          if earlier {
            live[w] = (t, seq)
            seq += 1
          }
        case 2:
          pending.take(w)
          live[w] = nil
        default:
          now = now + .milliseconds(1)
          _ = queue.step(before: .never, or: .vacant)  // nothing queued: keeps `now`
          pending.reloaded(w, at: now)
          live[w] = nil
          #expect(pending.lastReload[w] == now)
        }
        let expected = live.indices.compactMap { i in live[i].map { (i, $0.time, $0.seq) } }
          .min { ($0.1, $0.2) < ($1.1, $1.2) }
        let next = pending.next
        if let (i, t, s) = expected {
          #expect(next.time == t && next.seq == s && DeviceEvent.unpack(next.payload).index == i, "device \(device)")
          #expect(pending.time(i) == t)
        } else {
          #expect(next.isVacant, "device \(device)")
        }
      }
    }
  }
}

/// A lifecycle's next change (app session, audio, Low Power Mode) waits in
/// a slot beside the queue; `next` must be the earliest of the three in
/// the queue's order, and each change must be numbered as the queue would
/// number it.
@Suite struct LifecycleSlotsTests {
  @Test func nextIsTheEarliestLifecycleChange() {
    var rng = Xoshiro256StarStar(seed: 7)
    var slots = LifecycleSlots()
    var queue = Simulator<EventQueue>()
    var live: [(time: SimTime, seq: UInt32)?] = [nil, nil, nil]
    var seq: UInt32 = 0
    let lifecycles: [LifecycleSlots.Lifecycle] = [.session, .audio, .lowPower]
    let kinds: [DeviceEvent] = [.sessionStart, .audioStart, .lowPowerStart]
    for step in 0..<2_000 {
      let i = rng.nextIndex(below: 3)
      if rng.nextIndex(below: 5) == 0 {
        slots.end(lifecycles[i])
        live[i] = nil
      } else {
        // Few distinct times, so ties between lifecycles are common.
        let t = SimTime(milliseconds: Int64(rng.nextIndex(below: 6)))
        slots.set(lifecycles[i], kinds[i], at: t, on: &queue)
        live[i] = (t, seq)
        seq += 1
      }
      let expected = live.indices.compactMap { j in live[j].map { (j, $0.time, $0.seq) } }
        .min { ($0.1, $0.2) < ($1.1, $1.2) }
      if let (j, t, s) = expected {
        #expect(slots.next.time == t && slots.next.seq == s, "step \(step)")
        #expect(DeviceEvent.unpack(slots.next.payload).kind == kinds[j], "step \(step)")
      } else {
        #expect(slots.next.isVacant, "step \(step)")
      }
    }
    slots.reset()
    #expect(slots.next.isVacant)
  }
}
