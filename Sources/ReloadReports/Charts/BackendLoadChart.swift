import ReloadMetrics

/// Backend requests per second over the measured days, fleet-wide, in UTC
/// hours: the hourly mean and the busiest second of each hour, one panel
/// per strategy on a shared log scale, each panel's peak marked and the
/// overall peak called out.
///
/// A log scale because strategies differ by orders of magnitude (a push
/// fan-out can be a hundred times a polling peak); on a linear scale
/// all but one panel would be a flat line at zero.
enum BackendLoadChart {
  static let width = 470.0
  static let height = 200.0

  static func figure(_ results: ScenarioResults) -> ReportFigure? {
    let series = results.series.filter { $0.hourly[.backendRps].count > 1 }
    let positive = series.flatMap { $0.hourly[.backendRps] + $0.hourly[.backendPeakRps] }.filter {
      $0 > 0 && $0.isFinite
    }
    guard let low = positive.min(), let hi = positive.max() else { return nil }
    // At most five decades: quiet night hours sit on the floor instead of
    // squeezing the hours that matter into the top of the panel.
    let lo = max(low, hi / 1e4)
    let styles = SeriesStyle.styles(for: results)
    let yScale = ChartScale.log(lo, hi, maxTicks: 6)
    let firstHour = (results.facts.warmupDays * 24).rounded(.down)
    let hours = series.map { $0.hourly[.backendRps].count }.max() ?? 0
    // Day boundaries of the measured hours, in hours since their start.
    var dayTicks: [Double] = []
    var t = (firstHour / 24).rounded(.up) * 24 - firstHour
    while t <= Double(hours) {
      dayTicks.append(t)
      t += 24
    }
    let xScale = ChartScale.fixed(0, Double(hours), ticks: dayTicks)
    let overall = series.enumerated().max { $0.element.backendPeakRps < $1.element.backendPeakRps }?.offset
    var charts: [SVGChart] = []
    for (n, s) in series.enumerated() {
      let style = SeriesStyle.of(s.strategy, in: styles)
      let frame = ChartFrame(
        plot: .init(x: 44, y: 30, width: width - 44 - 24, height: height - 30 - 38), x: xScale, y: yScale)
      let mean = s.hourly[.backendRps]
      let peaks = s.hourly[.backendPeakRps]
      let meanMax = mean.max() ?? 0
      let peakWhen = dayAndHour(s.backendPeakHour, firstHour: firstHour)
      var chart = SVGChart(
        id: "backend-\(n)", width: width, height: height,
        title: "Backend requests per second over the run: \(s.strategy)",
        summary: "Hourly mean up to \(NumberFormat.short(meanMax)) requests/s; busiest second "
          + "\(NumberFormat.short(s.backendPeakRps)) requests/s on \(peakWhen) UTC, across "
          + "\(NumberFormat.short(results.facts.fleetDevices)) devices. Log scale.")
      chart.add(
        frame.axes(
          xLabel: { "day " + String(Int(((firstHour + $0) / 24).rounded())) },
          yLabel: { NumberFormat.short($0) },
          xTitle: "UTC, hours of the measured days", yTitle: "", xGrid: true))
      let xs = mean.indices.map { Double($0) + 0.5 }
      if peaks.count == mean.count {
        chart.add(.polyline(zip(xs, peaks).map { frame.point($0, $1) }, cls: "ln thin " + style.colorClass))
      }
      chart.add(.polyline(zip(xs, mean).map { frame.point($0, $1) }, cls: "ln " + style.colorClass))
      // Values on hover, over spans of a few hours (at most 48 a chart, so
      // a long run does not weigh the page down).
      let span = max(1, (mean.count + 47) / 48)
      chart.add(
        frame.hoverColumns(count: (mean.count + span - 1) / span, width: Double(span)) { k in
          let hours = (k * span)..<min(mean.count, (k + 1) * span)
          let from = dayAndHour(Double(hours.lowerBound), firstHour: firstHour)
          let to = NumberFormat.clock((firstHour + Double(hours.upperBound)).truncatingRemainder(dividingBy: 24))
          let meanRps = hours.map { mean[$0] }.reduce(0, +) / Double(hours.count)
          return "\(s.strategy), \(from)–\(to) UTC: mean " + NumberFormat.short(meanRps) + " req/s"
            + (peaks.count == mean.count
              ? ", busiest second " + NumberFormat.short(hours.map { peaks[$0] }.max() ?? 0) + " req/s" : "")
        })
      chart.add(.text(.init(x: 4, y: 16), s.strategy, cls: "ptitle"))
      if s.backendPeakRps > 0 {
        let p = frame.point(s.backendPeakHour, s.backendPeakRps)
        let isOverall = n == overall
        chart.add(
          .marker(
            p, .diamond, size: 4, cls: isOverall ? "peak overall" : "peak",
            tooltip:
              "the sample's busiest second x fleet/sample: \(NumberFormat.short(s.backendPeakRps)) requests/s, "
              + "\(peakWhen) UTC"
          ))
        // The figure goes in the panel's header, not on the lines: the
        // fleet's p99.9 second (the sample's busiest second is noise).
        let row = results.summary.row(strategy: s.strategy)
        let fleetPeak = row.flatMap { results.summary.value(.backendFleetPeakRps, in: $0) }
        var text =
          fleetPeak.map { "p99.9 second " + NumberFormat.short($0) + " req/s" }
          ?? ((isOverall ? "◆ highest peak " : "◆ peak ") + NumberFormat.short(s.backendPeakRps) + " req/s")
        // The interval too, when it fits beside the strategy's name.
        if let row, let lo = results.summary.value(.backendFleetPeakLowRps, in: row),
          let hi = results.summary.value(.backendFleetPeakHighRps, in: row)
        {
          let withInterval = text + " (" + NumberFormat.range(lo, hi) + ")"
          if ChartFrame.textWidth(s.strategy, fontSize: 13.5) + ChartFrame.textWidth(withInterval, fontSize: 11)
            + 24 < width
          {
            text = withInterval
          }
        }
        chart.add(
          .text(
            .init(x: width - 8, y: 16), text, anchor: .end, cls: isOverall ? "tick strong peaktext" : "tick"))
      }
      chart.strategy = s.strategy
      charts.append(chart)
    }
    var rows: [[String]] = []
    rows.reserveCapacity(hours)
    for i in 0..<hours {
      var cells = [dayAndHour(Double(i), firstHour: firstHour)]
      for s in series {
        let means = s.hourly[.backendRps]
        let peaks = s.hourly[.backendPeakRps]
        let mean = i < means.count ? NumberFormat.significant(means[i]) : "–"
        let peak = i < peaks.count ? NumberFormat.significant(peaks[i]) : "–"
        cells.append(mean + " / " + peak)
      }
      rows.append(cells)
    }
    return ReportFigure(
      id: "fig-backend", heading: "Backend requests per second over the run",
      caption:
        "Requests your servers would see from the whole fleet of "
        + "\(NumberFormat.short(results.facts.fleetDevices)) devices, hour by hour in UTC: the thick line is "
        + "the hourly mean, the thin line the simulated sample's busiest second of each hour scaled to the "
        + "fleet (with few simulated devices mostly sampling noise); the diamond marks the sample's busiest second. "
        + "Each panel's header gives the fleet's p99.9 second with its 95 % interval, the figure to plan "
        + "capacity with (estimated from the rate per second, not from the sample's busiest). Log scale: each grid "
        + "line is ten times the one below, and hours quieter than the "
        + "bottom line are drawn on it.",
      layout: .pair, charts: charts,
      table: .init(
        caption: "Backend requests per second, fleet-wide: hourly mean / busiest second",
        columns: ["UTC hour"] + series.map(\.strategy), rows: rows),
      key: [
        ("line", "hourly mean"), ("line thin", "sample's busiest second of the hour, scaled"),
        ("diamond", "sample's busiest second of the run, scaled"),
      ])
  }

  /// "day 2 06:00" for `hours` since the start of the measured days.
  static func dayAndHour(_ hours: Double, firstHour: Double) -> String {
    let absolute = hours + firstHour
    let day = Int((absolute / 24).rounded(.down))
    return "day \(day) " + NumberFormat.clock(absolute - Double(day) * 24)
  }
}
