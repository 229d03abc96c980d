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
  /// The simulators of the strategies written as data and of those written
  /// in Swift, each an array of one concrete, specialised type: no dynamic
  /// call per device or event into the simulator (a Swift strategy's own
  /// code is called once per reload; see `CodeProvider`).
  var dataSimulators: [DeviceSimulator<StrategyTimelines>] = []
  var codeSimulators: [DeviceSimulator<CodeProvider>] = []
  /// Where each strategy's simulator is, in scenario order.
  let slots: [Slot]

  enum Slot {
    case data(Int)
    case code(Int)
  }

  public init(_ prepared: PreparedScenario) {
    self.prepared = prepared
    let kinds = prepared.scenario.kinds.count
    var slots: [Slot] = []
    for strategy in prepared.scenario.strategies {
      if let code = strategy.code {
        slots.append(.code(codeSimulators.count))
        codeSimulators.append(DeviceSimulator(prepared: prepared, strategy: strategy, provider: CodeProvider(code)))
      } else {
        slots.append(.data(dataSimulators.count))
        dataSimulators.append(
          DeviceSimulator(prepared: prepared, strategy: strategy, provider: StrategyTimelines(strategy, kinds: kinds)))
      }
    }
    self.slots = slots
  }

  /// Simulates `devices` under every strategy; the tallies are complete
  /// when it returns. (Strategies do not interact: the order in which
  /// they run on a device changes nothing.)
  public mutating func simulate(devices: Range<Int>) {
    simulateBuffered(devices: devices)
    flush()
  }

  /// Simulates `devices` like `simulate(devices:)`, but leaves the last
  /// backend requests and pushes in the simulators' logs: call `flush()`
  /// before reading `tallies`. A runner that hands a worker many small
  /// ranges flushes once at the end, so that each flush adds a full log
  /// (NOTE: for performance: the more keys a flush holds, the more of them
  /// share each cache line of the per-second tallies).
  public mutating func simulateBuffered(devices: Range<Int>) {
    for d in devices {
      environment.generate(device: d, in: prepared)
      for s in dataSimulators.indices { dataSimulators[s].run(environment) }
      for s in codeSimulators.indices { codeSimulators[s].run(environment) }
    }
  }

  /// Adds what the simulators' logs hold to their tallies.
  public mutating func flush() {
    for s in dataSimulators.indices { dataSimulators[s].flush() }
    for s in codeSimulators.indices { codeSimulators[s].flush() }
  }

  /// Bytes a worker's simulator of `strategy` holds, in a run of
  /// `devices` devices, for the requests (and pushes, if it sends them)
  /// waiting for the per-second tallies (for the memory estimate).
  public static func logBytes(_ strategy: Strategy, devices: Int) -> Int {
    (strategy.backend.sendsPushes ? 2 : 1) * 2 * RequestLog.capacity(devices: devices) * MemoryLayout<UInt32>.stride
  }

  /// What each strategy produced so far, in scenario order.
  public var tallies: [StrategyTally] {
    slots.map { slot in
      switch slot {
      case .data(let i): dataSimulators[i].tally
      case .code(let i): codeSimulators[i].tally
      }
    }
  }
}
