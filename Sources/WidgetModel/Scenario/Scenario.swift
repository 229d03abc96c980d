import ReloadEngine

/// A complete experiment: who the users are, what their widgets show, which
/// reload strategies to compare, and the model's assumptions.
///
/// Scenarios are plain values; `ReloadBenchCLI` decodes them from JSON and
/// validates every field. Each strategy runs on exactly the same devices,
/// glances and data changes (common random numbers).
public struct Scenario: Sendable {
  public var name: String
  public var description: String
  /// The human title the reports lead with ("Weather widgets: eight strategies"); nil: the name.
  public var title: String? = nil
  /// Seed of every random stream.
  public var seed: UInt64
  /// Simulated duration, warm-up included.
  public var days: Double
  /// Leading days excluded from every metric (the budget starts full).
  public var warmupDays: Double
  /// Simulated devices.
  public var devices: Int
  /// The real fleet the backend figures are scaled to (devices).
  public var fleetDevices: Double
  /// Independent repetitions with derived seeds (for confidence intervals).
  public var replications: Int
  public var segments: [Segment]
  public var kinds: [WidgetKindSpec]
  public var strategies: [Strategy]
  public var model: ModelParameters
  public var energy: EnergyModel
  /// How glances and unpredictable data changes are simulated.
  public var engine: EngineMode
  /// The weekday of day 0; each clock counts its own days from it
  /// (docs/model.md#calendar).
  public var startWeekday: Weekday
  /// Live Activities simulated on the same devices and content (docs/model.md#live-activities).
  public var liveActivities: LiveActivitySpec? = nil

  public init(
    name: String, description: String = "", seed: UInt64 = 1, days: Double = 7,
    warmupDays: Double = 1, devices: Int = 1000, fleetDevices: Double? = nil,
    replications: Int = 1, segments: [Segment], kinds: [WidgetKindSpec],
    strategies: [Strategy], model: ModelParameters = .standard,
    energy: EnergyModel = .standard, engine: EngineMode = .elided, startWeekday: Weekday = .monday
  ) {
    self.name = name
    self.description = description
    self.seed = seed
    self.days = days
    self.warmupDays = warmupDays
    self.devices = devices
    self.fleetDevices = fleetDevices ?? Double(devices)
    self.replications = replications
    self.segments = segments
    self.kinds = kinds
    self.strategies = strategies
    self.model = model
    self.energy = energy
    self.engine = engine
    self.startWeekday = startWeekday
  }

  /// The weekdays of every clock of the scenario.
  public var calendar: WeekCalendar { WeekCalendar(startWeekday: startWeekday) }

  /// The end of the run.
  public var end: SimTime { .zero + .days(days) }
  /// The start of the measured days.
  public var measureStart: SimTime { .zero + .days(warmupDays) }
  /// Measured days.
  public var measuredDays: Double { days - warmupDays }
}

/// How the simulator treats the events whose only effect is a counter.
public enum EngineMode: String, Sendable, CaseIterable {
  /// Glances and unpredictable data changes are never queued: they are read
  /// in order from each device's pre-drawn streams between the events that
  /// change a widget's state. Exact, and several times faster.
  case elided
  /// Every glance and data change goes through the event queue one by one.
  /// The reference the elided path is tested against.
  case eventByEvent = "event_by_event"
}

/// The energy proxy: a fixed cost per unit of work (millijoules).
public struct EnergyModel: Sendable, Equatable {
  public var extensionLaunchMillijoules: Double
  public var appWakeMillijoules: Double
  public var fetchMillijoules: Double

  public init(extensionLaunchMillijoules: Double, appWakeMillijoules: Double, fetchMillijoules: Double) {
    self.extensionLaunchMillijoules = extensionLaunchMillijoules
    self.appWakeMillijoules = appWakeMillijoules
    self.fetchMillijoules = fetchMillijoules
  }

  /// Assumed orders of magnitude: a widget extension launch renders a
  /// timeline (tens of mJ), a background app launch costs more, a radio
  /// fetch sits between. Sweep them if energy matters to your decision.
  public static let standard = EnergyModel(
    extensionLaunchMillijoules: 15, appWakeMillijoules: 60, fetchMillijoules: 40)
}
