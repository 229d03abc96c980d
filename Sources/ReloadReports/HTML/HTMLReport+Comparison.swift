import ReloadMetrics

/// The comparison table: one row per strategy (all segments), the columns
/// that matter most, the best value of each column marked (direction from
/// the metric's polarity); per-segment tables in a collapsed `<details>`.
extension HTMLReport {
  /// The summary.csv columns the page compares, in groups a reader can
  /// name: what people see, what it costs the phone, the budget, the backend.
  static let comparisonGroups: [(title: String, columns: [SummaryMetric])] = [
    (
      "What people see",
      [.freshGlancePct, .acceptableGlancePct, .stalenessMeanMin, .stalenessP95Min]
    ),
    (
      "Cost on the phone",
      [
        .budgetedReloadsPerWidgetDay, .freeReloadsPerWidgetDay, .appWakesPerDeviceDay,
        .energyMjPerDeviceDay,
      ]
    ),
    // The hour budgets ran out is in the findings and the budget chart; here
    // it would be empty for most strategies.
    ("Budget", [.frozenWidgetDayPct, .frozenHoursPerWidgetDay, .budgetLimitedWidgetDayPct]),
    ("Backend", [.backendRequestsPerWidgetDay, .backendFleetPeakRps]),
  ]

  static func writeComparison(
    _ results: ScenarioResults, recommendation: Recommendation?, to w: inout _HTMLWriter
  ) {
    let table = results.summary
    let groups = comparisonGroups.map { ($0.title, $0.columns.compactMap(table.columnIndex)) }.filter {
      !$0.1.isEmpty
    }
    let columns = groups.flatMap(\.1)
    w.raw(
      "<section id=\"comparison\" aria-labelledby=\"comparison-h\"><h2 id=\"comparison-h\">Comparison</h2>\n<p>"
    )
    w.text(
      "All segments together. ★ marks the best value in each column (where every strategy has a value and "
        + "the lead is outside the noise: no ★ for a tie or a difference inside the 95 % interval); "
        + "the arrow under each heading says which direction is better. Per-widget-day figures count measured "
        + "days only; – means not applicable (e.g. a budget that never ran out).")
    w.raw("</p>\n")
    writeTable(
      table, rows: table.overallRows, groups: groups, recommended: recommendation?.strategy,
      caption: "Strategies compared, all segments", to: &w)
    let segments = segmentOrder(results)
    if !segments.isEmpty {
      w.raw("<details class=\"segments\"><summary>")
      w.text("Per segment (\(segments.count): \(segments.joined(separator: ", ")))")
      w.raw("</summary>")
      for segment in segments {
        let rows = table.rows.filter { $0.segment == segment }
        w.raw("<h4>")
        w.text("Segment " + segment)
        w.raw("</h4>")
        writeTable(
          table, rows: rows, groups: groups, recommended: nil,
          caption: "Strategies compared, segment " + segment, to: &w)
      }
      w.raw("</details>\n")
    }
    writeKinds(results, to: &w)
    w.raw("<details class=\"defs\"><summary>What the columns mean</summary><dl>")
    for i in columns {
      let m = table.columns[i]
      w.raw("<dt>")
      w.text(ReportLabels.withUnit(m))
      w.raw(" <code>")
      w.text(m.name)
      w.raw("</code></dt><dd>")
      w.text(
        m.definition
          + (m.polarity == .neutral ? "" : " " + ReportLabels.direction(m.polarity).uppercasedFirst + "."))
      w.raw("</dd>")
    }
    w.raw("</dl></details>\n</section>\n")
  }

  /// Segment names in scenario order, then any others the table has.
  static func segmentOrder(_ results: ScenarioResults) -> [String] {
    var out: [String] = []
    for s in results.facts.segments + results.summary.rows.map(\.segment) where s != "all" && !out.contains(s) {
      out.append(s)
    }
    return out
  }

  static func writeTable(
    _ table: ResultTable, rows: [ResultRow], groups: [(String, [Int])], recommended: String?, caption: String,
    to w: inout _HTMLWriter
  ) {
    let columns = groups.flatMap(\.1)
    // A rule before each group but the first.
    let groupStarts = Set(groups.dropFirst().compactMap(\.1.first))
    w.raw("<div class=\"scroll\"><table class=\"cmp\">")
    w.element("caption", text: caption)
    w.raw("<thead><tr class=\"groups\"><td></td>")
    for (title, members) in groups {
      w.open("th", ["scope": "colgroup", "colspan": String(members.count)])
      w.text(title)
      w.close("th")
    }
    w.raw("</tr><tr><th scope=\"col\">Strategy</th>")
    for i in columns {
      let m = table.columns[i]
      w.raw(groupStarts.contains(i) ? "<th scope=\"col\" class=\"g\"" : "<th scope=\"col\"")
      w.attribute("title", m.definition)
      w.raw(">")
      w.text(m.label)
      let unit = ReportLabels.unitSuffix(m.unit).trimmingLeadingSpace
      if !unit.isEmpty {
        w.raw("<span class=\"unit\">")
        w.text(unit)
        w.raw("</span>")
      }
      if m.polarity != .neutral {
        w.raw("<span class=\"dir\">")
        w.text(ReportLabels.arrow(m.polarity) + " better")
        w.raw("</span>")
      }
      w.raw("</th>")
    }
    w.raw("</tr></thead><tbody>")
    // Only where every row has a value: a missing value may be the best
    // one (a budget that never ran out has no "ran out at" hour).
    let best = columns.map { i -> Double? in
      let complete = rows.allSatisfy { row in i < row.values.count && row.values[i].map(\.isFinite) == true }
      return rows.count > 1 && complete ? table.distinctBest(column: i, among: rows) : nil
    }
    for row in rows {
      let isRecommended = row.strategy == recommended
      w.raw(isRecommended ? "<tr class=\"recrow\"><th scope=\"row\">" : "<tr><th scope=\"row\">")
      w.text(row.strategy)
      if isRecommended { w.raw(" <span class=\"badge\">recommended</span>") }
      w.raw("</th>")
      for (k, i) in columns.enumerated() {
        let m = table.columns[i]
        let g = groupStarts.contains(i) ? " g" : ""
        guard i < row.values.count, let v = row.values[i], v.isFinite else {
          w.raw("<td class=\"na" + g + "\" title=\"no value\">–</td>")
          continue
        }
        let isBest = best[k].map { $0 == v } ?? false
        w.raw(isBest ? "<td class=\"best" + g + "\">" : g.isEmpty ? "<td>" : "<td class=\"g\">")
        w.text(NumberFormat.metric(v, unit: m.unit))
        if let ci = row.ci95?[safe: i] ?? nil, ci.isFinite {
          w.raw("<span class=\"ci\">± ")
          w.text(NumberFormat.metric(ci, unit: m.unit))
          w.raw("</span>")
        }
        if isBest {
          w.raw("<span class=\"star\" aria-hidden=\"true\"> ★</span><span class=\"vh\"> (best)</span>")
        }
        w.raw("</td>")
      }
      w.raw("</tr>")
    }
    w.raw("</tbody></table></div>\n")
  }
}

extension String {
  /// The string without leading spaces.
  var trimmingLeadingSpace: String { String(drop { $0 == " " }) }
}

extension Array {
  /// The element at `i`, or nil when out of range.
  subscript(safe i: Int) -> Element? { indices.contains(i) ? self[i] : nil }
}
