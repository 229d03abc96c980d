import ReloadMetrics

/// Words for people: units as axis and column suffixes, and which way is
/// better. A metric's own labels are declared with it (`Metric.label`,
/// `Metric.shortLabel`, from `SummaryMetric`); which way a metric is better
/// always comes from its `Polarity`.
enum ReportLabels {
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

  /// `m`'s label with its unit: "Budgeted reloads per widget-day",
  /// "Fresh glances (%)"; a label that ends in brackets takes the unit in
  /// them: "Fleet peak second (p99.9, req/s)", not "(p99.9) (req/s)".
  static func withUnit(_ m: Metric) -> String {
    let suffix = unitSuffix(m.unit)
    if m.label.hasSuffix(")"), suffix.hasPrefix(" (") {
      return String(m.label.dropLast()) + ", " + suffix.dropFirst(2)
    }
    return m.label + suffix
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
