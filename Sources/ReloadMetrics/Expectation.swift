/// A bound a scenario sets on one of its results: `reloadbench check`
/// fails (exit 1) when a run breaks it.
///
///     // "hybrid keeps at least 90 % of glances fresh"
///     Expectation(strategy: "hybrid", metric: .freshGlancePct, min: 90)
///     // "no strategy is frozen on more than 5 % of widget-days"
///     Expectation(metric: .frozenWidgetDayPct, max: 5)
///     // "the interval of the mean staleness is at most 2 minutes wide on each side"
///     Expectation(metric: .stalenessMeanMin, ci95: true, max: 2)
///     // "coalesced pushes never hit the Live Activity push budget"
///     Expectation(strategy: "activity-coalesced-1m", metric: .liveActivity(.budgetExhaustedActivityPct), max: 0)
public struct Expectation: Sendable, Equatable, Codable {
  /// A strategy name; nil means every strategy of the scenario.
  public var strategy: String?
  /// A segment name or `all`.
  public var segment: String
  /// A widget kind's name; nil means every kind together (`all`).
  public var kind: String?
  /// The metric bounded: a `summary.csv` or a `live_activities.csv` column.
  public var metric: ExpectedMetric
  /// Bound the half-width of its 95 % interval (the `_ci95` column of a
  /// headline metric, with replications) rather than its value.
  public var ci95: Bool
  /// The value must be at least this (inclusive).
  public var min: Double?
  /// The value must be at most this (inclusive).
  public var max: Double?
  /// Why the bound exists, shown next to a failure.
  public var note: String

  /// A bound on a `summary.csv` column.
  public init(
    strategy: String? = nil, segment: String = "all", kind: String? = nil, metric: SummaryMetric,
    ci95: Bool = false, min: Double? = nil, max: Double? = nil, note: String = ""
  ) {
    self.init(
      strategy: strategy, segment: segment, kind: kind, metric: .summary(metric), ci95: ci95, min: min, max: max,
      note: note)
  }

  public init(
    strategy: String? = nil, segment: String = "all", kind: String? = nil, metric: ExpectedMetric,
    ci95: Bool = false, min: Double? = nil, max: Double? = nil, note: String = ""
  ) {
    precondition(min != nil || max != nil, "an expectation needs min or max")
    precondition(!ci95 || metric.hasInterval, "only a headline summary metric has a _ci95 column")
    precondition(kind == nil || !metric.isLiveActivity, "a Live Activity metric has no value per widget kind")
    self.strategy = strategy
    self.segment = segment
    self.kind = kind
    self.metric = metric
    self.ci95 = ci95
    self.min = min
    self.max = max
    self.note = note
  }

  /// Where the bound applies, as reports print it: the segment, and the
  /// widget kind when it names one (`all`, `all / lock-screen`).
  public var place: String { kind.map { "\(segment) / \($0)" } ?? segment }

  /// The suffix of confidence-interval columns.
  public static let ci95Suffix = "_ci95"

  /// The `summary.csv` column bounded: `fresh_glance_pct`, or
  /// `fresh_glance_pct_ci95` for its interval.
  public var column: String { metric.name + (ci95 ? Self.ci95Suffix : "") }

  /// The metric and whether it is its interval, for a column name as
  /// scenarios write it (`column`); nil for a name that is neither.
  public static func parse(column name: String) -> (metric: ExpectedMetric, ci95: Bool)? {
    if let m = ExpectedMetric(columnName: name) { return (m, false) }
    guard name.hasSuffix(ci95Suffix), let m = ExpectedMetric(columnName: String(name.dropLast(ci95Suffix.count))),
      m.hasInterval
    else { return nil }
    return (m, true)
  }

  /// Every name an expectation may use: the summary metrics, the `_ci95`
  /// column of each headline metric, then the Live Activity metrics.
  public static var metricNames: [String] {
    SummaryMetrics.all.map(\.name) + SummaryMetrics.all.filter(\.headline).map { $0.name + ci95Suffix }
      + ActivityMetric.allCases.filter { SummaryMetric(columnName: $0.name) == nil }.map(\.name)
  }

  /// `strategy` is written `policy`, as in scenario files and `summary.csv`;
  /// the metric as its column.
  private enum CodingKeys: String, CodingKey {
    case strategy = "policy"
    case segment, kind, metric, min, max, note
  }

  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    let name = try c.decode(String.self, forKey: .metric)
    guard let column = Self.parse(column: name) else {
      throw DecodingError.dataCorruptedError(
        forKey: .metric, in: c, debugDescription: "\(name) is not a summary.csv or live_activities.csv column")
    }
    self.init(
      strategy: try c.decodeIfPresent(String.self, forKey: .strategy),
      segment: try c.decode(String.self, forKey: .segment), kind: try c.decodeIfPresent(String.self, forKey: .kind),
      metric: column.metric, ci95: column.ci95,
      min: try c.decodeIfPresent(Double.self, forKey: .min), max: try c.decodeIfPresent(Double.self, forKey: .max),
      note: try c.decode(String.self, forKey: .note))
  }

  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encodeIfPresent(strategy, forKey: .strategy)
    try c.encode(segment, forKey: .segment)
    try c.encodeIfPresent(kind, forKey: .kind)
    try c.encode(column, forKey: .metric)
    try c.encodeIfPresent(min, forKey: .min)
    try c.encodeIfPresent(max, forKey: .max)
    try c.encode(note, forKey: .note)
  }

  /// The bound as people read it: `>= 90`, `<= 5`, `in [2, 8]`.
  public var boundText: String {
    switch (min, max) {
    case (let lo?, let hi?): return "in [\(Self.format(lo)), \(Self.format(hi))]"
    case (let lo?, nil): return ">= \(Self.format(lo))"
    case (nil, let hi?): return "<= \(Self.format(hi))"
    default: return "any"
    }
  }

  public static func format(_ x: Double) -> String {
    x == x.rounded() && abs(x) < 1e15 ? String(Int64(x)) : "\(x)"
  }

  /// Checks the expectation on a run's figures: one result per strategy it
  /// names (every strategy of its table when `strategy` is nil: the widget
  /// strategies for a summary metric, the activity strategies for a Live
  /// Activity metric), in table order.
  public func evaluate(on table: ResultTable, activities: ActivityTable? = nil) -> [ExpectationResult] {
    func strategies(_ names: [String]) -> [String] {
      if let strategy { return [strategy] }
      var seen: Set<String> = []
      return names.filter { seen.insert($0).inserted }
    }
    switch metric {
    case .summary(let m):
      let column = table.columnIndex(m)
      return strategies(table.rows.map(\.strategy)).map { p in
        var value: Double? = nil
        if let row = table.row(strategy: p, segment: segment, kind: kind), let i = column {
          value = ci95 ? row.ci95?.element(i) : row.values.element(i)
        }
        return ExpectationResult(expectation: self, strategy: p, value: value)
      }
    case .liveActivity(let m):
      return strategies(activities?.rows.map(\.strategy) ?? []).map { p in
        ExpectationResult(
          expectation: self, strategy: p, value: activities?.row(strategy: p, segment: segment)?.value(m))
      }
    }
  }
}

/// What an expectation bounds: a column of `summary.csv` (the widgets) or
/// of `live_activities.csv` (the Live Activities, docs/model.md#live-activities).
public enum ExpectedMetric: Sendable, Equatable, Hashable {
  case summary(SummaryMetric)
  case liveActivity(ActivityMetric)

  /// The metric of a column name; `summary.csv`'s first where both files
  /// have it (`devices`).
  public init?(columnName name: String) {
    if let m = SummaryMetric(columnName: name) {
      self = .summary(m)
    } else if let m = ActivityMetric.allCases.first(where: { $0.name == name }) {
      self = .liveActivity(m)
    } else {
      return nil
    }
  }

  /// The CSV column.
  public var name: String {
    switch self {
    case .summary(let m): return m.name
    case .liveActivity(let m): return m.name
    }
  }

  /// Digits after the decimal point in its CSV.
  public var decimals: Int {
    switch self {
    case .summary(let m): return m.metric.decimals
    case .liveActivity(let m): return m.decimals
    }
  }

  public var isLiveActivity: Bool {
    if case .liveActivity = self { return true }
    return false
  }

  /// It has a `_ci95` column (a headline summary metric, with replications).
  public var hasInterval: Bool {
    if case .summary(let m) = self { return m.metric.headline }
    return false
  }

  /// It has a value per widget kind.
  public var perKind: Bool {
    if case .summary(let m) = self { return m.perKind }
    return false
  }
}

/// One expectation on one strategy: the value found and whether it holds.
public struct ExpectationResult: Sendable, Equatable, Codable {
  public enum Verdict: String, Sendable, Codable {
    case holds
    case failed
    /// The metric has no value here (no silent push was sent, say).
    case notApplicable = "not_applicable"
  }

  public var expectation: Expectation
  /// The strategy checked (resolved when the expectation names none).
  public var strategy: String
  public var value: Double?
  public var verdict: Verdict

  /// `strategy` is written `policy`, as in `summary.csv`.
  private enum CodingKeys: String, CodingKey {
    case expectation
    case strategy = "policy"
    case value, verdict
  }

  public init(expectation: Expectation, strategy: String, value: Double?) {
    self.expectation = expectation
    self.strategy = strategy
    self.value = value
    guard let v = value, !v.isNaN else {
      verdict = .notApplicable
      return
    }
    let aboveMin = expectation.min.map { v >= $0 } ?? true
    let belowMax = expectation.max.map { v <= $0 } ?? true
    verdict = aboveMin && belowMax ? .holds : .failed
  }
}
