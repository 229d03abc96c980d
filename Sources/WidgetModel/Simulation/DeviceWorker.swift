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
  /// One simulator per strategy, each specialised for its provider: the
  /// only dynamic call is one per device and strategy, never per event.
  var simulators: [any StrategyRunner]

  public init(_ prepared: PreparedScenario) {
    self.prepared = prepared
    let kinds = prepared.scenario.kinds.count
    simulators = prepared.scenario.strategies.map { strategy -> any StrategyRunner in
      if let code = strategy.code { return Self.runner(prepared, strategy, code) }
      return DataStrategyRunner(
        DeviceSimulator(prepared: prepared, strategy: strategy, provider: StrategyTimelines(strategy, kinds: kinds)))
    }
  }

  /// Opens a Swift strategy's provider once, so its simulator is specialised for it.
  static func runner<P: TimelineProvider>(_ prepared: PreparedScenario, _ strategy: Strategy, _ code: P) -> any StrategyRunner {
    SimulatorRunner(DeviceSimulator(prepared: prepared, strategy: strategy, provider: code))
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

/// A strategy's simulator behind one dynamic call per device.
protocol StrategyRunner: AnyObject {
  func run(_ env: DeviceEnvironment)
  func flush()
  var tally: StrategyTally { get }
}

/// The simulator of a strategy written as data: a concrete type, so the
/// whole simulation is specialised for `StrategyTimelines`.
final class DataStrategyRunner: StrategyRunner {
  var simulator: DeviceSimulator<StrategyTimelines>
  init(_ simulator: DeviceSimulator<StrategyTimelines>) { self.simulator = simulator }
  func run(_ env: DeviceEnvironment) { simulator.run(env) }
  func flush() { simulator.flush() }
  var tally: StrategyTally { simulator.tally }
}

/// Holds a simulator for a Swift strategy's provider (a class, so it is mutated in place).
final class SimulatorRunner<P: TimelineProvider>: StrategyRunner {
  var simulator: DeviceSimulator<P>
  init(_ simulator: DeviceSimulator<P>) { self.simulator = simulator }
  func run(_ env: DeviceEnvironment) { simulator.run(env) }
  func flush() { simulator.flush() }
  var tally: StrategyTally { simulator.tally }
}
