import ReloadMetrics
import Testing

/// The comparison of a robustness run on hand-built results: ranges, what
/// moves a metric most, the tornado's swings and the verdict.
@Suite struct RobustnessTests {
  typealias V = RobustnessResults.Variant

  /// Two strategies, one metric (fresh %): base a = 80, b = 60.
  static func results(_ variants: [V], recommended: String = "a") -> RobustnessResults {
    RobustnessResults(
      scenario: "s", seed: 1, devices: 10, scenarioDevices: 10, metrics: [.freshGlancePct], strategies: ["a", "b"],
      base: [[80], [60]],
      baseRecommendation: Recommendation(strategy: recommended, reason: "", meetsTarget: true, objective: "rule"),
      variants: variants)
  }

  static func v(_ assumption: String?, _ alt: String, a: Double?, b: Double?, rec: String? = "a") -> V {
    V(
      name: assumption.map { "\($0) = \(alt)" } ?? alt, assumption: assumption, alternative: alt, summary: "",
      values: [[a], [b]], recommended: rec, simulated: [true, true])
  }

  @Test func rangesSpanTheBaseAndEveryVariantAndNameTheAssumptionThatMovesMost() {
    let r = Self.results([
      Self.v("accrual", "window", a: 70, b: 61),
      Self.v("accrual", "small", a: 83, b: 60),
      Self.v("size", "b40", a: 75, b: 50),
      Self.v("size", "b72", a: 81, b: 60),
    ])
    let ranges = r.ranges()
    #expect(ranges.count == 2)
    let a = ranges[0]
    #expect(a.strategy == "a" && a.base == 80 && a.low == 70 && a.high == 83)
    #expect(a.lowVariant == "accrual = window" && a.highVariant == "accrual = small")
    // accrual spans -10 ... +3 (13), size -5 ... +1 (6).
    #expect(a.movesMost == "accrual" && a.movesMostSwing == 13)
    let b = ranges[1]
    #expect(b.low == 50 && b.high == 61 && b.movesMost == "size" && b.movesMostSwing == 10)
  }

  @Test func swingsIncludeTheBaseAndAreSortedWidestFirstTiesInOrder() {
    let r = Self.results([
      Self.v("x", "up", a: 82, b: 60),
      Self.v("y", "up", a: 85, b: 60),
      Self.v("z", "down", a: 78, b: 60),
      Self.v(nil, "profile", a: 80, b: 60),
    ])
    let s = r.swings(metric: 0, strategy: 0)
    #expect(s.map(\.group) == ["y", "x", "z", "profile"])
    // A one-sided assumption swings from the base (0) to its alternative.
    #expect(s[0].low == 0 && s[0].high == 5 && s[0].lowVariant == nil && s[0].highVariant == "y = up")
    #expect(s[2].low == -2 && s[2].high == 0)
    #expect(!s[3].isAssumption && s[3].width == 0)
    #expect(r.ranges()[0].movesMost == "y")
  }

  @Test func missingValuesAreLeftOut() {
    let r = Self.results([Self.v("x", "gone", a: nil, b: 55)])
    #expect(r.swings(metric: 0, strategy: 0).isEmpty)
    #expect(r.ranges()[0].low == 80 && r.ranges()[0].movesMost == nil)
    #expect(r.ranges()[1].low == 55)
  }

  @Test func robustWhenEveryVariantRecommendsTheBasesStrategy() {
    let r = Self.results([Self.v("x", "1", a: 70, b: 60), Self.v(nil, "p", a: 60, b: 60)])
    let v = r.verdict
    #expect(v.robust && v.changes.isEmpty && v.strategy == "a")
    #expect(v.variants == 2 && v.assumptions == 1 && v.profiles == 1)
  }

  @Test func notRobustNamesEachVariantWhereTheRecommendationChangesAndToWhat() {
    let r = Self.results([
      Self.v("accrual", "window", a: 70, b: 61, rec: "b"),
      Self.v("accrual", "small", a: 83, b: 60),
      Self.v("size", "b40", a: 75, b: 50, rec: nil),
    ])
    let v = r.verdict
    #expect(!v.robust)
    #expect(
      v.changes == [
        .init(variant: "accrual = window", assumption: "accrual", strategy: "b"),
        .init(variant: "size = b40", assumption: "size", strategy: nil),
      ])
    #expect(v.assumptions == 2 && v.profiles == 0)
  }

  @Test func theHeadlineMetricsAreTheDeclaredOnes() {
    let headline = RobustnessResults.headlineMetrics
    #expect(!headline.isEmpty)
    #expect(headline == SummaryMetric.allCases.filter { $0.metric.headline })
  }
}

/// The best Live Activity strategy and whether it holds across readings
/// (`ActivityRobustness`).
@Suite struct ActivityRobustnessTests {
  /// Values in `ActivityRobustness.metrics` order: acceptable glances,
  /// budget exhausted, pushes per device-day, fleet peak.
  static func v(_ glances: Double?, pushes: Double) -> [Double?] { [glances, 0, pushes, 0] }

  @Test func theBestHasTheMostGlancesWithinToleranceThenTheFewestPushes() {
    #expect(ActivityRobustness.metrics.first == .acceptableGlancePct)
    let names = ["p10", "mix", "local"]
    // mix and local within 0.5 points of the top: the fewer pushes wins.
    #expect(
      ActivityRobustness.best(
        strategies: names, values: [Self.v(90, pushes: 5), Self.v(99, pushes: 20), Self.v(98.6, pushes: 2)])
        == "local")
    // 0.6 points behind is not a tie.
    #expect(
      ActivityRobustness.best(
        strategies: names, values: [Self.v(90, pushes: 5), Self.v(99.2, pushes: 20), Self.v(98.6, pushes: 2)])
        == "mix")
    #expect(
      ActivityRobustness.best(
        strategies: names, values: [Self.v(nil, pushes: 5), Self.v(nil, pushes: 1), Self.v(nil, pushes: 2)])
        == nil)
  }

  @Test func aReadingThatChangesTheBestMakesItNotRobust() {
    let names = ["p10", "mix"]
    let base = [Self.v(95, pushes: 10), Self.v(99, pushes: 10)]
    let same = ActivityRobustness.Reading(
      name: "a = x", assumption: "a", values: [Self.v(96, pushes: 10), Self.v(98, pushes: 10)], best: "mix",
      simulated: true)
    let other = ActivityRobustness.Reading(
      name: "b = y", assumption: "b", values: [Self.v(97, pushes: 10), Self.v(93, pushes: 10)], best: "p10",
      simulated: true)
    let robust = ActivityRobustness(strategies: names, base: base, readings: [same])
    #expect(robust.best == "mix" && robust.robust && robust.sentence.contains("every one of its 1 other readings"))
    let not = ActivityRobustness(strategies: names, base: base, readings: [same, other])
    #expect(!not.robust && not.changes.map(\.name) == ["b = y"])
    #expect(not.sentence.contains("not under 1 of its 2 other readings (b = y), where p10 is"))
    let glances = not.ranges().first { $0.metric == .acceptableGlancePct && $0.strategy == "mix" }
    #expect(glances?.low == 93 && glances?.lowReading == "b = y" && glances?.high == 99 && glances?.highReading == nil)
  }
}
