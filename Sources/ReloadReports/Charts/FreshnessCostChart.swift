import ReloadMetrics

/// Freshness against cost: one labelled point per strategy, and the Pareto
/// frontier (the strategies no other strategy beats on both axes).
///
/// Which way is better on each axis comes from the metrics' polarity; the
/// chart writes that direction in a corner ("better ↖") instead of
/// assuming it.
///
/// Freshness is the metric the recommendation judged by
/// (`RecommendationMarks.freshnessMetric`: `acceptable_glance_pct` under the
/// default rule), its targets are drawn as dashed lines, and a ring marks
/// the recommended strategy, so the chart shows why it was chosen.
package enum FreshnessCostChart {
  static let width = 470.0
  static let height = 340.0

  static func figure(_ results: ScenarioResults, recommendation: RecommendationMarks? = nil) -> ReportFigure? {
    let table = results.summary
    let rows = table.overallRows
    let freshMetric = recommendation?.freshnessMetric ?? .acceptableGlancePct
    guard !rows.isEmpty, let fresh = table.columnIndex(freshMetric) else { return nil }
    let costs = [SummaryMetric.budgetedReloadsPerWidgetDay, .backendRequestsPerWidgetDay].compactMap(table.columnIndex)
    guard !costs.isEmpty else { return nil }
    let styles = SeriesStyle.styles(for: results)
    var charts: [SVGChart] = []
    var frontiers: [Set<Int>] = []
    for (n, cost) in costs.enumerated() {
      let (chart, frontier) = self.chart(
        id: "scatter-\(n)", table: table, rows: rows, x: cost, y: fresh, styles: styles,
        recommendation: recommendation)
      charts.append(chart)
      frontiers.append(frontier)
    }
    let yMetric = table.columns[fresh]
    var columns = ["Strategy", yMetric.label]
    for c in costs { columns.append(table.columns[c].label) }
    for c in costs {
      columns.append("On the frontier (" + table.columns[c].shortLabel + ")")
    }
    let dataRows: [[String]] = rows.enumerated().map { i, row in
      var cells = [row.strategy, cell(row, fresh, table)]
      for c in costs { cells.append(cell(row, c, table)) }
      for f in frontiers { cells.append(f.contains(i) ? "yes" : "no") }
      return cells
    }
    return ReportFigure(
      id: "fig-freshness-cost", heading: "Freshness against cost",
      caption: "Each point is a strategy: \(yMetric.label.lowercasedFirst) (the freshness the recommendation "
        + "is judged by) against cost; \(betterText(table.columns[fresh].polarity)), further left is cheaper. "
        + "The dashed line joins the Pareto frontier: the strategies that no other strategy beats "
        + "on both freshness and cost; every other strategy pays more for less. Markers that would cover "
        + "each other are drawn a few pixels apart (their tooltips say so)."
        + targetCaption(recommendation, metrics: [table.columns[fresh]] + costs.map { table.columns[$0] }),
      layout: .pair, charts: charts,
      table: .init(
        caption: "Freshness and cost per strategy (all segments)", columns: columns, rows: dataRows))
  }

  /// "higher is fresher" or "lower is fresher", by the freshness metric's polarity.
  static func betterText(_ p: Polarity) -> String {
    p == .prefersSmaller ? "lower is fresher" : "higher is fresher"
  }

  /// The caption's sentence on the recommendation's ring and target lines.
  static func targetCaption(_ r: RecommendationMarks?, metrics: [Metric]) -> String {
    guard let r else { return "" }
    var s = " The ring marks the recommended strategy (\(r.strategy))"
    let drawn = r.targets.filter { b in metrics.contains { $0.name == b.metric.name } }
    if !drawn.isEmpty {
      s +=
        "; the red dashed line" + (drawn.count == 1 ? " is the target" : "s are the targets") + " it had to meet ("
        + drawn.map(ObjectiveSummary.labelled).joined(separator: ", ") + ")"
    }
    return s + "."
  }

  static func cell(_ row: ResultRow, _ column: Int, _ table: ResultTable) -> String {
    guard column < row.values.count, let v = row.values[column] else { return "–" }
    return NumberFormat.metric(v, unit: table.columns[column].unit)
  }

  /// The scatter of column `y` against column `x`, and the row indices on its frontier.
  /// `panel`: a title drawn above the plot (a panel of small multiples).
  static func chart(
    id: String, table: ResultTable, rows: [ResultRow], x: Int, y: Int, styles: [String: SeriesStyle],
    recommendation: RecommendationMarks? = nil, panel: String? = nil
  ) -> (SVGChart, Set<Int>) {
    let xm = table.columns[x]
    let ym = table.columns[y]
    var points: [(row: Int, x: Double, y: Double)] = []
    for (i, row) in rows.enumerated() {
      if let vx = row.values[x], let vy = row.values[y], vx.isFinite, vy.isFinite {
        points.append((i, vx, vy))
      }
    }
    let xs = points.map(\.x)
    let ys = points.map(\.y)
    // The targets on these axes, so the scales reach them.
    let yTargets = (recommendation?.targets ?? []).filter { $0.metric.name == ym.name }
    let xTargets = (recommendation?.targets ?? []).filter { $0.metric.name == xm.name }
    let yRange = ys + yTargets.map(\.value)
    var yScale = ChartScale.linear(yRange.min() ?? 0, yRange.max() ?? 100)
    if ym.unit == .percent && yScale.hi > 100 { yScale = .linear(0, 100) }
    let top = panel == nil ? 34.0 : 54.0
    let frame = ChartFrame(
      plot: .init(x: 46, y: top, width: width - 46 - 14, height: height - top - 46),
      x: .linear(
        min(xs.min() ?? 0, xTargets.map(\.value).min() ?? .infinity),
        max(xs.max() ?? 1, xTargets.map(\.value).max() ?? -.infinity), maxTicks: 6), y: yScale)
    var chart = SVGChart(
      id: id, width: width, height: height,
      title: "\(ym.label) against \(xm.label.lowercasedFirst)",
      summary: summary(points: points, rows: rows, xm: xm, ym: ym))
    if let panel { chart.add(.text(.init(x: 4, y: 16), panel, cls: "ptitle")) }
    chart.add(
      frame.axes(
        xLabel: { NumberFormat.tick($0, unit: xm.unit) }, yLabel: { NumberFormat.tick($0, unit: ym.unit) },
        xTitle: ReportLabels.withUnit(xm),
        yTitle: ReportLabels.withUnit(ym), xGrid: true))

    let frontier = paretoFrontier(points.map { ($0.x, $0.y) }, x: xm.polarity, y: ym.polarity)
    let frontierRows = Set(frontier.map { points[$0].row })
    // Labels may use the band above the plot (a point near the top has no room below its
    // neighbours' labels otherwise, and its label drifted far down the plot): the panel
    // title and the "better" hint keep theirs.
    let headroom = min(22.0, frame.plot.y - (panel == nil ? 20 : 40))
    var placer = _LabelPlacer(
      bounds: .init(
        x: frame.plot.x, y: frame.plot.y - headroom, width: frame.plot.width + 10,
        height: frame.plot.height + headroom))
    placer.reserve(.init(x: width - 14 - 70, y: frame.plot.y - 22, width: 70, height: 16))
    // Markers that would cover each other, set apart (`setApart`).
    let exact = points.map { frame.point($0.x, $0.y) }
    let pixels = setApart(exact, distance: 12)
    if frontier.count > 1 {
      let line = frontier.map { pixels[$0] }.sorted { $0.x < $1.x }
      chart.add(.joining(frontier.map { rows[points[$0].row].strategy }, [.polyline(line, cls: "frontier")]))
      // Keep labels off the frontier line: reserve small boxes along it.
      for (a, b) in zip(line, line.dropFirst()) {
        let steps = Int(max(abs(b.x - a.x), abs(b.y - a.y)) / 6)
        for k in 1..<max(steps, 1) {
          let t = Double(k) / Double(steps)
          placer.reserve(around: .init(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t), radius: 2)
        }
      }
    }
    // Which way is better, said above the plot (it never covers a point).
    if let corner = betterCorner(xm.polarity, ym.polarity) {
      chart.add(
        .text(
          .init(x: width - 14, y: frame.plot.y - 10), "better: " + corner.arrow, anchor: .end, cls: "hint"))
    }
    // The targets' labels keep clear of the points (and a recommendation's ring).
    let targets = frame.targets(yTargets, unit: ym.unit, clearOf: pixels, radius: 11)
    chart.add(targets.marks)
    for b in xTargets { chart.add(frame.target(b, unit: xm.unit, horizontal: false)) }
    for p in pixels { placer.reserve(around: p, radius: 6) }
    // Keep labels off the targets' labels and lines.
    for r in targets.keepClear { placer.reserve(r) }
    let recommended = recommendation.flatMap { r in points.firstIndex { rows[$0.row].strategy == r.strategy } }
    if let k = recommended { placer.reserve(around: pixels[k], radius: 11) }
    // Each strategy's ring (the recommended one's) and marker, in table order.
    for (k, pt) in points.enumerated() {
      let row = rows[pt.row]
      let style = SeriesStyle.of(row.strategy, in: styles)
      let moved = pixels[k] != exact[k]
      chart.add(
        .strategy(
          row.strategy,
          (k == recommended ? [.marker(pixels[k], .circle, size: 10, cls: "recring")] : []) + [
            .marker(
              pixels[k], style.shape, size: 5, cls: style.fill,
              tooltip:
                "\(row.strategy): \(NumberFormat.metric(pt.y, unit: ym.unit)) \(ym.shortLabel), "
                + "\(NumberFormat.metric(pt.x, unit: xm.unit)) \(xm.shortLabel)"
                + (moved ? " (drawn a few pixels off its place, clear of a strategy with nearly the same values)" : ""))
          ]))
    }
    var labels: [SVGChart.Mark] = []
    placer.points = pixels
    // The recommended strategy's label is placed first: it gets the spot next to its point.
    let order = recommended.map { r in [r] + points.indices.filter { $0 != r } } ?? Array(points.indices)
    for k in order {
      let pt = points[k]
      let row = rows[pt.row]
      let p = pixels[k]
      // Clear of the recommendation's ring (radius 11) for its own label.
      let placed = placer.place(row.strategy, near: p, clearance: k == recommended ? 14 : 8)
      var label: [SVGChart.Mark] = []
      if let from = placed.leaderFrom {
        label.append(.polyline([from, placed.leaderTo], cls: "leader"))
      }
      label.append(
        .text(
          placed.at, row.strategy, anchor: placed.anchor,
          cls: frontierRows.contains(pt.row) ? "lbl strong" : "lbl"))
      labels.append(.strategy(row.strategy, label))
    }
    chart.add(labels)
    return (chart, frontierRows)
  }

  /// `points` with the markers that would cover each other set apart:
  /// points linked by gaps under `distance` pixels form a cluster, whose
  /// members are spread evenly on a circle around the cluster's centre,
  /// `distance` apart from their neighbours, the first (by index) on the
  /// left. Points with room keep their place.
  ///
  ///     setApart([.init(x: 10, y: 10), .init(x: 11, y: 10)], distance: 12)  // x 4.5 and 16.5
  ///
  /// - Complexity: O(n²); n is the number of strategies.
  package static func setApart(_ points: [SVGChart.Point], distance: Double) -> [SVGChart.Point] {
    var cluster = Array(points.indices)
    func find(_ i: Int) -> Int { cluster[i] == i ? i : find(cluster[i]) }
    for i in points.indices {
      for j in points.indices where j > i {
        let dx = points[i].x - points[j].x
        let dy = points[i].y - points[j].y
        if dx * dx + dy * dy < distance * distance { cluster[find(j)] = find(i) }
      }
    }
    var out = points
    for root in Set(points.indices.map(find)) {
      let members = points.indices.filter { find($0) == root }
      guard members.count > 1 else { continue }
      let n = Double(members.count)
      let cx = members.map { points[$0].x }.reduce(0, +) / n
      let cy = members.map { points[$0].y }.reduce(0, +) / n
      let radius = distance / (2 * _sin(Double.pi / n))
      for (j, i) in members.enumerated() {
        let angle = Double.pi + 2 * Double.pi * Double(j) / n
        out[i] = .init(x: cx + radius * _cos(angle), y: cy + radius * _sin(angle))
      }
    }
    return out
  }

  /// Indices of the points no other point beats on both coordinates, by
  /// each axis's polarity (sorted by index). Empty when either is neutral.
  ///
  ///     paretoFrontier([(1, 50), (2, 90), (3, 60)], x: .prefersSmaller, y: .prefersLarger)  // [0, 1]
  ///
  /// - Complexity: O(n²); n is the number of strategies.
  package static func paretoFrontier(_ points: [(x: Double, y: Double)], x: Polarity, y: Polarity) -> [Int] {
    guard x != .neutral, y != .neutral else { return [] }
    func noWorse(_ a: Double, _ b: Double, _ p: Polarity) -> Bool { p == .prefersLarger ? a >= b : a <= b }
    return points.indices.filter { i in
      !points.indices.contains { j in
        j != i && noWorse(points[j].x, points[i].x, x) && noWorse(points[j].y, points[i].y, y)
          && (points[j].x != points[i].x || points[j].y != points[i].y)
      }
    }
  }

  /// Where "better" lies: x and y signs in screen terms and an arrow.
  static func betterCorner(_ x: Polarity, _ y: Polarity) -> (x: Int, y: Int, arrow: String)? {
    guard x != .neutral, y != .neutral else { return nil }
    let right = x == .prefersLarger
    let up = y == .prefersLarger
    let arrow = up ? (right ? "↗" : "↖") : (right ? "↘" : "↙")
    return (right ? 1 : -1, up ? -1 : 1, arrow)
  }

  static func summary(points: [(row: Int, x: Double, y: Double)], rows: [ResultRow], xm: Metric, ym: Metric)
    -> String
  {
    guard let best = points.max(by: { ym.isBetter($1.y, than: $0.y) }),
      let cheapest = points.max(by: { xm.isBetter($1.x, than: $0.x) })
    else { return "No strategy has both values." }
    return "\(points.count) strategies. Best \(ym.shortLabel): \(rows[best.row].strategy) "
      + "(\(NumberFormat.metric(best.y, unit: ym.unit))). Best \(xm.shortLabel): "
      + "\(rows[cheapest.row].strategy) (\(NumberFormat.metric(cheapest.x, unit: xm.unit)))."
  }
}
