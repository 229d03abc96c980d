import Foundation
import ReloadReports
import WidgetModel

/// `run --shard K/N` and `sweep --shard K/N`: simulate one shard of a job
/// and write its partial result (`PartialFile`) into the job's folder.
enum Shards {
  /// Runs `shard` of `job` and writes `shard-K-of-N.rbpart`; returns its path.
  @discardableResult
  static func run(_ job: RunCommand.Job, _ shard: ShardSpec, pipeline: Pipeline) throws(CLIError) -> String {
    let loaded = job.loaded
    let scenario = loaded.scenario
    let clock = ContinuousClock()
    let start = clock.now
    var body: [UInt8] = []
    var header = PartialHeader(
      kind: job.points == nil ? .run : .sweep, modelVersion: ReloadBenchCLI.modelVersion,
      toolVersion: ReloadBenchCLI.version, scenario: scenario.name, scenarioSHA256: ScenarioHash.sha256(loaded.json),
      seed: scenario.seed, replications: scenario.replications, engine: scenario.engine.rawValue, shard: shard.number,
      shardCount: shard.count, devices: nil, points: nil, scenarioJSON: loaded.json.jsonText, bodyBytes: 0)
    pipeline.warnAboutBuild()
    if let plans = job.points {
      let mine = shard.points(of: plans.count)
      header.points = mine
      let header = pipeline.announce(
        mine.map { plans[$0].scenario }, name: scenario.name, what: "\(scenario.name) shard \(shard.text)")
      for p in mine {
        let label = "\(scenario.name) shard \(shard.text) point \(p + 1)/\(plans.count)"
        let outcome = pipeline.simulate(plans[p].scenario, label: label, header: header)
        TallyCoder.put(UInt64(p), &body)
        for r in outcome.replications { TallyCoder.encode(r, into: &body) }
      }
    } else {
      let blocks = shard.deviceBlocks(devices: scenario.devices)
      header.devices = blocks.reduce(0) { $0 + $1.count }
      var part = scenario
      part.devices = header.devices ?? scenario.devices
      let label = "\(scenario.name) shard \(shard.text)"
      let runHeader = pipeline.announce([part], name: scenario.name, what: label)
      let progress = ProgressLine(label: label, quiet: pipeline.options.quiet, header: runHeader)
      let outcome = ShardRunner.run(scenario, shard: shard, threads: pipeline.options.threads, progress: progress)
      for r in outcome.replications { TallyCoder.encode(r, into: &body) }
    }
    let bytes = PartialFile.encode(header, body: body)
    try OutputWriter.write([(name: shard.fileName, data: Data(bytes))], to: job.directory)
    let path = (job.directory as NSString).appendingPathComponent(shard.fileName)
    if !pipeline.options.quiet {
      let what =
        header.points.map { "\($0.count) of \(NumberFormat.count(job.points?.count ?? 0, "sweep point"))" }
        ?? "\(header.devices ?? 0) of \(NumberFormat.count(scenario.devices, "device"))"
      Terminal.out(
        String(
          format: "%@: shard %@ (%@) in %.2f s; wrote %@ (%@ bytes). Merge the %d parts with 'reloadbench merge'.\n",
          scenario.name, shard.text, what, ProgressLine.seconds(clock.now - start), path, String(bytes.count),
          shard.count))
    }
    return path
  }

  /// What `--dry-run` adds for a shard.
  static func plan(_ job: RunCommand.Job, _ shard: ShardSpec) -> String {
    let what =
      job.points.map { "\(shard.points(of: $0.count).count) of \(NumberFormat.count($0.count, "sweep point"))" }
      ?? "\(shard.deviceBlocks(devices: job.loaded.scenario.devices).reduce(0) { $0 + $1.count }) of "
      + NumberFormat.count(job.loaded.scenario.devices, "device")
    return "  shard \(shard.text): \(what); writes \(job.directory)/\(shard.fileName)"
  }
}
