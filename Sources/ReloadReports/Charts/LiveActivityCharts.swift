import ReloadMetrics

/// The Live Activities figures (docs/model.md#live-activities): the fleet's
/// pushes by minute around each strategy's busiest second (a shared event
/// such as a goal), and the glances within tolerance by the activity's age
/// (freshness over the event's life).
enum LiveActivityCharts {
  static let width = 470.0
  static let height = 200.0

  static func styles(_ table: ActivityTable) -> [String: SeriesStyle] {
    SeriesStyle.styles(for: table.series.map(\.strategy))
  }

  static func pushFigure(_ results: ScenarioResults) -> ReportFigure? {
    guard let table = results.liveActivities else { return nil }
    let series = table.series.filter { !$0.pushMinutes.isEmpty }
    let top = series.flatMap(\.fleetPushesPerMinute).max() ?? 0
    guard top > 0 else { return nil }
    let styles = Self.styles(table)
    let x = ChartScale.fixed(-30.5, 30.5, ticks: [-30, -20, -10, 0, 10, 20, 30])
    let y = ChartScale.linear(0, top)
    var charts: [SVGChart] = []
    for (n, s) in series.enumerated() {
      let style = SeriesStyle.of(s.strategy, in: styles)
      let frame = ChartFrame(plot: .init(x: 52, y: 30, width: width - 52 - 20, height: height - 30 - 38), x: x, y: y)
      let row = table.row(strategy: s.strategy)
      let peak = row?.value(.fleetPushPeakPerSecond) ?? .nan
      var chart = SVGChart(
        id: "la-pushes-\(n)", width: width, height: height,
        title: "Live Activity pushes per minute around the busiest second: \(s.strategy)",
        summary: "Up to \(NumberFormat.short(s.fleetPushesPerMinute.max() ?? 0)) pushes a minute from the fleet; "
          + "busiest second \(NumberFormat.short(peak)) pushes.")
      chart.add(
        frame.axes(
          xLabel: { String(Int($0)) }, yLabel: { NumberFormat.short($0) },
          xTitle: "minutes from the busiest minute", yTitle: ""))
      for (m, v) in zip(s.pushMinutes, s.fleetPushesPerMinute) where v > 0 {
        let a = frame.point(Double(m) - 0.4, v)
        let b = frame.point(Double(m) + 0.4, 0)
        chart.add(
          .rect(
            .init(x: a.x, y: a.y, width: b.x - a.x, height: b.y - a.y), cls: "bar " + style.colorClass,
            tooltip: "\(m) min: \(NumberFormat.short(v)) pushes"))
      }
      chart.add(.text(.init(x: 4, y: 16), s.strategy, cls: "ptitle"))
      if let row, peak.isFinite {
        chart.add(
          .text(
            .init(x: width - 8, y: 16),
            "peak second " + NumberFormat.short(peak) + " ("
              + NumberFormat.range(row.value(.fleetPushPeakLow), row.value(.fleetPushPeakHigh)) + ")",
            anchor: .end, cls: "tick"))
      }
      chart.strategy = s.strategy
      charts.append(chart)
    }
    let rows = series.map { s -> [String] in
      let row = table.row(strategy: s.strategy)
      return [
        s.strategy, NumberFormat.short(row?.value(.fleetPushPeakPerSecond) ?? .nan),
        NumberFormat.range(row?.value(.fleetPushPeakLow) ?? .nan, row?.value(.fleetPushPeakHigh) ?? .nan),
        NumberFormat.short(row?.value(.fleetPushesPerDay) ?? .nan),
        NumberFormat.short(s.fleetPushesPerMinute.max() ?? 0),
      ]
    }
    return ReportFigure(
      id: "fig-la-pushes", heading: "Live Activity pushes around the busiest second",
      caption:
        "What the backend sends to ActivityKit from the whole fleet of "
        + "\(NumberFormat.short(results.facts.fleetDevices)) devices, minute by minute for half an hour either side "
        + "of each strategy's busiest second (a push to every follower at once: a match's start, a goal). The "
        + "header gives that second with its 95 % interval: the figure to size the push service with.",
      layout: .pair, charts: charts, strategySet: "Live Activity strategies",
      table: .init(
        caption: "Live Activity pushes at fleet scale",
        columns: ["strategy", "busiest second", "95 % interval", "per day", "busiest minute"], rows: rows))
  }

  static func ageFigure(_ results: ScenarioResults) -> ReportFigure? {
    guard let table = results.liveActivities else { return nil }
    let series = table.series.filter { !$0.ageMinutes.isEmpty }
    guard !series.isEmpty else { return nil }
    let charts = ageCharts(
      series.map { ($0.strategy, $0.ageMinutes, $0.acceptablePct) }, styles: Self.styles(table), id: "la-age",
      yMax: 100, yTicks: [0, 50, 100], yUnit: " %",
      title: "Live Activity glances within tolerance by the activity's age",
      summary: { "Lowest share in a 10-minute step: " + NumberFormat.fixed($0.min() ?? 0, decimals: 1) + " %." })
    let rows = ageRows(
      series.map { s in
        (s.ageMinutes, { NumberFormat.fixed(s.acceptablePct[$0], decimals: 1) + " % (\(s.ageGlances[$0]))" })
      })
    return ReportFigure(
      id: "fig-la-age", heading: "Live Activity freshness over the event's life",
      caption:
        "The share of glances at the Lock Screen or the Dynamic Island whose data was within the kind's tolerance, "
        + "by the time since the activity started (10-minute steps). A line that falls shows updates running out "
        + "(the push budget, the 8-hour limit); after the end an activity shows its final content until it is "
        + "dismissed.",
      layout: .pair, charts: charts, strategySet: "Live Activity strategies",
      table: .init(
        caption: "Glances within tolerance by the activity's age (glances)",
        columns: ["age"] + series.map(\.strategy), rows: rows))
  }

  /// One small chart per strategy of a figure by the activity's age
  /// (10-minute steps): `values` at each step's middle.
  static func ageCharts(
    _ series: [(strategy: String, minutes: [Int], values: [Double])], styles: [String: SeriesStyle], id: String,
    yMax: Double, yTicks: [Double], yUnit: String, title: String, summary: ([Double]) -> String
  ) -> [SVGChart] {
    let last = series.flatMap(\.minutes).max() ?? 0
    let hours = Double(last + 10) / 60
    let ticks = stride(from: 0.0, through: hours, by: hours > 6 ? 4 : 1).map { $0 }
    return series.enumerated().map { n, s in
      let style = SeriesStyle.of(s.strategy, in: styles)
      let frame = ChartFrame(
        plot: .init(x: 48, y: 30, width: width - 48 - 20, height: height - 30 - 38),
        x: .fixed(0, max(1, hours), ticks: ticks), y: .fixed(0, yMax, ticks: yTicks))
      var chart = SVGChart(
        id: "\(id)-\(n)", width: width, height: height, title: "\(title): \(s.strategy)", summary: summary(s.values))
      chart.add(
        frame.axes(
          xLabel: { NumberFormat.trim(NumberFormat.fixed($0, decimals: 0)) + " h" },
          yLabel: { NumberFormat.trim(NumberFormat.fixed($0, decimals: 0)) + yUnit },
          xTitle: "hours since the activity started", yTitle: "", xGrid: true))
      let points = zip(s.minutes, s.values).map { frame.point((Double($0) + 5) / 60, $1) }
      chart.add(.polyline(points, cls: style.line))
      chart.add(
        frame.hoverColumns(count: last / 10 + 1, width: 10.0 / 60) { step in
          s.minutes.firstIndex(of: step * 10).map { i in
            "\(s.strategy), \(NumberFormat.clock(Double(step * 10) / 60)) since the start: "
              + NumberFormat.trim(NumberFormat.fixed(s.values[i], decimals: 1)) + yUnit
          }
        })
      chart.add(.text(.init(x: 4, y: 16), s.strategy, cls: "ptitle"))
      chart.strategy = s.strategy
      return chart
    }
  }

  /// The data table of a figure by the activity's age: a row per 10-minute
  /// step any strategy has, a column per strategy (`cell(i)` of its `i`th
  /// step, `–` where it has none).
  static func ageRows(_ columns: [(minutes: [Int], cell: (Int) -> String)]) -> [[String]] {
    Array(Set(columns.flatMap(\.minutes))).sorted().map { age in
      [NumberFormat.clock(Double(age) / 60)] + columns.map { c in c.minutes.firstIndex(of: age).map(c.cell) ?? "–" }
    }
  }

  /// The priority-10 push budget left when each update push is sent, by the
  /// activity's age: where a strategy runs its budget dry.
  static func budgetFigure(_ results: ScenarioResults) -> ReportFigure? {
    guard let table = results.liveActivities else { return nil }
    let series = table.series.filter { !$0.budgetMinutes.isEmpty }
    guard !series.isEmpty else { return nil }
    let burst = results.parameters.first { $0.path == "model.activity.push_burst" }?.value
    let top = max(1, series.flatMap(\.budgetLeft).max() ?? 1)
    let yMax = top.rounded(.up)
    let charts = ageCharts(
      series.map { ($0.strategy, $0.budgetMinutes, $0.budgetLeft) }, styles: Self.styles(table), id: "la-budget",
      yMax: yMax, yTicks: stride(from: 0, through: yMax, by: max(1, (yMax / 3).rounded())).map { $0 }, yUnit: "",
      title: "Priority-10 push budget left by the activity's age",
      summary: {
        "Lowest mean budget left in a 10-minute step: " + NumberFormat.fixed($0.min() ?? 0, decimals: 2) + "."
      })
    let rows = ageRows(
      series.map { s in
        (s.budgetMinutes, { NumberFormat.fixed(s.budgetLeft[$0], decimals: 2) + " (\(s.budgetPushes[$0]))" })
      })
    return ReportFigure(
      id: "fig-la-budget", heading: "Push budget left over the event's life",
      caption:
        "The priority-10 pushes the device would still accept at once (its push budget's tokens, out of "
        + (burst.map { "a burst of " + $0 } ?? "the burst") + ") when the backend sends an update push, averaged "
        + "by the time since the activity started (10-minute steps). Near zero the budget is dry: a priority-10 push "
        + "is dropped or held, a budget-aware backend sends priority 5. Strategies that send only priority 5 have no "
        + "line.",
      layout: .pair, charts: charts, strategySet: "Live Activity strategies",
      table: .init(
        caption: "Push budget left when an update push is sent, by the activity's age (pushes)",
        columns: ["age"] + series.map(\.strategy), rows: rows))
  }
}
