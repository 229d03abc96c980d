import Foundation
import ReloadMetrics
import ReloadReports
import Testing

/// `sweep.csv` and `sweep.html` from hand-built sweep results.
@Suite struct SweepReportTests {
  /// Two parameters (one with a hostile, comma-bearing name), 2 x 2
  /// points, the fixture's three strategies on two segments.
  static func results(objective: Objective? = nil) -> SweepResults {
    let base = ReportFixtures.results(scenario: "sweep-fixture")
    var points: [SweepPoint] = []
    for a in 0..<2 {
      for b in 0..<2 {
        var rows = base.summary.rows
        let fresh = base.summary.columnIndex(.freshGlancePct)!
        for i in rows.indices { rows[i].values[fresh] = (rows[i].values[fresh] ?? 0) - Double(5 * a + b) }
        points.append(SweepPoint(index: points.count, valueIndices: [a, b], rows: rows, wallSeconds: 0.25))
      }
    }
    var facts = SimulationFacts(
      scenario: "sweep-fixture", description: ReportFixtures.hostile, toolVersion: "0.0-test", seed: 7, days: 3,
      warmupDays: 1, devices: 120, replications: 1, strategies: base.facts.strategies, segments: base.facts.segments)
    facts.wallSeconds = 1
    return SweepResults(
      facts: facts,
      parameters: [
        SweepParameter(
          name: "interval_min", path: "strategies[poll].timeline.after_min", values: ["15", "60"], numbers: [15, 60],
          logScale: false),
        SweepParameter(
          name: "a,\"b\" " + ReportFixtures.hostile, path: "model.reload.lateness", values: ["small", "realistic"],
          numbers: nil, logScale: false),
      ],
      points: points, objective: objective)
  }

  static let objective = Objective(
    goal: .maximize, metric: .freshGlancePct,
    bounds: [.init(metric: .budgetedReloadsPerWidgetDay, kind: .atMost, value: 10)])

  @Test func csvHasParameterColumnsAndOneRowPerPointStrategySegment() {
    let r = Self.results()
    let csv = CSVReport.sweep(r)
    let lines = csv.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
    #expect(lines.count == 1 + 4 * 9)
    let hostile = "\"a,\"\"b\"\" <script>alert(1)</script>\""
    #expect(
      lines[0] == "scenario,point,interval_min,\(hostile),policy,segment,"
        + SummaryMetrics.all.map(\.name).joined(separator: ","))
    #expect(lines[1].hasPrefix("sweep-fixture,1,15,small,alpha,commuters,"))
    #expect(lines.last?.hasPrefix("sweep-fixture,4,60,realistic,gamma,all,") == true)
    // The metric cells are summary.csv's.
    let summary = CSVReport.summary(ResultTable(rows: r.points[0].rows)).split(separator: "\n")
    #expect(lines[1].hasSuffix(summary[1].split(separator: ",", maxSplits: 3)[3]))
  }

  @Test func pageIsSelfContainedEscapedAndAccessible() {
    let r = Self.results(objective: Self.objective)
    let html = SweepReport.render(r, outcome: Self.objective.evaluate(r.candidates, columns: r.columns))
    #expect(html.hasPrefix("<!DOCTYPE html>"))
    #expect(!html.contains("<script>alert"), "a scenario string reached the page unescaped")
    #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
    // No URL but the SVG namespace.
    #expect(html.replacingOccurrences(of: "xmlns=\"http://www.w3.org/2000/svg\"", with: "").range(of: "http") == nil)
    #expect(!html.contains("src=") && !html.contains("url("))
    let scripts = html.components(separatedBy: "<script").count - 1
    // The embedded data and the page's own script (a constant).
    #expect(scripts == 2 && html.contains("<script type=\"application/json\" id=\"sweep-data\">"))
    #expect(html.contains("<script>" + PageScript.source + "</script>"))
    let charts = html.components(separatedBy: "role=\"img\"").count - 1
    // 2 parameters x the five headline metrics (the objective's are among them) + 2 frontier charts.
    #expect(charts == 2 * 5 + 2, "\(charts) charts")
    #expect(html.components(separatedBy: "<title id=").count - 1 == charts)
    #expect(html.components(separatedBy: "<details class=\"datatable\">").count - 1 >= 4)
    #expect(html.contains("prefers-color-scheme:dark"))
    #expect(html.contains("Best point and strategy") && html.contains("Which parameter matters"))
  }

  /// alpha is cheapest (5 reloads) and the only one under 10; its fresh %
  /// is highest at the first point (40 - 0), then the second (40 - 1).
  @Test func recommendationIsAtTheTopWithItsMargins() throws {
    let r = Self.results(objective: Self.objective)
    let outcome = Self.objective.evaluate(r.candidates, columns: r.columns)
    let best = try #require(outcome.best)
    #expect(outcome.candidates[best.candidate].strategy == "alpha" && outcome.candidates[best.candidate].point == 0)
    let summary = ObjectiveSummary(outcome, columns: r.columns, points: r.points.count) { r.describe($0, in: outcome) }
    let lines = summary.lines
    #expect(lines[1].hasPrefix("Best: alpha at interval_min = 15, a,\"b\" "), "\(lines[1])")
    #expect(lines[2].contains("budgeted_reloads_per_widget_day 5.000, 5.000 inside <= 10"), "\(lines[2])")
    #expect(
      lines[3].hasPrefix("Runner-up: alpha at interval_min = 15, a,\"b\" ")
        && lines[3].contains("the best is 1.00 higher"))
    let html = SweepReport.render(r, outcome: outcome)
    let rec = try #require(html.range(of: "Best point and strategy"))
    let charts = try #require(html.range(of: "role=\"img\""))
    #expect(rec.lowerBound < charts.lowerBound)
  }

  @Test func infeasibleSaysWhichConstraintFailsLeast() {
    let impossible = Objective(
      goal: .maximize, metric: .freshGlancePct,
      bounds: [
        .init(metric: .budgetedReloadsPerWidgetDay, kind: .atMost, value: 1),
        .init(metric: .freshGlancePct, kind: .atLeast, value: 45),
      ])
    let r = Self.results(objective: impossible)
    let outcome = impossible.evaluate(r.candidates, columns: r.columns)
    let lines = ObjectiveSummary(outcome, columns: r.columns, points: 4) { r.describe($0, in: outcome) }.lines
    #expect(lines.contains { $0.hasPrefix("No candidate meets every constraint. Closest: alpha at interval_min = 15") })
    let last = lines.first { $0.hasPrefix("By constraint") } ?? ""
    #expect(last.hasPrefix("By constraint, the least failing first: fresh_glance_pct >= 45: met by"), "\(last)")
    #expect(last.contains("budgeted_reloads_per_widget_day <= 1: met by 0 of 12 rows, best value 5.000"))
    // Then each strategy's own closest miss.
    #expect(
      lines.drop { $0 != "Best per strategy:" }.dropFirst().map { $0.split(separator: " ").first.map(String.init) }
        == ["alpha", "beta", "gamma"])
    #expect(lines.last?.contains("misses budgeted_reloads_per_widget_day <= 1 by") == true)
    let html = SweepReport.render(r, outcome: outcome)
    #expect(html.contains("rec miss") && html.contains("misses by"))
  }

  @Test func withoutAnObjectiveThePageSaysHowToAddOne() {
    let html = SweepReport.render(Self.results(), outcome: nil)
    #expect(html.contains("The scenario has no objective"))
    #expect(!html.contains("class=\"rec\""))
  }

  // MARK: - Labels and uncertainty

  /// The results with every row's `_ci95` half-widths set for `widths`' metrics.
  static func withIntervals(_ r: SweepResults, _ widths: [SummaryMetric: Double]) -> SweepResults {
    var r = r
    for p in r.points.indices {
      for i in r.points[p].rows.indices {
        var ci = [Double?](repeating: nil, count: r.columns.count)
        for (m, h) in widths { if let c = r.columns.firstIndex(where: { $0.name == m.name }) { ci[c] = h } }
        r.points[p].rows[i].ci95 = ci
      }
    }
    return r
  }

  /// The page's section with `id`, from its opening tag to its end.
  static func section(_ html: String, id: String) -> String? {
    guard let a = html.range(of: "<section id=\"\(id)\"") else { return nil }
    guard let b = html.range(of: "</section>", range: a.upperBound..<html.endIndex) else { return nil }
    return String(html[a.lowerBound..<b.upperBound])
  }

  /// The text a reader sees: without `<code>` elements (the column names
  /// kept for finding a CSV column) and without tags and their attributes.
  static func visibleText(_ html: String) -> String {
    var s = html.replacingOccurrences(of: "<code>[^<]*</code>", with: "", options: .regularExpression)
    s = s.replacingOccurrences(of: "<[^>]*>", with: " ", options: .regularExpression)
    return s
  }

  @Test func recommendationNamesMetricsByTheirLabelsAndKeepsTheColumnNamesFindable() throws {
    let r = Self.results(objective: Self.objective)
    let html = SweepReport.render(r, outcome: Self.objective.evaluate(r.candidates, columns: r.columns))
    let section = try #require(Self.section(html, id: "recommendation"))
    let visible = Self.visibleText(section)
    for m in [Self.objective.metric] + Self.objective.bounds.map(\.metric) {
      #expect(visible.contains(m.metric.label), "no label for \(m.name)")
      #expect(!visible.contains(m.name), "\(m.name) shown as a column name")
      #expect(section.contains("<code>\(m.name)</code>"), "\(m.name) not in the objective line")
    }
    // The same text on stdout keeps the column names.
    let outcome = Self.objective.evaluate(r.candidates, columns: r.columns)
    #expect(ObjectiveSummary(sweep: r, outcome: outcome).headline.contains(Self.objective.metric.name))
  }

  @Test func withoutIntervalsThePageSaysTheValuesHaveNone() throws {
    let r = Self.results(objective: Self.objective)
    let html = SweepReport.render(r, outcome: Self.objective.evaluate(r.candidates, columns: r.columns))
    let section = try #require(Self.section(html, id: "recommendation"))
    #expect(section.contains("without a 95&#160;% interval") && section.contains("--replications"))
    #expect(!html.contains("within the noise") && !html.contains("class=\"ci\""))
    #expect(!html.contains("class=\"band"), "a band without an interval")
  }

  /// Intervals wider than the best's margin on its constraint and its lead
  /// on the runner-up: both are called noise, in the tables and the
  /// findings; intervals a tenth as wide are printed and called nothing.
  @Test func intervalsArePrintedAndANoiseLevelMarginIsCalledSo() throws {
    let plain = Self.results(objective: Self.objective)
    let outcome = Self.objective.evaluate(plain.candidates, columns: plain.columns)
    let best = try #require(outcome.best)
    let slack = try #require(best.slacks[0])
    let lead = try #require(outcome.advantage)
    try #require(slack > 0 && lead > 0)
    for scale in [1.5, 0.1] {
      let r = Self.withIntervals(
        plain, [Self.objective.metric: lead * scale, Self.objective.bounds[0].metric: slack * scale])
      let html = SweepReport.render(r, outcome: outcome)
      let section = try #require(Self.section(html, id: "recommendation"))
      #expect(section.contains("<span class=\"ci\">± "), "no interval printed")
      let lines = ObjectiveSummary(sweep: r, outcome: outcome).lines
      let margins = try #require(lines.first { $0.hasPrefix("  Margins: ") })
      let runnerUp = try #require(lines.first { $0.hasPrefix("Runner-up: ") })
      if scale > 1 {
        #expect(margins.contains("within the noise"), "\(margins)")
        #expect(runnerUp.contains("within the noise"), "\(runnerUp)")
        #expect(section.components(separatedBy: "class=\"noisy\"").count - 1 >= 2)
        #expect(section.contains("to spare, within the noise") && section.contains("than the runner-up, within"))
        // The best's verdict says so too, not a plain "meets every constraint".
        let row = try #require(section.range(of: "best overall"))
        let verdict = section[row.upperBound...].prefix { $0 != "\n" }
        #expect(verdict.contains("within the noise"))
      } else {
        #expect(!html.contains("within the noise") && !html.contains("class=\"noisy\""))
        #expect(!margins.contains("noise") && !runnerUp.contains("noise"))
      }
    }
  }

  @Test func metricChartsHaveBandsForIntervalsAndOneGroupPerStrategy() throws {
    let r = Self.withIntervals(Self.results(objective: Self.objective), [.freshGlancePct: 1])
    let html = SweepReport.render(r, outcome: Self.objective.evaluate(r.candidates, columns: r.columns))
    let bands = html.components(separatedBy: "class=\"band ").count - 1
    // One band per strategy in each parameter's fresh-glances chart.
    #expect(bands == r.parameters.count * r.strategies.count, "\(bands) bands")
    // Every band is inside its strategy's group.
    let inGroups = html.components(separatedBy: "<g data-strategy=\"").dropFirst().map { chunk in
      (chunk.range(of: "</g>").map { String(chunk[..<$0.lowerBound]) } ?? "").components(
        separatedBy: "class=\"band "
      ).count - 1
    }.reduce(0, +)
    #expect(inGroups == bands)
    // Each strategy has a group in every chart (5 metrics per parameter, and the two frontier
    // charts): its marks, and its labels in a second group drawn after every strategy's marks.
    let charts = html.components(separatedBy: "<svg ").dropFirst().map { $0.components(separatedBy: "</svg>")[0] }
    #expect(charts.count == r.parameters.count * 5 + 2)
    for chart in charts {
      for s in r.strategies {
        let groups = chart.components(separatedBy: "<g data-strategy=\"\(s)\">").count - 1
        #expect(groups == 1 || groups == 2, "\(s): \(groups) groups")
      }
    }
  }
}
