import ReloadMetrics

extension FreshnessCostChart {
  /// The freshness chart split by widget kind (a scenario with several
  /// kinds): one scatter per kind of the same freshness against budgeted
  /// reloads per widget-day, all segments together, each point a strategy.
  static func kindFigure(_ results: ScenarioResults, recommendation: RecommendationMarks? = nil) -> ReportFigure? {
    let table = results.summary
    let kinds = table.kinds
    let freshMetric = recommendation?.freshnessMetric ?? .acceptableGlancePct
    guard kinds.count > 1, freshMetric.perKind, let fresh = table.columnIndex(freshMetric),
      let cost = table.columnIndex(.budgetedReloadsPerWidgetDay)
    else { return nil }
    let styles = SeriesStyle.styles(for: results)
    var charts: [SVGChart] = []
    var dataRows: [[String]] = []
    for (n, kind) in kinds.enumerated() {
      let rows = table.kindRows.filter { $0.segment == "all" && $0.kind == kind }
      let (drawn, frontier) = self.chart(
        id: "kind-scatter-\(n)", table: table, rows: rows, x: cost, y: fresh, styles: styles,
        recommendation: recommendation, panel: "Widget kind " + kind)
      var chart = drawn
      chart.title = "Widget kind \(kind): " + chart.title.lowercasedFirst
      charts.append(chart)
      for (i, row) in rows.enumerated() {
        dataRows.append([
          kind, row.strategy, cell(row, fresh, table), cell(row, cost, table), frontier.contains(i) ? "yes" : "no",
        ])
      }
    }
    let yMetric = table.columns[fresh]
    return ReportFigure(
      id: "fig-freshness-kinds", heading: "Freshness against cost, per widget kind",
      caption: "The chart above for each widget kind on its own: \(yMetric.label.lowercasedFirst) against "
        + "budgeted reloads per widget-day of that kind's widgets, all segments together. A kind that sits low "
        + "under every strategy is the one that goes stale.",
      layout: .pair, charts: charts,
      table: .init(
        caption: "Freshness and cost per widget kind and strategy (all segments)",
        columns: [
          "Kind", "Strategy", yMetric.label, table.columns[cost].label,
          "On the frontier (" + table.columns[cost].shortLabel + ")",
        ],
        rows: dataRows))
  }
}
