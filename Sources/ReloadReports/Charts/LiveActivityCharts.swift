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
      layout: .pair, charts: charts,
      table: .init(
        caption: "Live Activity pushes at fleet scale",
        columns: ["strategy", "busiest second", "95 % interval", "per day", "busiest minute"], rows: rows))
  }

  static func ageFigure(_ results: ScenarioResults) -> ReportFigure? {
    guard let table = results.liveActivities else { return nil }
    let series = table.series.filter { !$0.ageMinutes.isEmpty }
    guard let last = series.flatMap(\.ageMinutes).max() else { return nil }
    let styles = Self.styles(table)
    let hours = Double(last + 10) / 60
    let ticks = stride(from: 0.0, through: hours, by: hours > 6 ? 4 : 1).map { $0 }
    var charts: [SVGChart] = []
    for (n, s) in series.enumerated() {
      let style = SeriesStyle.of(s.strategy, in: styles)
      let frame = ChartFrame(
        plot: .init(x: 48, y: 30, width: width - 48 - 20, height: height - 30 - 38),
        x: .fixed(0, max(1, hours), ticks: ticks), y: .fixed(0, 100, ticks: [0, 50, 100]))
      var chart = SVGChart(
        id: "la-age-\(n)", width: width, height: height,
        title: "Live Activity glances within tolerance by the activity's age: \(s.strategy)",
        summary: "Lowest share in a 10-minute step: "
          + NumberFormat.fixed(s.acceptablePct.min() ?? 0, decimals: 1) + " %.")
      chart.add(
        frame.axes(
          xLabel: { NumberFormat.trim(NumberFormat.fixed($0, decimals: 0)) + " h" },
          yLabel: { NumberFormat.trim(NumberFormat.fixed($0, decimals: 0)) + " %" },
          xTitle: "hours since the activity started", yTitle: "", xGrid: true))
      let points = zip(s.ageMinutes, s.acceptablePct).map { frame.point((Double($0) + 5) / 60, $1) }
      chart.add(.polyline(points, cls: style.line))
      chart.add(.text(.init(x: 4, y: 16), s.strategy, cls: "ptitle"))
      charts.append(chart)
    }
    var rows: [[String]] = []
    let ages = Array(Set(series.flatMap(\.ageMinutes))).sorted()
    for age in ages {
      var cells = [NumberFormat.clock(Double(age) / 60)]
      for s in series {
        guard let i = s.ageMinutes.firstIndex(of: age) else {
          cells.append("–")
          continue
        }
        cells.append(NumberFormat.fixed(s.acceptablePct[i], decimals: 1) + " % (\(s.ageGlances[i]))")
      }
      rows.append(cells)
    }
    return ReportFigure(
      id: "fig-la-age", heading: "Live Activity freshness over the event's life",
      caption:
        "The share of glances at the Lock Screen or the Dynamic Island whose data was within the kind's tolerance, "
        + "by the time since the activity started (10-minute steps). A line that falls shows updates running out "
        + "(the push budget, the 8-hour limit); after the end an activity shows its final content until it is "
        + "dismissed.",
      layout: .pair, charts: charts,
      table: .init(
        caption: "Glances within tolerance by the activity's age (glances)",
        columns: ["age"] + series.map(\.strategy), rows: rows))
  }
}
