import ReloadMetrics

/// The comparison as an aligned text table for a terminal: one row per
/// strategy (all segments), the columns that matter most, the best value of
/// each column marked with `*` (direction from the metric's polarity).
public enum TextTable {
  public static let defaultColumns = [
    "fresh_glance_pct", "acceptable_glance_pct", "staleness_p95_min", "budgeted_reloads_per_widget_day",
    "free_reloads_per_widget_day", "dry_widget_day_pct", "backend_requests_per_widget_day", "backend_peak_rps",
    "energy_mj_per_device_day",
  ]

  static let shortNames: [String: String] = [
    "fresh_glance_pct": "fresh %", "acceptable_glance_pct": "ok %", "staleness_p95_min": "p95 stale min",
    "budgeted_reloads_per_widget_day": "budgeted/wd", "free_reloads_per_widget_day": "free/wd",
    "dry_widget_day_pct": "dry days %", "backend_requests_per_widget_day": "requests/wd",
    "backend_peak_rps": "peak req/s", "energy_mj_per_device_day": "mJ/dev-day",
  ]

  public static func render(_ table: ResultTable, columns: [String] = defaultColumns, segment: String = "all") -> String {
    let rows = table.rows.filter { $0.segment == segment }
    let metrics = columns.compactMap { name in table.columnIndex(name).map { (name, $0) } }
    var grid: [[String]] = [["strategy"] + metrics.map { shortNames[$0.0] ?? $0.0 }]
    for row in rows {
      var line = [row.policy]
      for (name, i) in metrics {
        let metric = table.columns[i]
        guard let x = row.values[i] else {
          line.append("–")
          continue
        }
        let best = table.best(name, among: rows)
        let mark = (best != nil && x == best! && rows.count > 1) ? "*" : " "
        line.append(NumberFormat.fixed(x, decimals: min(metric.decimals, x >= 100 ? 0 : 1)) + mark)
      }
      grid.append(line)
    }
    var widths = [Int](repeating: 0, count: grid[0].count)
    for line in grid { for (i, cell) in line.enumerated() { widths[i] = max(widths[i], cell.count) } }
    var out = ""
    for (r, line) in grid.enumerated() {
      var text = ""
      for (i, cell) in line.enumerated() {
        let pad = String(repeating: " ", count: widths[i] - cell.count)
        text += i == 0 ? cell + pad : "  " + pad + cell
      }
      while text.last == " " { text.removeLast() }
      out += text + "\n"
      if r == 0 { out += String(repeating: "-", count: text.count) + "\n" }
    }
    return out + "(* best in column; wd = widget-day)\n"
  }
}
