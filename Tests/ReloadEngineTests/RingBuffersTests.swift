import Testing

import ReloadEngine

@Suite struct RingBuffersTests {
  @Test func keepsTheLastCapacityTimesPerRing() {
    var rings = RingBuffers(rings: 3, capacity: 4)
    for t in 1...10 { rings.append(SimTime(milliseconds: Int64(t)), to: 1) }
    rings.append(SimTime(milliseconds: 100), to: 2)
    #expect(rings.count(of: 0) == 0)
    #expect(rings.count(of: 1) == 4)
    #expect(rings.count(of: 2) == 1)
    #expect(rings.newest(of: 1).milliseconds == 10)
    #expect(rings.oldest(of: 1).milliseconds == 7)
    #expect((0..<4).map { rings.time(ofRing: 1, fromNewest: $0).milliseconds } == [10, 9, 8, 7])
    #expect(rings.oldest(of: 2).milliseconds == 100)
  }

  /// Against a plain array per ring, over many seeds, with interleaved rings.
  @Test func matchesPerRingArraysForManySeeds() {
    for seed in UInt64(0)..<300 {
      var rng = Xoshiro256StarStar(seed: seed)
      let ringCount = 1 + rng.nextIndex(below: 5)
      let capacity = 1 + rng.nextIndex(below: 9)
      var rings = RingBuffers(rings: ringCount, capacity: capacity)
      var reference = Array(repeating: [Int64](), count: ringCount)
      var clock = Array(repeating: Int64(0), count: ringCount)
      for _ in 0..<200 {
        let r = rng.nextIndex(below: ringCount)
        clock[r] += Int64(rng.nextIndex(below: 4))  // repeats allowed
        rings.append(SimTime(milliseconds: clock[r]), to: r)
        reference[r].append(clock[r])
        let kept = Array(reference[r].suffix(capacity))
        #expect(rings.count(of: r) == kept.count)
        #expect(rings.oldest(of: r).milliseconds == kept.first)
        let probe = Int64(rng.nextIndex(below: Int(clock[r]) + 2)) - 1
        #expect(
          rings.countNewer(than: SimTime(milliseconds: probe), in: r) == kept.filter { $0 > probe }.count,
          "seed \(seed) ring \(r) probe \(probe)")
      }
    }
  }

  @Test func resetEmptiesAndResizes() {
    var rings = RingBuffers(rings: 2, capacity: 2)
    rings.append(SimTime(milliseconds: 1), to: 0)
    rings.reset(rings: 5, capacity: 3)
    #expect(rings.ringCount == 5 && rings.capacity == 3)
    #expect((0..<5).allSatisfy { rings.count(of: $0) == 0 })
    rings.append(SimTime(milliseconds: 2), to: 4)
    #expect(rings.oldest(of: 4).milliseconds == 2)
  }
}
