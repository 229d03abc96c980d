import ReloadMetrics

/// Words for people: metric names as a product manager reads them, and
/// units as axis and column suffixes. Only labels live here; which way a
/// metric is better always comes from its `Polarity`.
enum ReportLabels {
  /// Human names (long, short) of the summary columns; others fall back to
  /// the column name with spaces.
  static let names: [String: (long: String, short: String)] = [
    "devices": ("Devices", "devices"),
    "widgets": ("Widgets", "widgets"),
    "widget_days": ("Widget-days", "widget-days"),
    "glances": ("Glances", "glances"),
    "fresh_glance_pct": ("Fresh glances", "fresh"),
    "acceptable_glance_pct": ("Glances within tolerance", "within tolerance"),
    "staleness_mean_min": ("Mean staleness", "mean staleness"),
    "staleness_p50_min": ("Median staleness", "median staleness"),
    "staleness_p95_min": ("Staleness, 95th percentile", "p95 staleness"),
    "staleness_p99_min": ("Staleness, 99th percentile", "p99 staleness"),
    "budgeted_reloads_per_widget_day": ("Budgeted reloads", "budgeted reloads"),
    "free_reloads_per_widget_day": ("Free reloads", "free reloads"),
    "wasted_reload_pct": ("Wasted reloads", "wasted"),
    "dry_widget_day_pct": ("Widget-days that ran dry", "dry days"),
    "dry_hours_per_widget_day": ("Hours without budget", "dry hours"),
    "first_dry_hour_median": ("Budget ran out at (median)", "ran dry at"),
    "extension_launches_per_widget_day": ("Extension launches", "launches"),
    "app_wakes_per_device_day": ("Background app wakes", "app wakes"),
    "silent_pushes_sent": ("Silent pushes sent", "pushes sent"),
    "silent_pushes_delivered_pct": ("Silent pushes delivered", "delivered"),
    "bg_refresh_runs_per_device_day": ("BGAppRefresh runs", "refresh runs"),
    "backend_requests_per_widget_day": ("Backend requests", "backend requests"),
    "backend_peak_rps": ("Backend peak", "peak req/s"),
    "energy_mj_per_device_day": ("Energy", "energy"),
    "stale_glance_staleness_mean_min": ("Mean staleness of stale glances", "stale-glance staleness"),
    "reloads_per_widget_day": ("All reloads", "reloads"),
    "withheld_requests_per_widget_day": ("Withheld requests", "withheld"),
    "data_changes_per_widget_day": ("Data changes", "changes"),
    "widget_pushes_sent": ("WidgetKit pushes sent", "widget pushes"),
    "widget_pushes_accepted_pct": ("WidgetKit pushes accepted", "accepted"),
    "backend_mean_rps": ("Backend mean load", "mean req/s"),
    "backend_peak_minute_rps": ("Backend peak minute", "peak-minute req/s"),
    "events_per_widget_day": ("Model events", "events"),
  ]

  static func name(of metric: Metric) -> String {
    names[metric.name]?.long ?? metric.name.replacingOccurrences(of: "_", with: " ")
  }

  static func shortName(of metric: Metric) -> String {
    names[metric.name]?.short ?? metric.name.replacingOccurrences(of: "_", with: " ")
  }

  /// The unit as a suffix for a title: " (%)", " per widget-day", " (req/s)".
  static func unitSuffix(_ unit: MetricUnit) -> String {
    switch unit {
    case .count: return ""
    case .perWidgetDay: return " per widget-day"
    case .perDeviceDay: return " per device-day"
    case .millijoulesPerDeviceDay: return " (mJ per device-day)"
    case .hourOfDay: return " (local time)"
    default: return " (" + unit.symbol + ")"
    }
  }

  /// "better ↑" / "better ↓" / "" for a column header, from the polarity.
  static func direction(_ polarity: Polarity) -> String {
    switch polarity {
    case .prefersLarger: return "higher is better"
    case .prefersSmaller: return "lower is better"
    case .neutral: return ""
    }
  }

  /// "↑" / "↓" / "" for a column header, from the polarity.
  static func arrow(_ polarity: Polarity) -> String {
    switch polarity {
    case .prefersLarger: return "↑"
    case .prefersSmaller: return "↓"
    case .neutral: return ""
    }
  }
}
