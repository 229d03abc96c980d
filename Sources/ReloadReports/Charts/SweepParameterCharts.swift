import ReloadMetrics

/// Metric against parameter: for each swept parameter, one small chart per
/// metric with one line per strategy, along the parameter's slice (the
/// other parameters at their middle value; see `SweepResults.slice`).
///
/// A constrained metric gets its bound as a dashed horizontal line, and the
/// recommended point's value of the parameter a dashed vertical one, so a
/// reader sees how much room the recommendation has on each side.
enum SweepParameterCharts {
  static let width = 330.0
  static let height = 230.0

  /// The metrics charted against every parameter: the five headline
  /// questions, then the objective's metrics not among them. The backend's
  /// peak is the fleet's busy second with its interval where the results
  /// have it (the sample's busiest second is noise, and scales with the
  /// devices simulated).
  static func metrics(_ results: SweepResults) -> [Metric] {
    let fleet = results.points.contains { p in
      p.rows.contains { r in
        r.segment == "all"
          && results.value(named: SummaryMetric.backendFleetPeakRps.name, policy: r.strategy, point: p.index) != nil
      }
    }
    let headline: [SummaryMetric] = [
      .freshGlancePct, .acceptableGlancePct, .budgetedReloadsPerWidgetDay,
      fleet ? .backendFleetPeakRps : .backendPeakRps, .frozenWidgetDayPct,
    ]
    var metrics = headline
    if let o = results.objective {
      for m in [o.metric] + o.bounds.map(\.metric) where !metrics.contains(m) { metrics.append(m) }
    }
    return metrics.compactMap { m in results.columns.first { $0.name == m.name } }
  }

  /// The x axis of a parameter: numeric (linear or log) or one slot per value.
  struct Axis {
    var scale: ChartScale
    /// The data coordinate of the parameter's value `i`.
    var position: (Int) -> Double
    var label: (Double) -> String

    init(_ p: SweepParameter) {
      if let xs = p.numbers, let lo = xs.min(), let hi = xs.max(), hi > lo {
        let ticks =
          xs.count <= 12 ? xs.sorted() : NiceTicks.linear(lo, hi, maxCount: 6).ticks.filter { $0 >= lo && $0 <= hi }
        if p.logScale {
          // 4 % of the log span as padding on each side.
          let pad = _pow10(0.04 * (_log10(hi) - _log10(lo)))
          scale = ChartScale(lo: lo / pad, hi: hi * pad, ticks: ticks, isLog: true)
        } else {
          let pad = 0.04 * (hi - lo)
          scale = ChartScale(lo: lo - pad, hi: hi + pad, ticks: ticks)
        }
        position = { xs[$0] }
        label = { NumberFormat.short($0) }
      } else {
        let n = p.values.count
        scale = ChartScale(lo: -0.5, hi: Double(n) - 0.5, ticks: (0..<n).map(Double.init))
        position = { Double($0) }
        let values = p.values
        label = { x in
          let i = Int(x.rounded())
          guard values.indices.contains(i) else { return "" }
          let v = values[i]
          return v.count > 12 ? String(v.prefix(11)) + "…" : v
        }
      }
    }
  }

  /// `recommended`: the recommended candidate when it belongs to one point
  /// (not a strategy the sweep leaves unchanged), for the vertical mark.
  /// `bestPoints`: each strategy's own best point (`ObjectiveOutcome.byStrategy`),
  /// ringed and labelled with its parameter value on its line.
  static func figures(
    _ results: SweepResults, recommended: ObjectiveCandidate?, styles: [String: SeriesStyle],
    bestPoints: [String: Int] = [:]
  ) -> [ReportFigure] {
    let metrics = self.metrics(results)
    let strategies = results.strategies
    return results.parameters.indices.map { p in
      let parameter = results.parameters[p]
      let slice = results.slice(varying: p)
      let axis = Axis(parameter)
      let held = results.parameters.indices.filter { $0 != p }.map { q in
        results.parameters[q].name + " = " + results.parameters[q].values[results.parameters[q].referenceIndex]
      }
      // The recommended point's value of this parameter, when the
      // recommendation lies on this slice.
      var markX: Double? = nil
      if let r = recommended, slice.contains(r.point) {
        markX = axis.position(results.points[r.point].valueIndices[p])
      }
      let charts = metrics.enumerated().map { k, m in
        chart(
          id: "param-\(p)-\(k)", results: results, parameter: p, metric: m, slice: slice, axis: axis,
          strategies: strategies, styles: styles, markX: markX, bestPoints: bestPoints)
      }
      var rows: [[String]] = []
      for point in slice {
        let v = parameter.values[results.points[point].valueIndices[p]]
        for s in strategies {
          var cells = [v, s]
          for m in metrics {
            cells.append(results.cell(m, policy: s, point: point))
          }
          rows.append(cells)
        }
      }
      var caption =
        "One chart per metric, one line per strategy (all segments), as \(parameter.name) "
        + "(\(parameter.path)) varies"
      caption +=
        held.isEmpty ? "." : ", the other parameters held at their middle value (" + held.joined(separator: ", ") + ")."
      if results.objective != nil {
        caption +=
          " Red dashed lines: a constraint's target; grey dashed vertical line: the recommended value. "
          + "A ring marks each strategy's own best point by the objective, labelled with its \(parameter.name); "
          + "a strategy the sweep does not change is a flat line."
      }
      let banded = metrics.filter { results.hasInterval($0) }
      caption +=
        banded.isEmpty
        ? " No metric here has a 95 % interval (one replication): each line is one estimate."
        : " Shaded bands: the 95 % interval of "
          + banded.map { $0.labelInSentence }.joined(separator: ", ")
          + (banded.count < metrics.count ? " (the other metrics have none with one replication)." : ".")
      if parameter.logScale { caption += " The x axis is logarithmic." }
      return ReportFigure(
        id: "fig-param-\(p)", heading: "Metrics against \(parameter.name)", caption: caption, layout: .multiples,
        charts: charts,
        table: .init(
          caption: "Metrics (all segments) against \(parameter.name)",
          columns: [parameter.name, "Strategy"] + metrics.map { ReportLabels.withUnit($0) },
          rows: rows),
        key: strategies.map { s in
          (SeriesStyle.of(s, in: styles).swatch, s)
        })
    }
  }

  static func chart(
    id: String, results: SweepResults, parameter p: Int, metric m: Metric, slice: [Int], axis: Axis,
    strategies: [String], styles: [String: SeriesStyle], markX: Double?, bestPoints: [String: Int] = [:]
  ) -> SVGChart {
    let parameter = results.parameters[p]
    var series: [(policy: String, points: [(x: Double, y: Double?)])] = []
    var intervals: [[MetricInterval?]] = []
    for s in strategies {
      let pts = slice.map { point -> (x: Double, y: Double?) in
        let y = results.value(named: m.name, policy: s, point: point).flatMap { $0.isFinite ? $0 : nil }
        return (axis.position(results.points[point].valueIndices[p]), y)
      }
      series.append((s, pts))
      intervals.append(slice.map { results.interval(m, policy: s, point: $0) })
    }
    let bounds = (results.objective?.bounds ?? []).filter { $0.metric.name == m.name }
    var ys = series.flatMap { $0.points.compactMap(\.y) }
    ys += intervals.flatMap { $0.compactMap { $0.map { [$0.lo, $0.hi] } }.flatMap { $0 } }
    ys += bounds.map(\.value)
    var yScale = ChartScale.linear(ys.min() ?? 0, ys.max() ?? 1, includeZero: m.unit != .percent, maxTicks: 4)
    if m.unit == .percent && yScale.hi > 100 { yScale = .linear(ys.min() ?? 0, 100, includeZero: false, maxTicks: 4) }
    let frame = ChartFrame(
      plot: .init(x: 44, y: 40, width: width - 44 - 14, height: height - 40 - 40), x: axis.scale, y: yScale)
    let title = ReportLabels.withUnit(m)
    var chart = SVGChart(
      id: id, width: width, height: height, title: "\(title) against \(parameter.name)",
      summary: summary(series, metric: m, parameter: parameter, axis: axis))
    chart.add(
      frame.axes(
        xLabel: axis.label, yLabel: { NumberFormat.tick($0, unit: m.unit) }, xTitle: parameter.name, yTitle: "",
        xGrid: true))
    chart.add(.text(.init(x: 4, y: 16), title, cls: "ptitle"))
    chart.add(.text(.init(x: 4, y: 30), ReportLabels.direction(m.polarity), cls: "hint"))
    // The targets' labels keep clear of the points and the best points' rings.
    let markers = series.flatMap { s in s.points.compactMap { pt in pt.y.map { frame.point(pt.x, $0) } } }
    let targets = frame.targets(bounds, unit: m.unit, clearOf: markers, radius: 8)
    chart.add(targets.marks)
    if let markX {
      let x = frame.x(markX)
      chart.add(.polyline([.init(x: x, y: frame.plot.y), .init(x: x, y: frame.plot.maxY)], cls: "ref rec"))
    }
    var placer = _LabelPlacer(
      bounds: .init(x: frame.plot.x, y: frame.plot.y - 4, width: frame.plot.width + 8, height: frame.plot.height + 4),
      fontSize: 11)
    for s in series {
      for pt in s.points { if let y = pt.y { placer.reserve(around: frame.point(pt.x, y), radius: 4) } }
    }
    for r in targets.keepClear { placer.reserve(r) }
    // Each strategy's marks as one group: its band, line, markers, ring and label.
    var groups: [(name: String, marks: [SVGChart.Mark], labels: [SVGChart.Mark])] = []
    for (n, s) in series.enumerated() {
      let style = SeriesStyle.of(s.policy, in: styles)
      var marks: [SVGChart.Mark] = []
      var labels: [SVGChart.Mark] = []
      // The 95 % interval as a band, broken where a point has none.
      var upper: [SVGChart.Point] = []
      var lower: [SVGChart.Point] = []
      for (k, pt) in s.points.enumerated() {
        if let i = intervals[n][k] {
          upper.append(frame.point(pt.x, i.hi))
          lower.append(frame.point(pt.x, i.lo))
        }
        if intervals[n][k] == nil || k == s.points.count - 1 {
          if upper.count > 1 { marks.append(.polygon(upper + lower.reversed(), cls: style.band)) }
          upper = []
          lower = []
        }
      }
      // A missing value breaks the line.
      var run: [SVGChart.Point] = []
      for pt in s.points {
        if let y = pt.y {
          run.append(frame.point(pt.x, y))
        } else {
          marks.append(.polyline(run, cls: style.line))
          run = []
        }
      }
      marks.append(.polyline(run, cls: style.line))
      for (k, pt) in s.points.enumerated() {
        guard let y = pt.y else { continue }
        let value = parameter.values[results.points[slice[k]].valueIndices[p]]
        let shown = intervals[n][k]?.cell(unit: m.unit) ?? NumberFormat.metric(y, unit: m.unit)
        marks.append(
          .marker(
            frame.point(pt.x, y), style.shape, size: 3, cls: style.fill,
            tooltip: "\(s.policy) at \(parameter.name) = \(value): \(shown)"))
        // The strategy's own best point: a ring and its value of the parameter.
        if bestPoints[s.policy] == slice[k] {
          let p = frame.point(pt.x, y)
          marks.append(.marker(p, .circle, size: 7, cls: "recring best"))
          placer.reserve(around: p, radius: 8)
          let placed = placer.place("\(s.policy) best: \(value)", near: p, clearance: 8)
          if let from = placed.leaderFrom { labels.append(.polyline([from, placed.leaderTo], cls: "leader")) }
          labels.append(.text(placed.at, "\(s.policy) best: \(value)", anchor: placed.anchor, cls: "lbl small"))
        }
      }
      groups.append((s.policy, marks, labels))
    }
    // Every strategy's band, line and markers first, then every strategy's
    // labels (each in its strategy's group), so no line covers a label.
    for g in groups { chart.add(.strategy(g.name, g.marks)) }
    for g in groups where !g.labels.isEmpty { chart.add(.strategy(g.name, g.labels)) }
    return chart
  }

  static func summary(
    _ series: [(policy: String, points: [(x: Double, y: Double?)])], metric m: Metric, parameter: SweepParameter,
    axis: Axis
  ) -> String {
    let parts = series.compactMap { s -> String? in
      let ys = s.points.compactMap(\.y)
      guard let first = ys.first, let last = ys.last else { return nil }
      return
        "\(s.policy) from \(NumberFormat.metric(first, unit: m.unit)) to \(NumberFormat.metric(last, unit: m.unit))"
    }
    let lo = parameter.values.first ?? ""
    let hi = parameter.values.last ?? ""
    return "As \(parameter.name) goes from \(lo) to \(hi): "
      + (parts.isEmpty ? "no values." : parts.joined(separator: "; ") + ".")
  }
}
