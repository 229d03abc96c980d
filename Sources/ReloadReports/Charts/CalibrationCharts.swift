import ReloadMetrics
/// The figures of `calibration.html`: what a reload log shows against what
/// the fitted model simulates for the same users. Budgeted reloads per
/// widget-day and the intervals between them as histograms (the observed
/// share per bin as bars, the simulated one as a dashed step line), the
/// lateness of policy reloads as cumulative curves.
enum CalibrationCharts {
  static let wide = (width: 720.0, height: 320.0)
  static let narrow = (width: 400.0, height: 300.0)
  /// Bars of a histogram, at most.
  static let maxBins = 30

  static let observedStyle = "s0"
  static let simulatedStyle = "s1"

  static func figures(observed: CalibrationPage.Curves, simulated: CalibrationPage.Curves?) -> [ReportFigure] {
    [
      reloadsPerDayFigure(observed.reloadsPerDay, simulated?.reloadsPerDay),
      intervalsFigure(observed.intervalsMinutes, simulated?.intervalsMinutes),
      latenessFigure(observed.latenessSeconds.map { $0 / 60 }, simulated?.latenessSeconds.map { $0 / 60 }),
    ]
  }

  // MARK: - Histograms

  /// The bins of a histogram, edges in data units (log10 of them on a log axis).
  struct Bins {
    var edges: [Double]
    var isLog: Bool

    var count: Int { edges.count - 1 }

    /// The share (0 to 1) of `values` in each bin; values beyond the ends
    /// count in the end bins.
    func shares(_ values: [Double]) -> [Double] {
      guard count > 0, !values.isEmpty else { return Array(repeating: 0, count: max(0, count)) }
      var n = Array(repeating: 0.0, count: count)
      let lo = edges[0]
      let width = (edges[count] - lo) / Double(count)
      for v in values {
        let t = isLog ? _log10(max(v, 1e-12)) : v
        let i = Int(((t - lo) / width).rounded(.down))
        n[min(count - 1, max(0, i))] += 1
      }
      return n.map { $0 / Double(values.count) }
    }

    /// Bin `i`'s ends in data units.
    func range(_ i: Int) -> (lo: Double, hi: Double) {
      isLog ? (_pow10(edges[i]), _pow10(edges[i + 1])) : (edges[i], edges[i + 1])
    }
  }

  /// The histogram of `observed` (bars) and `simulated` (a dashed step
  /// line) on `x`, binned by `bins`.
  static func histogram(
    _ observed: [Double], _ simulated: [Double]?, x: ChartScale, bins: Bins, id: String,
    layout: (width: Double, height: Double), title: String, summary: String, xLabel: (Double) -> String,
    xTitle: String, yTitle: String, label: (Int) -> String, noun: String
  ) -> SVGChart {
    let o = bins.shares(observed)
    let s = simulated.map(bins.shares)
    let top = max(o.max() ?? 0, s?.max() ?? 0) * 100
    let frame = ChartFrame(
      plot: .init(x: 48, y: 30, width: layout.width - 48 - 20, height: layout.height - 30 - 46), x: x,
      y: .linear(0, max(top, 1), maxTicks: 4))
    var chart = SVGChart(id: id, width: layout.width, height: layout.height, title: title, summary: summary)
    chart.add(
      frame.axes(
        xLabel: xLabel, yLabel: { NumberFormat.short($0) + " %" }, xTitle: xTitle, yTitle: yTitle, xGrid: false))
    guard !observed.isEmpty || !(simulated ?? []).isEmpty else {
      chart.add(empty(frame))
      return chart
    }
    let edge = { (i: Int) in frame.x(bins.isLog ? _pow10(bins.edges[i]) : bins.edges[i]) }
    for (i, share) in o.enumerated() where share > 0 {
      let (x0, x1) = (edge(i), edge(i + 1))
      let y = frame.y(share * 100)
      chart.add(
        .rect(
          .init(x: x0 + 0.5, y: y, width: max(1, x1 - x0 - 1), height: frame.plot.maxY - y),
          cls: "bar " + observedStyle,
          tooltip: label(i) + ": " + NumberFormat.percent(share * 100, decimals: 1) + " of " + noun + " observed"))
    }
    // The simulated shares as a step line, from its first bin with a share to its last.
    if let s, let first = s.firstIndex(where: { $0 > 0 }), let last = s.lastIndex(where: { $0 > 0 }) {
      var step: [SVGChart.Point] = [.init(x: edge(first), y: frame.plot.maxY)]
      for (i, share) in s.enumerated() where i >= first && i <= last {
        let y = frame.y(share * 100)
        step += [.init(x: edge(i), y: y), .init(x: edge(i + 1), y: y)]
      }
      step.append(.init(x: edge(last + 1), y: frame.plot.maxY))
      chart.add(.polyline(step, cls: "ln d1 " + simulatedStyle))
    }
    return chart
  }

  /// The data table of a histogram: each bin with a share, observed and simulated.
  static func histogramTable(
    _ observed: [Double], _ simulated: [Double]?, bins: Bins, caption: String, first: String, label: (Int) -> String
  ) -> ReportFigure.Table {
    let o = bins.shares(observed)
    let s = simulated.map(bins.shares)
    var rows: [[String]] = []
    for i in 0..<bins.count where o[i] > 0 || (s?[i] ?? 0) > 0 {
      rows.append(
        [label(i), NumberFormat.percent(o[i] * 100, decimals: 1)]
          + (s.map { [NumberFormat.percent($0[i] * 100, decimals: 1)] } ?? []))
    }
    return .init(caption: caption, columns: [first, "observed"] + (s == nil ? [] : ["simulated"]), rows: rows)
  }

  static func reloadsPerDayFigure(_ observed: [Double], _ simulated: [Double]?) -> ReportFigure {
    let all = observed + (simulated ?? [])
    // Whole reloads per bin, so that no bin holds more counts than its neighbours.
    let top = all.isEmpty ? 10 : max(1, quantile(all, 0.995))
    let width = max(1, (top / Double(maxBins)).rounded(.up))
    let count = Int(((top + 1) / width).rounded(.up))
    let bins = Bins(edges: (0...count).map { Double($0) * width }, isLog: false)
    let x = ChartScale.linear(0, Double(count) * width)
    let label = { (i: Int) -> String in
      let (lo, hi) = bins.range(i)
      return width == 1 ? NumberFormat.short(lo) : NumberFormat.short(lo) + "–" + NumberFormat.short(hi - 1)
    }
    let summary =
      "Budgeted reloads per widget-day: observed median \(medianText(observed)) over "
      + NumberFormat.count(observed.count, "widget-day", text: NumberFormat.grouped(observed.count))
      + (simulated.map { "; simulated median \(medianText($0))" } ?? "") + "."
    let charts = [wide, narrow].enumerated().map { n, layout in
      histogram(
        observed, simulated, x: x, bins: bins, id: n == 0 ? "cal-reloads" : "cal-reloads-narrow", layout: layout,
        title: "Budgeted reloads per widget-day", summary: summary, xLabel: { NumberFormat.short($0) },
        xTitle: "budgeted reloads of a widget on a complete day", yTitle: "Widget-days (%)", label: label,
        noun: "widget-days")
    }
    return ReportFigure(
      id: "fig-reloads-per-day", heading: "Budgeted reloads per widget-day",
      caption:
        "How many budgeted reloads (the system's own, and the app's in the background) each widget got on each "
        + "complete day. Saturated widgets pile up at the budget B; the rest at the pace they ask for.",
      charts: [charts[0]], narrowCharts: [charts[1]],
      table: histogramTable(
        observed, simulated, bins: bins, caption: "Share of widget-days with this many budgeted reloads",
        first: "reloads", label: label),
      key: key(observedAsBars: true, simulated: simulated != nil))
  }

  static func intervalsFigure(_ observed: [Double], _ simulated: [Double]?) -> ReportFigure {
    let all = (observed + (simulated ?? [])).filter { $0 > 0 }
    let lo = max(1.0 / 60, all.min() ?? 1)
    let hi = max(all.isEmpty ? 1440 : quantile(all, 0.995), lo * 10)
    let x = ChartScale.logMinutes(lo, hi)
    let (a, b) = (_log10(lo), _log10(hi))
    let bins = Bins(edges: (0...maxBins).map { a + (b - a) * Double($0) / Double(maxBins) }, isLog: true)
    let label = { (i: Int) -> String in
      let (lo, hi) = bins.range(i)
      return NumberFormat.minutes(lo) + "–" + NumberFormat.minutes(hi)
    }
    let summary =
      "Minutes between consecutive budgeted reloads of a widget: observed median "
      + NumberFormat.minutes(median(observed)) + " over " + NumberFormat.grouped(observed.count) + " intervals"
      + (simulated.map { "; simulated median " + NumberFormat.minutes(median($0)) } ?? "") + ". Log time axis."
    let charts = [wide, narrow].enumerated().map { n, layout in
      histogram(
        observed, simulated, x: x, bins: bins, id: n == 0 ? "cal-intervals" : "cal-intervals-narrow",
        layout: layout, title: "Intervals between budgeted reloads", summary: summary,
        xLabel: { NumberFormat.durationTick($0) }, xTitle: "time from a budgeted reload to the next (log scale)",
        yTitle: "Intervals (%)", label: label, noun: "intervals")
    }
    return ReportFigure(
      id: "fig-intervals", heading: "Intervals between budgeted reloads",
      caption:
        "The time from each budgeted reload of a widget to its next, on a log axis: a widget held by its budget "
        + "shows the budget's pace (24 h / B under a token bucket once its capacity is spent), one asking less "
        + "often its own, and the night's gap sits at the right.",
      charts: [charts[0]], narrowCharts: [charts[1]],
      table: histogramTable(
        observed, simulated, bins: bins, caption: "Share of intervals in each bin", first: "interval",
        label: label),
      key: key(observedAsBars: true, simulated: simulated != nil))
  }

  // MARK: - Lateness

  /// Percentiles of the lateness table.
  static let latenessPercentiles = [0.05, 0.1, 0.25, 0.5, 0.75, 0.9, 0.95]

  static func latenessFigure(_ observed: [Double], _ simulated: [Double]?) -> ReportFigure {
    let all = observed + (simulated ?? [])
    let lo = all.isEmpty ? 0 : min(0, quantile(all, 0.005))
    let hi = all.isEmpty ? 60 : max(lo + 1, quantile(all, 0.995))
    let x = ChartScale.linear(lo, hi, includeZero: true, maxTicks: 6)
    let summary =
      "Lateness of .after and .atEnd reloads: observed median " + signedMinutes(median(observed))
      + (simulated.map { "; simulated median " + signedMinutes(median($0)) } ?? "") + "."
    let charts = [wide, narrow].enumerated().map { n, layout -> SVGChart in
      let frame = ChartFrame(
        plot: .init(x: 48, y: 30, width: layout.width - 48 - 20, height: layout.height - 30 - 46), x: x,
        y: .fixed(0, 100, ticks: [0, 25, 50, 75, 100]))
      var chart = SVGChart(
        id: n == 0 ? "cal-lateness" : "cal-lateness-narrow", width: layout.width, height: layout.height,
        title: "Lateness of .after / .atEnd reloads (cumulative)", summary: summary)
      chart.add(
        frame.axes(
          xLabel: { NumberFormat.short($0) }, yLabel: { NumberFormat.short($0) + " %" },
          xTitle: "minutes after the requested date (negative: early)", yTitle: "Reloads at most this late (%)",
          xGrid: true))
      if all.isEmpty { chart.add(empty(frame)) }
      if !observed.isEmpty { chart.add(.polyline(cumulative(observed, frame), cls: "ln " + observedStyle)) }
      if let simulated, !simulated.isEmpty {
        chart.add(.polyline(cumulative(simulated, frame), cls: "ln d1 " + simulatedStyle))
      }
      return chart
    }
    let sortedObserved = observed.sorted()
    let sortedSimulated = simulated?.sorted()
    let rows = latenessPercentiles.map { q -> [String] in
      ["p" + NumberFormat.short(q * 100), signedMinutes(sortedQuantile(sortedObserved, q))]
        + (sortedSimulated.map { [signedMinutes(sortedQuantile($0, q))] } ?? [])
    }
    return ReportFigure(
      id: "fig-lateness", heading: "Lateness of .after / .atEnd reloads",
      caption:
        "For each lateness on the horizontal axis, the share of policy reloads (of widgets not held by their "
        + "budget) that came at most that late after the date their timeline asked for.",
      charts: [charts[0]], narrowCharts: [charts[1]],
      table: .init(
        caption: "Lateness percentiles",
        columns: ["percentile", "observed"] + (simulated == nil ? [] : ["simulated"]), rows: rows),
      key: key(observedAsBars: false, simulated: simulated != nil))
  }

  /// The cumulative curve of `values` as a step line, at most about 200 steps.
  static func cumulative(_ values: [Double], _ frame: ChartFrame) -> [SVGChart.Point] {
    let s = values.sorted()
    let every = max(1, s.count / 200)
    let clamp = { (v: Double) in min(max(v, frame.x.lo), frame.x.hi) }
    var points = [frame.point(clamp(s[0]), 0)]
    var i = every - 1
    while i < s.count {
      let v = clamp(s[i])
      points.append(.init(x: frame.x(v), y: points[points.count - 1].y))
      points.append(frame.point(v, Double(i + 1) / Double(s.count) * 100))
      i += every
    }
    points.append(.init(x: frame.x(clamp(s[s.count - 1])), y: points[points.count - 1].y))
    points.append(frame.point(clamp(s[s.count - 1]), 100))
    return points
  }

  // MARK: - Pieces

  static func key(observedAsBars: Bool, simulated: Bool) -> [(swatchClass: String, text: String)] {
    [((observedAsBars ? "box " : "ser ") + observedStyle, "observed in the log")]
      + (simulated ? [("ser d1 " + simulatedStyle, "simulated with the fitted model")] : [])
  }

  static func empty(_ frame: ChartFrame) -> SVGChart.Mark {
    .text(
      .init(x: frame.plot.x + frame.plot.width / 2, y: frame.plot.y + frame.plot.height / 2), "no data in the log",
      anchor: .middle, cls: "hint")
  }

  static func quantile(_ v: [Double], _ q: Double) -> Double { SampleQuantile.of(v, q) }

  static func sortedQuantile(_ s: [Double], _ q: Double) -> Double { SampleQuantile.ofSorted(s, q) }

  static func median(_ v: [Double]) -> Double { quantile(v, 0.5) }

  static func medianText(_ v: [Double]) -> String { v.isEmpty ? "–" : NumberFormat.short(median(v)) }

  /// Minutes, early ones with a minus sign ("-2.5 min", "7.3 min").
  static func signedMinutes(_ m: Double) -> String {
    guard m.isFinite else { return "–" }
    return m < 0 ? "-" + NumberFormat.minutes(-m) : NumberFormat.minutes(m)
  }
}
