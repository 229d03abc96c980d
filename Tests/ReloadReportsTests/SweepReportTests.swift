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
        SweepParameter(name: "interval_min", path: "strategies[poll].timeline.after_min", values: ["15", "60"], numbers: [15, 60], logScale: false),
        SweepParameter(name: "a,\"b\" " + ReportFixtures.hostile, path: "model.reload.lateness", values: ["small", "realistic"], numbers: nil, logScale: false),
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
    #expect(lines[0] == "scenario,point,interval_min,\(hostile),policy,segment," + SummaryMetrics.all.map(\.name).joined(separator: ","))
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
    #expect(lines[3].hasPrefix("Runner-up: alpha at interval_min = 15, a,\"b\" ") && lines[3].contains("the best is 1.00 higher"))
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
    #expect(lines.drop { $0 != "Best per strategy:" }.dropFirst().map { $0.split(separator: " ").first.map(String.init) }
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
}
