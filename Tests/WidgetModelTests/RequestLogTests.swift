import ReloadEngine
import ReloadMetrics
import ReloadStrategies
import Testing

import WidgetModel

/// `RequestLog` buffers (segment, second) keys and adds them to the
/// per-second tallies stretch by stretch; the tallies must be those of
/// adding each key as it comes, whatever the log's capacity (how often it
/// flushes) and the order of the keys.
@Suite struct RequestLogTests {
  @Test(arguments: [1, 7, 4096, RequestLog.capacity(devices: 1), RequestLog.capacity(devices: 1_000_000)])
  func flushedTalliesEqualDirectCounting(capacity: Int) {
    var rng = Xoshiro256StarStar(seed: UInt64(capacity))
    for (segments, seconds) in [(1, 1), (1, 2 * 2_505_600), (4, 2_505_600), (3, 604_800), (5, 1000)] {
      let storage = _DeviceStorage()
      var log = RequestLog(storage, segments: segments, seconds: seconds, capacity: capacity)
      let logged = (0..<segments).map { _ in CounterBlock<UInt32>(count: seconds) }
      let direct = (0..<segments).map { _ in CounterBlock<UInt32>(count: seconds) }
      // Bursts on one second (a shared change), the first and last
      // seconds, and keys spread at random.
      let n = capacity < 64 ? 3_000 : 40_000
      for i in 0..<n {
        let segment = rng.nextIndex(below: segments)
        let second: Int
        switch i % 10 {
        case 0: second = 0
        case 1: second = seconds - 1
        case 2, 3: second = seconds / 2
        default: second = rng.nextIndex(below: seconds)
        }
        log.append(segment: segment, second: Int64(second), flushingInto: logged)
        direct[segment].increment(second)
      }
      log.flush(into: logged)
      #expect(log.count == 0)
      for s in 0..<segments {
        #expect(logged[s].values(0..<seconds) == direct[s].values(0..<seconds), "segment \(s) of \(segments), \(seconds) s")
      }
    }
  }

  /// A small run keeps a small log; a fleet's grows with its devices, to a cap.
  @Test func capacityGrowsWithTheDevicesToACap() {
    #expect(RequestLog.capacity(devices: 1) == 1 << 16)
    #expect(RequestLog.capacity(devices: 3_000) == 1 << 16)
    #expect(RequestLog.capacity(devices: 50_000) == 400_000)
    #expect(RequestLog.capacity(devices: 1_000_000) == 1 << 20)
    #expect(RequestLog.capacity(devices: .max) == 1 << 20)
    var last = 0
    for d in stride(from: 1, to: 300_000, by: 997) {
      let c = RequestLog.capacity(devices: d)
      #expect(c >= last && c >= 1 << 16 && c <= 1 << 20)
      last = c
    }
  }

  /// A worker handed many small ranges that flushes its logs once at the
  /// end counts what one that flushes after every range counts (requests
  /// and pushes per second, and everything else).
  @Test func bufferedRangesFlushedOnceEqualRangesFlushedEachTime() {
    var scenario = TestScenarios.r1(devices: 60, days: 3, seed: 5)
    scenario.strategies = StrategyCatalog.presets.map(\.strategy)
    let prepared = PreparedScenario(scenario)
    var each = DeviceWorker(prepared)
    var once = DeviceWorker(prepared)
    for lo in stride(from: 0, to: 60, by: 7) {
      each.simulate(devices: lo..<min(60, lo + 7))
      once.simulateBuffered(devices: lo..<min(60, lo + 7))
    }
    once.flush()
    for (a, b) in zip(each.tallies, once.tallies) {
      #expect(a.pushesPerSecond.values(0..<a.pushesPerSecond.count) == b.pushesPerSecond.values(0..<b.pushesPerSecond.count))
      for (sa, sb) in zip(a.segments, b.segments) {
        #expect(sa.perSecond.values(0..<sa.perSecond.count) == sb.perSecond.values(0..<sb.perSecond.count))
        #expect(sa.counters.values(0..<sa.counters.count) == sb.counters.values(0..<sb.counters.count))
      }
    }
    #expect(each.tallies.contains { t in t.segments.contains { $0.perSecond.values(0..<$0.perSecond.count).contains { $0 > 0 } } })
  }
}
