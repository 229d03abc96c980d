import ReloadMetrics

/// The CSV files: pure functions from results to text (RFC 4180, `.`
/// decimal point, fixed precision per column, stable row order). Writing
/// them to disk is the CLI's job.
public enum CSVReport {
  /// `summary.csv`: one row per strategy x segment (segments in scenario
  /// order, then `all`), the columns of `SummaryMetrics.all`, then `_ci95`
  /// columns for the headline metrics when the run had replications.
  ///
  /// A table with rows per widget kind (a scenario with several kinds) has
  /// a `kind` column after `segment`: each strategy x segment's row of every
  /// kind together (`all`: the first row a reader finds for a strategy and
  /// segment is the one it found before kinds had rows), then one per kind
  /// in scenario order. With one kind the file is as it was before.
  public static func summary(_ table: ResultTable) -> String {
    let ciColumns = self.ciColumns(table.columns, rows: table.rows)
    let byKind = !table.kindRows.isEmpty
    var header = SummaryMetrics.labelColumns + (byKind ? [SummaryMetrics.kindColumn] : []) + table.columns.map(\.name)
    header += ciColumns.map { $0.element.name + "_ci95" }
    var out = line(header)
    guard byKind else {
      for row in table.rows {
        out += line([row.scenario, row.strategy, row.segment] + metricFields(row, table.columns, ciColumns))
      }
      return out
    }
    var kindRows: [String: [ResultRow]] = [:]
    for row in table.kindRows { kindRows["\(row.strategy)\u{0}\(row.segment)", default: []].append(row) }
    for row in table.rows {
      out += line([row.scenario, row.strategy, row.segment, "all"] + metricFields(row, table.columns, ciColumns))
      for k in kindRows["\(row.strategy)\u{0}\(row.segment)"] ?? [] {
        out += line(
          [k.scenario, k.strategy, k.segment, k.kind ?? "all"] + metricFields(k, table.columns, ciColumns))
      }
    }
    return out
  }

  /// The `_ci95` columns of a table: the headline metrics, when any row has
  /// confidence intervals.
  static func ciColumns(_ columns: [Metric], rows: [ResultRow]) -> [(offset: Int, element: Metric)] {
    rows.contains { $0.ci95 != nil } ? columns.enumerated().filter { $0.element.headline } : []
  }

  /// A row's metric cells at each column's fixed precision ("" for none),
  /// then its `_ci95` cells.
  static func metricFields(_ row: ResultRow, _ columns: [Metric], _ ciColumns: [(offset: Int, element: Metric)])
    -> [String]
  {
    var fields: [String] = []
    fields.reserveCapacity(columns.count + ciColumns.count)
    for (i, metric) in columns.enumerated() {
      fields.append(row.values[i].map { NumberFormat.fixed($0, decimals: metric.decimals) } ?? "")
    }
    for (i, metric) in ciColumns {
      fields.append(row.ci95?[i].map { NumberFormat.fixed($0, decimals: metric.decimals) } ?? "")
    }
    return fields
  }

  /// The columns of `timeseries.csv`, in order: where the row is, then
  /// one column per `HourlyMetric`.
  public static let timeseriesColumns =
    ["scenario", "policy", "hour", "utc_day", "utc_hour"] + HourlyMetric.allCases.map(\.declaration.column.name)

  /// `timeseries.csv`: per strategy and hour of the measured days (UTC).
  public static func timeseries(_ results: ScenarioResults) -> String {
    var out = line(timeseriesColumns)
    let firstHour = Int((results.facts.warmupDays * 24).rounded(.down))
    let columns = HourlyMetric.allCases.map { ($0, $0.declaration.column) }
    for s in results.series {
      let h = s.hourly
      let glances = h[.glances]
      for i in 0..<h.count {
        let absolute = firstHour + i
        var fields = [results.facts.scenario, s.strategy, String(i), String(absolute / 24), String(absolute % 24)]
        for (m, column) in columns {
          let x = h[m][i]
          switch column {
          case .count: fields.append(String(UInt64(x)))
          case .value(_, let decimals): fields.append(NumberFormat.fixed(x, decimals: decimals))
          case .percentOfGlances(_, let decimals):
            fields.append(NumberFormat.fixed(glances[i] > 0 ? 100 * x / glances[i] : .nan, decimals: decimals))
          }
        }
        out += line(fields)
      }
    }
    return out
  }

  public static let stalenessColumns = ["scenario", "policy", "bucket_upper_min", "count", "cumulative_pct"]

  /// `staleness.csv`: per strategy, the staleness histogram: bucket upper
  /// bound in minutes (0 = fresh), glances in the bucket, cumulative share.
  public static func staleness(_ results: ScenarioResults) -> String {
    var out = line(stalenessColumns)
    for s in results.series {
      for b in s.staleness {
        out += line([
          results.facts.scenario, s.strategy, NumberFormat.fixed(b.upperMinutes, decimals: 4), String(b.count),
          NumberFormat.fixed(b.cumulativePct, decimals: 4),
        ])
      }
    }
    return out
  }

  /// One CSV record, quoted where RFC 4180 requires, CRLF-free (`\n`).
  public static func line(_ fields: [String]) -> String {
    fields.map(quote).joined(separator: ",") + "\n"
  }

  public static func quote(_ field: String) -> String {
    if field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) {
      return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
    return field
  }
}

extension String {
  /// `replacingOccurrences` without Foundation.
  func replacingOccurrences(of target: String, with replacement: String) -> String {
    guard !target.isEmpty else { return self }
    var out = ""
    var rest = self[...]
    while let r = rest.range(of: target) {
      out += rest[..<r.lowerBound]
      out += replacement
      rest = rest[r.upperBound...]
    }
    out += rest
    return out
  }
}

extension Substring {
  func range(of target: String) -> Range<Substring.Index>? {
    guard !target.isEmpty, target.count <= count else { return nil }
    var i = startIndex
    while i < endIndex {
      if self[i...].hasPrefix(target) {
        return i..<index(i, offsetBy: target.count)
      }
      i = index(after: i)
    }
    return nil
  }
}
