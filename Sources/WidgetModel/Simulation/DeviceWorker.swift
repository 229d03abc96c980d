import ReloadEngine

/// One thread's worth of simulation: draws each device's environment once
/// and runs every strategy of the scenario on it (common random numbers).
///
///     let prepared = PreparedScenario(scenario)
///     var worker = DeviceWorker(prepared)
///     worker.simulate(devices: 0..<prepared.scenario.devices)
///     let tallies = worker.tallies        // one per strategy
///
/// Workers over disjoint device ranges can run on different threads; their
/// tallies hold integers only, so merging them in any order gives the same
/// bytes.
public struct DeviceWorker {
  public let prepared: PreparedScenario
  var environment = DeviceEnvironment()
  var simulators: [DeviceSimulator<EntryTimeline>]

  public init(_ prepared: PreparedScenario) {
    self.prepared = prepared
    simulators = prepared.scenario.strategies.map {
      DeviceSimulator(prepared: prepared, strategy: $0, provider: $0.timeline)
    }
  }

  /// Simulates `devices` under every strategy; the tallies are complete
  /// when it returns.
  public mutating func simulate(devices: Range<Int>) {
    for d in devices {
      environment.generate(device: d, in: prepared)
      for s in simulators.indices { simulators[s].run(environment) }
    }
    for s in simulators.indices { simulators[s].flush() }
  }

  /// What each strategy produced so far, in scenario order.
  public var tallies: [StrategyTally] { simulators.map(\.tally) }
}
