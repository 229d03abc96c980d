/// One row of a results table: a strategy on a segment (or on all
/// segments), for every widget kind or for one.
///
/// NOTE: `summary.csv`, the stdout table, the HTML report and the baselines
/// of `reloadbench check` all read this one type; keep it the only row model.
public struct ResultRow: Sendable, Codable, Equatable {
  public var scenario: String
  /// The strategy's name. Written as `policy` in `summary.csv`, baselines
  /// and `results.json` (kept for compatibility with files written before
  /// "strategy" was the word; see `Reports/README.md`).
  public var strategy: String
  /// A segment name, or `all` for the whole population.
  public var segment: String
  /// A widget kind's name (a row of `ResultTable.kindRows`), or nil for
  /// every kind together (`all` in `summary.csv`; not written in JSON).
  public var kind: String?
  /// One value per column of the table, `nil` where not applicable.
  public var values: [Double?]
  /// 95 % half-widths per column, present with two or more replications.
  public var ci95: [Double?]?

  private enum CodingKeys: String, CodingKey {
    case scenario
    case strategy = "policy"
    case segment, kind, values, ci95
  }

  public init(
    scenario: String, strategy: String, segment: String, kind: String? = nil, values: [Double?],
    ci95: [Double?]? = nil
  ) {
    self.scenario = scenario
    self.strategy = strategy
    self.segment = segment
    self.kind = kind
    self.values = values
    self.ci95 = ci95
  }
}

/// The comparison table: metric columns and one row per strategy x segment
/// (`rows`, every widget kind together) and, when the scenario has several
/// widget kinds, one per strategy x segment x kind (`kindRows`).
public struct ResultTable: Sendable, Codable, Equatable {
  public var columns: [Metric]
  /// Every widget kind together: what findings, baselines, comparisons and
  /// the terminal read.
  public var rows: [ResultRow]
  /// Each widget kind on its own, in the order of `rows` and, within a
  /// strategy and segment, in scenario order (empty with one kind: its row
  /// would be the `rows` one). Written in JSON only when not empty.
  public var kindRows: [ResultRow]

  public init(columns: [Metric] = SummaryMetrics.all, rows: [ResultRow] = [], kindRows: [ResultRow] = []) {
    self.columns = columns
    self.rows = rows
    self.kindRows = kindRows
  }

  private enum CodingKeys: String, CodingKey { case columns, rows, kindRows }

  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    columns = try c.decode([Metric].self, forKey: .columns)
    rows = try c.decode([ResultRow].self, forKey: .rows)
    kindRows = try c.decodeIfPresent([ResultRow].self, forKey: .kindRows) ?? []
  }

  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(columns, forKey: .columns)
    try c.encode(rows, forKey: .rows)
    if !kindRows.isEmpty { try c.encode(kindRows, forKey: .kindRows) }
  }

  /// The widget kinds of `kindRows`, in order (empty with one kind).
  public var kinds: [String] {
    var seen: Set<String> = []
    return kindRows.compactMap(\.kind).filter { seen.insert($0).inserted }
  }

  /// The row of strategy `strategy` on `segment` for widget kind `kind`
  /// (nil: every kind together).
  public func row(strategy: String, segment: String = "all", kind: String?) -> ResultRow? {
    guard let kind else { return row(strategy: strategy, segment: segment) }
    return kindRows.first { $0.strategy == strategy && $0.segment == segment && $0.kind == kind }
  }

  /// The index of `metric`'s column.
  public func columnIndex(_ metric: SummaryMetric) -> Int? {
    let i = metric.rawValue
    if i < columns.count && columns[i].name == metric.name { return i }
    return columnIndex(named: metric.name)
  }

  /// The index of the column named `name`, for names that come from outside
  /// the code (a scenario's `expect` or `objective`, a baseline); code names
  /// a summary metric by its `SummaryMetric` case instead.
  public func columnIndex(named name: String) -> Int? { columns.firstIndex { $0.name == name } }

  /// The value of `metric` in `row`.
  public func value(_ metric: SummaryMetric, in row: ResultRow) -> Double? {
    guard let i = columnIndex(metric), i < row.values.count else { return nil }
    return row.values[i]
  }

  /// The row of strategy `strategy` on `segment`.
  public func row(strategy: String, segment: String = "all") -> ResultRow? {
    rows.first { $0.strategy == strategy && $0.segment == segment }
  }

  /// The rows for all segments together, one per strategy, in order.
  public var overallRows: [ResultRow] { rows.filter { $0.segment == "all" } }

  /// The best value of `metric` among `rows` by its polarity.
  public func best(_ metric: SummaryMetric, among rows: [ResultRow]) -> Double? {
    columnIndex(metric).flatMap { best(column: $0, among: rows) }
  }

  /// The best value of column `i` among `rows` by its polarity.
  public func best(column i: Int, among rows: [ResultRow]) -> Double? {
    let values = rows.compactMap { $0.values[i] }
    switch columns[i].polarity {
    case .prefersLarger: return values.max()
    case .prefersSmaller: return values.min()
    case .neutral: return nil
    }
  }
}

extension ResultTable {
  /// The best value of column `i` among `rows`, or nil when it is not
  /// clearly the best: a tie (another row has the same value) or a lead
  /// inside the noise. The noise is the replications' 95 % half-widths
  /// (`sqrt(ci_a^2 + ci_b^2)`) and, for a metric with its own interval
  /// (`SummaryMetric.intervalEnds`), that interval (the best one's must not
  /// overlap the runner-up's). The ★ in
  /// the reports and the `*` in the terminal read this.
  public func distinctBest(column i: Int, among rows: [ResultRow]) -> Double? {
    guard columns[i].polarity != .neutral, rows.count > 1 else { return nil }
    let larger = columns[i].polarity == .prefersLarger
    let ranked = rows.compactMap { row in i < row.values.count ? row.values[i].map { (row: row, value: $0) } : nil }
      .sorted { larger ? $0.value > $1.value : $0.value < $1.value }
    guard let (first, best) = ranked.first else { return nil }
    guard ranked.count > 1 else { return best }
    let (second, next) = ranked[1]
    if next == best { return nil }
    let ciA = first.ci95?[safe: i] ?? nil
    let ciB = second.ci95?[safe: i] ?? nil
    if let a = ciA, let b = ciB, abs(best - next) <= (a * a + b * b).squareRoot() { return nil }
    if let ends = SummaryMetric(columnName: columns[i].name)?.intervalEnds,
      let lowIndex = columnIndex(ends.low), let highIndex = columnIndex(ends.high),
      let bestHigh = first.values[safe: highIndex] ?? nil, let nextLow = second.values[safe: lowIndex] ?? nil,
      bestHigh >= nextLow
    {
      return nil
    }
    return best
  }
}

extension Array {
  fileprivate subscript(safe i: Int) -> Element? { indices.contains(i) ? self[i] : nil }
}
