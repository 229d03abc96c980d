import Dispatch
import Foundation
import ReloadEngine
import Synchronization
import WidgetModel

/// What a run produced, with its timings (the wall clock lives here, in the
/// CLI, never in the model).
struct RunOutcome {
  /// Per replication, one tally per strategy.
  var replications: [[StrategyTally]]
  var events: UInt64
  var setupSeconds: Double
  var simulationSeconds: Double
  var mergeSeconds: Double
}

/// Runs a scenario's replications over `threads` threads: all its devices,
/// or a shard's blocks of them (`ShardSpec.deviceBlocks`).
///
/// Devices are handed out in chunks (guided: large first, smaller towards
/// the end, so no thread idles long while another finishes); each
/// thread owns a `DeviceWorker` and its tallies, and the tallies (integers
/// only) are summed at the end, so the results are byte-identical whatever
/// the thread count or the order chunks finish in.
enum ExperimentRunner {
  static let chunkSize = 256

  /// Runs every replication: prepare, simulate, merge, with the time of
  /// each. `blocks` are the devices to simulate (all of them by default).
  static func run(
    _ scenario: Scenario, blocks: [Range<Int>]? = nil, threads: Int, progress: ProgressLine?
  ) -> RunOutcome {
    let clock = ContinuousClock()
    var outcome = RunOutcome(replications: [], events: 0, setupSeconds: 0, simulationSeconds: 0, mergeSeconds: 0)
    let blocks = blocks ?? [0..<scenario.devices]
    let devices = blocks.reduce(0) { $0 + $1.count }
    let totalWork = Double(max(1, devices * scenario.replications))
    for r in 0..<scenario.replications {
      let t0 = clock.now
      let prepared = PreparedScenario(scenario, replication: r)
      let t1 = clock.now
      let parts = simulate(
        prepared, blocks: blocks, threads: threads, progress: progress, doneBefore: Double(r * devices),
        totalWork: totalWork)
      let t2 = clock.now
      let merged = merge(parts)
      for s in merged { for g in s.segments { outcome.events &+= g.events } }
      outcome.replications.append(merged)
      let t3 = clock.now
      outcome.setupSeconds += ProgressLine.seconds(t1 - t0)
      outcome.simulationSeconds += ProgressLine.seconds(t2 - t1)
      outcome.mergeSeconds += ProgressLine.seconds(t3 - t2)
    }
    progress?.finish()
    return outcome
  }

  /// The simulate stage of one replication: the devices of `blocks` (every
  /// device by default), over up to `threads` threads. Returns each
  /// thread's own tallies (one part per thread that ran), to be summed by
  /// `merge`.
  static func simulate(
    _ prepared: PreparedScenario, blocks: [Range<Int>]? = nil, threads: Int, progress: ProgressLine?,
    doneBefore: Double = 0, totalWork: Double? = nil
  ) -> [[StrategyTally]] {
    let scenario = prepared.scenario
    let next = ChunkCounter(blocks: blocks ?? [0..<scenario.devices], threads: threads, largest: chunkSize)
    let totalWork = totalWork ?? Double(max(1, next.devices))
    let chunks = (next.devices + chunkSize - 1) / chunkSize
    let box = TallyBox()
    let workers = max(1, min(threads, chunks))
    DispatchQueue.concurrentPerform(iterations: workers) { _ in
      var worker = DeviceWorker(prepared)
      while true {
        guard let range = next.take() else { break }
        let lo = range.lowerBound
        let hi = range.upperBound
        worker.simulateBuffered(devices: lo..<hi)
        let done = next.finished(hi - lo)
        if let progress {
          let fraction = (doneBefore + Double(done)) / totalWork
          progress.update(fraction: fraction, deviceDays: (doneBefore + Double(done)) * scenario.days)
        }
      }
      worker.flush()
      box.add(worker.tallies)
    }
    return box.take()
  }

  /// The merge stage: the sum of every thread's tallies (integer addition,
  /// so the order does not matter). The first part's blocks absorb the others.
  static func merge(_ parts: [[StrategyTally]]) -> [StrategyTally] {
    let total = parts[0]
    for p in parts.dropFirst() {
      for s in total.indices { total[s].merge(p[s]) }
    }
    return total
  }
}

/// Hands out ranges of devices, in order, from a list of blocks, and
/// counts finished ones. A range is an eighth of what is left per thread,
/// between 16 and `largest` devices, and never crosses a block's end.
final class ChunkCounter: Sendable {
  /// The next block and the first device of it not yet handed out; the
  /// devices handed out so far.
  private struct Position {
    var block = 0
    var start: Int
    var handedOut = 0
  }
  private let position: Mutex<Position>
  private let devicesDone = Atomic<Int>(0)
  private let blocks: [Range<Int>]
  /// The devices in all the blocks.
  let devices: Int
  private let threads: Int
  private let largest: Int

  init(blocks: [Range<Int>], threads: Int, largest: Int) {
    self.blocks = blocks.filter { !$0.isEmpty }
    self.devices = self.blocks.reduce(0) { $0 + $1.count }
    self.position = Mutex(Position(start: self.blocks.first?.lowerBound ?? 0))
    self.threads = max(1, threads)
    self.largest = largest
  }

  func take() -> Range<Int>? {
    position.withLock { p in
      guard p.block < blocks.count else { return nil }
      let size = min(largest, max(16, (devices - p.handedOut) / (threads * 8)))
      let end = min(blocks[p.block].upperBound, p.start + size)
      let range = p.start..<end
      p.handedOut += range.count
      if end == blocks[p.block].upperBound {
        p.block += 1
        if p.block < blocks.count { p.start = blocks[p.block].lowerBound }
      } else {
        p.start = end
      }
      return range
    }
  }

  func finished(_ n: Int) -> Int { devicesDone.add(n, ordering: .relaxed).newValue }
}

/// Collects each thread's tallies.
final class TallyBox: @unchecked Sendable {
  private let lock = NSLock()
  private var parts: [[StrategyTally]] = []

  func add(_ tallies: [StrategyTally]) {
    lock.lock()
    parts.append(tallies)
    lock.unlock()
  }

  /// Every part, handed over once the threads are done.
  func take() -> [[StrategyTally]] {
    lock.lock()
    defer { lock.unlock() }
    defer { parts = [] }
    return parts
  }
}
