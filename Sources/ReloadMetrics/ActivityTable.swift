/// The figures of a scenario's Live Activities (docs/model.md#live-activities):
/// one row per activity strategy and segment (`all` for every device), the
/// metrics of `ActivityMetric`, and per strategy the fleet's pushes by
/// minute around its busiest second and the glances' freshness by the
/// activity's age. What `live_activities.csv`, results.json's
/// `liveActivities` and the report's Live Activities section are rendered from.
public struct ActivityTable: Sendable, Codable, Equatable {
  public struct Row: Sendable, Codable, Equatable {
    public var strategy: String
    public var segment: String
    /// In `ActivityMetric.allCases` order; `nil` where a figure does not
    /// apply (the fleet's on a segment's row, a share of nothing).
    public var values: [Double?]

    public init(strategy: String, segment: String, values: [Double?]) {
      self.strategy = strategy
      self.segment = segment
      self.values = values
    }

    /// The figure, `.nan` where it does not apply.
    public func value(_ m: ActivityMetric) -> Double { values[m.index] ?? .nan }
  }

  /// One strategy's series for the charts.
  public struct Series: Sendable, Codable, Equatable {
    public var strategy: String
    /// Minutes from the busiest minute (`-30 ... 30`) and the fleet's pushes in each.
    public var pushMinutes: [Int]
    public var fleetPushesPerMinute: [Double]
    /// Acceptable glances by the activity's age: bucket starts in minutes,
    /// the share in per cent and the glances behind it.
    public var ageMinutes: [Int]
    public var acceptablePct: [Double]
    public var ageGlances: [Int]
    /// Per event (`ActivityTable.events`): glances within tolerance, per
    /// cent (`nil`: no glance).
    public var eventAcceptablePct: [Double?]
    /// The priority-10 push budget left when an update push is sent, by the
    /// activity's age: bucket starts in minutes, the mean tokens left (out
    /// of `push_burst`) and the pushes behind it. Empty for priority 5.
    public var budgetMinutes: [Int] = []
    public var budgetLeft: [Double] = []
    public var budgetPushes: [Int] = []

    public init(
      strategy: String, pushMinutes: [Int], fleetPushesPerMinute: [Double], ageMinutes: [Int],
      acceptablePct: [Double], ageGlances: [Int], eventAcceptablePct: [Double?] = []
    ) {
      self.eventAcceptablePct = eventAcceptablePct
      self.strategy = strategy
      self.pushMinutes = pushMinutes
      self.fleetPushesPerMinute = fleetPushesPerMinute
      self.ageMinutes = ageMinutes
      self.acceptablePct = acceptablePct
      self.ageGlances = ageGlances
    }
  }

  public var rows: [Row]
  public var series: [Series]
  /// What each activity follows: event name and the kind of its data.
  public var events: [String]
  public var eventKinds: [String]

  public init(rows: [Row], series: [Series], events: [String], eventKinds: [String]) {
    self.rows = rows
    self.series = series
    self.events = events
    self.eventKinds = eventKinds
  }

  public func row(strategy: String, segment: String = "all") -> Row? {
    rows.first { $0.strategy == strategy && $0.segment == segment }
  }
}

/// The Live Activity metrics, declared once: column name, unit, what it
/// measures (docs/model.md#live-activities, "What it reports").
public enum ActivityMetric: Int, CaseIterable, Sendable {
  case devices
  case activitiesPerDeviceDay
  case missedStartPct
  case activityGlances
  case freshGlancePct
  case acceptableGlancePct
  case staleMarkedGlancePct
  case updatesShownPerActivity
  case updatesMergedPerActivity
  case alertsShownPerActivity
  case pushesThrottledPerActivity
  case pushesSentPerActivity
  case pushesPerDeviceDay
  case budgetExhaustedActivityPct
  case fleetPushesPerDay
  case fleetPushPeakPerSecond
  case fleetPushPeakLow
  case fleetPushPeakHigh
  case energyMjPerDeviceDay

  public var index: Int { rawValue }

  /// The CSV column.
  public var name: String {
    switch self {
    case .devices: return "devices"
    case .activitiesPerDeviceDay: return "activities_per_device_day"
    case .missedStartPct: return "missed_start_pct"
    case .activityGlances: return "activity_glances"
    case .freshGlancePct: return "activity_fresh_glance_pct"
    case .acceptableGlancePct: return "activity_acceptable_glance_pct"
    case .staleMarkedGlancePct: return "stale_marked_glance_pct"
    case .updatesShownPerActivity: return "updates_shown_per_activity"
    case .updatesMergedPerActivity: return "updates_merged_per_activity"
    case .alertsShownPerActivity: return "alerts_shown_per_activity"
    case .pushesThrottledPerActivity: return "pushes_throttled_per_activity"
    case .pushesSentPerActivity: return "pushes_sent_per_activity"
    case .pushesPerDeviceDay: return "activity_pushes_per_device_day"
    case .budgetExhaustedActivityPct: return "budget_exhausted_activity_pct"
    case .fleetPushesPerDay: return "fleet_activity_pushes_per_day"
    case .fleetPushPeakPerSecond: return "fleet_activity_push_peak_per_s"
    case .fleetPushPeakLow: return "fleet_activity_push_peak_per_s_low"
    case .fleetPushPeakHigh: return "fleet_activity_push_peak_per_s_high"
    case .energyMjPerDeviceDay: return "activity_energy_mj_per_device_day"
    }
  }

  /// The name people read.
  public var label: String {
    switch self {
    case .devices: return "Devices"
    case .activitiesPerDeviceDay: return "Activities, per device-day"
    case .missedStartPct: return "Followed events without an activity, %"
    case .activityGlances: return "Glances at an activity"
    case .freshGlancePct: return "Fresh glances, %"
    case .acceptableGlancePct: return "Glances within tolerance, %"
    case .staleMarkedGlancePct: return "Glances past the stale date, %"
    case .updatesShownPerActivity: return "Updates shown, per activity"
    case .updatesMergedPerActivity: return "Updates merged, per activity"
    case .alertsShownPerActivity: return "Alerts shown, per activity"
    case .pushesThrottledPerActivity: return "Pushes over budget, per activity"
    case .pushesSentPerActivity: return "Pushes sent, per activity"
    case .pushesPerDeviceDay: return "Pushes, per device-day"
    case .budgetExhaustedActivityPct: return "Activities that hit the push budget, %"
    case .fleetPushesPerDay: return "Fleet pushes per day"
    case .fleetPushPeakPerSecond: return "Fleet push peak, per second"
    case .fleetPushPeakLow: return "Fleet push peak, 95 % low"
    case .fleetPushPeakHigh: return "Fleet push peak, 95 % high"
    case .energyMjPerDeviceDay: return "Energy proxy, mJ per device-day"
    }
  }

  /// Digits after the decimal point in the CSV.
  public var decimals: Int {
    switch self {
    case .devices, .activityGlances, .fleetPushesPerDay, .fleetPushPeakPerSecond, .fleetPushPeakLow,
      .fleetPushPeakHigh:
      return 0
    default: return 3
    }
  }

  /// What it measures.
  public var definition: String {
    switch self {
    case .devices: return "Simulated devices in the row."
    case .activitiesPerDeviceDay:
      return "Live Activities started per device and measured day (followed events the user saw as an activity)."
    case .missedStartPct:
      return "Followed events that got no activity: Live Activities switched off, the app never opened during the "
        + "event (an app-started activity), the device's push-to-start budget spent, or the app's concurrent "
        + "limit reached."
    case .activityGlances: return "Glances at an activity on the Lock Screen or in the Dynamic Island (measured days)."
    case .freshGlancePct: return "Glances that showed every change of the event's data so far."
    case .acceptableGlancePct:
      return "Glances whose data was at most the kind's tolerance behind (the same rule as a widget's)."
    case .staleMarkedGlancePct: return "Glances after the activity's stale date (the system shows it as out of date)."
    case .updatesShownPerActivity: return "Updates the activity displayed (pushes and local updates, after merging)."
    case .updatesMergedPerActivity:
      return "Updates that arrived within the minimum interval of the last one and were merged into a later display."
    case .alertsShownPerActivity:
      return "Updates with an alert shown (each lights the screen with the expanded presentation; counted as a "
        + "glance under `model.activity.alert_counts_as_glance`)."
    case .pushesThrottledPerActivity:
      return "Priority-10 pushes beyond the push budget (dropped, or delayed under `over_budget: delay`)."
    case .pushesSentPerActivity:
      return "Pushes the backend sent to the activity's token: push-to-start, updates and end (broadcasts to a "
        + "channel are in the fleet figures)."
    case .pushesPerDeviceDay: return "Pushes the backend sent to tokens per device and measured day."
    case .budgetExhaustedActivityPct: return "Activities with at least one priority-10 push beyond the budget."
    case .fleetPushesPerDay:
      return "Pushes the backend sends per day at the scenario's fleet size, and its broadcast requests to channels "
        + "(one per change, whatever the fleet)."
    case .fleetPushPeakPerSecond:
      return "The backend's busiest second of Live Activity pushes at the fleet's size: a push sent to every "
        + "follower in the same second (a goal) counted as such, other load by the backend fleet peak's estimator; "
        + "plus the busiest second of broadcast requests."
    case .fleetPushPeakLow, .fleetPushPeakHigh: return "The 95 % interval of the fleet push peak."
    case .energyMjPerDeviceDay: return "Energy proxy: each update shown costs one render (the extension launch's mJ)."
    }
  }
}
