import ReloadMetrics

extension CompareReport {
  /// `compare.html`: self-contained like the other pages (inline CSS and
  /// SVG, no script); per headline metric a chart of each strategy's change
  /// with its noise band, and the data table beside it.
  package func html() -> String {
    var w = _HTMLWriter(reservingCapacity: 60_000)
    w.pageStart(
      title: "ReloadBench compare: \(baseName) → \(newName)", toolVersion: toolVersion,
      stylesheets: [HTMLReport.stylesheet, Self.stylesheet])
    w.pageHeader(
      eyebrow: "ReloadBench compare", title: "\(baseName) → \(newName)",
      lead: scenarioChange.map { "Changed in the scenario: " + $0 + "." }
        ?? "The same scenario, or scenarios whose fields are not recorded (a results.json).",
      description: "Each change is judged against its noise band: the move a rerun could make by chance (the 95 % "
        + "interval of the difference with replications), or the check's tolerance.")
    let figures = self.figures
    ReportFigure.writeNavigation(
      leading: [("headline", "Headline figures")], figures: figures, trailing: [("moved", "Every metric")], to: &w)
    w.raw("<main>\n<section id=\"headline\" aria-labelledby=\"headline-h\"><h2 id=\"headline-h\">Headline figures")
    w.raw("</h2>\n<div class=\"scroll\"><table class=\"fit\"><thead><tr><th scope=\"col\">Strategy</th>")
    for m in headlines {
      w.raw("<th scope=\"col\">")
      w.text(m.label)
      w.raw("</th>")
    }
    w.raw("</tr></thead><tbody>\n")
    for s in strategies {
      w.raw("<tr><th scope=\"row\">")
      w.text(s)
      w.raw("</th>")
      for m in headlines {
        let c = comparison(s, m)
        w.raw(c.map { $0.verdict == .regressed ? "<td class=\"num worse\">" : "<td class=\"num\">" } ?? "<td>")
        w.text(c.map { Self.cell($0, inWords: true) } ?? "–")
        w.raw("</td>")
      }
      w.raw("</tr>\n")
    }
    w.raw("</tbody></table></div>\n</section>\n")
    w.raw(
      "<section id=\"changes\" aria-labelledby=\"changes-h\"><h2 id=\"changes-h\">What changed, per strategy</h2>\n")
    for f in figures { f.write(to: &w) }
    w.raw("</section>\n<section id=\"moved\" aria-labelledby=\"moved-h\"><h2 id=\"moved-h\">Every metric</h2>\n")
    let moved = comparisons.filter { $0.verdict != .unchanged }
    w.raw("<p class=\"desc\">")
    w.text(
      "\(comparisons.count - moved.count) of \(comparisons.count) metrics (every strategy, segment and metric) "
        + "within their noise band; \(moved.count) moved.")
    w.raw("</p>\n")
    if !moved.isEmpty {
      w.raw("<div class=\"scroll\"><table class=\"fit\"><thead><tr>")
      for h in ["Strategy", "Segment", "Metric", "Before", "Now", "Change", "Noise band", "Verdict"] {
        w.raw("<th scope=\"col\">")
        w.text(h)
        w.raw("</th>")
      }
      w.raw("</tr></thead><tbody>\n")
      for c in moved.prefix(200) {
        let (b, n) = CheckReport.values(c.baseline, c.now, decimals: c.metric.decimals)
        w.raw("<tr>")
        for (text, numeric) in [
          (c.strategy, false), (c.segment, false), (c.metric.name, false), (b, true), (n, true),
          (CheckReport.change(c), true), (CheckReport.allowed(c), true), (Self.mark(c), false),
        ] {
          w.raw(numeric ? "<td class=\"num\">" : "<td>")
          w.text(text)
          w.raw("</td>")
        }
        w.raw("</tr>\n")
      }
      w.raw("</tbody></table></div>\n")
    }
    if !notes.isEmpty {
      w.raw("<ul class=\"desc\">")
      for note in notes {
        w.raw("<li>")
        w.text(note)
        w.raw("</li>")
      }
      w.raw("</ul>\n")
    }
    w.raw("</section>\n</main>\n")
    // The comparison as data, like the other pages' embedded results.
    w.raw("<script type=\"application/json\" id=\"compare-data\">")
    w.raw(data.text(.script))
    w.raw("</script>\n")
    w.pageScript()
    w.raw("</body>\n</html>\n")
    return w.output
  }

  /// Every comparison: strategy, segment, metric, before, now, noise band, verdict.
  var data: JSON {
    .object([
      ("base", .string(baseName)), ("new", .string(newName)),
      ("scenario_change", JSON.optional(scenarioChange, JSON.string)),
      (
        "comparisons",
        .array(
          comparisons.map { c in
            .object([
              ("strategy", .string(c.strategy)), ("segment", .string(c.segment)), ("metric", .string(c.metric.name)),
              ("before", JSON.optional(c.baseline, JSON.number)), ("now", JSON.optional(c.now, JSON.number)),
              ("noise_band", .number(c.threshold)), ("verdict", .string(c.verdict.rawValue)),
            ])
          })
      ),
    ])
  }

  /// A chart per headline metric: each strategy's change, with its noise band.
  var figures: [ReportFigure] {
    headlines.map { m in
      let rows = strategies.compactMap { s in comparison(s, m).map { (s, $0) } }
      func chart(_ narrow: Bool) -> SVGChart {
        ChangeChart.chart(id: "change-\(m.name)" + (narrow ? "-n" : ""), metric: m, rows: rows, narrow: narrow)
      }
      return ReportFigure(
        id: "fig-change-" + m.name, heading: m.label,
        caption: "Each bar: the change from \(baseName) to \(newName); the grey band around zero: the noise band, a "
          + "move a rerun could make by chance. Green is better, vermillion worse.",
        charts: [chart(false)], narrowCharts: [chart(true)],
        table: .init(
          caption: "\(m.label): before, now and the change per strategy",
          columns: ["Strategy", "Before", "Now", "Change", "Noise band", "Verdict"],
          rows: rows.map { s, c in
            let (b, n) = CheckReport.values(c.baseline, c.now, decimals: c.metric.decimals)
            return [s, b, n, CheckReport.change(c), CheckReport.allowed(c), Self.mark(c)]
          }),
        key: [("bandsw s2", "better"), ("bandsw s1", "worse"), ("bandsw", "noise band")])
    }
  }

  static let stylesheet = """
    table.fit{font-size:.88rem;margin-bottom:1.2em}
    table.fit td.num{text-align:right;white-space:nowrap}
    td.worse{background:var(--miss)}
    .noise{fill:var(--faint);fill-opacity:.35;stroke:none}
    .scroll{overflow-x:auto}
    .sw.bandsw.s2{background:var(--c2);opacity:1}.sw.bandsw.s1{background:var(--c1);opacity:1}
    """
}

/// One metric's change per strategy: a bar from zero to the change, over a
/// grey noise band of ± the threshold. Wide: labels left; narrow: above.
enum ChangeChart {
  static func chart(id: String, metric m: Metric, rows: [(String, MetricComparison)], narrow: Bool) -> SVGChart {
    let width = narrow ? TornadoChart.narrowWidth : TornadoChart.wideWidth
    let labelWidth = narrow ? 0.0 : 160.0
    let rowHeight = narrow ? 36.0 : 24.0
    let top = 34.0
    let plotHeight = max(rowHeight, Double(rows.count) * rowHeight)
    let changes = rows.map { _, c -> (Double, Double) in
      guard let b = c.baseline, let n = c.now else { return (0, c.threshold) }
      return (n - b, c.threshold)
    }
    let lo = changes.map { min($0.0, -$0.1) }.min() ?? -1
    let hi = changes.map { max($0.0, $0.1) }.max() ?? 1
    let scale = ChartScale.linear(lo == hi ? -1 : lo, lo == hi ? 1 : hi, includeZero: true, maxTicks: narrow ? 4 : 6)
    let plot = SVGChart.Rect(x: labelWidth + 14, y: top, width: width - labelWidth - 28, height: plotHeight)
    let frame = ChartFrame(plot: plot, x: scale, y: ChartScale.fixed(0, 1, ticks: []))
    let x = frame.x
    let unit = m.unit.symbol
    func signed(_ d: Double) -> String {
      (d > 0 ? "+" : d < 0 ? "−" : "") + NumberFormat.significant(abs(d)) + (unit.isEmpty ? "" : " " + unit)
    }
    var chart = SVGChart(
      id: id, width: width, height: top + plotHeight + 46, title: "\(m.label): change per strategy",
      summary: zip(rows, changes).map { row, change in "\(row.0) \(signed(change.0)) (noise band ±\(signed(change.1)))"
      }
      .joined(separator: "; ") + ".")
    chart.add(
      frame.axes(
        xLabel: { signed($0) }, yLabel: { _ in "" }, xTitle: "change" + (unit.isEmpty ? "" : ", " + unit), yTitle: "",
        xGrid: true))
    chart.add(.text(.init(x: 4, y: 16), m.label, cls: "ptitle"))
    let zero = x(0)
    for (i, ((label, c), (d, band))) in zip(rows, changes).enumerated() {
      let rowTop = top + Double(i) * rowHeight
      let barTop = rowTop + (narrow ? 16 : 4)
      let barHeight = rowHeight - (narrow ? 20 : 8)
      if narrow {
        chart.add(.text(.init(x: plot.x, y: rowTop + 12), label, cls: "lbl"))
      } else {
        chart.add(.text(.init(x: labelWidth, y: barTop + barHeight - 4), label, anchor: .end, cls: "lbl"))
      }
      chart.add(
        .rect(
          .init(x: x(-band), y: barTop - 2, width: x(band) - x(-band), height: barHeight + 4), cls: "noise",
          tooltip: "\(label): noise band ±\(signed(band))"))
      let cls: String
      switch c.verdict {
      case .regressed: cls = "bar s1"
      case .improved: cls = "bar s2"
      default: cls = "bar s0"
      }
      if d != 0 {
        chart.add(
          .rect(
            .init(x: min(zero, x(d)), y: barTop, width: abs(x(d) - zero), height: barHeight), cls: cls,
            tooltip: "\(label): \(signed(d)) (\(CompareReport.mark(c)))"))
      } else {
        chart.add(.text(.init(x: zero + 4, y: barTop + barHeight - 3), "no change", cls: "hint"))
      }
    }
    chart.add(.polyline([.init(x: zero, y: top - 4), .init(x: zero, y: top + plotHeight)], cls: "ref"))
    return chart
  }
}
