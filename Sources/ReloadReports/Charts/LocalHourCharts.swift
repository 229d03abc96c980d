import ReloadMetrics

/// Small multiples over the hours of the local day, one panel per
/// strategy on a shared y scale: the budget left (median and 10-90 %
/// band), and the share of glances that saw stale data.
///
/// Small multiples rather than one crowded chart: with a dozen strategies
/// twelve overlapping bands are unreadable, while panels on one scale
/// compare at a glance and reflow on a narrow screen.
enum LocalHourCharts {
  static let width = 250.0
  static let height = 172.0

  static func plot() -> SVGChart.Rect {
    .init(x: 40, y: 30, width: width - 40 - 18, height: height - 30 - 38)
  }

  static let hourScale = ChartScale.fixed(0, 24, ticks: [0, 6, 12, 18, 24])

  /// "06:00"; the end of the day is "24:00", not "00:00".
  static func hourLabel(_ h: Double) -> String { h >= 24 ? "24:00" : NumberFormat.clock(h) }

  /// Budget left by local hour, or nil when no strategy has budget samples.
  static func budgetFigure(_ results: ScenarioResults) -> ReportFigure? {
    let series = results.series.filter { !$0.budgetLeftByLocalHour.isEmpty }
    guard !series.isEmpty else { return nil }
    let styles = SeriesStyle.styles(for: results)
    let top = series.flatMap { $0.budgetLeftByLocalHour.map(\.p90) }.filter(\.isFinite).max() ?? 1
    let yScale = ChartScale.linear(0, max(top, 1), maxTicks: 4)
    var charts: [SVGChart] = []
    for (n, s) in series.enumerated() {
      let style = SeriesStyle.of(s.strategy, in: styles)
      let frame = ChartFrame(plot: plot(), x: hourScale, y: yScale)
      let bands = s.budgetLeftByLocalHour
      let lowest = bands.min { $0.p50 < $1.p50 }
      var chart = SVGChart(
        id: "budget-\(n)", width: width, height: height,
        title: "Reloads the budget allows within the hour, by local hour: \(s.strategy)",
        summary: "Median reloads the budget allows within the hour, between "
          + "\(NumberFormat.short(lowest?.p50 ?? 0)) and "
          + "\(NumberFormat.short(bands.map(\.p50).max() ?? 0)) reloads; "
          + "the band spans the 10th to 90th percentile of widgets.")
      chart.add(
        frame.axes(
          xLabel: hourLabel, yLabel: { NumberFormat.short($0) }, xTitle: "local hour", yTitle: ""))
      let xs = bands.indices.map { Double($0) * 24 / Double(bands.count) }
      // A non-finite quantile (no sample) is drawn at the top or the floor.
      func y(_ v: Double, _ fallback: Double) -> Double { v.isFinite ? v : fallback }
      let upper = zip(xs, bands).map { frame.point($0, y($1.p90, yScale.hi)) }
      let lower = zip(xs, bands).map { frame.point($0, y($1.p10, 0)) }.reversed()
      chart.add(.polygon(upper + lower, cls: "band " + style.colorClass))
      chart.add(
        .polyline(zip(xs, bands).map { frame.point($0, y($1.p50, 0)) }, cls: "ln " + style.colorClass))
      chart.add(
        frame.hoverColumns(count: bands.count, width: 24 / Double(max(bands.count, 1))) { h in
          let b = bands[h]
          guard b.p50.isFinite else { return nil }
          return "\(s.strategy), \(hourLabel(Double(h) * 24 / Double(bands.count))): median "
            + NumberFormat.short(b.p50) + " reloads left (10–90 %: "
            + NumberFormat.range(b.p10.isFinite ? b.p10 : 0, b.p90.isFinite ? b.p90 : b.p50) + ")"
        })
      chart.add(.text(.init(x: 4, y: 16), s.strategy, cls: "ptitle"))
      chart.strategy = s.strategy
      charts.append(chart)
    }
    let hours = series[0].budgetLeftByLocalHour.count
    let rows: [[String]] = (0..<hours).map { h in
      [hourLabel(Double(h) * 24 / Double(hours))]
        + series.map { s in
          guard h < s.budgetLeftByLocalHour.count else { return "–" }
          let b = s.budgetLeftByLocalHour[h]
          return "\(NumberFormat.short(b.p50)) (\(NumberFormat.short(b.p10))–\(NumberFormat.short(b.p90)))"
        }
    }
    return ReportFigure(
      id: "fig-budget", heading: "Budget left by hour of the local day",
      caption:
        "Reloads each widget's budget allows from each local hour to the end of the next, if it asked at once "
        + "(a token bucket's tokens plus the hour's refill; a sliding window's free slots plus those that free "
        + "within the hour): the line is the median widget, the shaded band runs from the 10th to the 90th "
        + "percentile. A band touching zero means widgets that cannot reload within the hour.",
      layout: .multiples, charts: charts,
      table: .init(
        caption: "Reloads allowed within the hour: median (10th–90th percentile), by local hour",
        columns: ["Local hour"] + series.map(\.strategy), rows: rows),
      key: [("line", "median widget"), ("bandsw", "10th–90th percentile of widgets")])
  }

  /// Stale glances by local hour, or nil when no strategy has glances.
  static func staleFigure(_ results: ScenarioResults) -> ReportFigure? {
    let series = results.series.filter { $0.glancesByLocalHour.contains { $0 > 0 } }
    guard !series.isEmpty else { return nil }
    let styles = SeriesStyle.styles(for: results)
    func share(_ s: StrategySeries, _ h: Int) -> Double? {
      guard h < s.glancesByLocalHour.count, h < s.staleGlancesByLocalHour.count, s.glancesByLocalHour[h] > 0
      else { return nil }
      return 100 * Double(s.staleGlancesByLocalHour[h]) / Double(s.glancesByLocalHour[h])
    }
    let top = series.flatMap { s in s.glancesByLocalHour.indices.compactMap { share(s, $0) } }.max() ?? 100
    var yScale = ChartScale.linear(0, max(top, 1), maxTicks: 4)
    if yScale.hi > 100 { yScale = .fixed(0, 100, ticks: [0, 25, 50, 75, 100]) }
    var charts: [SVGChart] = []
    for (n, s) in series.enumerated() {
      let style = SeriesStyle.of(s.strategy, in: styles)
      let frame = ChartFrame(plot: plot(), x: hourScale, y: yScale)
      let hours = s.glancesByLocalHour.count
      let totalGlances = s.glancesByLocalHour.reduce(0, +)
      let totalStale = s.staleGlancesByLocalHour.reduce(0, +)
      let overall = totalGlances > 0 ? 100 * Double(totalStale) / Double(totalGlances) : 0
      let worst = (0..<hours).compactMap { h in share(s, h).map { (h, $0) } }.max { $0.1 < $1.1 }
      var chart = SVGChart(
        id: "stale-\(n)", width: width, height: height, title: "Stale glances by local hour: \(s.strategy)",
        summary: "\(NumberFormat.percent(overall)) of glances were stale overall"
          + (worst.map {
            "; the worst hour is \(hourLabel(Double($0.0) * 24 / Double(hours))) at \(NumberFormat.percent($0.1))"
          } ?? "")
          + ".")
      chart.add(
        frame.axes(
          xLabel: hourLabel, yLabel: { NumberFormat.short($0) + "%" }, xTitle: "local hour", yTitle: ""))
      let slot = 24 / Double(max(hours, 1))
      for h in 0..<hours {
        guard let v = share(s, h) else { continue }
        let x0 = frame.x(Double(h) * slot) + 0.5
        let x1 = frame.x(Double(h + 1) * slot) - 0.5
        let y = frame.y(v)
        chart.add(
          .rect(
            .init(x: x0, y: y, width: x1 - x0, height: frame.plot.maxY - y), cls: "bar " + style.colorClass,
            tooltip: "\(hourLabel(Double(h) * slot)): \(NumberFormat.percent(v)) of "
              + "\(NumberFormat.short(Double(s.glancesByLocalHour[h]))) glances stale"))
      }
      chart.add(.text(.init(x: 4, y: 16), s.strategy, cls: "ptitle"))
      chart.add(
        .text(
          .init(x: width - 8, y: 16), NumberFormat.percent(overall) + " overall", anchor: .end, cls: "tick"))
      chart.strategy = s.strategy
      charts.append(chart)
    }
    let hours = series.map(\.glancesByLocalHour.count).max() ?? 24
    let rows: [[String]] = (0..<hours).map { h in
      [hourLabel(Double(h) * 24 / Double(hours))]
        + series.map { s in share(s, h).map { NumberFormat.percent($0) } ?? "no glances" }
    }
    return ReportFigure(
      id: "fig-stale-hour", heading: "Stale glances by hour of the local day",
      caption:
        "Share of glances in each local hour that saw out-of-date data. Hours without bars had no glances "
        + "(people asleep). Rising bars late in the day usually mean the budget ran out.",
      layout: .multiples, charts: charts,
      table: .init(
        caption: "Stale glances (% of glances in the hour), by local hour",
        columns: ["Local hour"] + series.map(\.strategy),
        rows: rows))
  }
}
