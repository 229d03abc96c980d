import ReloadMetrics

extension CSVReport {
  /// `live_activities.csv`: one row per Live Activity strategy and segment
  /// (`all` for every device), one column per `ActivityMetric`; a figure
  /// that does not apply is empty (the fleet's on a segment's row).
  public static func liveActivities(_ table: ActivityTable, scenario: String) -> String {
    var out = line(["scenario", "strategy", "segment"] + ActivityMetric.allCases.map(\.name))
    for row in table.rows {
      var fields = [scenario, row.strategy, row.segment]
      for m in ActivityMetric.allCases {
        let x = row.value(m)
        fields.append(x.isFinite ? NumberFormat.fixed(x, decimals: m.decimals) : "")
      }
      out += line(fields)
    }
    return out
  }
}
