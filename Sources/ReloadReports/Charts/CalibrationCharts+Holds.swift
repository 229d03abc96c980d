/// The held requests of `calibration.html`: how long the budget held the
/// log's requests back against how long each leading reading of the
/// accrual holds them when replayed (`CalibrationPage.Holds`). The observed
/// series is solid; each reading has its own colour, dash and marker.
extension CalibrationCharts {
  /// Hours with fewer requests than this draw no point (a share of a handful is noise).
  static let minRequestsPerHour = 20

  static func readingStyle(_ n: Int) -> (color: String, dash: String, shape: SVGChart.Shape) {
    let shapes: [SVGChart.Shape] = [.square, .triangle, .diamond]
    return ("s" + String(n + 1), n % 2 == 0 ? "d1" : "d2", shapes[n % shapes.count])
  }

  static func holdFigures(_ holds: CalibrationPage.Holds) -> [ReportFigure] {
    [heldForFigure(holds), heldByHourFigure(holds)]
  }

  static func holdKey(_ holds: CalibrationPage.Holds) -> [(swatchClass: String, text: String)] {
    [("ser " + observedStyle, "observed in the log")]
      + holds.readings.enumerated().map { n, r in
        let s = readingStyle(n)
        return ("ser " + s.dash + " " + s.color, r.label)
      }
  }

  static func share(_ n: Int, of total: Int) -> Double { total == 0 ? 0 : Double(n) / Double(total) * 100 }

  /// The share of requests held at least each delay: the observed one solid, each reading's replay dashed.
  static func heldForFigure(_ holds: CalibrationPage.Holds) -> ReportFigure {
    let x = ChartScale.logMinutes(holds.delaysMinutes.first ?? 1, holds.delaysMinutes.last ?? 1440)
    let all = [holds.observed] + holds.readings
    let top = all.map { share($0.heldAtLeast.first ?? 0, of: holds.requests) }.max() ?? 0
    let threshold = NumberFormat.minutes(holds.thresholdMinutes)
    let summary =
      "Requests answered more than \(threshold) after their date: observed "
      + NumberFormat.percent(share(holds.observed.heldAtLeast.first ?? 0, of: holds.requests), decimals: 1)
      + holds.readings.map {
        "; " + $0.label + " " + NumberFormat.percent(share($0.heldAtLeast.first ?? 0, of: holds.requests), decimals: 1)
      }.joined() + ", of " + NumberFormat.grouped(holds.requests) + " requests. Log time axis."
    let charts = [wide, narrow].enumerated().map { n, layout -> SVGChart in
      let frame = ChartFrame(
        plot: .init(x: 48, y: 30, width: layout.width - 48 - 20, height: layout.height - 30 - 46), x: x,
        y: .linear(0, max(top, 1), maxTicks: 4))
      var chart = SVGChart(
        id: n == 0 ? "cal-held-for" : "cal-held-for-narrow", width: layout.width, height: layout.height,
        title: "Requests held back at least this long, observed and replayed", summary: summary)
      chart.add(
        frame.axes(
          xLabel: { NumberFormat.durationTick($0) }, yLabel: { NumberFormat.short($0) + " %" },
          xTitle: "time from the requested date to the reload (log scale)",
          yTitle: "Requests held at least this long (%)",
          xGrid: true))
      guard holds.requests > 0 else {
        chart.add(empty(frame))
        return chart
      }
      for (k, r) in holds.readings.enumerated().reversed() {
        let s = readingStyle(k)
        let points = zip(holds.delaysMinutes, r.heldAtLeast).map { frame.point($0, share($1, of: holds.requests)) }
        chart.add(.polyline(points, cls: "ln " + s.dash + " " + s.color))
      }
      let points = zip(holds.delaysMinutes, holds.observed.heldAtLeast).map {
        frame.point($0, share($1, of: holds.requests))
      }
      chart.add(.polyline(points, cls: "ln " + observedStyle))
      return chart
    }
    // Every fourth delay and the last: enough to read the curves from.
    var rows: [[String]] = []
    for k in holds.delaysMinutes.indices where k % 4 == 0 || k == holds.delaysMinutes.count - 1 {
      rows.append(
        ["at least " + NumberFormat.minutes(holds.delaysMinutes[k])]
          + all.map { NumberFormat.percent(share($0.heldAtLeast[k], of: holds.requests), decimals: 1) })
    }
    return ReportFigure(
      id: "fig-held-for", heading: "Held requests: observed against each reading",
      caption:
        "Each policy request of an hour when its user is seen awake, and how long after its date the system "
        + "answered it (solid), against when each reading, with its fitted B, answers it when replayed from the "
        + "widget's own earlier reloads (dashed: when it would let the reload through, plus the median lateness of "
        + "requests not held). A request counts "
        + "as held beyond \(threshold), twice the lateness the log shows elsewhere. A window lets a burst "
        + "through and then freezes (fewer, longer holds); a bucket paces (many short ones). A request dated just "
        + "before its user falls asleep waits for the morning under every reading. " + holds.note,
      charts: [charts[0]], narrowCharts: [charts[1]],
      table: .init(
        caption: "Share of requests held at least this long, observed and replayed under each reading",
        columns: ["held", "observed"] + holds.readings.map(\.label), rows: rows),
      key: holdKey(holds))
  }

  /// The share of each local hour's requests held, observed and replayed.
  static func heldByHourFigure(_ holds: CalibrationPage.Holds) -> ReportFigure {
    let all = [holds.observed] + holds.readings
    let hours = (0..<24).filter { holds.requestsByHour[$0] >= minRequestsPerHour }
    let top = all.flatMap { s in hours.map { share(s.heldByHour[$0], of: holds.requestsByHour[$0]) } }.max() ?? 0
    let x = ChartScale.fixed(0, 24, ticks: [0, 6, 12, 18, 24])
    let summary =
      "Share of each local hour's requests held more than " + NumberFormat.minutes(holds.thresholdMinutes)
      + ", observed and replayed under " + holds.readings.map(\.label).joined(separator: ", ") + "."
    let charts = [wide, narrow].enumerated().map { n, layout -> SVGChart in
      let frame = ChartFrame(
        plot: .init(x: 48, y: 30, width: layout.width - 48 - 20, height: layout.height - 30 - 46), x: x,
        y: .linear(0, max(top, 1), maxTicks: 4))
      var chart = SVGChart(
        id: n == 0 ? "cal-held-by-hour" : "cal-held-by-hour-narrow", width: layout.width, height: layout.height,
        title: "Requests held back by local hour, observed and replayed", summary: summary)
      chart.add(
        frame.axes(
          xLabel: { $0 >= 24 ? "24:00" : NumberFormat.clock($0) }, yLabel: { NumberFormat.short($0) + " %" },
          xTitle: "local hour of the requested date", yTitle: "Requests held (%)", xGrid: true))
      guard !hours.isEmpty else {
        chart.add(empty(frame))
        return chart
      }
      // The observed points first and larger, so that a reading's point on them stays in sight.
      for (k, s) in all.enumerated() {
        let size = k == 0 ? (n == 0 ? 11.0 : 10.0) : (n == 0 ? 7.0 : 6.0)
        let style = k == 0 ? (color: observedStyle, dash: "", shape: SVGChart.Shape.circle) : readingStyle(k - 1)
        // A line through consecutive hours; an hour without enough requests breaks it.
        var run: [SVGChart.Point] = []
        func flush() {
          if run.count > 1 { chart.add(.polyline(run, cls: "ln thin " + style.dash + " " + style.color)) }
          run = []
        }
        for h in 0..<24 {
          guard hours.contains(h) else {
            flush()
            continue
          }
          let v = share(s.heldByHour[h], of: holds.requestsByHour[h])
          let p = frame.point(Double(h) + 0.5, v)
          run.append(p)
          chart.add(
            .marker(
              p, style.shape, size: size, cls: "pt " + style.color,
              tooltip: NumberFormat.clock(Double(h)) + ", " + (k == 0 ? "observed" : s.label) + ": "
                + NumberFormat.percent(v, decimals: 1) + " of " + NumberFormat.grouped(holds.requestsByHour[h])
                + " requests held"))
        }
        flush()
      }
      return chart
    }
    let rows = hours.map { h -> [String] in
      [NumberFormat.clock(Double(h)), NumberFormat.grouped(holds.requestsByHour[h])]
        + all.map { NumberFormat.percent(share($0.heldByHour[h], of: holds.requestsByHour[h]), decimals: 1) }
    }
    return ReportFigure(
      id: "fig-held-by-hour", heading: "Held requests by hour of the day",
      caption:
        "The share of the requests dated in each local hour that were held more than "
        + NumberFormat.minutes(holds.thresholdMinutes) + ": observed (large circles) and replayed under each "
        + "reading. A window holds little in the morning and much late in the day, once a burst has spent it; a "
        + "bucket holds at an even pace once its capacity is spent. Requests dated around the hour its user falls "
        + "asleep wait for the morning under every reading: the log's share there is high, the replays' is not. "
        + "Hours with fewer than "
        + "\(minRequestsPerHour) requests are left out.",
      charts: [charts[0]], narrowCharts: [charts[1]],
      table: .init(
        caption: "Share of each local hour's requests held, observed and replayed under each reading",
        columns: ["hour", "requests", "observed"] + holds.readings.map(\.label), rows: rows),
      key: holdKey(holds))
  }
}
