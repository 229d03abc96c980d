import ReloadMetrics

/// The comparison as aligned text tables for a terminal: one row per
/// strategy (all segments), the columns that matter most, the best value of
/// each column marked with `*` (direction from the metric's polarity).
///
/// The tables fit `width` columns (100 by default): the column groups share
/// one table when they fit side by side, else each group gets its own
/// table (the strategy column repeated), and a group wider than `width`
/// is split where it overflows. A key under the tables says what every
/// heading used stands for.
public enum TextTable {
  /// What people see, then what it costs.
  public static let defaultGroups: [[SummaryMetric]] = [
    [.freshGlancePct, .acceptableGlancePct, .stalenessP95Min, .frozenWidgetDayPct],
    [
      .budgetedReloadsPerWidgetDay, .freeReloadsPerWidgetDay, .backendRequestsPerWidgetDay, .backendFleetPeakRps,
      .energyMjPerDeviceDay,
    ],
  ]
  public static var defaultColumns: [SummaryMetric] { defaultGroups.flatMap { $0 } }
  /// The widest line the tables and the key print.
  public static let defaultWidth = 100

  /// The tables of `columns` as one group.
  public static func render(
    _ table: ResultTable, columns: [SummaryMetric], segment: String = "all", width: Int = defaultWidth
  ) -> String {
    render(table, groups: [columns], segment: segment, width: width)
  }

  public static func render(
    _ table: ResultTable, groups: [[SummaryMetric]] = defaultGroups, segment: String = "all",
    width: Int = defaultWidth
  ) -> String {
    let rows = table.rows.filter { $0.segment == segment }
    let columnGroups = groups.map { $0.compactMap(table.columnIndex) }.filter { !$0.isEmpty }
    // One column of cells (heading first) per metric, and its width.
    var cells: [Int: [String]] = [:]
    for i in columnGroups.joined() {
      let metric = table.columns[i]
      let best = table.distinctBest(column: i, among: rows)
      cells[i] =
        [metric.terminalLabel]
        + rows.map { row in
          guard let x = row.values[i] else { return "– " }
          let mark = (best != nil && x == best! && rows.count > 1) ? "*" : " "
          return NumberFormat.brief(x, decimals: metric.decimals) + mark
        }
    }
    let names = ["strategy"] + rows.map(\.strategy)
    let nameWidth = names.map(\.count).max() ?? 0
    func columnWidth(_ i: Int) -> Int { 2 + (cells[i]?.map(\.count).max() ?? 0) }
    let parts = split(columnGroups, nameWidth: nameWidth, width: width, columnWidth: columnWidth)
    var out = ""
    for (p, part) in parts.enumerated() {
      if p > 0 { out += "\n" }
      for r in names.indices {
        var text = names[r] + String(repeating: " ", count: nameWidth - names[r].count)
        for i in part {
          let cell = cells[i]![r]
          text += String(repeating: " ", count: columnWidth(i) - cell.count) + cell
        }
        while text.last == " " { text.removeLast() }
        out += text + "\n"
        if r == 0 { out += String(repeating: "-", count: nameWidth + part.reduce(0) { $0 + columnWidth($1) }) + "\n" }
      }
    }
    var key = parts.joined().map { "\(table.columns[$0].terminalLabel) = \(table.columns[$0].terminalKey)" }
    key.append("* = best in column (ties and differences inside the noise unmarked)")
    if parts.joined().contains(where: { i in rows.contains { $0.values[i] == nil } }) { key.append("– = no value") }
    return out + TextWrap.lines("Key: " + key.joined(separator: "; ") + ".", width: width).joined(separator: "\n")
      + "\n"
  }

  /// The tables' columns: the groups side by side while they fit in
  /// `width`, a group that does not fit beside the others in a table of its
  /// own, and a group wider than `width` cut where it overflows (at least
  /// one column a table).
  static func split(
    _ groups: [[Int]], nameWidth: Int, width: Int, columnWidth: (Int) -> Int
  ) -> [[Int]] {
    var parts: [[Int]] = []
    var current: [Int] = []
    var used = nameWidth
    func close() {
      if !current.isEmpty { parts.append(current) }
      current = []
      used = nameWidth
    }
    for group in groups {
      let groupWidth = group.reduce(0) { $0 + columnWidth($1) }
      if !current.isEmpty && used + groupWidth > width { close() }
      for i in group {
        if !current.isEmpty && used + columnWidth(i) > width { close() }
        current.append(i)
        used += columnWidth(i)
      }
    }
    close()
    return parts
  }
}

/// Text wrapped at spaces.
public enum TextWrap {
  /// `text` in lines of at most `width` characters, broken at spaces (a
  /// word longer than `width` gets a line of its own).
  public static func lines(_ text: String, width: Int) -> [String] {
    var lines: [String] = []
    var line = ""
    for word in text.split(separator: " ") {
      if !line.isEmpty && line.count + 1 + word.count > width {
        lines.append(line)
        line = ""
      }
      line += (line.isEmpty ? "" : " ") + word
    }
    if !line.isEmpty { lines.append(line) }
    return lines
  }
}
