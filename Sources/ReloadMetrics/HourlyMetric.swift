/// The per-hour series of a strategy (`StrategySeries.hourly`): one value
/// per hour of the measured days (UTC hours from their start), all
/// segments together. One declaration per series, as `SummaryMetric` has
/// one per summary column.
///
/// `declaration` gives each series its key in results.json, its column of
/// `timeseries.csv` and how that column is written; `ResultsBuilder`
/// computes each in a `switch` over the cases. Adding a series takes a
/// case here (at the end: `timeseries.csv`'s columns are a public
/// interface), its declaration, and its value in `ResultsBuilder`, the last
/// two asked for by the compiler.
public enum HourlyMetric: Int, CaseIterable, Sendable {
  case budgetedReloads
  case freeReloads
  case glances
  case staleGlances
  case widgetsFrozenPct
  case backendRps
  case backendPeakRps
  case silentPushesSent
  case silentPushesDelivered

  /// How a series is written in `timeseries.csv`.
  public enum Column: Sendable {
    /// A count, written whole.
    case count(String)
    /// A value with `decimals` digits after the point.
    case value(String, decimals: Int)
    /// The series as a percent of the hour's `glances`, with `decimals`
    /// digits (empty in an hour without glances).
    case percentOfGlances(String, decimals: Int)

    public var name: String {
      switch self {
      case .count(let n), .value(let n, _), .percentOfGlances(let n, _): return n
      }
    }
  }

  public struct Declaration: Sendable {
    /// The key in results.json's `"hourly"` object.
    public let key: String
    public let column: Column
    public let definition: String
  }

  public var declaration: Declaration {
    switch self {
    case .budgetedReloads:
      return .init(
        key: "budgetedReloads", column: .count("budgeted_reloads"),
        definition: "Reloads charged to a budget in the hour.")
    case .freeReloads:
      return .init(
        key: "freeReloads", column: .count("free_reloads"), definition: "Reloads exempt from the budget in the hour.")
    case .glances:
      return .init(key: "glances", column: .count("glances"), definition: "Glances at widgets in the hour.")
    case .staleGlances:
      return .init(
        key: "staleGlances", column: .percentOfGlances("stale_glance_pct", decimals: 2),
        definition:
          "Stale glances in the hour: the widget showed data older than a change it had not shown (placeholders "
          + "are neither fresh nor stale); in timeseries.csv, a percent of the hour's glances.")
    case .widgetsFrozenPct:
      return .init(
        key: "widgetsFrozenPct", column: .value("widgets_frozen_pct", decimals: 3),
        definition:
          "Share of widgets frozen by the budget (docs/model.md#frozen-widgets), averaged over the hour (percent).")
    case .backendRps:
      return .init(
        key: "backendRps", column: .value("backend_rps", decimals: 4),
        definition: "Mean backend requests per second in the hour, scaled to the fleet.")
    case .backendPeakRps:
      return .init(
        key: "backendPeakRps", column: .value("backend_peak_rps", decimals: 2),
        definition: "Backend requests in the busiest second of the hour, scaled to the fleet.")
    case .silentPushesSent:
      return .init(
        key: "silentPushesSent", column: .count("silent_pushes_sent"),
        definition: "Silent pushes the backend sent in the hour.")
    case .silentPushesDelivered:
      return .init(
        key: "silentPushesDelivered", column: .count("silent_pushes_delivered"),
        definition: "Silent pushes delivered (the app woke) in the hour.")
    }
  }
}

/// Per-hour-of-run totals: a series per `HourlyMetric` (hour 0 is the
/// first measured hour).
///
///     let stale = results.series[0].hourly[.staleGlances]
public struct HourlySeries: Sendable, Codable, Equatable {
  /// By `HourlyMetric.rawValue`; the series of one strategy have one length.
  private var values: [[Double]]

  public init() { values = Array(repeating: [], count: HourlyMetric.allCases.count) }

  public subscript(_ metric: HourlyMetric) -> [Double] {
    get { values[metric.rawValue] }
    set { values[metric.rawValue] = newValue }
  }

  /// Hours in the series.
  public var count: Int { values[HourlyMetric.glances.rawValue].count }

  /// One key per series, `HourlyMetric`'s `key`.
  struct Key: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: Key.self)
    for m in HourlyMetric.allCases { try c.encode(self[m], forKey: Key(stringValue: m.declaration.key)) }
  }

  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: Key.self)
    self.init()
    for m in HourlyMetric.allCases {
      self[m] = try c.decode([Double].self, forKey: Key(stringValue: m.declaration.key))
    }
  }
}
