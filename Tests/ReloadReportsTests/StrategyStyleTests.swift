import Foundation
import ReloadMetrics
import ReloadReports
import Testing

/// A strategy looks the same in every report (from its name), and the
/// charts show the target the recommendation is judged by.
@Suite struct StrategyStyleTests {
  /// The class and element (shape) of `strategy`'s first marker whose tooltip starts `strategy` + `after`.
  static func look(_ html: String, _ strategy: String, after: String = ": ") -> String? {
    let pattern = "<(circle|path|rect) class=\"(pt s[0-9])\"[^>]*><title>"
      + NSRegularExpression.escapedPattern(for: strategy + after)
    guard let re = try? NSRegularExpression(pattern: pattern),
      let m = re.firstMatch(in: html, range: NSRange(html.startIndex..., in: html)),
      let shape = Range(m.range(at: 1), in: html), let cls = Range(m.range(at: 2), in: html)
    else { return nil }
    return html[shape] + " " + html[cls]
  }

  static func page(_ strategies: [String]) -> String {
    let r = ReportFixtures.results(strategies: strategies)
    return HTMLReport.render(ReportFixtures.concluded(r, Recommendation.compute(r.summary)), objective: nil)
  }

  @Test func aStrategyKeepsItsLookWhateverItsPositionAndCompany() throws {
    let a = Self.page(["poll-15m", "hybrid", "on-demand"])
    let b = Self.page(["zeta-custom", "on-demand", "hybrid", "silent-push", "poll-60m"])
    let c = Self.page(["hybrid"])
    let hybrid = try #require(Self.look(a, "hybrid"))
    #expect(Self.look(b, "hybrid") == hybrid && Self.look(c, "hybrid") == hybrid)
    #expect(Self.look(a, "on-demand") == Self.look(b, "on-demand"))
    // A custom name's look comes from its name, not its position: the same
    // strategies in another order look the same (a run and a sweep of one
    // scenario, or a scenario that reorders its list).
    let d = Self.page(["poll-60m", "hybrid", "silent-push", "zeta-custom", "on-demand"])
    #expect(Self.look(b, "zeta-custom") != nil && Self.look(b, "zeta-custom") == Self.look(d, "zeta-custom"))
    // Alone it takes its own colour (and shape): the one from its name.
    let alone = try #require(Self.look(Self.page(["zeta-custom"]), "zeta-custom"))
    let withHybrid = try #require(Self.look(Self.page(["zeta-custom", "hybrid"]), "zeta-custom"))
    let zetaColour = String(alone.split(separator: " ").last ?? "")
    let hybridColour = String(hybrid.split(separator: " ").last ?? "")
    #expect(withHybrid.hasSuffix(zetaColour) || zetaColour == hybridColour, "kept unless hybrid has it")
  }

  @Test func theDefaultScenariosStrategiesHaveEightColours() throws {
    let names = ["poll-15m", "poll-60m", "future-entries", "silent-push", "bg-refresh", "hybrid", "on-demand", "anti-pattern-now"]
    let html = Self.page(names)
    let colours = try names.map { try #require(Self.look(html, $0)).split(separator: " ").last.map(String.init) }
    #expect(Set(colours).count == 8, "\(colours)")
    // Custom names that hash alike still get colours apart while any is free.
    let custom = (1...8).map { "shipped-\($0)" }
    let page = Self.page(custom)
    let customColours = try custom.map { try #require(Self.look(page, $0)).split(separator: " ").last.map(String.init) }
    #expect(Set(customColours).count == 8, "\(customColours)")
  }

  @Test func reportAndSweepGiveAStrategyTheSameLook() throws {
    let run = Self.page(["alpha", "beta", "gamma"])
    let sweep = SweepReport.render(SweepReportTests.results(objective: SweepReportTests.objective), outcome: nil)
    for s in ["alpha", "beta", "gamma"] {
      let inRun = try #require(Self.look(run, s))
      #expect(Self.look(sweep, s, after: " at ") == inRun, "\(s)")
    }
  }

  @Test func darkModeKeepsTheTwoBluesApartInLightness() {
    let css = HTMLReport.render(ReportFixtures.results(), objective: nil)
    let dark = css.components(separatedBy: "@media (prefers-color-scheme:dark)")[1]
    #expect(dark.contains("--c0:#3b8ee0") && dark.contains("--c5:#a8defa"))
  }

  @Test func freshnessChartUsesTheRecommendationsMetricAndDrawsItsTarget() throws {
    let r = ReportFixtures.results()
    let rec = try #require(Recommendation.compute(r.summary))
    #expect(Recommendation.freshnessMetric(of: nil) == .acceptableGlancePct)
    #expect(Recommendation.targets(nil).map(\.text) == ["acceptable_glance_pct >= 90"])
    let html = HTMLReport.render(ReportFixtures.concluded(r, rec), objective: nil)
    let figure = try #require(html.components(separatedBy: "id=\"fig-freshness-cost\"").dropFirst().first)
      .components(separatedBy: "</figure>")[0]
    #expect(figure.contains("Glances within tolerance against"), "the chart's title names its metric")
    #expect(!figure.contains("Fresh glances against"))
    #expect(figure.contains("class=\"ref target\"") && figure.contains("target ≥ 90&#160;%"))
    #expect(figure.contains("class=\"recring\""), "the recommendation is ringed")
    // The staleness chart draws the same target.
    let cdf = try #require(html.components(separatedBy: "id=\"fig-staleness\"").dropFirst().first)
      .components(separatedBy: "</figure>")[0]
    #expect(cdf.contains("class=\"ref target\"") && cdf.contains("target ≥ 90&#160;% within 30 min"))
    // An objective on fresh glances: that metric, and its bound.
    let o = Objective(
      goal: .minimize, metric: .budgetedReloadsPerWidgetDay,
      bounds: [.init(metric: .freshGlancePct, kind: .atLeast, value: 55)])
    let outcome = o.evaluate(
      r.summary.overallRows.map { ObjectiveCandidate(point: 0, strategy: $0.strategy, values: $0.values) },
      columns: r.summary.columns)
    let byObjective = try #require(Recommendation.from(outcome, columns: r.summary.columns))
    #expect(Recommendation.freshnessMetric(of: o) == .freshGlancePct)
    let page = HTMLReport.render(ReportFixtures.concluded(r, byObjective), objective: o)
    #expect(page.contains("Fresh glances against") && page.contains("target ≥ 55&#160;%"))
    #expect(!page.contains("target ≥ 90&#160;%"))
  }

  @Test func withoutARecommendationNoTargetIsDrawn() {
    let html = HTMLReport.render(ReportFixtures.results(), objective: nil)
    #expect(!html.contains("class=\"ref target\""))
  }
}
