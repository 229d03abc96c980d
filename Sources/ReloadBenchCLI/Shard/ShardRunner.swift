import Dispatch
import Foundation
import Synchronization
import WidgetModel

/// Runs one shard of a scenario: its device blocks (`ShardSpec`), every
/// replication, over `threads` threads, like `ExperimentRunner.run` does
/// for all devices. Each thread owns a `DeviceWorker`; the tallies hold
/// integers only and are summed with `ExperimentRunner.merge`, so the sum
/// of the shards' tallies is the single run's, bit for bit.
enum ShardRunner {
  static func run(_ scenario: Scenario, shard: ShardSpec, threads: Int, progress: ProgressLine?) -> RunOutcome {
    let clock = ContinuousClock()
    var outcome = RunOutcome(replications: [], events: 0, setupSeconds: 0, simulationSeconds: 0, mergeSeconds: 0)
    let blocks = shard.deviceBlocks(devices: scenario.devices)
    let shardDevices = blocks.reduce(0) { $0 + $1.count }
    let totalWork = Double(max(1, shardDevices * scenario.replications))
    for r in 0..<scenario.replications {
      let t0 = clock.now
      let prepared = PreparedScenario(scenario, replication: r)
      let t1 = clock.now
      let next = Atomic<Int>(0)
      let done = Atomic<Int>(0)
      let box = TallyBox()
      let doneBefore = r * shardDevices
      DispatchQueue.concurrentPerform(iterations: max(1, min(threads, blocks.count))) { _ in
        var worker = DeviceWorker(prepared)
        while true {
          let b = next.add(1, ordering: .relaxed).oldValue
          guard b < blocks.count else { break }
          worker.simulate(devices: blocks[b])
          let finished = done.add(blocks[b].count, ordering: .relaxed).newValue
          if let progress {
            let fraction = Double(doneBefore + finished) / totalWork
            progress.update(fraction: fraction, simulatedDays: fraction * scenario.days * Double(scenario.replications))
          }
        }
        box.add(worker.tallies)
      }
      let t2 = clock.now
      let merged = ExperimentRunner.merge(box.take())
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
