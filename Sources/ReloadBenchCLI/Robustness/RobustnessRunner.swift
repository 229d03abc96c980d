import Dispatch
import Foundation
import ReloadMetrics
import ReloadReports
import Synchronization
import WidgetModel

/// What a robustness run compares: a scenario's `robustness` block, or
/// the defaults of `reloadbench robustness` (every assumption, the
/// profiles, every device).
struct RobustnessSpec: Equatable {
  /// Whether `run` says if its recommendation is robust.
  var enabled = true
  /// The assumptions whose alternatives run (all by default).
  var assumptions: [Assumption] = Assumption.allCases
  /// Whether the whole-model profiles run too.
  var profiles = true
  /// Devices each variant simulates when fewer than the scenario's (a
  /// sample: the scenario as drawn with that many devices); nil: every device.
  var sampleDevices: Int? = nil

  /// The variants, in order.
  var variants: [ModelVariant] { ModelVariant.all(assumptions: assumptions, includeProfiles: profiles) }
}

/// Runs a scenario under every variant of its model (`RobustnessSpec`),
/// on the same users and random streams (the scenario's seed; only the
/// model differs), and collects what each recommends.
///
/// Work is saved three ways, none of which changes a result:
/// - a variant that leaves the scenario's model as it is reuses the base;
/// - a strategy keeps its base results under a variant that changes only
///   parameters its simulation never reads (`ModelVariant.changes`, declared
///   once by `ModelParameterGroup.isRead(by:)` and tested by running such
///   pairs in full);
/// - the runs left (variant x the strategies it can change) are spread over
///   the threads one run per thread, biggest first, each run on one thread,
///   so the results do not depend on the thread count.
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

  /// Runs the base (unless `base`, the summary of a run of exactly
  /// `sampled(scenario)`, is given) and every variant, and compares them.
  static func run(
    _ loaded: LoadedScenario, spec: RobustnessSpec, threads: Int, quiet: Bool, base given: ResultTable? = nil
  ) -> RobustnessResults {
    let scenario = sampled(loaded.scenario, spec)
    let variants = spec.variants
    let jobs = jobs(scenario, variants, baseGiven: given != nil)
    // Biggest first, so that no thread is left with a big run at the end.
    let order = jobs.indices.sorted { a, b in
      let (x, y) = (jobs[a].strategies.count, jobs[b].strategies.count)
      return x != y ? x > y : a < b
    }
    let tables = TableBox(count: jobs.count)
    let next = Atomic<Int>(0)
    let progress = ProgressLine(label: "\(loaded.scenario.name) robustness", quiet: quiet)
    let total = Double(max(1, jobs.reduce(0) { $0 + $1.strategies.count }))
    let done = Atomic<Int>(0)
    DispatchQueue.concurrentPerform(iterations: max(1, min(threads, jobs.count))) { _ in
      while true {
        let k = next.add(1, ordering: .relaxed).oldValue
        guard k < order.count else { break }
        let job = jobs[order[k]]
        let outcome = ExperimentRunner.run(job.scenario, threads: 1, progress: nil)
        let results = ResultsBuilder.build(
          job.scenario, replications: outcome.replications, facts: Pipeline.facts(job.scenario, widgets: 0),
          parameters: [])
        tables.set(order[k], results.summary)
        let finished = done.add(job.strategies.count, ordering: .relaxed).newValue
        progress.update(fraction: Double(finished) / total, deviceDays: 0)
      }
    }
    progress.finish()
    let byJob = tables.take()
    let baseTable = given ?? byJob[0] ?? ResultTable()
    var variantTables: [Int: (ResultTable, [Int])] = [:]
    for (j, job) in jobs.enumerated() {
      if let v = job.variant, let t = byJob[j] { variantTables[v] = (t, job.strategies) }
    }
    return compare(
      loaded, scenario: scenario, variants: variants, base: baseTable, variantTables: variantTables)
  }

  /// The comparison: each variant's table is the base's with the rows of
  /// the strategies it simulated replaced; its recommendation is drawn by
  /// the scenario's rule (`Pipeline.recommend`).
  static func compare(
    _ loaded: LoadedScenario, scenario: Scenario, variants: [ModelVariant], base: ResultTable,
    variantTables: [Int: (ResultTable, [Int])]
  ) -> RobustnessResults {
    let names = scenario.strategies.map(\.name)
    let metrics = RobustnessResults.headlineMetrics
    func values(_ table: ResultTable) -> [[Double?]] {
      names.map { name in
        let row = table.row(strategy: name)
        return metrics.map { m in row.flatMap { table.value(m, in: $0) } }
      }
    }
    let baseRecommendation = Pipeline.recommend(base, objective: loaded.objective).0
    var out: [RobustnessResults.Variant] = []
    for (i, v) in variants.enumerated() {
      var table = base
      var simulated = Array(repeating: false, count: names.count)
      if let (t, strategies) = variantTables[i] {
        for s in strategies { simulated[s] = true }
        // Rows in the scenario's order, as the recommendation's ties expect.
        table.rows = names.indices.flatMap { s in (simulated[s] ? t : base).rows.filter { $0.strategy == names[s] } }
      }
      out.append(
        RobustnessResults.Variant(
          name: v.name, assumption: v.assumption?.key, alternative: v.alternative, summary: v.summary,
          values: values(table), recommended: Pipeline.recommend(table, objective: loaded.objective).0?.strategy,
          simulated: simulated))
    }
    return RobustnessResults(
      scenario: loaded.scenario.name, seed: scenario.seed, devices: scenario.devices,
      scenarioDevices: loaded.scenario.devices, metrics: metrics, strategies: names, base: values(base),
      baseRecommendation: baseRecommendation, variants: out)
  }

  /// Each job's summary, set by the thread that ran it.
  final class TableBox: @unchecked Sendable {
    private let lock = NSLock()
    private var tables: [ResultTable?]

    init(count: Int) { tables = Array(repeating: nil, count: count) }

    func set(_ i: Int, _ t: ResultTable) {
      lock.lock()
      tables[i] = t
      lock.unlock()
    }

    func take() -> [ResultTable?] {
      lock.lock()
      defer { lock.unlock() }
      return tables
    }
  }
}
