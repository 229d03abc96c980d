import ReloadMetrics

extension CSVReport {
  /// `sweep.csv`: one row per point x strategy x segment, in grid order and
  /// then `summary.csv`'s row order. Columns: `scenario`, `point` (1-based),
  /// one column per swept parameter (its name; the value as written in the
  /// scenario, strings unquoted), then `summary.csv`'s columns from `policy`
  /// on, `_ci95` columns included when the points have replications.
  ///
  ///     scenario,point,interval_min,policy,segment,devices,...
  ///     sweep-poll-interval,1,5,poll,engaged,1050,...
  public static func sweep(_ results: SweepResults) -> String {
    let allRows = results.points.flatMap(\.rows)
    let ciColumns = self.ciColumns(results.columns, rows: allRows)
    var header = ["scenario", "point"] + results.parameters.map(\.name) + ["policy", "segment"]
    header += results.columns.map(\.name) + ciColumns.map { $0.element.name + "_ci95" }
    var out = line(header)
    out.reserveCapacity(allRows.count * 400)
    for point in results.points {
      let values = zip(results.parameters, point.valueIndices).map { p, i in p.values[i] }
      for row in point.rows {
        out += line(
          [row.scenario, String(point.index + 1)] + values + [row.strategy, row.segment]
            + metricFields(row, results.columns, ciColumns))
      }
    }
    return out
  }
}
