import ReloadMetrics

/// `report.html`: one self-contained page that settles a product
/// discussion: the recommendation and findings first, then the comparison
/// table, the charts, the model's parameters with their sources, and the
/// full results as JSON.
///
/// A pure function of the results, as `CSVReport` is: writing the file is
/// the CLI's job. The page needs nothing from the network: inline CSS,
/// inline SVG drawn by `SVGChart`, system fonts, no executable script. The
/// only `<script>` is `type="application/json"` (`id="results-data"`),
/// which holds the `ScenarioResults` the page was drawn from, so the page
/// is also the data:
///
///     let recommendation = Recommendation.compute(results.summary)
///     results.conclusions = Conclusions(
///       findings: Findings.compute(results, recommended: recommendation?.strategy), recommendation: recommendation)
///     let html = HTMLReport.render(results, objective: nil)
///     // Reading the data back in a browser:
///     //   JSON.parse(document.getElementById("results-data").textContent)
///
/// Every string that comes from the scenario (names, descriptions, segment
/// and strategy names, parameter values) is HTML-escaped by `_HTMLWriter`.
/// Output is deterministic: the same results give the same bytes.
///
/// - Complexity: linear in the size of the results; the default scenario's
///   page (about 1 MB, most of it the embedded JSON) renders in a few tens
///   of milliseconds in a release build.
public enum HTMLReport {
  /// Renders the whole page.
  ///
  /// - Parameters:
  ///   - results: everything the run produced, with its conclusions (the
  ///     findings and the recommendation; none without them).
  ///   - objective: the scenario's objective the recommendation was judged
  ///     by, nil for the default rule: the charts draw its targets.
  public static func render(_ results: ScenarioResults, objective: Objective?) -> String {
    render(results, objective: objective, dataJSON: dataJSON(results))
  }

  /// Renders the whole page around an already encoded `dataJSON(results)`.
  public static func render(_ results: ScenarioResults, objective: Objective?, dataJSON json: String) -> String {
    let findings = results.conclusions?.findings ?? []
    let recommendation = results.conclusions?.recommendation
    let figures = self.figures(results, marks: RecommendationMarks(recommendation, objective: objective))
    var w = _HTMLWriter(reservingCapacity: json.utf8.count + 400_000)
    w.raw("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
    w.raw("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
    w.raw("<meta name=\"color-scheme\" content=\"light dark\">\n")
    w.raw("<meta name=\"generator\" content=\"ReloadBench ")
    w.text(results.facts.toolVersion)
    w.raw("\">\n<title>")
    w.text(results.facts.title ?? ("ReloadBench report: " + results.facts.scenario))
    w.raw("</title>\n<style>")
    w.raw(stylesheet)
    w.raw(PageScript.stylesheet)
    // The per-kind table's rules only on a page that has it: a page with
    // one kind keeps the bytes it had before kinds had rows.
    if !results.summary.kindRows.isEmpty { w.raw(kindStylesheet) }
    w.raw("</style>\n</head>\n<body>\n")
    writeHeader(results, to: &w)
    ReportFigure.writeNavigation(
      leading: [("summary", "Summary"), ("comparison", "Comparison")]
        + (results.liveActivities == nil ? [] : [("live-activities", "Live Activities")]), figures: figures,
      trailing: [("parameters", "Parameters and sources"), ("run", "The run"), ("data", "Data")], to: &w)
    w.raw("<main>\n")
    writeSummary(results, findings: findings, recommendation: recommendation, to: &w)
    writeComparison(results, recommendation: recommendation, to: &w)
    writeLiveActivities(results, to: &w)
    w.raw("<section id=\"charts\" aria-labelledby=\"charts-h\"><h2 id=\"charts-h\">Charts</h2>\n")
    if figures.isEmpty { w.raw("<p>No series to chart: the run produced no per-strategy series.</p>") }
    for figure in figures {
      figure.write(to: &w)
      w.raw("\n")
    }
    w.raw("</section>\n")
    writeParameters(results, to: &w)
    writeRun(results, to: &w)
    writeDataNote(results, jsonBytes: json.utf8.count, to: &w)
    w.raw("</main>\n")
    w.raw("<script type=\"application/json\" id=\"results-data\">")
    w.raw(json)
    w.raw("</script>\n")
    w.pageScript()
    w.raw("</body>\n</html>\n")
    return w.output
  }

  /// The charts, in reading order; a figure without data is left out.
  static func figures(_ results: ScenarioResults, marks: RecommendationMarks? = nil) -> [ReportFigure] {
    [
      FreshnessCostChart.figure(results, recommendation: marks),
      FreshnessCostChart.kindFigure(results, recommendation: marks),
      StalenessCDFChart.figure(results, targets: marks?.targets ?? []),
      LocalHourCharts.staleFigure(results),
      LocalHourCharts.budgetFigure(results),
      BackendLoadChart.figure(results),
      WakeFunnelChart.figure(results),
      LiveActivityCharts.pushFigure(results),
      LiveActivityCharts.ageFigure(results),
      LiveActivityCharts.budgetFigure(results),
    ].compactMap { $0 }
  }

  static func writeHeader(_ results: ScenarioResults, to w: inout _HTMLWriter) {
    let f = results.facts
    w.pageHeader(
      eyebrow: f.title == nil ? "ReloadBench report" : "ReloadBench report: \(f.scenario)",
      title: f.title ?? f.scenario, lead: oneSentence(f), description: f.description)
  }

  /// The scenario in one sentence, from its facts.
  static func oneSentence(_ f: RunFacts) -> String {
    let count = { (n: Double, noun: String) in NumberFormat.count(n, noun) }
    let measured = f.days - f.warmupDays
    var s =
      "Compares \(NumberFormat.count(f.strategies.count, "reload strategy")) for "
      + "\(NumberFormat.grouped(f.widgets)) widgets on \(NumberFormat.grouped(f.devices)) simulated devices"
    if !f.segments.isEmpty {
      s += " (" + count(Double(f.segments.count), "segment") + ": " + f.segments.joined(separator: ", ") + ")"
    }
    s += " over " + count(measured, "measured day")
    if f.warmupDays > 0 { s += " after " + count(f.warmupDays, "warm-up day") }
    s += ", with backend load scaled to a fleet of \(NumberFormat.short(f.fleetDevices)) devices."
    return s
  }

  static func writeDataNote(_ results: ScenarioResults, jsonBytes: Int, to w: inout _HTMLWriter) {
    w.raw(
      "<section id=\"data\" aria-labelledby=\"data-h\"><h2 id=\"data-h\">The data behind this page</h2><p>")
    w.text(
      "This page embeds the run's full results (\(NumberFormat.short(Double(jsonBytes) / 1000)) kB of JSON) in the "
        + "script element with id \"results-data\": the same model as results.json, with non-finite numbers written "
        + "as \"nan\", \"inf\" and \"-inf\". Each chart's numbers are also in the data table under it; "
        + "summary.csv, timeseries.csv and staleness.csv next to this file hold the rest.")
    w.raw("</p></section>\n")
  }
}
