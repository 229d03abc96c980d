import ReloadMetrics

/// `robustness.html`: the scenario under every reading of the model. The
/// sentence to quote, a tornado chart per headline metric for the
/// recommended strategy (which assumptions move it most), the
/// recommendation under each reading, and each metric's range per strategy.
///
/// Built like `report.html`, `sweep.html` and `calibration.html`: the same
/// stylesheet, chart toolkit and figures with data tables (inline CSS and
/// SVG, no executable script, no URLs; robustness.json embedded as data);
/// phones get narrow charts.
package struct RobustnessPage {
  let results: RobustnessResults
  let verdict: RobustnessVerdict
  let toolVersion: String
  /// robustness.json's content, embedded so that the page is also the data.
  let data: JSON?

  package init(_ results: RobustnessResults, verdict: RobustnessVerdict, toolVersion: String, data: JSON? = nil) {
    self.results = results
    self.verdict = verdict
    self.toolVersion = toolVersion
    self.data = data
  }

  /// The strategy the tornado charts show: the recommended one, else the first.
  var focus: Int { results.strategies.firstIndex { $0 == verdict.strategy } ?? 0 }

  package func render() -> String {
    let figures = self.figures
    var w = _HTMLWriter(reservingCapacity: 120_000)
    w.pageStart(
      title: "ReloadBench robustness: \(results.scenario)", toolVersion: toolVersion,
      stylesheets: [HTMLReport.stylesheet, Self.stylesheet])
    let sample =
      results.devices < results.scenarioDevices
      ? " on \(NumberFormat.grouped(results.devices)) of its \(NumberFormat.grouped(results.scenarioDevices)) devices"
      : " on its \(NumberFormat.grouped(results.devices)) devices"
    w.pageHeader(
      eyebrow: "ReloadBench robustness", title: "\(results.scenario): every assumption side by side",
      lead: "The scenario under \(NumberFormat.count(results.variants.count, "reading")) of the model besides its "
        + "own\(sample), seed \(results.seed): the same users and random streams, only the model differs.",
      description: "How to read it: Scenarios/README.md, \"Robustness\".")
    ReportFigure.writeNavigation(
      leading: [("verdict", "The recommendation")], figures: figures,
      trailing: [("readings", "Each reading"), ("ranges", "Ranges")]
        + (results.activities == nil ? [] : [("live-activities", "Live Activities")]), to: &w)
    w.raw("<main>\n")
    writeVerdict(to: &w)
    w.raw("<section id=\"tornado\" aria-labelledby=\"tornado-h\"><h2 id=\"tornado-h\">What moves the answer</h2>\n")
    for f in figures { f.write(to: &w) }
    w.raw("</section>\n")
    writeReadings(to: &w)
    writeRanges(to: &w)
    if let a = results.activities { writeActivities(a, to: &w) }
    w.raw("</main>\n")
    if let data {
      w.raw("<script type=\"application/json\" id=\"robustness-data\">")
      w.raw(data.text(.script))
      w.raw("</script>\n")
    }
    w.pageScript()
    w.raw("</body>\n</html>\n")
    return w.output
  }

  func writeVerdict(to w: inout _HTMLWriter) {
    w.raw("<section id=\"verdict\" aria-labelledby=\"verdict-h\"><h2 id=\"verdict-h\">The recommendation</h2>\n")
    Self.writeBox(
      robust: verdict.robust, name: verdict.strategy ?? "no recommendation", sentence: verdict.sentence, to: &w)
    w.raw("<p class=\"desc\">")
    w.text("Judged by: " + (results.baseRecommendation?.objective ?? Recommendation.defaultObjective) + ".")
    w.raw("</p>\n</section>\n")
  }

  /// The verdict's box: robust or not, the strategy, the sentence to quote.
  static func writeBox(robust: Bool, name: String, sentence: String, to w: inout _HTMLWriter) {
    w.raw(robust ? "<div class=\"rec\">" : "<div class=\"rec miss\">")
    w.raw("<p class=\"rec-k\">")
    w.text(robust ? "Robust" : "Not robust")
    w.raw("</p><p class=\"rec-name\">")
    w.text(name)
    w.raw("</p><p class=\"rec-why\">")
    w.text(sentence)
    w.raw("</p></div>\n")
  }

  /// A tornado figure per headline metric, for the recommended strategy.
  var figures: [ReportFigure] {
    let s = focus
    return results.metrics.enumerated().map { m, metric in
      let swings = results.swings(metric: m, strategy: s)
      let base = results.base[s][m]
      let id = "tornado-" + metric.name
      func chart(_ narrow: Bool) -> SVGChart {
        TornadoChart.chart(
          id: id + (narrow ? "-n" : ""), metric: metric, strategy: results.strategies[s], base: base,
          swings: swings, narrow: narrow)
      }
      let unit = metric.metric.unit
      func v(_ d: Double) -> String { NumberFormat.metric(d, unit: unit) }
      let sampled = results.devices < results.scenarioDevices
      let rows = swings.map { g in
        [
          g.isAssumption ? g.group : g.group + " (profile)", g.lowVariant ?? "the base", v(g.low),
          g.highVariant ?? "the base", v(g.high), v(g.width),
        ] + (sampled ? [g.halfWidth95.map { "± " + v($0) } ?? "–"] : [])
      }
      return ReportFigure(
        id: "fig-" + id, heading: metric.metric.label,
        caption: "For \(results.strategies[s]) (base \(base.map(v) ?? "–")): each bar runs from the lowest to the "
          + "highest difference to the base that the assumption's alternatives make, widest first; green is "
          + "better, vermillion worse."
          + (sampled
            ? " On a sample of the devices: a difference inside its sampling uncertainty (the data table) may be "
              + "noise." : ""),
        charts: [chart(false)], narrowCharts: [chart(true)],
        table: .init(
          caption: "\(metric.metric.label) of \(results.strategies[s]): difference to the base per assumption",
          columns: ["Assumption", "Lowest under", "Lowest", "Highest under", "Highest", "Swing"]
            + (sampled ? ["Sampling uncertainty (95 %)"] : []), rows: rows),
        key: [("bandsw s2", "better than the base"), ("bandsw s1", "worse than the base")])
    }
  }

  func writeReadings(to w: inout _HTMLWriter) {
    w.raw("<section id=\"readings\" aria-labelledby=\"readings-h\"><h2 id=\"readings-h\">Each reading</h2>\n<p>")
    w.text(
      "What each reading of the model recommends. Strategies it cannot change (it sets only parameters their "
        + "simulation never reads) keep their base results and were not simulated again.")
    w.raw("</p>\n<div class=\"scroll\"><table class=\"fit\"><caption>")
    w.text("The recommendation under each reading")
    w.raw("</caption><thead><tr>")
    for c in ["Reading", "What it says", "Recommends", "Simulated again"] { w.element("th", ["scope": "col"], text: c) }
    w.raw("</tr></thead><tbody>\n")
    for v in results.variants {
      let changed = v.recommended != verdict.strategy
      w.raw(changed ? "<tr class=\"changed\">" : "<tr>")
      w.raw("<th scope=\"row\"><code>")
      w.text(v.name)
      w.raw("</code></th><td>")
      w.text(v.summary)
      w.raw("</td><td>")
      w.text((v.recommended ?? "none") + (changed ? " (changed)" : ""))
      w.raw("</td><td>")
      let simulated = zip(results.strategies, v.simulated).filter(\.1).map(\.0)
      w.text(simulated.isEmpty ? "none (the base's results)" : simulated.joined(separator: ", "))
      w.raw("</td></tr>\n")
    }
    w.raw("</tbody></table></div>\n</section>\n")
  }

  func writeRanges(to w: inout _HTMLWriter) {
    w.raw("<section id=\"ranges\" aria-labelledby=\"ranges-h\"><h2 id=\"ranges-h\">Ranges</h2>\n<p>")
    w.text(
      "Each headline metric of each strategy: its base value, its range over the base and every reading, and "
        + "the assumption that moves it most.")
    w.raw("</p>\n")
    let ranges = results.ranges()
    for metric in results.metrics {
      let unit = metric.metric.unit
      func v(_ d: Double?) -> String { d.map { NumberFormat.metric($0, unit: unit) } ?? "–" }
      w.raw("<div class=\"scroll\"><table class=\"fit\"><caption>")
      w.text(metric.metric.label + " (" + metric.name + ")")
      w.raw("</caption><thead><tr>")
      for c in ["Strategy", "Base", "Lowest", "Highest", "Moves it most"] { w.element("th", ["scope": "col"], text: c) }
      w.raw("</tr></thead><tbody>\n")
      for r in ranges where r.metric == metric {
        w.raw("<tr><th scope=\"row\">")
        w.text(r.strategy)
        w.raw("</th><td class=\"num\">")
        w.text(v(r.base))
        w.raw("</td><td class=\"num\">")
        w.text(v(r.low) + (r.lowVariant.map { " (" + $0 + ")" } ?? ""))
        w.raw("</td><td class=\"num\">")
        w.text(v(r.high) + (r.highVariant.map { " (" + $0 + ")" } ?? ""))
        w.raw("</td><td>")
        w.text(r.movesMost.map { $0 + " (swing " + v(r.movesMostSwing) + ")" } ?? "nothing")
        w.raw("</td></tr>\n")
      }
      w.raw("</tbody></table></div>\n")
    }
    w.raw("</section>\n")
  }

  /// The Live Activities under the same readings: the best activity
  /// strategy and whether it holds, then each figure's range.
  func writeActivities(_ a: ActivityRobustness, to w: inout _HTMLWriter) {
    w.raw(
      "<section id=\"live-activities\" aria-labelledby=\"live-activities-h\"><h2 id=\"live-activities-h\">"
        + "Live Activities</h2>\n")
    Self.writeBox(robust: a.robust, name: a.best ?? "no activity strategy", sentence: a.sentence, to: &w)
    w.raw("<p class=\"desc\">")
    w.text(
      "The scenario's Live Activity strategies under the same readings, on the same devices. What moves them most "
        + "is assumption 20 (model.activity: the push budget, what happens beyond it, how late priority 5 arrives; "
        + "docs/model.md#activity-push-budget). A reading that leaves the model as it is shows the base's figures.")
    w.raw("</p>\n")
    let ranges = a.ranges()
    for metric in ActivityRobustness.metrics {
      func v(_ d: Double?) -> String {
        guard let d else { return "–" }
        return metric.decimals == 0 ? NumberFormat.grouped(Int(d.rounded())) : NumberFormat.fixed(d, decimals: 1)
      }
      func reading(_ name: String?) {
        guard let name else { return }
        w.raw("<small>")
        w.text(name)
        w.raw("</small>")
      }
      w.raw("<div class=\"scroll\"><table class=\"fit\"><caption>")
      w.text(metric.label + " (" + metric.name + ")")
      w.raw("</caption><thead><tr>")
      for c in ["Strategy", "Base", "Lowest", "Highest"] { w.element("th", ["scope": "col"], text: c) }
      w.raw("</tr></thead><tbody>\n")
      for (s, r) in ranges.filter({ $0.metric == metric }).enumerated() {
        w.raw("<tr><th scope=\"row\">")
        w.text(r.strategy)
        w.raw("</th><td class=\"num\">")
        w.text(v(r.base))
        if metric == .fleetPushPeakPerSecond, s < a.basePeakInterval.count, let i = a.basePeakInterval[s] {
          reading("95 %: " + v(i.low) + "–" + v(i.high))
        }
        w.raw("</td><td class=\"num\">")
        w.text(v(r.low))
        reading(r.lowReading)
        w.raw("</td><td class=\"num\">")
        w.text(v(r.high))
        reading(r.highReading)
        w.raw("</td></tr>\n")
      }
      w.raw("</tbody></table></div>\n")
    }
    w.raw("</section>\n")
  }

  static let stylesheet = """
    table.fit{font-size:.88rem;margin-bottom:1.2em}
    table.fit td.num{text-align:right;white-space:nowrap}
    table.fit td.num small{display:block;white-space:normal;color:var(--muted);font-size:.8em}
    tr.changed td,tr.changed th{background:var(--miss)}
    .sw.bandsw.s2{background:var(--c2);opacity:1}.sw.bandsw.s1{background:var(--c1);opacity:1}
    """
}
