import ReloadMetrics

/// `sweep.html`: one self-contained page for a parameter sweep: the
/// recommendation of the scenario's objective first, then which swept
/// parameter moves each headline metric most, the metric-against-parameter
/// charts, the freshness/cost frontier over every point, and the points.
///
/// Built like `report.html` (same stylesheet, chart toolkit and escaping;
/// inline CSS and SVG, no script but the data, no URLs), and like it a pure
/// function of its results:
///
///     let outcome = results.objective?.evaluate(results.candidates, columns: results.columns)
///     let html = SweepReport.render(results, outcome: outcome)
///     // The data, in a browser:
///     //   JSON.parse(document.getElementById("sweep-data").textContent)
public enum SweepReport {
  public static func render(_ results: SweepResults, outcome: ObjectiveOutcome?) -> String {
    let styles = self.styles(results)
    let best = outcome?.best
    // The vertical mark needs one point; the ring marks the choice's point,
    // or its worst case when it spans the assumptions.
    let recommendedCandidate = best.flatMap {
      $0.twins.isEmpty && $0.members.count == 1 ? results.candidates[$0.candidate] : nil
    }
    let recommended = best.map { [$0.members.count > 1 ? $0.worst : $0.candidate] } ?? []
    // Each strategy's own best, where it is one point (not the same at every point).
    let bestOfStrategy =
      results.points.count > 1
      ? (outcome?.byStrategy(columns: results.columns) ?? []).compactMap { _, o -> Int? in
        guard let b = o.best, b.twins.isEmpty, b.members.count == 1 else { return nil }
        return b.candidate
      } : []
    var bestPoints: [String: Int] = [:]
    for c in bestOfStrategy { bestPoints[results.candidates[c].strategy] = results.candidates[c].point }
    var figures = SweepParameterCharts.figures(
      results, recommended: recommendedCandidate, styles: styles, bestPoints: bestPoints)
    if let frontier = SweepFrontierChart.figure(
      results, recommended: recommended, styles: styles, bestOfStrategy: bestOfStrategy)
    {
      figures.append(frontier)
    }
    let json = dataJSON(results)
    var w = _HTMLWriter(reservingCapacity: json.utf8.count + 300_000)
    w.raw("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
    w.raw("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
    w.raw("<meta name=\"color-scheme\" content=\"light dark\">\n")
    w.raw("<meta name=\"generator\" content=\"ReloadBench ")
    w.text(results.facts.toolVersion)
    w.raw("\">\n<title>")
    w.text("ReloadBench sweep: " + results.facts.scenario)
    w.raw("</title>\n<style>")
    w.raw(HTMLReport.stylesheet)
    w.raw(stylesheet)
    w.raw(PageScript.stylesheet)
    w.raw("</style>\n</head>\n<body>\n")
    writeHeader(results, to: &w)
    ReportFigure.writeNavigation(
      leading: [("recommendation", "Recommendation"), ("sensitivity", "Sensitivity")], figures: figures,
      trailing: [("points", "Points"), ("data", "Data")], to: &w)
    w.raw("<main>\n")
    writeRecommendation(results, outcome: outcome, to: &w)
    writeSensitivity(results, to: &w)
    w.raw("<section id=\"charts\" aria-labelledby=\"charts-h\"><h2 id=\"charts-h\">Charts</h2>\n")
    for figure in figures {
      figure.write(to: &w)
      w.raw("\n")
    }
    w.raw("</section>\n")
    writePoints(results, outcome: outcome, to: &w)
    writeDataNote(jsonBytes: json.utf8.count, to: &w)
    w.raw("</main>\n<script type=\"application/json\" id=\"sweep-data\">")
    w.raw(json)
    w.raw("</script>\n")
    w.pageScript()
    w.raw("</body>\n</html>\n")
    return w.output
  }

  /// Each strategy's look, by its name (as in `report.html`).
  static func styles(_ results: SweepResults) -> [String: SeriesStyle] {
    SeriesStyle.styles(for: results.facts.strategies + results.strategies)
  }

  /// The results as compact, sorted-key JSON, safe inside a script element
  /// (without the recommendation, which the page gives in its own section).
  static func dataJSON(_ results: SweepResults) -> String {
    var data = results
    data.recommendation = nil
    return JSON.text(data, .script)
  }

  /// Rules `report.html` does not need: strategy swatches, the
  /// recommendation ring and reference lines, the margins table.
  static let stylesheet = """
    .sw.ser{border-top-color:var(--c);border-top-width:3px}.sw.ser.d1{border-top-style:dashed}
    .sw.ser.d2{border-top-style:dotted}
    .sw.frontier{border-top:1.5px dashed var(--fg);opacity:.7}
    .sw.ring{width:12px;height:12px;border:2px solid var(--fg);border-radius:50%;margin:0 6px 0 4px}
    .sw.ring.thin{border-width:1.2px}
    svg .pt.faint{fill-opacity:.5;stroke:var(--c);stroke-width:1}
    svg .recring.thin{stroke-width:1.2}
    svg .lbl.small{font-size:10px;fill:var(--muted)}
    table.perstrategy td:last-child{white-space:normal;min-width:14em;text-align:left}
    svg .ref.rec{stroke:var(--fg);stroke-opacity:.55;stroke-dasharray:3 3}
    table.margins td{text-align:right;white-space:nowrap}\
    table.margins td:nth-child(4){white-space:normal;min-width:8em}\
    table.margins tbody th,table.sens tbody th{text-align:left}
    table.margins td.ok{color:var(--bestfg)}table.margins td.bad{color:var(--peak);font-weight:600}
    table.sens td{text-align:right;white-space:nowrap}table.sens .by{display:block;font-size:.75rem;color:var(--muted)}
    .objective-lines{max-width:90ch;padding-left:1.2em}.objective-lines li{margin:.25em 0}
    .objective-lines code{font-size:.8em;color:var(--muted)}
    p.noise{max-width:90ch;border-left:3px solid var(--faint);padding-left:.8em}p.noise code{white-space:nowrap}
    table.margins td.noisy{color:var(--muted);font-style:italic}

    """

  static func writeHeader(_ results: SweepResults, to w: inout _HTMLWriter) {
    let f = results.facts
    w.pageHeader(
      eyebrow: "ReloadBench sweep", title: f.scenario, lead: oneSentence(results), description: f.description)
  }

  /// The sweep in one sentence.
  static func oneSentence(_ results: SweepResults) -> String {
    let f = results.facts
    let params = results.parameters.map { p -> String in
      let range = p.values.count > 1 ? (p.values.first ?? "") + " to " + (p.values.last ?? "") : (p.values.first ?? "")
      return "\(p.name) (\(NumberFormat.count(p.values.count, "value")), \(range))"
    }
    let measured = NumberFormat.trim(NumberFormat.fixed(f.days - f.warmupDays, decimals: 2))
    return "Runs the scenario at \(NumberFormat.count(results.points.count, "point")), "
      + "every combination of " + params.joined(separator: " and ") + ", with \(f.strategies.count) "
      + "strateg\(f.strategies.count == 1 ? "y" : "ies") each, on \(NumberFormat.grouped(f.devices)) simulated "
      + "devices over \(measured) measured days. Every point uses seed \(f.seed), so all see the same devices, "
      + "glances and data changes unless a swept parameter changes them."
  }

  static func writeDataNote(jsonBytes: Int, to w: inout _HTMLWriter) {
    w.raw("<section id=\"data\" aria-labelledby=\"data-h\"><h2 id=\"data-h\">The data behind this page</h2><p>")
    w.text(
      "sweep.csv next to this file has one row per point, strategy and segment: the point's swept values, then "
        + "the columns of summary.csv. This page also embeds the sweep's results "
        + "(\(NumberFormat.short(Double(jsonBytes) / 1000)) kB of JSON) in the script element with id "
        + "\"sweep-data\"; each chart's numbers are in the data table under it.")
    w.raw("</p></section>\n")
  }
}
