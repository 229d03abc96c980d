import ReloadMetrics

/// The staleness distribution as a cumulative curve per strategy: for each
/// age on a log time axis, the share of glances that saw data at most that
/// old. Higher and further left is fresher.
///
/// Labels sit in the right margin at the height where each curve crosses
/// the freshness tolerance, spread apart so they never overlap, with a
/// leader line back to a marker on the curve.
enum StalenessCDFChart {
  /// The desktop layout; `narrow` is for phones (same labels, a narrower plot).
  static let wide = (width: 720.0, height: 400.0, labelMargin: 175.0)
  static let narrow = (width: 400.0, height: 400.0, labelMargin: 160.0)

  /// The share (percent) of glances with staleness below `minutes`: the
  /// last bucket whose upper bound is at most `minutes` (a lower bound).
  static func cdf(_ buckets: [DistributionBucket], at minutes: Double) -> Double {
    var v = 0.0
    for b in buckets {
      if b.upperMinutes > minutes { break }
      v = b.cumulativePct
    }
    return v
  }

  /// `targets`: the recommendation's; one on `acceptable_glance_pct` (the
  /// curve's height at the tolerance) is drawn as a dashed line.
  static func figure(_ results: ScenarioResults, targets: [Objective.Bound] = []) -> ReportFigure? {
    let series = results.series.filter { !$0.staleness.isEmpty }
    guard !series.isEmpty else { return nil }
    let styles = SeriesStyle.styles(for: results)
    let tolerance = results.facts.toleranceMinutes
    let target = targets.first { $0.metric == .acceptableGlancePct }
    let wideChart = chart(
      series, styles: styles, tolerance: tolerance, target: target, id: "staleness-cdf", layout: wide)
    let narrowChart = chart(
      series, styles: styles, tolerance: tolerance, target: target, id: "staleness-cdf-narrow", layout: narrow)
    let points = cutPoints(tolerance: tolerance)
    let rows = series.map { s in
      [s.strategy] + points.map { NumberFormat.percent(cdf(s.staleness, at: $0), decimals: 1) }
        + [NumberFormat.minutes(s.staleness.last?.upperMinutes ?? 0)]
    }
    return ReportFigure(
      id: "fig-staleness", heading: "How stale is what people see?",
      caption:
        "For each age on the horizontal axis, the share of glances whose widget showed data at most that old. "
        + "A curve that starts high is fresh most of the time; a long tail to the right means some glances saw "
        + "hours-old data. The labels give each strategy's share within the "
        + "\(NumberFormat.minutes(tolerance)) tolerance."
        + (target.map {
          " The red dashed line is the recommendation's target (\(ObjectiveSummary.labelled($0))): a strategy "
            + "meets it where its curve crosses the tolerance line on the target's side."
        } ?? ""),
      charts: [wideChart], narrowCharts: [narrowChart],
      table: .init(
        caption: "Share of glances at most this stale, per strategy",
        columns: ["Strategy"] + points.map { $0 == 0 ? "fresh" : "≤ " + NumberFormat.minutes($0) } + [
          "worst"
        ],
        rows: rows))
  }

  static func chart(
    _ series: [StrategySeries], styles: [String: SeriesStyle], tolerance: Double, target: Objective.Bound? = nil,
    id: String,
    layout: (width: Double, height: Double, labelMargin: Double)
  ) -> SVGChart {
    let (width, height, labelMargin) = layout
    let lo = 10.0 / 60
    let maxMinutes = series.compactMap { $0.staleness.last?.upperMinutes }.max() ?? 60
    // A little room past the longest staleness, no more (an axis to 30 d
    // for 8 days of data wastes a third of the width).
    let hi = max(maxMinutes * 1.1, tolerance * 2)
    let frame = ChartFrame(
      plot: .init(x: 40, y: 30, width: width - 40 - labelMargin, height: height - 30 - 46),
      x: .logMinutes(lo, max(hi, lo * 10), maxTicks: 8), y: .fixed(0, 100, ticks: [0, 20, 40, 60, 80, 100]))
    var chart = SVGChart(
      id: id, width: width, height: height, title: "Staleness distribution (cumulative) per strategy",
      summary: summary(series, tolerance: tolerance))
    chart.add(
      frame.axes(
        xLabel: { NumberFormat.durationTick($0) }, yLabel: { NumberFormat.short($0) + " %" },
        xTitle: "staleness at glance (log scale)", yTitle: "Glances at most this stale (%)", xGrid: true))
    let tx = frame.x(tolerance)
    if tolerance > lo && tolerance < frame.x.hi {
      chart.add(.polyline([.init(x: tx, y: frame.plot.y), .init(x: tx, y: frame.plot.maxY)], cls: "ref"))
      chart.add(
        .text(
          .init(x: tx + 4, y: frame.plot.maxY - 6), "tolerance " + NumberFormat.minutes(tolerance),
          cls: "tick"))
    }
    if let target {
      chart.add(
        frame.target(
          target, unit: .percent, horizontal: true,
          text: "dashed red: " + ChartFrame.targetText(target, unit: .percent) + " within "
            + NumberFormat.minutes(tolerance),
          // Under the tolerance's label, where the curves leave room.
          labelAt: .init(x: min(tx, frame.plot.maxX - 190) + 4, y: frame.plot.maxY - 22)))
    }
    var anchors: [SVGChart.Point] = []
    for s in series {
      let style = SeriesStyle.of(s.strategy, in: styles)
      chart.add(.strategy(s.strategy, [.polyline(line(s.staleness, frame: frame, lo: lo), cls: style.line)]))
      anchors.append(frame.point(min(max(tolerance, lo), frame.x.hi), cdf(s.staleness, at: tolerance)))
    }
    // Labels: spread in the right margin, in the order of the curves.
    let ys = _LabelPlacer.spread(anchors.map(\.y), gap: 14, lo: frame.plot.y + 4, hi: frame.plot.maxY)
    let lx = frame.plot.maxX + 14
    for (n, s) in series.enumerated() {
      let style = SeriesStyle.of(s.strategy, in: styles)
      let a = anchors[n]
      let value = cdf(s.staleness, at: tolerance)
      chart.add(
        .strategy(
          s.strategy,
          [
            .polyline([a, .init(x: frame.plot.maxX + 2, y: a.y), .init(x: lx - 6, y: ys[n])], cls: "leader"),
            .marker(
              a, style.shape, size: 3.5, cls: style.fill,
              tooltip: "\(s.strategy): \(NumberFormat.percent(value)) within \(NumberFormat.minutes(tolerance))"),
            .marker(.init(x: lx, y: ys[n]), style.shape, size: 3.5, cls: style.fill),
            .text(.init(x: lx + 8, y: ys[n] + 4), "\(s.strategy) \(NumberFormat.percent(value))", cls: "lbl"),
          ]))
    }
    return chart
  }

  /// Ages for the data table: fresh, 1 and 5 min, the tolerance, 1 h, 6 h, 1 d.
  static func cutPoints(tolerance: Double) -> [Double] {
    var points = [0.0, 1, 5, 60, 360, 1440]
    if !points.contains(tolerance) { points.append(tolerance) }
    return points.sorted()
  }

  /// The curve in pixels: buckets below `lo` collapse onto the left edge;
  /// points closer than half a pixel are merged (the curve rises monotonically).
  static func line(_ buckets: [DistributionBucket], frame: ChartFrame, lo: Double) -> [SVGChart.Point] {
    var out: [SVGChart.Point] = []
    out.reserveCapacity(min(buckets.count, 400))
    var previousY = frame.y(0)
    for b in buckets {
      let x = frame.x(max(b.upperMinutes, lo))
      let y = frame.y(b.cumulativePct)
      if let last = out.last, x - last.x < 0.5 {
        out[out.count - 1].y = y
      } else {
        // A step: the share holds until this bucket's bound, then rises.
        if !out.isEmpty { out.append(.init(x: x, y: previousY)) }
        out.append(.init(x: x, y: y))
      }
      previousY = y
    }
    if let last = out.last, last.x < frame.plot.maxX { out.append(.init(x: frame.plot.maxX, y: last.y)) }
    return out
  }

  static func summary(_ series: [StrategySeries], tolerance: Double) -> String {
    let within = series.map { ($0.strategy, cdf($0.staleness, at: tolerance)) }
    guard let best = within.max(by: { $0.1 < $1.1 }), let worst = within.min(by: { $0.1 < $1.1 }) else {
      return ""
    }
    return
      "Share of glances at most \(NumberFormat.minutes(tolerance)) stale: from \(NumberFormat.percent(worst.1)) "
      + "(\(worst.0)) to \(NumberFormat.percent(best.1)) (\(best.0)). Log time axis."
  }
}
