import WidgetModel

/// Runs one shard of a scenario: its device blocks (`ShardSpec`), every
/// replication, with `ExperimentRunner.run`. The tallies hold integers
/// only, so the sum of the shards' tallies is the single run's, bit for bit.
enum ShardRunner {
  static func run(_ scenario: Scenario, shard: ShardSpec, threads: Int, progress: ProgressLine?) -> RunOutcome {
    ExperimentRunner.run(
      scenario, blocks: shard.deviceBlocks(devices: scenario.devices), threads: threads, progress: progress)
  }
}
