import ReloadMetrics

/// Freshness against cost across the whole sweep: every point x strategy
/// (all segments) is a marker in its strategy's colour and shape, the
/// Pareto frontier joins the candidates no other beats on both axes (each
/// labelled with its strategy and point), and a ring marks the
/// recommendation.
///
/// The frontier is computed over all candidates, feasible or not: it shows
/// what the model allows; the recommendation adds the objective's constraints.
enum SweepFrontierChart {
  static let width = 470.0
  static let height = 360.0
  /// Frontier labels per chart at most (the rest have tooltips and are in the table).
  static let maxLabels = 8

  /// `bestOfStrategy`: each strategy's own best candidate (ringed thinly and labelled).
  static func figure(
    _ results: SweepResults, recommended: [Int], styles: [String: SeriesStyle], bestOfStrategy: [Int] = []
  ) -> ReportFigure? {
    let candidates = results.candidates
    // The freshness the objective judges by (as report.html's chart does).
    let freshness = Recommendation.freshnessMetric(of: results.objective)
    guard !candidates.isEmpty, let fresh = results.columns.firstIndex(of: freshness.metric)
    else { return nil }
    let costs = [SummaryMetric.budgetedReloadsPerWidgetDay, .backendRequestsPerWidgetDay].compactMap { m in
      results.columns.firstIndex(of: m.metric)
    }
    guard !costs.isEmpty else { return nil }
    // Identical results of one strategy at several points are one marker.
    let representative = ObjectiveCandidate.representatives(candidates)
    var charts: [SVGChart] = []
    var frontiers: [Set<Int>] = []
    for (n, cost) in costs.enumerated() {
      let (chart, frontier) = self.chart(
        id: "sweep-frontier-\(n)", results: results, candidates: candidates, representative: representative,
        x: cost, y: fresh, recommended: recommended, styles: styles, bestOfStrategy: bestOfStrategy)
      charts.append(chart)
      frontiers.append(Set(candidates.indices.filter { frontier.contains(representative[$0]) }))
    }
    let params = results.parameters.map(\.name)
    var columns = ["Point"] + params + ["Strategy", results.columns[fresh].label]
    columns += costs.map { results.columns[$0].label }
    columns += costs.map { "On the frontier (" + results.columns[$0].shortLabel + ")" }
    let rows: [[String]] = candidates.enumerated().map { i, c in
      var cells = [String(c.point + 1)]
      cells += zip(results.parameters, results.points[c.point].valueIndices).map { p, k in p.values[k] }
      cells.append(c.strategy + (recommended.contains(i) ? " (recommended)" : ""))
      for col in [fresh] + costs {
        cells.append(results.cell(results.columns[col], policy: c.strategy, point: c.point))
      }
      for f in frontiers { cells.append(f.contains(i) ? "yes" : "no") }
      return cells
    }
    var key: [(swatchClass: String, text: String)] = results.strategies.map { s in
      let style = SeriesStyle.of(s, in: styles)
      return ("ser " + style.colorClass, s)
    }
    key.append(("frontier", "Pareto frontier"))
    if !recommended.isEmpty { key.append(("ring", "recommended")) }
    if !bestOfStrategy.isEmpty { key.append(("ring thin", "a strategy's own best")) }
    return ReportFigure(
      id: "fig-frontier", heading: "Freshness against cost, every point",
      caption: "Each marker is one strategy at one sweep point (all segments): higher is fresher, further left "
        + "is cheaper. The dashed line joins the Pareto frontier across all points, each frontier point labelled "
        + "with its strategy and parameter values; every other combination pays more for less; the other points "
        + "carry their parameter values where there is room. Red dashed lines: the objective's targets on these axes. "
        + (recommended.isEmpty
          ? ""
          : "The ring marks the recommendation (its worst case, when it must hold for every value of an "
            + "assumption), which also has to meet the objective's constraints."),
      layout: .pair, charts: charts,
      table: .init(
        caption: "Freshness and cost at every point and strategy (all segments)", columns: columns, rows: rows),
      key: key)
  }

  /// "poll · 30" or "poll · 30, 0.2": a candidate's label; "hybrid · every
  /// point" or "poll · 30 ×3" when it stands for identical results at 3 points.
  static func label(_ c: ObjectiveCandidate, _ results: SweepResults, twins: Int = 0) -> String {
    if twins > 0 && twins + 1 >= results.points.count { return c.strategy + " · every point" }
    let values = zip(results.parameters, results.points[c.point].valueIndices).map { p, k in p.values[k] }
    return c.strategy + " · " + values.joined(separator: ", ") + (twins > 0 ? " ×\(twins + 1)" : "")
  }

  static func chart(
    id: String, results: SweepResults, candidates: [ObjectiveCandidate], representative: [Int], x: Int, y: Int,
    recommended: [Int], styles: [String: SeriesStyle], bestOfStrategy: [Int] = []
  ) -> (SVGChart, Set<Int>) {
    let xm = results.columns[x]
    let ym = results.columns[y]
    var twins = [Int](repeating: 0, count: candidates.count)
    for (i, r) in representative.enumerated() where r != i { twins[r] += 1 }
    func label(_ i: Int) -> String { Self.label(candidates[i], results, twins: twins[i]) }
    var points: [(candidate: Int, x: Double, y: Double)] = []
    for (i, c) in candidates.enumerated() where representative[i] == i {
      if let vx = c.values[x], let vy = c.values[y], vx.isFinite, vy.isFinite { points.append((i, vx, vy)) }
    }
    let xs = points.map(\.x)
    let bounds = results.objective?.bounds ?? []
    let yTargets = bounds.filter { $0.metric.name == ym.name }
    let xTargets = bounds.filter { $0.metric.name == xm.name }
    let ys = points.map(\.y) + yTargets.map(\.value)
    // Zoomed to the data: a sweep's points crowd together at 0-100 %.
    var yScale = ChartScale.linear(ys.min() ?? 0, ys.max() ?? 100, includeZero: false, maxTicks: 6)
    if ym.unit == .percent && yScale.hi > 100 { yScale = .linear(ys.min() ?? 0, 100, includeZero: false, maxTicks: 6) }
    let frame = ChartFrame(
      plot: .init(x: 46, y: 34, width: width - 46 - 14, height: height - 34 - 46),
      x: .linear(xs.min() ?? 0, xs.max() ?? 1, maxTicks: 6), y: yScale)
    let frontierIdx = FreshnessCostChart.paretoFrontier(points.map { ($0.x, $0.y) }, x: xm.polarity, y: ym.polarity)
    let frontier = Set(frontierIdx.map { points[$0].candidate })
    var chart = SVGChart(
      id: id, width: width, height: height,
      title: "\(ym.label) against \(xm.label.lowercasedFirst), every point",
      summary: "\(points.count) strategy-point combinations; \(frontier.count) on the Pareto frontier: "
        + frontierIdx.prefix(8).map { label(points[$0].candidate) }.joined(separator: "; ")
        + (frontierIdx.count > 8 ? "; ..." : "") + ".")
    chart.add(
      frame.axes(
        xLabel: { NumberFormat.tick($0, unit: xm.unit) }, yLabel: { NumberFormat.tick($0, unit: ym.unit) },
        xTitle: ReportLabels.withUnit(xm),
        yTitle: ReportLabels.withUnit(ym), xGrid: true))
    if let corner = FreshnessCostChart.betterCorner(xm.polarity, ym.polarity) {
      chart.add(.text(.init(x: width - 14, y: frame.plot.y - 10), "better: " + corner.arrow, anchor: .end, cls: "hint"))
    }
    var placer = _LabelPlacer(
      bounds: .init(x: frame.plot.x, y: frame.plot.y - 6, width: frame.plot.width + 10, height: frame.plot.height + 6))
    let line = frontierIdx.map { frame.point(points[$0].x, points[$0].y) }.sorted { $0.x < $1.x }
    if line.count > 1 {
      var joined: [String] = []
      for i in frontierIdx where !joined.contains(candidates[points[i].candidate].strategy) {
        joined.append(candidates[points[i].candidate].strategy)
      }
      chart.add(.joining(joined, [.polyline(line, cls: "frontier")]))
      for (a, b) in zip(line, line.dropFirst()) {
        let steps = Int(max(abs(b.x - a.x), abs(b.y - a.y)) / 6)
        for k in 1..<max(steps, 1) {
          let t = Double(k) / Double(steps)
          placer.reserve(around: .init(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t), radius: 2)
        }
      }
    }
    let pixels = points.map { frame.point($0.x, $0.y) }
    // The targets' labels keep clear of the points (and a recommendation's ring).
    let targets = frame.targets(yTargets, unit: ym.unit, clearOf: pixels, radius: 8)
    chart.add(targets.marks)
    for b in xTargets { chart.add(frame.target(b, unit: xm.unit, horizontal: false)) }
    for p in pixels { placer.reserve(around: p, radius: 4) }
    // Keep labels off the targets' labels and lines.
    for r in targets.keepClear { placer.reserve(r) }
    // Each strategy's marks and labels, drawn as one group per strategy.
    var marks: [String: [SVGChart.Mark]] = [:]
    var labels: [String: [SVGChart.Mark]] = [:]
    func strategy(_ k: Int) -> String { candidates[points[k].candidate].strategy }
    // Off-frontier markers first, so a strategy's frontier markers sit on top.
    for pass in 0..<2 {
      for (k, pt) in points.enumerated() where frontier.contains(pt.candidate) == (pass == 1) {
        let c = candidates[pt.candidate]
        let style = SeriesStyle.of(c.strategy, in: styles)
        marks[c.strategy, default: []].append(
          .marker(
            pixels[k], style.shape, size: pass == 1 ? 4.5 : 3, cls: style.fill + (pass == 1 ? "" : " faint"),
            tooltip: "\(label(pt.candidate)): \(NumberFormat.metric(pt.y, unit: ym.unit)) "
              + "\(ym.shortLabel), \(NumberFormat.metric(pt.x, unit: xm.unit)) "
              + xm.shortLabel))
      }
    }
    for r in recommended {
      guard let k = points.firstIndex(where: { $0.candidate == representative[r] }) else { continue }
      marks[strategy(k), default: []].append(.marker(pixels[k], .circle, size: 9, cls: "recring"))
      placer.reserve(around: pixels[k], radius: 10)
    }
    // Each strategy's own best: a thin ring and a label, before the frontier's.
    var labelled = Set<Int>()
    for b in bestOfStrategy {
      guard let k = points.firstIndex(where: { $0.candidate == representative[b] }) else { continue }
      if !recommended.contains(where: { representative[$0] == representative[b] }) {
        marks[strategy(k), default: []].append(.marker(pixels[k], .circle, size: 7.5, cls: "recring thin"))
      }
      placer.reserve(around: pixels[k], radius: 9)
      let text = label(points[k].candidate) + " (best " + candidates[b].strategy + ")"
      let placed = placer.place(text, near: pixels[k], clearance: 10)
      if let from = placed.leaderFrom {
        labels[strategy(k), default: []].append(.polyline([from, placed.leaderTo], cls: "leader"))
      }
      labels[strategy(k), default: []].append(.text(placed.at, text, anchor: placed.anchor, cls: "lbl strong"))
      labelled.insert(k)
    }
    // Label frontier points from cheapest to dearest, both ends first, then
    // those at least 18 px from every labelled one, up to `maxLabels`.
    let ordered = frontierIdx.sorted { points[$0].x < points[$1].x }
    var chosen: [Int] = []
    for k in [ordered.first, ordered.last].compactMap({ $0 }) + ordered where !chosen.contains(k) {
      guard chosen.count < maxLabels else { break }
      let far = chosen.allSatisfy { j in
        let dx = pixels[j].x - pixels[k].x
        let dy = pixels[j].y - pixels[k].y
        return dx * dx + dy * dy >= 18 * 18
      }
      if far { chosen.append(k) }
    }
    for k in chosen.sorted(by: { points[$0].x < points[$1].x }) where !labelled.contains(k) {
      let text = label(points[k].candidate)
      let placed = placer.place(text, near: pixels[k], clearance: 8)
      if let from = placed.leaderFrom {
        labels[strategy(k), default: []].append(.polyline([from, placed.leaderTo], cls: "leader"))
      }
      labels[strategy(k), default: []].append(.text(placed.at, text, anchor: placed.anchor, cls: "lbl"))
      labelled.insert(k)
    }
    // The other points: their parameter values alone, where they fit without a leader.
    var small = _LabelPlacer(bounds: placer.bounds, fontSize: 10)
    for r in placer.occupied { small.reserve(r) }
    for k in points.indices where !labelled.contains(k) && twins[points[k].candidate] == 0 {
      let c = candidates[points[k].candidate]
      let text = zip(results.parameters, results.points[c.point].valueIndices).map { p, i in p.values[i] }
        .joined(separator: ", ")
      var trial = small
      let placed = trial.place(text, near: pixels[k], clearance: 5)
      guard placed.leaderFrom == nil else { continue }
      small = trial
      labels[strategy(k), default: []].append(.text(placed.at, text, anchor: placed.anchor, cls: "lbl small"))
    }
    // Two groups per strategy: every strategy's markers and rings first,
    // then every strategy's labels, so no marker covers a label.
    var order = results.strategies
    for k in points.indices where !order.contains(strategy(k)) { order.append(strategy(k)) }
    for name in order { if let m = marks[name] { chart.add(.strategy(name, m)) } }
    for name in order { if let l = labels[name] { chart.add(.strategy(name, l)) } }
    return (chart, frontier)
  }
}
