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
    // 600 widgets keep the debug test quick; CI checks the full 10,000
    // with the release binary against the tighter docs/r1.md tolerances.
    let results = runScenario(TestScenarios.r1(devices: 600))
    let row = results.summary.row(strategy: "poll-15m")!
    let v = { (n: SummaryMetric) in results.summary.value(n, in: row)! }
    #expect(v(.budgetedReloadsPerWidgetDay) == 50)
    #expect(abs(v(.freshGlancePct) - 33.96) < 1.5)
    #expect(abs(v(.staleGlanceStalenessMeanMin) - 237.2) < 8)
    #expect(abs(v(.withheldRequestsPerWidgetDay) - 12.1) < 0.5)
    #expect(abs(v(.eventsPerWidgetDay) - 174.1) < 2)
  }
}

@Suite struct R1ReferenceTests {
  /// The textbook global-queue R1 reproduces docs/r1.md's figures with either
  /// event set, and both heaps pop exactly the same sequence.
  @Test func globalQueueReferenceReproducesR1WithBothHeaps() {
    let four = R1Reference.run(QuaternaryHeap.self, widgets: 500, days: 7, seed: 42)
    let two = R1Reference.run(BinaryHeap.self, widgets: 500, days: 7, seed: 42)
    #expect(four == two)
    #expect(Double(four.reloads) / (500 * 7) == 50)
    #expect(abs(four.freshFraction - 0.3396) < 0.015)
    #expect(abs(four.meanStalenessMinutes - 237.2) < 8)
    #expect(abs(Double(four.events) / (500 * 7) - 174.1) < 2)
  }

  /// The device simulator and the global-queue reference agree on R1 (two
  /// independent implementations, different random draws).
  @Test func deviceSimulatorAgreesWithTheReference() {
    let results = runScenario(TestScenarios.r1(devices: 600, days: 7))
    let row = results.summary.row(strategy: "poll-15m")!
    let reference = R1Reference.run(QuaternaryHeap.self, widgets: 600, days: 7, seed: 7)
    let fresh = results.summary.value(.freshGlancePct, in: row)! / 100
    let stale = results.summary.value(.staleGlanceStalenessMeanMin, in: row)!
    #expect(abs(fresh - reference.freshFraction) < 0.02)
    #expect(abs(stale - reference.meanStalenessMinutes) < 10)
  }
}

@Suite struct HoldModelTests {
  @Test func bothHeapsHoldTheSameSequence() {
    for size in [1, 10, 1000] {
      #expect(
        HoldModel.run(QuaternaryHeap.self, size: size, holds: 20_000, seed: 3)
          == HoldModel.run(BinaryHeap.self, size: size, holds: 20_000, seed: 3))
    }
  }
}
