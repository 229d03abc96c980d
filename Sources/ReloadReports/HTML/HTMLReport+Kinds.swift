import ReloadMetrics

/// Each widget kind on its own: for a scenario with several kinds, a table
/// of what people see and what the budget did, per strategy and kind (all
/// segments), so a team can tell which of its widgets goes stale.
extension HTMLReport {
  /// The per-kind columns the page shows, in the comparison's groups.
  static let kindGroups: [(title: String, columns: [SummaryMetric])] = [
    ("What people see", [.acceptableGlancePct, .freshGlancePct, .stalenessMeanMin, .stalenessP95Min]),
    ("Reloads", [.budgetedReloadsPerWidgetDay, .freeReloadsPerWidgetDay]),
    ("Budget", [.frozenWidgetDayPct, .budgetLimitedWidgetDayPct]),
  ]

  /// The rules of the per-kind table, after `stylesheet` on a page that has it.
  static let kindStylesheet = """
    .badge.stale{border-color:var(--peak);color:var(--peak)}
    table.kinds tr.strat th{position:static;padding-top:.9em;font-weight:700;border-bottom:1px solid var(--border)}
    table.kinds tbody th{font-weight:400}
    table.kinds tr.allkinds th,table.kinds tr.allkinds td{font-weight:600}

    """

  /// The per-kind table (nothing with one kind: its figures are the
  /// comparison's).
  static func writeKinds(_ results: ScenarioResults, to w: inout _HTMLWriter) {
    let table = results.summary
    let kinds = table.kinds
    guard kinds.count > 1 else { return }
    let groups = kindGroups.map { ($0.title, $0.columns.compactMap(table.columnIndex)) }.filter { !$0.1.isEmpty }
    let columns = groups.flatMap(\.1)
    let groupStarts = Set(groups.dropFirst().compactMap(\.1.first))
    let acceptable = table.columnIndex(.acceptableGlancePct)
    w.raw("<h3 id=\"kinds\">Each widget kind on its own</h3>\n<p>")
    w.text(
      "All segments together, one row per widget kind (\(kinds.joined(separator: ", "))) under each strategy, "
        + "then all kinds together. A kind marked stale showed data within its tolerance at fewer than "
        + "\(Expectation.format(EvidenceScoring.acceptablePct)) % of glances (the evidence rule's stale). "
        + "summary.csv has these rows for every segment, in its kind column.")
    w.raw("</p>\n<div class=\"scroll\"><table class=\"cmp kinds\">")
    w.element("caption", text: "Strategies compared per widget kind, all segments")
    w.raw("<thead><tr class=\"groups\"><td></td>")
    for (title, members) in groups {
      w.open("th", ["scope": "colgroup", "colspan": String(members.count)])
      w.text(title)
      w.close("th")
    }
    w.raw("</tr><tr><th scope=\"col\">Kind</th>")
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
      w.raw("</th>")
    }
    w.raw("</tr></thead>")
    for overall in table.overallRows {
      let rows = kinds.compactMap { table.row(strategy: overall.strategy, segment: "all", kind: $0) }
      w.raw("<tbody><tr class=\"strat\"><th scope=\"rowgroup\" colspan=\"" + String(columns.count + 1) + "\">")
      w.text(overall.strategy)
      w.raw("</th></tr>")
      for row in rows + [overall] {
        let isAll = row.kind == nil
        w.raw(isAll ? "<tr class=\"allkinds\"><th scope=\"row\">" : "<tr><th scope=\"row\">")
        w.text(row.kind ?? "all kinds")
        if let a = acceptable, let v = row.values[safe: a] ?? nil, v.isFinite, v < EvidenceScoring.acceptablePct,
          !isAll
        {
          w.raw(" <span class=\"badge stale\">stale</span>")
        }
        w.raw("</th>")
        for i in columns {
          let m = table.columns[i]
          let g = groupStarts.contains(i) ? " class=\"g\"" : ""
          guard let v = row.values[safe: i] ?? nil, v.isFinite else {
            w.raw("<td class=\"na" + (g.isEmpty ? "" : " g") + "\" title=\"no value\">–</td>")
            continue
          }
          w.raw("<td" + g + ">")
          w.text(NumberFormat.metric(v, unit: m.unit))
          if let ci = row.ci95?[safe: i] ?? nil, ci.isFinite {
            w.raw("<span class=\"ci\">± ")
            w.text(NumberFormat.metric(ci, unit: m.unit))
            w.raw("</span>")
          }
          w.raw("</td>")
        }
        w.raw("</tr>")
      }
      w.raw("</tbody>")
    }
    w.raw("</table></div>\n")
  }
}
