import Testing

import ReloadEngine

/// Pops everything from `queue` and returns the events in order.
private func drain<Q: EventSet>(_ queue: inout Q) -> [Event] {
  var out: [Event] = []
  while let e = queue.popMin() { out.append(e) }
  return out
}

/// A reference order: sort by (time, priority, seq).
private func sortedReference(_ events: [Event]) -> [Event] {
  events.sorted { ($0.time, $0.priority, $0.seq) < ($1.time, $1.priority, $1.seq) }
}

private func randomEvents(seed: UInt64, count: Int, timeRange: Int64) -> [Event] {
  var rng = Xoshiro256StarStar(seed: seed)
  return (0..<count).map { i in
    Event(
      time: SimTime(milliseconds: Int64(rng.nextIndex(below: Int(timeRange)))),
      priority: UInt8(rng.nextIndex(below: 3)),
      seq: UInt32(i), payload: UInt32(truncatingIfNeeded: rng.next()))
  }
}

@Suite struct EventQueueTests {
  @Test func quaternaryHeapPopsInSortedOrderForManySeeds() {
    for seed in UInt64(0)..<400 {
      // Few distinct times, so ties are common and FIFO order is exercised.
      let events = randomEvents(seed: seed, count: Int(seed % 97) + 1, timeRange: 8)
      var q = QuaternaryHeap()
      for e in events { q.insert(e) }
      #expect(drain(&q) == sortedReference(events), "seed \(seed)")
    }
  }

  @Test func binaryHeapPopsInSortedOrderForManySeeds() {
    for seed in UInt64(0)..<400 {
      let events = randomEvents(seed: seed, count: Int(seed % 97) + 1, timeRange: 8)
      var q = BinaryHeap()
      for e in events { q.insert(e) }
      #expect(drain(&q) == sortedReference(events), "seed \(seed)")
    }
  }

  @Test func sameTimeAndPriorityComeOutFirstInFirstOut() {
    var q = QuaternaryHeap()
    for i in 0..<50 { q.insert(Event(time: SimTime(milliseconds: 5), seq: UInt32(i), payload: UInt32(i))) }
    #expect(drain(&q).map(\.payload) == Array(0..<50).map(UInt32.init))
  }

  @Test func lowerPriorityClassComesFirstAtTheSameMillisecond() {
    var q = BinaryHeap()
    q.insert(Event(time: SimTime(milliseconds: 5), priority: 2, seq: 0, payload: 2))
    q.insert(Event(time: SimTime(milliseconds: 5), priority: 0, seq: 1, payload: 0))
    q.insert(Event(time: SimTime(milliseconds: 4), priority: 9, seq: 2, payload: 9))
    #expect(drain(&q).map(\.payload) == [9, 0, 2])
  }

  /// The hold operation (replace the minimum) interleaved with inserts and
  /// pops gives the same sequence in both heaps and in a sorted array.
  @Test func holdOperationMatchesReferenceInBothHeaps() {
    for seed in UInt64(0)..<200 {
      var rng = Xoshiro256StarStar(seed: seed)
      var four = QuaternaryHeap()
      var two = BinaryHeap()
      var reference: [Event] = []
      var seq: UInt32 = 0
      var now: Int64 = 0
      for _ in 0..<300 {
        let op = rng.nextIndex(below: 4)
        let e = Event(
          time: SimTime(milliseconds: now + Int64(rng.nextIndex(below: 20))), seq: seq,
          payload: seq)
        seq += 1
        if op == 0 || reference.isEmpty {
          four.insert(e)
          two.insert(e)
          reference.append(e)
        } else if op == 1 {
          reference = sortedReference(reference)
          let r = reference.removeFirst()
          #expect(four.popMin() == r)
          #expect(two.popMin() == r)
          now = r.time.milliseconds
        } else {
          reference = sortedReference(reference)
          let r = reference.removeFirst()
          reference.append(e)
          #expect(four.replaceMin(with: e) == r)
          #expect(two.replaceMin(with: e) == r)
          now = r.time.milliseconds
        }
        #expect(four.count == reference.count && two.count == reference.count)
      }
      reference = sortedReference(reference)
      #expect(drain(&four) == reference, "seed \(seed)")
      #expect(drain(&two) == reference, "seed \(seed)")
    }
  }

  @Test func eventKeepsTimeAndPriority() {
    let e = Event(time: SimTime(milliseconds: 1 << 40), priority: 7, seq: 3, payload: 4)
    #expect(e.time == SimTime(milliseconds: 1 << 40))
    #expect(e.priority == 7)
  }

  @Test func removeAllKeepsWorking() {
    var q = QuaternaryHeap()
    for i in 0..<10 { q.insert(Event(time: SimTime(milliseconds: Int64(10 - i)), seq: UInt32(i), payload: 0)) }
    q.removeAll(keepingCapacity: true)
    #expect(q.isEmpty)
    #expect(q.popMin() == nil)
    q.insert(Event(time: SimTime(milliseconds: 3), seq: 0, payload: 1))
    #expect(q.min?.payload == 1)
  }
}

@Suite struct SimulatorTests {
  @Test func stepHandsOutEventsInOrderAndAdvancesTheClock() {
    var sim = Simulator<EventQueue>()
    sim.schedule(payload: 2, at: SimTime.zero + .seconds(20))
    sim.schedule(payload: 1, at: SimTime.zero + .seconds(10))
    sim.schedule(payload: 3, at: SimTime.zero + .seconds(30))
    var seen: [UInt32] = []
    while let e = sim.step(before: SimTime.zero + .seconds(30)) {
      seen.append(e.payload)
      #expect(sim.now == e.time)
    }
    // The event exactly at the end is not handed out and stays pending.
    #expect(seen == [1, 2])
    #expect(sim.pendingCount == 1)
    #expect(sim.now == SimTime.zero + .seconds(20))
  }

  struct Chain: EventHandler {
    var handled: [SimTime] = []
    mutating func handle<Q: EventSet>(_ event: Event, in simulator: inout Simulator<Q>) {
      handled.append(event.time)
      simulator.schedule(payload: 0, at: simulator.now + .minutes(15))
    }
  }

  @Test func runUntilProcessesEventsBeforeTheEndAndMovesTheClockThere() {
    var sim = Simulator<BinaryHeap>()
    sim.schedule(payload: 0, at: .zero)
    var chain = Chain()
    sim.run(until: SimTime.zero + .hours(1), handler: &chain)
    #expect(chain.handled.map(\.milliseconds) == [0, 900_000, 1_800_000, 2_700_000])
    #expect(sim.now == SimTime.zero + .hours(1))
    // Running on picks up the event at exactly 1 h.
    sim.run(until: SimTime.zero + .hours(2), handler: &chain)
    #expect(chain.handled.count == 8)
  }

  /// The event being handled stays the queue's root until something is
  /// scheduled (it then takes its place) or the next step: whatever a
  /// handler schedules (nothing, one event, several, some at `now`), the
  /// events come out in (time, priority, seq) order and `pendingCount`
  /// never counts the event being handled.
  @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
  func schedulingWhileHandlingKeepsTheOrder(seed: UInt64) {
    var rng = Xoshiro256StarStar(seed: seed)
    var sim = Simulator<EventQueue>()
    var pending: [Event] = []  // the reference: every event not yet handed out
    var seq: UInt32 = 0
    func add(_ sim: inout Simulator<EventQueue>, at t: SimTime, priority: UInt8) {
      sim.schedule(payload: seq, at: t, priority: priority)
      pending.append(Event(time: t, priority: priority, seq: seq, payload: seq))
      seq += 1
    }
    for _ in 0..<8 { add(&sim, at: SimTime(milliseconds: Int64(rng.next() % 100)), priority: UInt8(rng.next() % 3)) }
    var handled = 0
    while let e = sim.step(before: SimTime(milliseconds: 5_000)) {
      let expected = sortedReference(pending)[0]
      #expect(e == expected)
      pending.removeAll { $0.seq == e.seq }
      #expect(sim.pendingCount == pending.count)
      let successors = handled < 400 ? Int(rng.next() % 4) : 0  // 0 to 3, some at the same millisecond
      for _ in 0..<successors {
        add(&sim, at: sim.now + .milliseconds(Int64(rng.next() % 50)), priority: UInt8(rng.next() % 3))
        #expect(sim.pendingCount == pending.count)
      }
      handled += 1
    }
    #expect(handled > 400)
    #expect(pending.allSatisfy { $0.time >= SimTime(milliseconds: 5_000) })
    #expect(sim.pendingCount == pending.count)
    #expect(sim.peek() == sortedReference(pending).first)
  }

  /// An event kept in a slot of the model's (numbered with
  /// `sequence(at:)`, handed out by `step(before:or:)`) comes out exactly
  /// where the queue would have handed it out, and moving or emptying the
  /// slot is the same as leaving a superseded event in the queue to be
  /// ignored: the two simulators below see the same events in the same
  /// order, ties at one millisecond included.
  @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
  func aSlotEventTakesItsQueuePlace(seed: UInt64) {
    var rng = Xoshiro256StarStar(seed: seed)
    var queued = Simulator<EventQueue>()  // everything in the queue
    var slotted = Simulator<EventQueue>()  // the slot's event outside it
    var slot = Event.vacant
    var current: UInt32? = nil  // `queued`: the seq of the slot's live event
    let slotBit: UInt32 = 1 << 31
    let end = SimTime(milliseconds: 5_000)
    var handled = 0
    var fromSlot = 0
    func act(_ rng: inout Xoshiro256StarStar) {
      let now = slotted.now
      for _ in 0..<(1 + Int(rng.next() % 2)) {
        let t = now + .milliseconds(Int64(rng.next() % 40))
        let priority = UInt8(rng.next() % 3)
        switch rng.next() % 3 {
        case 0, 1:
          queued.schedule(payload: 0, at: t, priority: priority)
          slotted.schedule(payload: 0, at: t, priority: priority)
        default:
          // The slot moves only to an earlier event, as a widget's pending reload does.
          let seq = slotted.sequence(at: t)
          let e = Event(time: t, priority: priority, seq: seq, payload: slotBit)
          if Event.precedes(e, slot) {
            slot = e
            current = seq
          }
          queued.schedule(payload: slotBit, at: t, priority: priority)
        }
      }
      if rng.next() % 50 == 0 {
        slot = .vacant
        current = nil
      }
    }
    act(&rng)
    while true {
      var expected: Event? = nil
      while let e = queued.step(before: end) {
        if e.payload & slotBit == 0 || e.seq == current { expected = e; break }
      }
      let got = slotted.step(before: end, or: slot)
      #expect(got == expected)
      guard let got else { break }
      #expect(slotted.now == got.time && queued.now == got.time)
      if got.payload & slotBit != 0 {
        fromSlot += 1
        slot = .vacant
        current = nil
      }
      handled += 1
      if handled < 2_000 { act(&rng) }
    }
    #expect(handled > 2_000 && fromSlot > 50, "\(handled) handled, \(fromSlot) from the slot")
  }

  @Test func aVacantSlotIsNeverHandedOut() {
    var sim = Simulator<EventQueue>()
    #expect(sim.step(before: .never, or: .vacant) == nil)
    sim.schedule(payload: 1, at: SimTime(milliseconds: 3))
    #expect(sim.step(before: .never, or: .vacant)?.payload == 1)
    #expect(sim.step(before: .never, or: .vacant) == nil)
  }

  @Test func resetClearsPendingEventsAndTheClock() {
    var sim = Simulator<EventQueue>()
    sim.schedule(payload: 0, at: SimTime(milliseconds: 5))
    _ = sim.step()
    sim.schedule(payload: 0, at: SimTime(milliseconds: 9))
    sim.reset()
    #expect(sim.now == .zero && sim.pendingCount == 0)
  }
}
