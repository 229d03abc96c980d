import ReloadEngine

/// Simulates one strategy of a scenario device by device and hands each
/// device's reload log to the caller: what `reloadbench run --emit-log`
/// writes, the log a real deployment of the strategy would collect
/// (Scenarios/log-format.md). The simulation is the ordinary one (same
/// streams, same results); only the recording is added.
///
///     var emitter = ReloadLogEmitter(PreparedScenario(scenario), strategy: 0)
///     for d in 0..<scenario.devices {
///       emitter.simulate(device: d)
///       for i in 0..<emitter.lineCount { use(emitter.line(i)) }
///     }
public struct ReloadLogEmitter {
  public let prepared: PreparedScenario
  public private(set) var environment = DeviceEnvironment()
  private var data: DeviceSimulator<StrategyTimelines>?
  private var code: DeviceSimulator<CodeProvider>?

  public init(_ prepared: PreparedScenario, strategy index: Int) {
    self.prepared = prepared
    let strategy = prepared.scenario.strategies[index]
    if let c = strategy.code {
      code = DeviceSimulator(prepared: prepared, strategy: strategy, provider: CodeProvider(c), recordLog: true)
    } else {
      data = DeviceSimulator(
        prepared: prepared, strategy: strategy,
        provider: StrategyTimelines(strategy, kinds: prepared.scenario.kinds.count), recordLog: true)
    }
  }

  /// Simulates device `d`; its log is then `line(0..<lineCount)`.
  public mutating func simulate(device d: Int) {
    environment.generate(device: d, in: prepared)
    if data != nil { data!.run(environment) } else { code!.run(environment) }
  }

  /// The last device's number of lines, and whether some did not fit.
  public var lineCount: Int { data?.logRecords.count ?? code!.logRecords.count }
  public var overflowed: Bool { data?.logRecords.overflowed ?? code!.logRecords.overflowed }

  public func line(_ i: Int) -> LogRecord { data?.logRecord(i) ?? code!.logRecord(i) }

  /// The most lines one device's log holds.
  public static var linesPerDevice: Int { LogRecorder.capacity }

  /// Where widget `w` of the last device sits.
  public func placement(widget w: Int) -> Placement { environment.placements[w] }
}

extension LogRecord {
  /// The log's `trigger` word for what the app asked (empty for a reload
  /// the system chose: a policy reload, a settings change, a new widget).
  public var trigger: String {
    switch ReloadCause(rawValue: cause) ?? .policy {
    case .policy, .settings, .added, .restart: return ""
    case .foreground: return "foreground"
    case .silentPush: return "silent_push"
    case .backgroundRefresh: return "bg_refresh"
    case .tap: return "tap"
    case .widgetPush: return "widget_push"
    case .running: return "background_task"
    case .appTrigger: return "app"
    }
  }
}
