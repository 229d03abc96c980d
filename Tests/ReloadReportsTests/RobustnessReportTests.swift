import ReloadMetrics
import ReloadReports
import Testing

/// The robustness sentence follows the recommendation's own rule, and
/// robustness.csv has one row per variant x strategy x metric.
@Suite struct RobustnessReportTests {
  static func verdict(changes: [RobustnessVerdict.Change] = [], devices: Int = 100) -> RobustnessVerdict {
    RobustnessVerdict(
      strategy: "hybrid", robust: changes.isEmpty, variants: 33, assumptions: 16, profiles: 1, changes: changes,
      devices: devices, scenarioDevices: 100)
  }

  @Test func theDefaultRuleInWords() {
    let s = RobustnessReport.sentence(Self.verdict(), objective: nil, meetsTarget: true)
    #expect(s.hasPrefix("hybrid stays the cheapest strategy that keeps 90 % of glances within tolerance under all 33"))
    #expect(s.contains("32 alternatives of 16 assumptions") && s.contains("1 whole-model profile"))
    let miss = RobustnessReport.sentence(Self.verdict(), objective: nil, meetsTarget: false)
    #expect(miss.contains("comes closest to keeping 90 %"))
  }

  @Test func anObjectiveInWords() {
    let o = Objective(
      goal: .maximize, metric: .freshGlancePct, bounds: [.init(metric: .frozenWidgetDayPct, kind: .atMost, value: 1)])
    let s = RobustnessReport.sentence(Self.verdict(), objective: o, meetsTarget: true)
    let fresh = SummaryMetric.freshGlancePct.metric.label.lowercased()
    #expect(s.hasPrefix("hybrid stays the strategy that maximizes \(fresh) with "), "\(s)")
    #expect(s.contains(" at most 1 %"))
  }

  @Test func theChangesAreNamedWithWhatTheyRecommend() {
    let one = RobustnessReport.sentence(
      Self.verdict(changes: [.init(variant: "budget_accrual = sliding_window", assumption: "budget_accrual",
        strategy: "future-entries")]), objective: nil, meetsTarget: true)
    #expect(one.contains("under 32 of the 33 readings"))
    #expect(one.hasSuffix("except under `budget_accrual = sliding_window`, where future-entries is."), "\(one)")
    let two = RobustnessReport.sentence(
      Self.verdict(changes: [
        .init(variant: "a = x", assumption: "a", strategy: "poll-15m"), .init(variant: "b = y", assumption: "b", strategy: nil),
      ]), objective: nil, meetsTarget: true)
    #expect(two.contains("except under `a = x` (poll-15m) and `b = y` (no strategy can be judged)"), "\(two)")
  }

  @Test func aSampleIsSaid() {
    let s = RobustnessReport.sentence(Self.verdict(devices: 40), objective: nil, meetsTarget: true)
    #expect(s.hasSuffix("each on the same 40 of the scenario's 100 devices."), "\(s)")
  }

  @Test func csvHasARowPerVariantStrategyAndMetric() {
    let metrics: [SummaryMetric] = [.freshGlancePct, .budgetedReloadsPerWidgetDay]
    let r = RobustnessResults(
      scenario: "s", seed: 1, devices: 10, scenarioDevices: 10, metrics: metrics, strategies: ["a", "b"],
      base: [[80, 5], [60, nil]], baseRecommendation: nil,
      variants: [
        .init(
          name: "x = 1", assumption: "x", alternative: "1", summary: "", values: [[70, 5], [60, 2]], recommended: "b",
          simulated: [true, false]),
        .init(name: "p", assumption: nil, alternative: "p", summary: "", values: [[80, 5], [61, 2]], recommended: "a",
          simulated: [true, true]),
      ])
    let lines = CSVReport.robustness(r).split(separator: "\n").map(String.init)
    #expect(lines[0] == CSVReport.robustnessColumns.joined(separator: ","))
    #expect(lines.count == 1 + 2 * 2 * 2)
    #expect(lines[1] == "s,x,1,a,fresh_glance_pct,70.00,80.00,-10.00,,1,b")
    // No base value: no difference.
    #expect(lines[4].hasPrefix("s,x,1,b,budgeted_reloads_per_widget_day,") && lines[4].contains(",,,,0,b"))
    #expect(lines[5].hasPrefix("s,profile,p,a,"))
  }
}
