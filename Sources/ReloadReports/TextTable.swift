import ReloadMetrics

/// The comparison as an aligned text table for a terminal: one row per
/// strategy (all segments), the columns that matter most, the best value of
/// each column marked with `*` (direction from the metric's polarity).
public enum TextTable {
  public static let defaultColumns: [SummaryMetric] = [
    .freshGlancePct, .acceptableGlancePct, .stalenessP95Min, .budgetedReloadsPerWidgetDay,
    .freeReloadsPerWidgetDay, .dryWidgetDayPct, .backendRequestsPerWidgetDay, .backendFleetPeakRps,
    .energyMjPerDeviceDay,
  ]

  public static func render(
    _ table: ResultTable, columns: [SummaryMetric] = defaultColumns, segment: String = "all"
  ) -> String {
    let rows = table.rows.filter { $0.segment == segment }
    let metrics = columns.compactMap(table.columnIndex)
    var grid: [[String]] = [["strategy"] + metrics.map { table.columns[$0].terminalLabel }]
    for row in rows {
      var line = [row.strategy]
      for i in metrics {
        let metric = table.columns[i]
        guard let x = row.values[i] else {
          line.append("–")
          continue
        }
        let best = table.distinctBest(column: i, among: rows)
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
    return out + "(* best in column, ties and differences inside the noise unmarked; wd = widget-day; fleet peak/s = p99.9 second of the fleet)\n"
  }
}
