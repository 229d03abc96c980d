import Foundation
import ReloadBenchCLI
import ReloadMetrics
import Testing
import WidgetModel

/// Loads `Scenarios/golden/<name>.json` through the same decoder as the
/// CLI, simulates it in process and returns its results; with `profile`,
/// under that model profile (docs/model.md#model-profiles) as a file's
/// `"model": {"profile": ...}` sets it, the file's own model fields over it.
func golden(_ name: String, profile: String? = nil) throws -> GoldenRun {
  let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
  let url = root.appendingPathComponent("Scenarios/golden/\(name).json")
  var data = try Data(contentsOf: url)
  if let profile {
    var json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    var model = json["model"] as? [String: Any] ?? [:]
    model["profile"] = profile
    json["model"] = model
    data = try JSONSerialization.data(withJSONObject: json)
  }
  return try simulated(data, file: url.lastPathComponent)
}

/// The readings seed 004's figures must hold under: the defaults (the
/// evidence-fitted reading) and the seeds' own (docs/model.md#model-profiles).
let seedFigureProfiles = ["evidence", "seeds"]

/// Decodes scenario JSON through the CLI's decoder, simulates it in
/// process and returns its results.
func simulated(_ data: Data, file: String) throws -> GoldenRun {
  let scenario = try CLITesting.scenario(data, file: file).get()
  let prepared = PreparedScenario(scenario)
  var worker = DeviceWorker(prepared)
  worker.simulate(devices: 0..<scenario.devices)
  let facts = RunFacts(
    scenario: scenario.name, description: scenario.description, toolVersion: "test", seed: scenario.seed,
    days: scenario.days, warmupDays: scenario.warmupDays, devices: scenario.devices, widgets: 0,
    fleetDevices: scenario.fleetDevices, replications: 1, strategies: scenario.strategies.map(\.name),
    segments: scenario.segments.map(\.name), toleranceMinutes: 30)
  let results = ResultsBuilder.build(scenario, replications: [worker.tallies], facts: facts, parameters: [])
  return GoldenRun(scenario: scenario, results: results)
}

struct GoldenRun {
  let scenario: Scenario
  let results: ScenarioResults

  /// The value of `metric` for `policy` on `segment`; records an issue when absent.
  func value(_ metric: SummaryMetric, _ policy: String, segment: String = "all") -> Double {
    guard let row = results.summary.row(strategy: policy, segment: segment),
      let v = results.summary.value(metric, in: row)
    else {
      Issue.record("no \(metric) for \(policy)/\(segment)")
      return .nan
    }
    return v
  }

  func series(_ policy: String) -> StrategySeries {
    results.series(for: policy)!
  }

  /// Share of glances (percent) that were stale during local hours `hours`.
  func stalePct(_ policy: String, localHours hours: Range<Int>) -> Double {
    let s = series(policy)
    let glances = hours.reduce(UInt64(0)) { $0 + s.glancesByLocalHour[$1] }
    let stale = hours.reduce(UInt64(0)) { $0 + s.staleGlancesByLocalHour[$1] }
    return glances == 0 ? .nan : 100 * Double(stale) / Double(glances)
  }
}
