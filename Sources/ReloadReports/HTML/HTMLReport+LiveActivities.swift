import ReloadMetrics

extension HTMLReport {
  /// The figures of the Live Activities table, in its column order.
  static let liveActivityColumns: [ActivityMetric] = [
    .acceptableGlancePct, .freshGlancePct, .missedStartPct, .updatesShownPerActivity, .pushesSentPerActivity,
    .pushesThrottledPerActivity, .budgetExhaustedActivityPct, .fleetPushPeakPerSecond, .fleetPushesPerDay,
  ]

  /// The Live Activities section (docs/model.md#live-activities): each
  /// strategy's figures, and the widgets' glances within tolerance on the
  /// same kinds beside the activities'. Only on a page whose scenario has some.
  static func writeLiveActivities(_ results: ScenarioResults, to w: inout _HTMLWriter) {
    guard let table = results.liveActivities else { return }
    w.raw(
      "<section id=\"live-activities\" aria-labelledby=\"la-h\"><h2 id=\"la-h\">Live Activities</h2>\n<p>")
    w.text(
      "Activities for "
        + table.events.enumerated().map { "\($0.element) (\(table.eventKinds[$0.offset]))" }
        .joined(separator: ", ")
        + ", on the same devices and data as the widgets. Glances are the Lock Screen's and the Dynamic "
        + "Island's while an activity is there; pushes count what the backend sends (push-to-start, updates, the "
        + "end), fleet figures at \(NumberFormat.short(results.facts.fleetDevices)) devices. All segments together.")
    w.raw("</p>\n<div class=\"scroll\"><table class=\"data\"><caption>")
    w.text("Live Activity strategies compared, all segments")
    w.raw("</caption><thead><tr><th scope=\"col\">strategy</th>")
    for m in liveActivityColumns { w.element("th", ["scope": "col"], text: m.label) }
    w.raw("</tr></thead><tbody>")
    for row in table.rows where row.segment == "all" {
      w.raw("<tr>")
      w.element("th", ["scope": "row"], text: row.strategy)
      for m in liveActivityColumns {
        let x = row.value(m)
        var cell = x.isFinite ? NumberFormat.fixed(x, decimals: m.decimals == 0 ? 0 : 1) : "–"
        if m == .fleetPushPeakPerSecond, x.isFinite {
          cell =
            NumberFormat.short(x) + " ("
            + NumberFormat.range(row.value(.fleetPushPeakLow), row.value(.fleetPushPeakHigh)) + ")"
        } else if m == .fleetPushesPerDay, x.isFinite {
          cell = NumberFormat.short(x)
        }
        w.element("td", text: cell)
      }
      w.raw("</tr>")
    }
    w.raw("</tbody></table></div>\n")
    writeActivityAgainstWidgets(results, table, to: &w)
    w.raw("<details class=\"defs\"><summary>What the columns mean</summary><dl>")
    for m in liveActivityColumns {
      w.raw("<dt>")
      w.text(m.label)
      w.raw("</dt><dd>")
      w.text(m.definition)
      w.raw("</dd>")
    }
    w.raw("</dl></details>\n</section>\n")
  }

  /// The widgets' glances within tolerance on each event's kind, next to
  /// the activities' (a widget reloaded often against a Live Activity).
  static func writeActivityAgainstWidgets(_ results: ScenarioResults, _ table: ActivityTable, to w: inout _HTMLWriter) {
    let summary = results.summary
    guard let column = summary.columnIndex(named: SummaryMetric.acceptableGlancePct.metric.name) else { return }
    let kinds = Array(Set(table.eventKinds)).sorted()
    var rows: [[String]] = []
    for row in summary.overallRows {
      var cells = [row.strategy + " (widget)"]
      for k in kinds {
        let kindRow = summary.kindRows.first { $0.strategy == row.strategy && $0.segment == "all" && $0.kind == k }
        let value = (kindRow ?? (summary.kindRows.isEmpty ? row : nil))?.values[column]
        cells.append(value.map { NumberFormat.fixed($0, decimals: 1) + " %" } ?? "–")
      }
      rows.append(cells)
    }
    for s in table.series {
      var cells = [s.strategy + " (Live Activity)"]
      for k in kinds {
        // The events on the kind, their glances pooled by event share (one event per kind is usual).
        let values = table.eventKinds.indices.filter { table.eventKinds[$0] == k }.compactMap {
          $0 < s.eventAcceptablePct.count ? s.eventAcceptablePct[$0] : nil
        }
        cells.append(
          values.isEmpty
            ? "–" : values.map { NumberFormat.fixed($0, decimals: 1) + " %" }.joined(separator: ", "))
      }
      rows.append(cells)
    }
    w.raw("<p>")
    w.text(
      "Widget or Live Activity: glances within the kind's tolerance for the widget strategies (each kind's own "
        + "widgets) and for the activities (each event on the kind).")
    w.raw("</p>\n")
    ReportFigure.Table(
      caption: "Glances within tolerance: widgets against Live Activities", columns: ["strategy"] + kinds, rows: rows
    ).write(to: &w)
  }
}
