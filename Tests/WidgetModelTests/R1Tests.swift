import ReloadEngine
import ReloadMetrics
import Testing
import WidgetModel

func runScenario(_ scenario: Scenario) -> ScenarioResults {
  let prepared = PreparedScenario(scenario)
  var worker = DeviceWorker(prepared)
  worker.simulate(devices: 0..<scenario.devices)
  let facts = RunFacts(
    scenario: scenario.name, description: "", toolVersion: "test", seed: scenario.seed, days: scenario.days,
    warmupDays: scenario.warmupDays, devices: scenario.devices, widgets: 0, fleetDevices: scenario.fleetDevices,
    replications: 1, strategies: scenario.strategies.map(\.name), segments: scenario.segments.map(\.name),
    toleranceMinutes: 30)
  return ResultsBuilder.build(scenario, replications: [worker.tallies], facts: facts, parameters: [])
}

@Suite struct R1Tests {
  @Test func r1ReproducesTheReferenceFigures() {
    let results = runScenario(TestScenarios.r1(devices: 2000))
    let row = results.summary.row(policy: "poll-15m")!
    let v = { (n: String) in results.summary.value(n, in: row)! }
    print("R1:", SummaryMetrics.all.map { "\($0.name)=\(results.summary.value($0.name, in: row) ?? -1)" })
    #expect(abs(v("budgeted_reloads_per_widget_day") - 50.0) < 0.05)
    #expect(abs(v("fresh_glance_pct") - 33.96) < 0.6)
    #expect(abs(v("stale_glance_staleness_mean_min") - 237.2) < 4)
  }
}
