/// The metric columns of `summary.csv`: the catalogue, one declaration per
/// metric.
///
/// The cases are the columns, in order (`rawValue` is the column's index);
/// `declaration` gives each its column name, unit, polarity, decimals,
/// labels and definition, in a `switch` the compiler checks for
/// completeness. Code names a metric by its case (`.freshGlancePct`), never
/// by its column name, so a misspelled metric does not compile.
///
/// Adding a metric takes three edits, each one the compiler asks for
/// after the first:
/// 1. a case here, at the end (columns are a public interface: new ones
///    are only added at the end);
/// 2. its declaration in `declaration`;
/// 3. its value in `WidgetModel`'s `ResultsBuilder` (a `switch` over these
///    cases).
/// Then `reloadbench schema` regenerates the table in `Reports/README.md`
/// (a test fails until it does).
public enum SummaryMetric: Int, CaseIterable, Sendable, Hashable {
  case devices
  case widgets
  case widgetDays
  case glances
  case freshGlancePct
  case acceptableGlancePct
  case stalenessMeanMin
  case stalenessP50Min
  case stalenessP95Min
  case stalenessP99Min
  case budgetedReloadsPerWidgetDay
  case freeReloadsPerWidgetDay
  case wastedReloadPct
  case frozenWidgetDayPct
  case frozenHoursPerWidgetDay
  case firstFrozenHourMedian
  case extensionLaunchesPerWidgetDay
  case appWakesPerDeviceDay
  case silentPushesSent
  case silentPushesDeliveredPct
  case bgRefreshRunsPerDeviceDay
  case backendRequestsPerWidgetDay
  case backendPeakRps
  case energyMjPerDeviceDay
  // Columns after the required ones.
  case staleGlanceStalenessMeanMin
  case reloadsPerWidgetDay
  case withheldRequestsPerWidgetDay
  case dataChangesPerWidgetDay
  case widgetPushesSent
  case widgetPushesAcceptedPct
  case backendMeanRps
  case backendPeakMinuteRps
  case eventsPerWidgetDay
  case placeholderGlancePct
  case changedReloadPct
  case backendFleetPeakRps
  case backendFleetPeakLowRps
  case backendFleetPeakHighRps
  case backendFleetPeakMinuteRps
  case backendFleetPeakMinuteLowRps
  case backendFleetPeakMinuteHighRps
  case silentPushesPerFleetDay
  case widgetPushesPerFleetDay
  case silentPushFleetPeakPerS
  case widgetPushFleetPeakPerS
  case budgetLimitedWidgetDayPct
  case budgetLimitedRequestPct
  case budgetLimitedHoursPerWidgetDay
  case firstBudgetLimitedHourMedian

  /// The metric's declaration: column name, unit, polarity, decimals,
  /// labels and definition.
  public var metric: Metric { Self.declarations[rawValue] }

  /// The CSV column name.
  public var name: String { metric.name }

  /// Whether the metric has a value for each widget kind (the `kind` rows
  /// of a scenario with several kinds): what each widget counts (glances,
  /// staleness, reloads, requests to the budget, frozen and budget-limited
  /// time). What a device or the backend counts (devices, app wakes,
  /// pushes, backend requests and peaks, energy, events) belongs to no one
  /// kind: empty in a kind's row.
  public var perKind: Bool {
    switch self {
    case .widgets, .widgetDays, .glances, .freshGlancePct, .acceptableGlancePct, .stalenessMeanMin,
      .stalenessP50Min, .stalenessP95Min, .stalenessP99Min, .budgetedReloadsPerWidgetDay, .freeReloadsPerWidgetDay,
      .wastedReloadPct, .frozenWidgetDayPct, .frozenHoursPerWidgetDay, .firstFrozenHourMedian,
      .extensionLaunchesPerWidgetDay, .staleGlanceStalenessMeanMin, .reloadsPerWidgetDay,
      .withheldRequestsPerWidgetDay, .dataChangesPerWidgetDay, .placeholderGlancePct, .changedReloadPct,
      .budgetLimitedWidgetDayPct, .budgetLimitedRequestPct, .budgetLimitedHoursPerWidgetDay,
      .firstBudgetLimitedHourMedian:
      return true
    case .devices, .appWakesPerDeviceDay, .silentPushesSent, .silentPushesDeliveredPct, .bgRefreshRunsPerDeviceDay,
      .backendRequestsPerWidgetDay, .backendPeakRps, .energyMjPerDeviceDay, .widgetPushesSent,
      .widgetPushesAcceptedPct, .backendMeanRps, .backendPeakMinuteRps, .eventsPerWidgetDay, .backendFleetPeakRps,
      .backendFleetPeakLowRps, .backendFleetPeakHighRps, .backendFleetPeakMinuteRps, .backendFleetPeakMinuteLowRps,
      .backendFleetPeakMinuteHighRps, .silentPushesPerFleetDay,
      .widgetPushesPerFleetDay, .silentPushFleetPeakPerS, .widgetPushFleetPeakPerS:
      return false
    }
  }

  /// The columns that hold this metric's own 95 % interval (the fleet
  /// estimates' Poisson error, `FleetLoad`), or nil: an interval a run of
  /// one replication has too, beside the `_ci95` over replications.
  public var intervalEnds: (low: SummaryMetric, high: SummaryMetric)? {
    switch self {
    case .backendFleetPeakRps: return (.backendFleetPeakLowRps, .backendFleetPeakHighRps)
    case .backendFleetPeakMinuteRps: return (.backendFleetPeakMinuteLowRps, .backendFleetPeakMinuteHighRps)
    default: return nil
    }
  }

  /// Columns of earlier versions and the metric that replaced each: the
  /// dry figures (a refusal withheld past a fixed wait) became the frozen
  /// ones in model version 3 (docs/model.md#frozen-widgets). An old
  /// scenario's or baseline's name is answered with its replacement.
  public static let retiredNames: [String: SummaryMetric] = [
    "dry_widget_day_pct": .frozenWidgetDayPct, "dry_hours_per_widget_day": .frozenHoursPerWidgetDay,
    "first_dry_hour_median": .firstFrozenHourMedian,
  ]

  /// The summary metric whose column is named `name` (for names that come
  /// from outside the code: a scenario's `expect`, a baseline file).
  public init?(columnName name: String) {
    guard let i = Self.declarations.firstIndex(where: { $0.name == name }) else { return nil }
    self.init(rawValue: i)
  }

  private static let declarations: [Metric] = allCases.map(\.declaration)

  private var declaration: Metric {
    switch self {
    case .devices:
      return Metric(
        "devices", unit: .count, polarity: .neutral, decimals: 0, label: "Devices", shortLabel: "devices",
        definition: "Simulated devices in the row's segment (summed over replications: no).")
    case .widgets:
      return Metric(
        "widgets", unit: .count, polarity: .neutral, decimals: 0, label: "Widgets", shortLabel: "widgets",
        definition: "Simulated widget instances.")
    case .widgetDays:
      return Metric(
        "widget_days", unit: .count, polarity: .neutral, decimals: 1, label: "Widget-days", shortLabel: "widget-days",
        definition: "Widgets x measured days (the run's days minus warm-up), per replication.")
    case .glances:
      return Metric(
        "glances", unit: .count, polarity: .neutral, decimals: 0, label: "Glances", shortLabel: "glances",
        definition: "Glances at widgets in the measured days, per replication.")
    case .freshGlancePct:
      return Metric(
        "fresh_glance_pct", unit: .percent, polarity: .prefersLarger, decimals: 2, headline: true,
        label: "Fresh glances", shortLabel: "fresh", terminalLabel: "fresh %",
        terminalKey: "glances that showed the current data",
        definition: "Share of glances at which the widget showed the current data (staleness 0).")
    case .acceptableGlancePct:
      return Metric(
        "acceptable_glance_pct", unit: .percent, polarity: .prefersLarger, decimals: 2, headline: true,
        label: "Glances within tolerance", shortLabel: "within tolerance", terminalLabel: "ok %",
        terminalKey: "glances within the content's tolerance",
        definition: "Share of glances whose staleness was at most the content's tolerance.")
    case .stalenessMeanMin:
      return Metric(
        "staleness_mean_min", unit: .minutes, polarity: .prefersSmaller, decimals: 2, headline: true,
        label: "Mean staleness", shortLabel: "mean staleness",
        definition:
          "Mean staleness over all glances that showed data (fresh glances count as 0; placeholder glances are left "
          + "out)."
      )
    case .stalenessP50Min:
      return Metric(
        "staleness_p50_min", unit: .minutes, polarity: .prefersSmaller, decimals: 2,
        label: "Median staleness", shortLabel: "median staleness",
        definition: "Median staleness over all glances that showed data, from the mergeable histogram.")
    case .stalenessP95Min:
      return Metric(
        "staleness_p95_min", unit: .minutes, polarity: .prefersSmaller, decimals: 2, headline: true,
        label: "Staleness, 95th percentile", shortLabel: "p95 staleness", terminalLabel: "p95 stale min",
        terminalKey: "95th percentile of staleness at a glance, minutes",
        definition: "95th percentile of staleness over all glances that showed data.")
    case .stalenessP99Min:
      return Metric(
        "staleness_p99_min", unit: .minutes, polarity: .prefersSmaller, decimals: 2,
        label: "Staleness, 99th percentile", shortLabel: "p99 staleness",
        definition: "99th percentile of staleness over all glances that showed data.")
    case .budgetedReloadsPerWidgetDay:
      return Metric(
        "budgeted_reloads_per_widget_day", unit: .perWidgetDay, polarity: .prefersSmaller, decimals: 3,
        headline: true, label: "Budgeted reloads", shortLabel: "budgeted reloads", terminalLabel: "budgeted/wd",
        terminalKey: "reloads charged to the budget per widget-day",
        definition: "Reloads charged to a budget: policy reloads, background app reloads, WidgetKit-push reloads.")
    case .freeReloadsPerWidgetDay:
      return Metric(
        "free_reloads_per_widget_day", unit: .perWidgetDay, polarity: .neutral, decimals: 3,
        label: "Free reloads", shortLabel: "free reloads", terminalLabel: "free/wd",
        terminalKey: "reloads exempt from the budget per widget-day",
        definition:
          "Exempt reloads: app in the foreground or in an audio/navigation session, widget taps, settings changes, "
          + "newly added widgets."
      )
    case .wastedReloadPct:
      return Metric(
        "wasted_reload_pct", unit: .percent, polarity: .prefersSmaller, decimals: 2,
        label: "Wasted reloads", shortLabel: "wasted",
        definition:
          "Share of reloads that captured nothing new: the widget already showed current data and the new timeline "
          + "added no scheduled change."
      )
    case .frozenWidgetDayPct:
      return Metric(
        "frozen_widget_day_pct", unit: .percent, polarity: .prefersSmaller, decimals: 2, headline: true,
        label: "Widget-days frozen by the budget", shortLabel: "frozen days", terminalLabel: "frozen days %",
        terminalKey: "widget-days on which the budget froze the widget",
        definition:
          "Share of widget-days (whole local days inside the measured window) with frozen time: the widget asked "
          + "for a reload, the budget refused it, and its last reload was older than its kind's tolerance_min (or "
          + "budget.frozen_after_min), until it reloaded; a frozen stretch carried over from the day before counts."
      )
    case .frozenHoursPerWidgetDay:
      return Metric(
        "frozen_hours_per_widget_day", unit: .hours, polarity: .prefersSmaller, decimals: 3,
        label: "Hours frozen by the budget", shortLabel: "frozen hours",
        definition:
          "Hours per widget-day the widget was frozen: from a refusal, or from when its last reload became older "
          + "than its tolerance if that is later, to its next reload."
      )
    case .firstFrozenHourMedian:
      return Metric(
        "first_frozen_hour_median", unit: .hourOfDay, polarity: .prefersLarger, decimals: 2,
        label: "Froze at (median)", shortLabel: "froze at",
        definition:
          "Median local hour at which a widget first froze on a frozen widget-day (the start of the day's first "
          + "frozen stretch; a stretch carried over from the day before does not count); empty when none froze."
      )
    case .extensionLaunchesPerWidgetDay:
      return Metric(
        "extension_launches_per_widget_day", unit: .perWidgetDay, polarity: .prefersSmaller, decimals: 3,
        label: "Extension launches", shortLabel: "launches",
        definition: "Widget extension launches (one per executed reload, budgeted or free).")
    case .appWakesPerDeviceDay:
      return Metric(
        "app_wakes_per_device_day", unit: .perDeviceDay, polarity: .prefersSmaller, decimals: 3,
        label: "Background app wakes", shortLabel: "app wakes",
        definition: "Background launches of the app: delivered silent pushes plus BGAppRefresh runs.")
    case .silentPushesSent:
      return Metric(
        "silent_pushes_sent", unit: .count, polarity: .prefersSmaller, decimals: 0,
        label: "Silent pushes sent", shortLabel: "pushes sent",
        definition: "Silent (background) pushes the backend sent to the simulated devices in the measured days.")
    case .silentPushesDeliveredPct:
      return Metric(
        "silent_pushes_delivered_pct", unit: .percent, polarity: .prefersLarger, decimals: 2,
        label: "Silent pushes delivered", shortLabel: "delivered",
        definition: "Share of sent silent pushes that woke the app (empty when none were sent).")
    case .bgRefreshRunsPerDeviceDay:
      return Metric(
        "bg_refresh_runs_per_device_day", unit: .perDeviceDay, polarity: .neutral, decimals: 3,
        label: "BGAppRefresh runs", shortLabel: "refresh runs",
        definition: "BGAppRefresh tasks the system ran.")
    case .backendRequestsPerWidgetDay:
      return Metric(
        "backend_requests_per_widget_day", unit: .perWidgetDay, polarity: .prefersSmaller, decimals: 3,
        headline: true, label: "Backend requests", shortLabel: "backend requests", terminalLabel: "requests/wd",
        terminalKey: "backend requests per widget-day",
        definition: "Timeline fetches (one per reload) plus background fetches (one per app wake), per widget-day.")
    case .backendPeakRps:
      return Metric(
        "backend_peak_rps", unit: .requestsPerSecond, polarity: .prefersSmaller, decimals: 2,
        label: "Backend peak", shortLabel: "peak req/s", terminalLabel: "peak req/s",
        terminalKey: "backend requests in the busiest sampled second, scaled to the fleet",
        definition: "Requests in the busiest UTC second of the measured days, scaled to the scenario's fleet size.")
    case .energyMjPerDeviceDay:
      return Metric(
        "energy_mj_per_device_day", unit: .millijoulesPerDeviceDay, polarity: .prefersSmaller, decimals: 2,
        label: "Energy", shortLabel: "energy", terminalLabel: "mJ/dev-day",
        terminalKey: "energy proxy, millijoules per device-day",
        definition: "Energy proxy: extension launches, app wakes and fetches, each at a scenario-set cost in mJ.")
    case .staleGlanceStalenessMeanMin:
      return Metric(
        "stale_glance_staleness_mean_min", unit: .minutes, polarity: .prefersSmaller, decimals: 2,
        label: "Mean staleness of stale glances", shortLabel: "stale-glance staleness",
        definition: "Mean staleness over stale glances only (R1's 'mean staleness').")
    case .reloadsPerWidgetDay:
      return Metric(
        "reloads_per_widget_day", unit: .perWidgetDay, polarity: .neutral, decimals: 3,
        label: "All reloads", shortLabel: "reloads",
        definition: "All executed reloads, budgeted and free.")
    case .withheldRequestsPerWidgetDay:
      return Metric(
        "withheld_requests_per_widget_day", unit: .perWidgetDay, polarity: .prefersSmaller, decimals: 3,
        label: "Withheld requests", shortLabel: "withheld",
        definition: "Budgeted requests refused for lack of budget (withheld or dropped).")
    case .dataChangesPerWidgetDay:
      return Metric(
        "data_changes_per_widget_day", unit: .perWidgetDay, polarity: .neutral, decimals: 3,
        label: "Data changes", shortLabel: "changes",
        definition: "Changes of the data behind each widget (scheduled and unpredictable).")
    case .widgetPushesSent:
      return Metric(
        "widget_pushes_sent", unit: .count, polarity: .prefersSmaller, decimals: 0,
        label: "WidgetKit pushes sent", shortLabel: "widget pushes",
        definition: "WidgetKit pushes the backend sent to the simulated devices.")
    case .widgetPushesAcceptedPct:
      return Metric(
        "widget_pushes_accepted_pct", unit: .percent, polarity: .prefersLarger, decimals: 2,
        label: "WidgetKit pushes accepted", shortLabel: "accepted",
        definition: "Share of WidgetKit pushes that the push budget let through (empty when none were sent).")
    case .backendMeanRps:
      return Metric(
        "backend_mean_rps", unit: .requestsPerSecond, polarity: .prefersSmaller, decimals: 3,
        label: "Backend mean load", shortLabel: "mean req/s",
        definition: "Mean backend requests per second over the measured days, scaled to the fleet.")
    case .backendPeakMinuteRps:
      return Metric(
        "backend_peak_minute_rps", unit: .requestsPerSecond, polarity: .prefersSmaller, decimals: 3,
        label: "Backend peak minute", shortLabel: "peak-minute req/s",
        definition:
          "Mean requests per second in the busiest UTC minute, scaled to the fleet (less noisy than the busiest "
          + "second)."
      )
    case .eventsPerWidgetDay:
      return Metric(
        "events_per_widget_day", unit: .perWidgetDay, polarity: .neutral, decimals: 2,
        label: "Model events", shortLabel: "events",
        definition: "Model events (glances, data changes, reloads, deferrals, sessions, pushes, ...) per widget-day.")
    case .placeholderGlancePct:
      return Metric(
        "placeholder_glance_pct", unit: .percent, polarity: .prefersSmaller, decimals: 2,
        label: "Placeholder glances", shortLabel: "placeholder",
        definition:
          "Share of glances at a widget showing a placeholder (no data yet: a failed fetch whose timeline shows "
          + "none). They are neither fresh nor stale: not within tolerance, and left out of the staleness figures "
          + "and the stale-glance counts."
      )
    case .changedReloadPct:
      return Metric(
        "changed_reload_pct", unit: .percent, polarity: .prefersLarger, decimals: 2,
        label: "Budgeted reloads that changed the widget", shortLabel: "changed",
        definition:
          "Share of budgeted reloads that changed what the widget shows: new data with a change it did not show, a "
          + "scheduled change the old timeline lacked, or data where a placeholder was. The rest spent budget for "
          + "nothing (the same data again: a widget already current, a failed fetch, a stale cache); empty when "
          + "none was budgeted."
      )
    case .backendFleetPeakRps:
      return Metric(
        "backend_fleet_peak_rps", unit: .requestsPerSecond, polarity: .prefersSmaller, decimals: 1, headline: true,
        label: "Fleet peak second (p99.9)", shortLabel: "fleet peak req/s", terminalLabel: "fleet peak/s",
        terminalKey: "backend requests in the fleet's busy second (p99.9 of seconds)",
        definition:
          "The fleet's requests in a busy second: the 99.9th percentile of the measured seconds (exceeded about 10 "
          + "minutes a week), from the fleet's per-second rate estimated from the sample (FleetLoad: synchronised "
          + "bursts resolved to the second, independent requests averaged where their rate is smooth) with "
          + "Poisson noise. Unlike backend_peak_rps it does not depend on how many devices were simulated."
      )
    case .backendFleetPeakLowRps:
      return Metric(
        "backend_fleet_peak_low_rps", unit: .requestsPerSecond, polarity: .neutral, decimals: 1,
        label: "Fleet peak second, 95 % interval low", shortLabel: "fleet peak low",
        definition: "Lower end of the 95 % interval of backend_fleet_peak_rps (the sample's Poisson error of the rate)."
      )
    case .backendFleetPeakHighRps:
      return Metric(
        "backend_fleet_peak_high_rps", unit: .requestsPerSecond, polarity: .neutral, decimals: 1,
        label: "Fleet peak second, 95 % interval high", shortLabel: "fleet peak high",
        definition: "Upper end of the 95 % interval of backend_fleet_peak_rps.")
    case .backendFleetPeakMinuteRps:
      return Metric(
        "backend_fleet_peak_minute_rps", unit: .requestsPerSecond, polarity: .prefersSmaller, decimals: 1,
        label: "Fleet peak minute (p99.9)", shortLabel: "fleet peak-minute req/s",
        definition:
          "The fleet's mean requests per second in a busy minute: the 99.9th percentile of the measured minutes, "
          + "estimated like backend_fleet_peak_rps."
      )
    case .backendFleetPeakMinuteLowRps:
      return Metric(
        "backend_fleet_peak_minute_low_rps", unit: .requestsPerSecond, polarity: .neutral, decimals: 1,
        label: "Fleet peak minute, 95 % interval low", shortLabel: "fleet peak-minute low",
        definition:
          "Lower end of the 95 % interval of backend_fleet_peak_minute_rps: the same minutes with every second's "
          + "rate at the low end of its Poisson interval (as backend_fleet_peak_low_rps)."
      )
    case .backendFleetPeakMinuteHighRps:
      return Metric(
        "backend_fleet_peak_minute_high_rps", unit: .requestsPerSecond, polarity: .neutral, decimals: 1,
        label: "Fleet peak minute, 95 % interval high", shortLabel: "fleet peak-minute high",
        definition: "Upper end of the 95 % interval of backend_fleet_peak_minute_rps.")
    case .silentPushesPerFleetDay:
      return Metric(
        "silent_pushes_per_fleet_day", unit: .count, polarity: .prefersSmaller, decimals: 0,
        label: "Silent pushes per day (fleet)", shortLabel: "silent pushes/day", terminalLabel: "silent/day",
        definition:
          "Silent (background) APNs pushes the backend sends per measured day, scaled to the scenario's fleet size.")
    case .widgetPushesPerFleetDay:
      return Metric(
        "widget_pushes_per_fleet_day", unit: .count, polarity: .prefersSmaller, decimals: 0,
        label: "WidgetKit pushes per day (fleet)", shortLabel: "WidgetKit pushes/day", terminalLabel: "wk push/day",
        definition: "WidgetKit APNs pushes the backend sends per measured day, scaled to the scenario's fleet size.")
    case .silentPushFleetPeakPerS:
      return Metric(
        "silent_push_fleet_peak_per_s", unit: .requestsPerSecond, polarity: .prefersSmaller, decimals: 1,
        label: "Silent pushes, fleet peak second (p99.9)", shortLabel: "silent pushes peak/s",
        terminalLabel: "silent peak/s",
        definition:
          "Silent APNs pushes the backend sends to the fleet in a busy second: the 99.9th percentile of the "
          + "measured seconds, estimated from the sample's pushes per second like backend_fleet_peak_rps (a push "
          + "sent to every device on a shared change is one synchronised burst). All segments only (empty on "
          + "segment rows); 0 for a strategy that sends none."
      )
    case .widgetPushFleetPeakPerS:
      return Metric(
        "widget_push_fleet_peak_per_s", unit: .requestsPerSecond, polarity: .prefersSmaller, decimals: 1,
        label: "WidgetKit pushes, fleet peak second (p99.9)", shortLabel: "WidgetKit pushes peak/s",
        terminalLabel: "wk peak/s",
        definition:
          "WidgetKit APNs pushes the backend sends to the fleet in a busy second, estimated like "
          + "silent_push_fleet_peak_per_s. All segments only (empty on segment rows); 0 for a strategy that sends "
          + "none."
      )
    case .budgetLimitedWidgetDayPct:
      return Metric(
        "budget_limited_widget_day_pct", unit: .percent, polarity: .prefersSmaller, decimals: 2,
        label: "Widget-days limited by the budget", shortLabel: "limited days",
        definition:
          "Share of widget-days (whole local days inside the measured window) touched by budget-limited time: from "
          + "a budgeted request the budget held back or dropped, however short the wait, to the widget's next reload."
      )
    case .budgetLimitedRequestPct:
      return Metric(
        "budget_limited_request_pct", unit: .percent, polarity: .prefersSmaller, decimals: 2,
        label: "Requests limited by the budget", shortLabel: "limited requests",
        definition:
          "Share of budgeted requests that reached the budget (after the minimum interval) and were held back or "
          + "dropped for lack of budget: how many of the app's requests the budget refused, which depends on how "
          + "often it asks (empty when there were none)."
      )
    case .budgetLimitedHoursPerWidgetDay:
      return Metric(
        "budget_limited_hours_per_widget_day", unit: .hours, polarity: .prefersSmaller, decimals: 3,
        label: "Hours limited by the budget", shortLabel: "limited hours",
        definition:
          "Hours per widget-day from a refused request to the widget's next reload (of any kind): how long the "
          + "widget's requests waited on the budget, whatever its tolerance."
      )
    case .firstBudgetLimitedHourMedian:
      return Metric(
        "first_budget_limited_hour_median", unit: .hourOfDay, polarity: .prefersLarger, decimals: 2,
        label: "Budget ran out at (median)", shortLabel: "ran out at",
        definition:
          "Median local hour of a budget-limited widget-day's first refusal (a refusal carried over from the day "
          + "before does not count): when the budget first held a request back that day; empty when it never did."
      )
    }
  }
}

/// A summary metric is written and read as its column name
/// (`"fresh_glance_pct"`), in JSON and in text.
extension SummaryMetric: Codable, CustomStringConvertible {
  public var description: String { name }

  public init(from decoder: any Decoder) throws {
    let c = try decoder.singleValueContainer()
    let name = try c.decode(String.self)
    guard let metric = SummaryMetric(columnName: name) else {
      throw DecodingError.dataCorruptedError(in: c, debugDescription: "\(name) is not a summary.csv column")
    }
    self = metric
  }

  public func encode(to encoder: any Encoder) throws {
    var c = encoder.singleValueContainer()
    try c.encode(name)
  }
}

/// The columns of `summary.csv`, in order: a public interface. CSV, the
/// stdout table, the HTML report and `reloadbench check` all read them; the
/// metrics themselves are declared in `SummaryMetric`.
public enum SummaryMetrics {
  /// The label columns that come before the metrics. `policy` holds the
  /// strategy's name: the column kept its first name so files written
  /// before "strategy" became the word still read (`ResultRow.strategy`).
  public static let labelColumns = ["scenario", "policy", "segment"]

  /// The label column of a table with rows per widget kind, after
  /// `labelColumns`: a kind's name, or `all` for every kind together.
  public static let kindColumn = "kind"

  /// Every metric column of summary.csv, in order.
  public static let all: [Metric] = SummaryMetric.allCases.map(\.metric)

  /// The metric named `name`, if it is a summary column (for names that
  /// come from outside the code: a scenario file, a baseline).
  public static func metric(named name: String) -> Metric? {
    SummaryMetric(columnName: name)?.metric
  }
}
