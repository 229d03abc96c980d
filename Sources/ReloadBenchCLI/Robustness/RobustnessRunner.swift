import ActivityModel
import Dispatch
import Foundation
import ReloadMetrics
import ReloadReports
import Synchronization
import WidgetModel

/// What a robustness run compares: a scenario's `robustness` block, or
/// its defaults (every assumption, the profiles, a sample of 1,000 devices).
struct RobustnessSpec: Equatable {
  /// Whether `run` says if its recommendation is robust.
  var enabled = true
  /// The assumptions whose alternatives run (all by default).
  var assumptions: [Assumption] = Assumption.allCases
  /// Whether the whole-model profiles run too.
  var profiles = true
  /// Devices each variant simulates when fewer than the scenario's (a
  /// sample: the scenario as drawn with that many devices); nil: every device.
  var sampleDevices: Int? = RobustnessSpec.defaultSampleDevices

  /// The sample of a robustness run unless the scenario says otherwise:
  /// enough for paired differences, small enough to stay routine.
  static let defaultSampleDevices = 1000
  /// Interleaved groups of a sample, whose paired differences give the
  /// differences' uncertainty.
  static let sampleGroups = 4

  /// Alternatives a calibration ruled out (`budget_accrual = sliding_window`,
  /// `ModelVariant.name`): not run (`reloadbench robustness --calibration`).
  var ruledOut: Set<String> = []

  /// The variants of `scenario`, in order (`ModelVariant.applies(to:)`).
  func variants(of scenario: Scenario) -> [ModelVariant] {
    ModelVariant.all(assumptions: assumptions, includeProfiles: profiles).filter {
      !ruledOut.contains($0.name) && $0.applies(to: scenario)
    }
  }
}

/// Runs a scenario under every variant of its model (`RobustnessSpec`),
/// on the same users and random streams (the scenario's seed; only the
/// model differs), and collects what each recommends.
///
/// Work is saved four ways, none of which changes a result:
/// - a variant that leaves the scenario's model as it is reuses the base;
/// - a strategy keeps its base results under a variant that changes only
///   parameters its simulation never reads (`ModelVariant.changes`, declared
///   once by `ModelParameterGroup.isRead(by:)` and tested by running such
///   pairs in full);
/// - the runs left (variant x the strategies it can change) are spread over
///   the threads one run per thread, biggest first, each run on one thread,
///   so the results do not depend on the thread count;
/// - on a sample, the groups whose differences give the uncertainty are
///   read from the counters of the same run, not simulated apart.
enum RobustnessRunner {
  /// One simulation: the base (`variant` nil) or a variant, for some strategies.
  struct Job {
    var variant: Int?
    /// Indices into the scenario's strategies.
    var strategies: [Int]
    var scenario: Scenario
  }

  /// The scenario the variants run on: the scenario itself, or a sample of
  /// `spec.sampleDevices` devices drawn as the scenario would draw them, its
  /// backend figures scaled to the same fleet.
  static func sampled(_ scenario: Scenario, _ spec: RobustnessSpec) -> Scenario {
    guard let n = spec.sampleDevices, n < scenario.devices else { return scenario }
    var s = scenario
    s.devices = n
    s.fleetDevices = scenario.fleetDevices
    return s
  }

  /// The simulations a robustness run needs: the base (unless `baseGiven`)
  /// and, per variant, the strategies it can change.
  static func jobs(_ scenario: Scenario, _ variants: [ModelVariant], baseGiven: Bool) -> [Job] {
    var jobs: [Job] = []
    if !baseGiven { jobs.append(Job(variant: nil, strategies: Array(scenario.strategies.indices), scenario: scenario)) }
    for (i, v) in variants.enumerated() {
      let model = v.patch.applied(to: scenario.model)
      if model == scenario.model { continue }
      let changed = scenario.strategies.indices.filter { v.changes(scenario.strategies[$0], under: scenario.model) }
      if changed.isEmpty { continue }
      var s = scenario
      s.model = model
      s.strategies = changed.map { scenario.strategies[$0] }
      jobs.append(Job(variant: i, strategies: changed, scenario: s))
    }
    return jobs
  }

  /// The interleaved groups of a sample of `devices` devices (blocks of
  /// 16, dealt round-robin), so each group spans every segment; empty when
  /// the run is not a sample.
  static func groups(devices: Int, sampled: Bool) -> [[Range<Int>]] {
    guard sampled else { return [] }
    let n = RobustnessSpec.sampleGroups
    var out = Array(repeating: [Range<Int>](), count: n)
    var start = 0
    var k = 0
    while start < devices {
      out[k % n].append(start..<min(devices, start + 16))
      start += 16
      k += 1
    }
    return out
  }

  /// What one job produced: the summary of all its devices, and for a
  /// sample each group's headline values (per group, per strategy of the
  /// job, per metric; nil for a metric of the per-second tallies).
  struct JobTables {
    var summary: ResultTable
    var groups: [[[Double?]]]
  }

  /// The metrics a group's values are computed for: the headline metrics
  /// read from counters (a peak per second is read from the per-second
  /// tallies, and is not a mean over devices either).
  static func groupMetric(_ m: SummaryMetric) -> Bool { m.metric.unit != .requestsPerSecond }

  /// Simulates `job` on one thread and summarises it. For a sample, the
  /// groups run one after another on one worker per replication, whose
  /// counters are read between groups: each group's headline values come
  /// from the difference, at no extra simulation (every device's
  /// simulation is independent of the others' and of their order).
  static func simulate(_ job: Job, groups: [[Range<Int>]], metrics: [SummaryMetric]) -> JobTables {
    let scenario = job.scenario
    func build(_ replications: [[StrategyTally]]) -> ResultTable {
      ResultsBuilder.build(
        scenario, replications: replications, facts: Pipeline.facts(scenario, widgets: 0), parameters: []
      ).summary
    }
    guard !groups.isEmpty else {
      return JobTables(
        summary: build(ExperimentRunner.run(scenario, threads: 1, progress: nil).replications), groups: [])
    }
    let wanted = metrics.filter(groupMetric)
    // Per group, per strategy, per segment: the counters summed over replications.
    var groupCounters: [[[CounterBlock<UInt64>]]] = []
    var replications: [[StrategyTally]] = []
    for r in 0..<scenario.replications {
      var worker = DeviceWorker(PreparedScenario(scenario, replication: r))
      var before = worker.tallies.map { $0.segments.map { CounterBlock<UInt64>(count: $0.counters.count) } }
      for (g, blocks) in groups.enumerated() {
        for b in blocks { worker.simulateBuffered(devices: b) }
        let now = worker.tallies.map { $0.segments.map { $0.counters.copy() } }
        let diff = zip(now, before).map { zip($0, $1).map(difference) }
        if r == 0 {
          groupCounters.append(diff)
        } else {
          for (s, segs) in diff.enumerated() { for (k, c) in segs.enumerated() { groupCounters[g][s][k].add(c) } }
        }
        before = now
      }
      worker.flush()
      replications.append(worker.tallies)
    }
    let tallies = replications[0]
    let groupValues = groupCounters.map { perStrategy in
      perStrategy.enumerated().map { s, counters in
        let values = ResultsBuilder.overallValues(
          scenario, like: tallies[s], counters: counters, replications: scenario.replications, metrics: wanted)
        var i = 0
        return metrics.map { m -> Double? in
          guard groupMetric(m) else { return nil }
          defer { i += 1 }
          return values[i]
        }
      }
    }
    return JobTables(summary: build(replications), groups: groupValues)
  }

  /// `a - b`, counter by counter (`a` counted everything `b` did and more).
  static func difference(_ a: CounterBlock<UInt64>, _ b: CounterBlock<UInt64>) -> CounterBlock<UInt64> {
    let out = CounterBlock<UInt64>(count: a.count)
    a.withUnsafeBufferPointer { x in
      b.withUnsafeBufferPointer { y in
        for i in x.indices where x[i] != y[i] { out.increment(i, by: x[i] &- y[i]) }
      }
    }
    return out
  }

  /// Runs the base (unless `base`, the summary of a run of exactly
  /// `sampled(scenario)`, is given: then the run is not a sample) and every
  /// variant, and compares them.
  static func run(
    _ loaded: LoadedScenario, spec: RobustnessSpec, threads: Int, quiet: Bool, base given: ResultTable? = nil
  ) -> RobustnessResults {
    let scenario = sampled(loaded.scenario, spec)
    let isSample = scenario.devices < loaded.scenario.devices
    let groups = groups(devices: scenario.devices, sampled: isSample)
    let variants = spec.variants(of: loaded.scenario)
    let jobs = jobs(scenario, variants, baseGiven: given != nil && !isSample)
    // Biggest first, so that no thread is left with a big run at the end.
    let order = jobs.indices.sorted { a, b in
      let (x, y) = (jobs[a].strategies.count, jobs[b].strategies.count)
      return x != y ? x > y : a < b
    }
    let tables = Box<JobTables>(count: jobs.count)
    let progress = ProgressLine(label: "\(loaded.scenario.name) robustness", quiet: quiet)
    let perStrategy = scenario.days * Double(scenario.devices * scenario.replications)
    let total = Double(max(1, jobs.reduce(0) { $0 + $1.strategies.count }))
    let done = Atomic<Int>(0)
    forEach(order, threads: threads) { j in
      let job = jobs[j]
      tables.set(j, simulate(job, groups: groups, metrics: RobustnessResults.headlineMetrics))
      let finished = done.add(job.strategies.count, ordering: .relaxed).newValue
      progress.update(fraction: Double(finished) / total, deviceDays: Double(finished) * perStrategy)
    }
    progress.finish()
    let byJob = tables.take()
    let base = jobs.first?.variant == nil ? byJob.first ?? nil : nil
    var variantTables: [Int: (JobTables, [Int])] = [:]
    for (j, job) in jobs.enumerated() {
      if let v = job.variant, let t = byJob[j] { variantTables[v] = (t, job.strategies) }
    }
    var results = compare(
      loaded, scenario: scenario, variants: variants,
      base: base ?? JobTables(summary: given ?? ResultTable(), groups: []), variantTables: variantTables)
    results.activities = activities(scenario, variants, threads: threads)
    return results
  }

  /// The scenario's Live Activities under the base and every reading that
  /// changes its model (the others are the base's), one simulation per
  /// thread; nil without `live_activities`.
  static func activities(_ scenario: Scenario, _ variants: [ModelVariant], threads: Int) -> ActivityRobustness? {
    guard let spec = scenario.liveActivities else { return nil }
    var runs = [scenario]
    var runOf: [Int] = []
    for v in variants {
      let model = v.patch.applied(to: scenario.model)
      if model == scenario.model {
        runOf.append(0)
        continue
      }
      var s = scenario
      s.model = model
      runOf.append(runs.count)
      runs.append(s)
    }
    let scenarios = runs
    let tables = Box<ActivityTable>(count: scenarios.count)
    forEach(Array(scenarios.indices), threads: threads) { k in
      if let t = LiveActivitySimulation.run(scenarios[k]) { tables.set(k, t) }
    }
    let names = spec.strategies.map(\.name)
    let taken = tables.take()
    let values = taken.map { $0.map { ActivityRobustness.values($0, strategies: names) } ?? [] }
    let readings = variants.enumerated().map { i, v in
      ActivityRobustness.Reading(
        name: v.name, assumption: v.assumption?.key, values: values[runOf[i]],
        best: ActivityRobustness.best(strategies: names, values: values[runOf[i]]), simulated: runOf[i] != 0)
    }
    return ActivityRobustness(
      strategies: names, base: values[0], readings: readings,
      basePeakInterval: taken[0].map { ActivityRobustness.peakIntervals($0, strategies: names) } ?? [])
  }

  /// The comparison: each variant's table is the base's with the rows of
  /// the strategies it simulated replaced; its recommendation is drawn by
  /// the scenario's rule (`Pipeline.recommend`). For a sample, each paired
  /// difference's 95 % half-width comes from the groups' differences
  /// (Student's t over the groups), except for a peak per second, which is
  /// not a mean over devices.
  static func compare(
    _ loaded: LoadedScenario, scenario: Scenario, variants: [ModelVariant], base: JobTables,
    variantTables: [Int: (JobTables, [Int])]
  ) -> RobustnessResults {
    let names = scenario.strategies.map(\.name)
    let metrics = RobustnessResults.headlineMetrics
    func values(_ table: ResultTable) -> [[Double?]] {
      names.map { name in
        let row = table.row(strategy: name)
        return metrics.map { m in row.flatMap { table.value(m, in: $0) } }
      }
    }
    let baseValues = values(base.summary)
    // The base job ran every strategy, so its groups' strategies are the scenario's.
    let baseGroups = base.groups
    let baseRecommendation = Pipeline.recommend(base.summary, objective: loaded.objective).0
    var out: [RobustnessResults.Variant] = []
    for (i, v) in variants.enumerated() {
      var table = base.summary
      var simulated = Array(repeating: false, count: names.count)
      var halfWidths: [[Double?]]? = baseGroups.isEmpty ? nil : names.map { _ in metrics.map { _ in 0 } }
      if let (t, strategies) = variantTables[i] {
        for s in strategies { simulated[s] = true }
        // Rows in the scenario's order, as the recommendation's ties expect.
        table.rows = names.indices.flatMap { s in
          (simulated[s] ? t.summary : base.summary).rows.filter { $0.strategy == names[s] }
        }
        // The job's groups hold its own strategies, in `strategies`' order.
        let groups = t.groups
        if !groups.isEmpty, !baseGroups.isEmpty {
          for (j, s) in strategies.enumerated() {
            for m in metrics.indices {
              let d = zip(groups, baseGroups).compactMap { g, b in g[j][m].flatMap { x in b[s][m].map { x - $0 } } }
              halfWidths?[s][m] = d.count < groups.count ? nil : ReplicationSummary(d).halfWidth95
            }
          }
        }
      }
      out.append(
        RobustnessResults.Variant(
          name: v.name, assumption: v.assumption?.key, alternative: v.alternative, summary: v.summary,
          values: values(table), recommended: Pipeline.recommend(table, objective: loaded.objective).0?.strategy,
          simulated: simulated, halfWidth95: halfWidths))
    }
    return RobustnessResults(
      scenario: loaded.scenario.name, seed: scenario.seed, devices: scenario.devices,
      scenarioDevices: loaded.scenario.devices, metrics: metrics, strategies: names, base: baseValues,
      baseRecommendation: baseRecommendation, variants: out)
  }

  /// The verdict on `r`'s recommendation, with its sentence. `fullRun`:
  /// what a run on every device recommends, when `r` ran on a sample (a
  /// base on the sample that recommends another strategy is not robust).
  static func verdict(_ r: RobustnessResults, objective: Objective?, fullRun: String? = nil) -> RobustnessVerdict {
    var v = r.verdict
    if r.devices < r.scenarioDevices, let fullRun, fullRun != v.strategy {
      v.fullRunStrategy = fullRun
      v.robust = false
    }
    v.sentence = RobustnessReport.sentence(
      v, objective: objective, meetsTarget: r.baseRecommendation?.meetsTarget ?? true)
    return v
  }

  /// Runs `body` once for each index of `order`, taken in that order by up
  /// to `threads` threads, each index on one thread.
  static func forEach(_ order: [Int], threads: Int, _ body: @Sendable (Int) -> Void) {
    let next = Atomic<Int>(0)
    DispatchQueue.concurrentPerform(iterations: max(1, min(threads, order.count))) { _ in
      while true {
        let k = next.add(1, ordering: .relaxed).oldValue
        guard k < order.count else { break }
        body(order[k])
      }
    }
  }

  /// Each job's result, set by the thread that ran it.
  final class Box<T>: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [T?]

    init(count: Int) { items = Array(repeating: nil, count: count) }

    func set(_ i: Int, _ t: T) {
      lock.lock()
      items[i] = t
      lock.unlock()
    }

    func take() -> [T?] {
      lock.lock()
      defer { lock.unlock() }
      return items
    }
  }
}
