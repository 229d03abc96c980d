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

/// Runs a scenario's replications over `threads` threads.
///
/// Devices are handed out in fixed-size chunks from an atomic counter; each
/// thread owns a `DeviceWorker` and its tallies, and the tallies (integers
/// only) are summed at the end, so the results are byte-identical whatever
/// the thread count or the order chunks finish in.
enum ExperimentRunner {
  static let chunkSize = 256

  static func run(_ scenario: Scenario, threads: Int, progress: ProgressLine?) -> RunOutcome {
    let clock = ContinuousClock()
    var outcome = RunOutcome(replications: [], events: 0, setupSeconds: 0, simulationSeconds: 0, mergeSeconds: 0)
    let totalWork = Double(scenario.devices * scenario.replications)
    for r in 0..<scenario.replications {
      let t0 = clock.now
      let prepared = PreparedScenario(scenario, replication: r)
      let t1 = clock.now
      let chunks = (scenario.devices + chunkSize - 1) / chunkSize
      let next = ChunkCounter()
      let box = TallyBox()
      let workers = max(1, min(threads, chunks))
      let doneBefore = Double(r * scenario.devices)
      DispatchQueue.concurrentPerform(iterations: workers) { _ in
        var worker = DeviceWorker(prepared)
        while true {
          let c = next.take()
          guard c < chunks else { break }
          let lo = c * chunkSize
          let hi = min(scenario.devices, lo + chunkSize)
          worker.simulate(devices: lo..<hi)
          let done = next.finished(hi - lo)
          if let progress {
            let fraction = (doneBefore + Double(done)) / totalWork
            progress.update(fraction: fraction, simulatedDays: fraction * scenario.days * Double(scenario.replications))
          }
        }
        box.add(worker.tallies)
      }
      let t2 = clock.now
      let merged = box.merged()
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
}

/// Hands out chunk indices and counts finished devices.
final class ChunkCounter: Sendable {
  private let nextChunk = Atomic<Int>(0)
  private let devicesDone = Atomic<Int>(0)
  func take() -> Int { nextChunk.add(1, ordering: .relaxed).oldValue }
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

  /// The sum of every part (integer addition: order does not matter).
  /// The threads are done, so the first part's blocks absorb the others.
  func merged() -> [StrategyTally] {
    lock.lock()
    defer { lock.unlock() }
    let total = parts[0]
    for p in parts.dropFirst() {
      for s in total.indices { total[s].merge(p[s]) }
    }
    parts = []
    return total
  }
}
