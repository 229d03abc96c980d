import ReloadMetrics

/// The wake-up funnel of strategies that reload from the background:
/// silent pushes sent -> delivered -> reloads, BGAppRefresh requested ->
/// runs -> reloads, WidgetKit pushes sent -> accepted -> reloads. One group
/// of three bars per strategy and mechanism, each group on its own scale,
/// every bar labelled with its count and its share of the stage before.
enum WakeFunnelChart {
  // Narrow enough to stay legible on a phone (about 9 px text at 390 px).
  static let width = 480.0
  static let labelWidth = 86.0
  static let barHeight = 16.0
  static let rowGap = 5.0
  static let groupGap = 16.0
  static let headerHeight = 20.0

  /// One mechanism's funnel for one strategy.
  struct Funnel {
    var strategy: String
    var mechanism: String
    var stages: [(name: String, count: UInt64)]
    /// For a push mechanism, the summary columns of its fleet-scale volume:
    /// pushes a day, and in the fleet's busiest second.
    var fleet: (perDay: SummaryMetric, peak: SummaryMetric)? = nil
  }

  /// "fleet: 16M a day, 45k in the busiest second" for a push funnel, from
  /// the all-segments summary row (empty without one).
  static func fleetText(_ f: Funnel, _ table: ResultTable) -> String {
    guard let m = f.fleet, let row = table.overallRows.first(where: { $0.strategy == f.strategy }),
      let day = table.value(m.perDay, in: row), let peak = table.value(m.peak, in: row)
    else { return "" }
    return "fleet: \(NumberFormat.short(day)) a day, \(NumberFormat.short(peak)) in the busiest second"
  }

  /// The non-empty funnels of a series, in a fixed order.
  static func funnels(of s: StrategySeries) -> [Funnel] {
    let f = s.funnel
    var out: [Funnel] = []
    if f.silentPushesSent > 0 {
      out.append(
        Funnel(
          strategy: s.strategy, mechanism: "silent pushes",
          stages: [
            ("sent", f.silentPushesSent), ("delivered", f.silentPushesDelivered),
            ("reloads", f.silentPushReloads),
          ], fleet: (.silentPushesPerFleetDay, .silentPushFleetPeakPerS)))
    }
    if f.bgRefreshRequested > 0 || f.bgRefreshRuns > 0 {
      out.append(
        Funnel(
          strategy: s.strategy, mechanism: "BGAppRefresh",
          stages: [
            ("requested", f.bgRefreshRequested), ("runs", f.bgRefreshRuns), ("reloads", f.bgRefreshReloads),
          ]))
    }
    if f.widgetPushesSent > 0 {
      out.append(
        Funnel(
          strategy: s.strategy, mechanism: "WidgetKit pushes",
          stages: [
            ("sent", f.widgetPushesSent), ("accepted", f.widgetPushesAccepted),
            ("reloads", f.widgetPushReloads),
          ], fleet: (.widgetPushesPerFleetDay, .widgetPushFleetPeakPerS)))
    }
    return out
  }

  static func figure(_ results: ScenarioResults) -> ReportFigure? {
    let styles = SeriesStyle.styles(for: results)
    let all = results.series.flatMap(funnels)
    guard !all.isEmpty else { return nil }
    let groupHeight = headerHeight + 3 * (barHeight + rowGap) + groupGap
    let height = 12 + Double(all.count) * groupHeight
    var chart = SVGChart(
      id: "wake-funnel", width: width, height: height, title: "Wake-up funnel",
      summary: all.map { f in
        "\(f.strategy), \(f.mechanism): "
          + f.stages.map { "\($0.name) \(NumberFormat.short(Double($0.count)))" }.joined(separator: ", ")
      }.joined(separator: "; ") + ".")
    let barSpace = width - labelWidth - 110
    var y = 12.0
    for f in all {
      let style = SeriesStyle.of(f.strategy, in: styles)
      var g: [SVGChart.Mark] = []
      g.append(.text(.init(x: 4, y: y + 13), f.strategy + " · " + f.mechanism, cls: "ptitle"))
      let fleet = fleetText(f, results.summary)
      if !fleet.isEmpty { g.append(.text(.init(x: width - 4, y: y + 13), fleet, anchor: .end, cls: "hint")) }
      y += headerHeight
      let top = Double(f.stages.map(\.count).max() ?? 1)
      for (k, stage) in f.stages.enumerated() {
        let w = top > 0 ? barSpace * Double(stage.count) / top : 0
        g.append(
          .text(.init(x: labelWidth - 8, y: y + barHeight - 4), stage.name, anchor: .end, cls: "tick"))
        g.append(
          .rect(
            .init(x: labelWidth, y: y, width: max(w, 1), height: barHeight), cls: "bar " + style.colorClass,
            tooltip: "\(f.strategy), \(f.mechanism) \(stage.name): \(stage.count)"))
        var text = NumberFormat.short(Double(stage.count))
        if k > 0, f.stages[k - 1].count > 0 {
          text += " (" + NumberFormat.percent(100 * Double(stage.count) / Double(f.stages[k - 1].count)) + ")"
        }
        g.append(.text(.init(x: labelWidth + max(w, 1) + 6, y: y + barHeight - 4), text, cls: "lbl"))
        y += barHeight + rowGap
      }
      chart.add(.strategy(f.strategy, g))
      y += groupGap
    }
    let rows = all.map { f in
      [f.strategy, f.mechanism] + f.stages.map { String($0.count) } + [
        fleetText(f, results.summary).isEmpty ? "–" : fleetText(f, results.summary)
      ]
    }
    return ReportFigure(
      id: "fig-funnel", heading: "Wake-up funnel",
      caption:
        "What happened to the background wake-ups each strategy relies on: how many were sent or requested, "
        + "how many reached the app or widget, and how many widget reloads followed. Each group has its own scale; "
        + "percentages compare a stage to the one before (one wake-up can reload several widgets). The bars count "
        + "the simulated devices; beside each push group, the fleet's pushes "
        + "(\(NumberFormat.short(results.facts.fleetDevices)) "
        + "devices) a day and in its busiest second (p99.9, estimated like the backend's fleet peak).",
      charts: [chart],
      table: .init(
        caption: "Wake-up funnel counts (simulated devices, measured days)",
        columns: ["Strategy", "Mechanism", "Sent / requested", "Delivered / ran / accepted", "Reloads", "Fleet scale"],
        rows: rows))
  }
}
