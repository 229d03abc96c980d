/// Everything a run produced, as plain values: what the CSV files, the
/// stdout table, the HTML report and results.json are rendered from.
/// Reports never run a simulation; they read this.
public struct ScenarioResults: Sendable, Codable {
  public var facts: RunFacts
  /// The scenario's parameters, with where each value comes from.
  public var parameters: [ParameterFact]
  public var summary: ResultTable
  /// One entry per strategy, in scenario order.
  public var series: [StrategySeries]
  /// The findings and the recommendation, once the runner has drawn them
  /// from the summary (nil before, and in the data report.html embeds:
  /// the page gives them in its summary).
  public var conclusions: Conclusions?
  /// The scenario's Live Activities, when it has some (docs/model.md#live-activities).
  public var liveActivities: ActivityTable? = nil

  /// `conclusions` is written `recommendation`, the name results.json
  /// first gave it.
  private enum CodingKeys: String, CodingKey {
    case facts, parameters, summary, series, liveActivities
    case conclusions = "recommendation"
  }

  public init(
    facts: RunFacts, parameters: [ParameterFact], summary: ResultTable, series: [StrategySeries],
    conclusions: Conclusions? = nil
  ) {
    self.facts = facts
    self.parameters = parameters
    self.summary = summary
    self.series = series
    self.conclusions = conclusions
  }

  /// The series of the strategy named `name`.
  public func series(for name: String) -> StrategySeries? { series.first { $0.strategy == name } }
}

/// What a run or a sweep simulated, and how fast: the facts both report
/// (a run adds its own, `RunFacts`; a sweep's are these).
public struct SimulationFacts: Sendable, Codable, Equatable {
  public var scenario: String
  /// The scenario's human title, when it has one (the reports lead with it).
  public var title: String? = nil
  public var description: String
  public var toolVersion: String
  public var seed: UInt64
  public var days: Double
  public var warmupDays: Double
  public var devices: Int
  public var replications: Int
  public var strategies: [String]
  public var segments: [String]
  // Filled by the runner (wall clock lives in the CLI only).
  public var threads: Int = 1
  public var events: UInt64 = 0
  public var wallSeconds: Double = 0

  public init(
    scenario: String, description: String, toolVersion: String, seed: UInt64, days: Double, warmupDays: Double,
    devices: Int, replications: Int, strategies: [String], segments: [String]
  ) {
    self.scenario = scenario
    self.description = description
    self.toolVersion = toolVersion
    self.seed = seed
    self.days = days
    self.warmupDays = warmupDays
    self.devices = devices
    self.replications = replications
    self.strategies = strategies
    self.segments = segments
  }

  public var eventsPerSecond: Double { wallSeconds > 0 ? Double(events) / wallSeconds : 0 }
}

/// A run's facts: what was simulated and how fast (`SimulationFacts`,
/// read through: `facts.scenario`), with what a run adds: its widgets, the
/// fleet its backend figures are scaled to, the freshness tolerance, and
/// the time each phase took. results.json writes them as one object.
@dynamicMemberLookup
public struct RunFacts: Sendable, Codable, Equatable {
  public var simulated: SimulationFacts
  public var widgets: Int
  /// The real fleet size the backend figures are scaled to.
  public var fleetDevices: Double
  /// Staleness that still counts as acceptable, in minutes.
  public var toleranceMinutes: Double
  /// Seconds per phase (setup, simulation, merge, report), filled by the runner.
  public var phaseSeconds: [String: Double] = [:]

  public init(_ simulated: SimulationFacts, widgets: Int, fleetDevices: Double, toleranceMinutes: Double) {
    self.simulated = simulated
    self.widgets = widgets
    self.fleetDevices = fleetDevices
    self.toleranceMinutes = toleranceMinutes
  }

  public init(
    scenario: String, description: String, toolVersion: String, seed: UInt64, days: Double,
    warmupDays: Double, devices: Int, widgets: Int, fleetDevices: Double, replications: Int,
    strategies: [String], segments: [String], toleranceMinutes: Double
  ) {
    self.init(
      SimulationFacts(
        scenario: scenario, description: description, toolVersion: toolVersion, seed: seed, days: days,
        warmupDays: warmupDays, devices: devices, replications: replications, strategies: strategies,
        segments: segments),
      widgets: widgets, fleetDevices: fleetDevices, toleranceMinutes: toleranceMinutes)
  }

  public subscript<T>(dynamicMember path: WritableKeyPath<SimulationFacts, T>) -> T {
    get { simulated[keyPath: path] }
    set { simulated[keyPath: path] = newValue }
  }

  public subscript<T>(dynamicMember path: KeyPath<SimulationFacts, T>) -> T { simulated[keyPath: path] }

  /// Widget-days simulated (all strategies, all replications, warm-up included).
  public var simulatedWidgetDays: Double {
    Double(widgets) * simulated.days * Double(simulated.strategies.count) * Double(simulated.replications)
  }
  public var widgetDaysPerSecond: Double {
    simulated.wallSeconds > 0 ? simulatedWidgetDays / simulated.wallSeconds : 0
  }

  // One object in JSON: the simulation's facts beside the run's own.
  private enum CodingKeys: String, CodingKey { case widgets, fleetDevices, toleranceMinutes, phaseSeconds }

  public func encode(to encoder: any Encoder) throws {
    try simulated.encode(to: encoder)
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(widgets, forKey: .widgets)
    try c.encode(fleetDevices, forKey: .fleetDevices)
    try c.encode(toleranceMinutes, forKey: .toleranceMinutes)
    try c.encode(phaseSeconds, forKey: .phaseSeconds)
  }

  public init(from decoder: any Decoder) throws {
    simulated = try SimulationFacts(from: decoder)
    let c = try decoder.container(keyedBy: CodingKeys.self)
    widgets = try c.decode(Int.self, forKey: .widgets)
    fleetDevices = try c.decode(Double.self, forKey: .fleetDevices)
    toleranceMinutes = try c.decode(Double.self, forKey: .toleranceMinutes)
    phaseSeconds = try c.decode([String: Double].self, forKey: .phaseSeconds)
  }
}

/// One scenario parameter as the report shows it.
public struct ParameterFact: Sendable, Codable, Equatable {
  /// JSON path, e.g. `model.budget.max_per_day`.
  public var path: String
  public var value: String
  /// Source tag (docs/model.md#source-tags): A (Apple docs), T (WWDC), S (Apple staff),
  /// M (measured by developers), F (folklore), or "assumed".
  public var source: String
  public var note: String

  public init(path: String, value: String, source: String, note: String) {
    self.path = path
    self.value = value
    self.source = source
    self.note = note
  }
}

/// Quantiles of a distribution at one x position (a band in a chart).
public struct QuantileBand: Sendable, Codable, Equatable {
  public var p10: Double
  public var p50: Double
  public var p90: Double
  public init(p10: Double, p50: Double, p90: Double) {
    self.p10 = p10
    self.p50 = p50
    self.p90 = p90
  }
}

/// One bucket of a staleness distribution.
public struct DistributionBucket: Sendable, Codable, Equatable {
  /// Upper bound of the bucket (exclusive), in minutes; 0 for "fresh".
  public var upperMinutes: Double
  public var count: UInt64
  /// Share of glances with staleness below `upperMinutes`, in percent.
  public var cumulativePct: Double
  public init(upperMinutes: Double, count: UInt64, cumulativePct: Double) {
    self.upperMinutes = upperMinutes
    self.count = count
    self.cumulativePct = cumulativePct
  }
}

/// What happened to background wake-ups: sent -> delivered -> reloads.
public struct WakeFunnel: Sendable, Codable, Equatable {
  public var silentPushesSent: UInt64 = 0
  public var silentPushesDelivered: UInt64 = 0
  public var silentPushReloads: UInt64 = 0
  public var bgRefreshRequested: UInt64 = 0
  public var bgRefreshRuns: UInt64 = 0
  public var bgRefreshReloads: UInt64 = 0
  public var widgetPushesSent: UInt64 = 0
  public var widgetPushesAccepted: UInt64 = 0
  public var widgetPushReloads: UInt64 = 0
  public init() {}
  public var isEmpty: Bool {
    silentPushesSent == 0 && bgRefreshRequested == 0 && bgRefreshRuns == 0 && widgetPushesSent == 0
  }
}

/// The per-strategy series the charts and `timeseries.csv` / `staleness.csv`
/// are drawn from (all segments together).
public struct StrategySeries: Sendable, Codable, Equatable {
  public var strategy: String
  /// Budget left (reloads) sampled at every local hour: 10/50/90 % quantiles.
  public var budgetLeftByLocalHour: [QuantileBand]
  public var glancesByLocalHour: [UInt64]
  public var staleGlancesByLocalHour: [UInt64]
  public var hourly: HourlySeries
  public var staleness: [DistributionBucket]
  public var funnel: WakeFunnel
  /// The busiest second: hours since the start of the measured days, and its scaled rate.
  public var backendPeakHour: Double
  public var backendPeakRps: Double
  /// Quantiles of the local hour at which frozen widget-days first froze.
  public var firstFrozenHour: QuantileBand?

  public init(
    strategy: String, budgetLeftByLocalHour: [QuantileBand], glancesByLocalHour: [UInt64],
    staleGlancesByLocalHour: [UInt64], hourly: HourlySeries, staleness: [DistributionBucket],
    funnel: WakeFunnel, backendPeakHour: Double, backendPeakRps: Double, firstFrozenHour: QuantileBand?
  ) {
    self.strategy = strategy
    self.budgetLeftByLocalHour = budgetLeftByLocalHour
    self.glancesByLocalHour = glancesByLocalHour
    self.staleGlancesByLocalHour = staleGlancesByLocalHour
    self.hourly = hourly
    self.staleness = staleness
    self.funnel = funnel
    self.backendPeakHour = backendPeakHour
    self.backendPeakRps = backendPeakRps
    self.firstFrozenHour = firstFrozenHour
  }
}
