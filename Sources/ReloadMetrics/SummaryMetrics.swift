/// The columns of `summary.csv`, in order: a public interface.
///
/// CSV, the stdout table, the HTML report and `reloadbench check` all read
/// these definitions; adding a metric means adding it here (at the end, to
/// keep the column order stable) and documenting it in `Reports/README.md`.
public enum SummaryMetrics {
  /// The label columns that come before the metrics.
  public static let labelColumns = ["scenario", "policy", "segment"]

  public static let devices = Metric(
    "devices", unit: .count, polarity: .neutral, decimals: 0,
    definition: "Simulated devices in the row's segment (summed over replications: no).")
  public static let widgets = Metric(
    "widgets", unit: .count, polarity: .neutral, decimals: 0,
    definition: "Simulated widget instances.")
  public static let widgetDays = Metric(
    "widget_days", unit: .count, polarity: .neutral, decimals: 1,
    definition: "Widgets x measured days (the run's days minus warm-up), per replication.")
  public static let glances = Metric(
    "glances", unit: .count, polarity: .neutral, decimals: 0,
    definition: "Glances at widgets in the measured days, per replication.")
  public static let freshGlancePct = Metric(
    "fresh_glance_pct", unit: .percent, polarity: .prefersLarger, decimals: 2, headline: true,
    definition: "Share of glances at which the widget showed the current data (staleness 0).")
  public static let acceptableGlancePct = Metric(
    "acceptable_glance_pct", unit: .percent, polarity: .prefersLarger, decimals: 2, headline: true,
    definition: "Share of glances whose staleness was at most the content's tolerance.")
  public static let stalenessMeanMin = Metric(
    "staleness_mean_min", unit: .minutes, polarity: .prefersSmaller, decimals: 2, headline: true,
    definition: "Mean staleness over all glances (fresh glances count as 0).")
  public static let stalenessP50Min = Metric(
    "staleness_p50_min", unit: .minutes, polarity: .prefersSmaller, decimals: 2,
    definition: "Median staleness over all glances, from the mergeable histogram.")
  public static let stalenessP95Min = Metric(
    "staleness_p95_min", unit: .minutes, polarity: .prefersSmaller, decimals: 2, headline: true,
    definition: "95th percentile of staleness over all glances.")
  public static let stalenessP99Min = Metric(
    "staleness_p99_min", unit: .minutes, polarity: .prefersSmaller, decimals: 2,
    definition: "99th percentile of staleness over all glances.")
  public static let budgetedReloadsPerWidgetDay = Metric(
    "budgeted_reloads_per_widget_day", unit: .perWidgetDay, polarity: .prefersSmaller, decimals: 3,
    headline: true,
    definition: "Reloads charged to a budget: policy reloads, background app reloads, WidgetKit-push reloads.")
  public static let freeReloadsPerWidgetDay = Metric(
    "free_reloads_per_widget_day", unit: .perWidgetDay, polarity: .neutral, decimals: 3,
    definition: "Exempt reloads: app in the foreground or in an audio/navigation session, widget taps, settings changes, newly added widgets.")
  public static let wastedReloadPct = Metric(
    "wasted_reload_pct", unit: .percent, polarity: .prefersSmaller, decimals: 2,
    definition: "Share of reloads that captured nothing new: the widget already showed current data and the new timeline added no scheduled change.")
  public static let dryWidgetDayPct = Metric(
    "dry_widget_day_pct", unit: .percent, polarity: .prefersSmaller, decimals: 2, headline: true,
    definition: "Share of widget-days (whole local days inside the measured window) on which the budget was empty at some point: a budgeted request was refused, or a dry spell carried over from the day before.")
  public static let dryHoursPerWidgetDay = Metric(
    "dry_hours_per_widget_day", unit: .hours, polarity: .prefersSmaller, decimals: 3,
    definition: "Hours per widget-day between a request refused for lack of budget and the budget's return.")
  public static let firstDryHourMedian = Metric(
    "first_dry_hour_median", unit: .hourOfDay, polarity: .prefersLarger, decimals: 2,
    definition: "Median local hour at which a budget first ran out on a day (the start of a new dry spell; empty when none did).")
  public static let extensionLaunchesPerWidgetDay = Metric(
    "extension_launches_per_widget_day", unit: .perWidgetDay, polarity: .prefersSmaller, decimals: 3,
    definition: "Widget extension launches (one per executed reload, budgeted or free).")
  public static let appWakesPerDeviceDay = Metric(
    "app_wakes_per_device_day", unit: .perDeviceDay, polarity: .prefersSmaller, decimals: 3,
    definition: "Background launches of the app: delivered silent pushes plus BGAppRefresh runs.")
  public static let silentPushesSent = Metric(
    "silent_pushes_sent", unit: .count, polarity: .prefersSmaller, decimals: 0,
    definition: "Silent (background) pushes the backend sent to the simulated devices in the measured days.")
  public static let silentPushesDeliveredPct = Metric(
    "silent_pushes_delivered_pct", unit: .percent, polarity: .prefersLarger, decimals: 2,
    definition: "Share of sent silent pushes that woke the app (empty when none were sent).")
  public static let bgRefreshRunsPerDeviceDay = Metric(
    "bg_refresh_runs_per_device_day", unit: .perDeviceDay, polarity: .neutral, decimals: 3,
    definition: "BGAppRefresh tasks the system ran.")
  public static let backendRequestsPerWidgetDay = Metric(
    "backend_requests_per_widget_day", unit: .perWidgetDay, polarity: .prefersSmaller, decimals: 3,
    headline: true,
    definition: "Timeline fetches (one per reload) plus background fetches (one per app wake), per widget-day.")
  public static let backendPeakRps = Metric(
    "backend_peak_rps", unit: .requestsPerSecond, polarity: .prefersSmaller, decimals: 2, headline: true,
    definition: "Requests in the busiest UTC second of the measured days, scaled to the scenario's fleet size.")
  public static let energyMjPerDeviceDay = Metric(
    "energy_mj_per_device_day", unit: .millijoulesPerDeviceDay, polarity: .prefersSmaller, decimals: 2,
    definition: "Energy proxy: extension launches, app wakes and fetches, each at a scenario-set cost in mJ.")
  // Columns after the required ones.
  public static let staleGlanceStalenessMeanMin = Metric(
    "stale_glance_staleness_mean_min", unit: .minutes, polarity: .prefersSmaller, decimals: 2,
    definition: "Mean staleness over stale glances only (R1's 'mean staleness').")
  public static let reloadsPerWidgetDay = Metric(
    "reloads_per_widget_day", unit: .perWidgetDay, polarity: .neutral, decimals: 3,
    definition: "All executed reloads, budgeted and free.")
  public static let withheldRequestsPerWidgetDay = Metric(
    "withheld_requests_per_widget_day", unit: .perWidgetDay, polarity: .prefersSmaller, decimals: 3,
    definition: "Budgeted requests refused for lack of budget (withheld or dropped).")
  public static let dataChangesPerWidgetDay = Metric(
    "data_changes_per_widget_day", unit: .perWidgetDay, polarity: .neutral, decimals: 3,
    definition: "Changes of the data behind each widget (scheduled and unpredictable).")
  public static let widgetPushesSent = Metric(
    "widget_pushes_sent", unit: .count, polarity: .prefersSmaller, decimals: 0,
    definition: "WidgetKit pushes the backend sent to the simulated devices.")
  public static let widgetPushesAcceptedPct = Metric(
    "widget_pushes_accepted_pct", unit: .percent, polarity: .prefersLarger, decimals: 2,
    definition: "Share of WidgetKit pushes that the push budget let through (empty when none were sent).")
  public static let backendMeanRps = Metric(
    "backend_mean_rps", unit: .requestsPerSecond, polarity: .prefersSmaller, decimals: 3,
    definition: "Mean backend requests per second over the measured days, scaled to the fleet.")
  public static let backendPeakMinuteRps = Metric(
    "backend_peak_minute_rps", unit: .requestsPerSecond, polarity: .prefersSmaller, decimals: 3,
    definition: "Mean requests per second in the busiest UTC minute, scaled to the fleet (less noisy than the busiest second).")
  public static let eventsPerWidgetDay = Metric(
    "events_per_widget_day", unit: .perWidgetDay, polarity: .neutral, decimals: 2,
    definition: "Model events (glances, data changes, reloads, deferrals, sessions, pushes, ...) per widget-day.")

  /// Every metric column of summary.csv, in order.
  public static let all: [Metric] = [
    devices, widgets, widgetDays, glances, freshGlancePct, acceptableGlancePct,
    stalenessMeanMin, stalenessP50Min, stalenessP95Min, stalenessP99Min,
    budgetedReloadsPerWidgetDay, freeReloadsPerWidgetDay, wastedReloadPct, dryWidgetDayPct,
    dryHoursPerWidgetDay, firstDryHourMedian, extensionLaunchesPerWidgetDay,
    appWakesPerDeviceDay, silentPushesSent, silentPushesDeliveredPct,
    bgRefreshRunsPerDeviceDay, backendRequestsPerWidgetDay, backendPeakRps,
    energyMjPerDeviceDay,
    staleGlanceStalenessMeanMin, reloadsPerWidgetDay, withheldRequestsPerWidgetDay,
    dataChangesPerWidgetDay, widgetPushesSent, widgetPushesAcceptedPct, backendMeanRps,
    backendPeakMinuteRps, eventsPerWidgetDay,
  ]

  /// The metric named `name`, if it is a summary column.
  public static func metric(named name: String) -> Metric? {
    all.first { $0.name == name }
  }
}
