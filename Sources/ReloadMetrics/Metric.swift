/// Which direction of a metric is better.
///
/// Named as XCTest and package-benchmark name it. Comparison tables,
/// regression checks and report colours all read it from here; no renderer
/// hard-codes which way is good.
public enum Polarity: String, Sendable, Codable {
  case prefersLarger
  case prefersSmaller
  /// Neither direction is better (a count of widgets, say).
  case neutral
}

/// The unit of a metric's values.
public enum MetricUnit: String, Sendable, Codable {
  case count
  case percent
  case minutes
  case hours
  case hourOfDay
  case perWidgetDay
  case perDeviceDay
  case requestsPerSecond
  case millijoulesPerDeviceDay
  case eventsPerSecond
  case widgetDaysPerSecond
  case seconds
  case bytes

  /// A short human label ("%", "min", "/widget-day").
  public var symbol: String {
    switch self {
    case .count: return ""
    case .percent: return "%"
    case .minutes: return "min"
    case .hours: return "h"
    case .hourOfDay: return "h (local)"
    case .perWidgetDay: return "/widget-day"
    case .perDeviceDay: return "/device-day"
    case .requestsPerSecond: return "req/s"
    case .millijoulesPerDeviceDay: return "mJ/device-day"
    case .eventsPerSecond: return "events/s"
    case .widgetDaysPerSecond: return "widget-days/s"
    case .seconds: return "s"
    case .bytes: return "B"
    }
  }
}

/// A named measure with its unit, polarity, precision, labels and definition.
///
/// The summary metrics are declared in `SummaryMetric`; other metrics
/// (a baseline's column this version does not know) get labels made from
/// their name.
///
///     let fresh = Metric("fresh_glance_pct", unit: .percent, polarity: .prefersLarger,
///                        decimals: 2, label: "Fresh glances", definition: "Share of glances ...")
public struct Metric: Sendable, Hashable, Codable {
  /// The CSV column name (snake_case, unit in the name).
  public let name: String
  public let unit: MetricUnit
  public let polarity: Polarity
  /// Digits after the decimal point in CSV files.
  public let decimals: Int
  /// What it measures, for docs and tooltips.
  public let definition: String
  /// `true` for the metrics that get `_ci95` columns with replications.
  public let headline: Bool
  /// The name people read: a table heading, a chart title ("Fresh glances").
  public let label: String
  /// The name inside a sentence or a chart note ("fresh").
  public let shortLabel: String
  /// A terse column heading for the terminal table ("fresh %").
  public let terminalLabel: String
  /// What `terminalLabel` stands for, in the key under the terminal table
  /// ("glances that showed the current data").
  public let terminalKey: String

  public init(
    _ name: String, unit: MetricUnit, polarity: Polarity, decimals: Int, headline: Bool = false,
    label: String? = nil, shortLabel: String? = nil, terminalLabel: String? = nil, terminalKey: String? = nil,
    definition: String
  ) {
    self.name = name
    self.unit = unit
    self.polarity = polarity
    self.decimals = decimals
    self.definition = definition
    self.headline = headline
    let spaced = String(name.map { $0 == "_" ? " " : $0 })
    self.label = label ?? spaced
    self.shortLabel = shortLabel ?? spaced
    self.terminalLabel = terminalLabel ?? name
    self.terminalKey = terminalKey ?? (Self.inSentence(self.label) + (unit.symbol.isEmpty ? "" : ", " + unit.symbol))
  }

  // The labels are not written to results.json (encoding uses these keys
  // only): a decoded summary metric takes them from its declaration.
  enum CodingKeys: String, CodingKey {
    case name, unit, polarity, decimals, definition, headline
  }

  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    let name = try c.decode(String.self, forKey: .name)
    let known = SummaryMetric(columnName: name)?.metric
    self.init(
      name, unit: try c.decode(MetricUnit.self, forKey: .unit),
      polarity: try c.decode(Polarity.self, forKey: .polarity),
      decimals: try c.decode(Int.self, forKey: .decimals), headline: try c.decode(Bool.self, forKey: .headline),
      label: known?.label, shortLabel: known?.shortLabel, terminalLabel: known?.terminalLabel,
      terminalKey: known?.terminalKey, definition: try c.decode(String.self, forKey: .definition))
  }

  /// `label` inside a sentence: "fresh glances", "WidgetKit pushes".
  public var labelInSentence: String { Self.inSentence(label) }

  /// A heading inside a sentence: "Fresh glances" as "fresh glances",
  /// "WidgetKit pushes" as it is.
  static func inSentence(_ label: String) -> String {
    let chars = Array(label)
    guard chars.count > 1, chars[0].isUppercase, !chars[1].isUppercase else { return label }
    return chars[0].lowercased() + String(chars.dropFirst())
  }

  public static func == (a: Metric, b: Metric) -> Bool { a.name == b.name }
  public func hash(into h: inout Hasher) { h.combine(name) }

  /// `true` when `a` is better than `b` for this metric.
  public func isBetter(_ a: Double, than b: Double) -> Bool {
    switch polarity {
    case .prefersLarger: return a > b
    case .prefersSmaller: return a < b
    case .neutral: return false
    }
  }
}
