import Foundation
import ReloadMetrics
import Testing

/// Objective evaluation on hand-built candidates: which one wins, the
/// runner-up, margins, ties, infeasibility, twins and worst-case groups.
@Suite struct ObjectiveTests {
  static let columns = SummaryMetrics.all

  /// A candidate with the given metric values (the rest empty).
  static func candidate(
    _ policy: String, point: Int = 0, group: Int? = nil, _ values: [String: Double]
  ) -> ObjectiveCandidate {
    let row = columns.map { values[$0.name] }
    precondition(values.keys.allSatisfy { k in columns.contains { $0.name == k } }, "unknown metric in \(values)")
    return ObjectiveCandidate(point: point, strategy: policy, values: row, group: group)
  }

  static let freshUnderCaps = Objective(
    goal: .maximize, metric: .freshGlancePct,
    bounds: [
      .init(metric: .frozenWidgetDayPct, kind: .atMost, value: 1),
      .init(metric: .backendPeakRps, kind: .atMost, value: 500),
    ])

  @Test func picksTheBestFeasibleWithRunnerUpAndMargins() {
    let c = [
      Self.candidate("a", ["fresh_glance_pct": 90, "frozen_widget_day_pct": 2, "backend_peak_rps": 100]),
      Self.candidate("b", ["fresh_glance_pct": 80, "frozen_widget_day_pct": 0.5, "backend_peak_rps": 100]),
      Self.candidate("a", point: 1, ["fresh_glance_pct": 85, "frozen_widget_day_pct": 1, "backend_peak_rps": 400]),
      Self.candidate("b", point: 1, ["fresh_glance_pct": 95, "frozen_widget_day_pct": 0, "backend_peak_rps": 600]),
    ]
    let o = Self.freshUnderCaps.evaluate(c, columns: Self.columns)
    #expect(o.best?.candidate == 2, "a at point 1: 85 %, exactly on the dry bound")
    #expect(o.runnerUp?.candidate == 1)
    #expect(o.advantage == 5)
    #expect(o.best?.slacks == [0, 100])
    #expect(o.feasibleChoices == 2 && o.choices == 4)
    #expect(o.closest == nil)
    #expect(o.boundStats.map(\.met) == [3, 3])
    #expect(o.boundStats.map(\.bestValue) == [0, 100])
  }

  @Test func minimizeTakesTheSmallest() {
    let o = Objective(
      goal: .minimize, metric: .budgetedReloadsPerWidgetDay,
      bounds: [.init(metric: .acceptableGlancePct, kind: .atLeast, value: 95)]
    ).evaluate(
      [
        Self.candidate("p", ["budgeted_reloads_per_widget_day": 10, "acceptable_glance_pct": 94.99]),
        Self.candidate("q", ["budgeted_reloads_per_widget_day": 20, "acceptable_glance_pct": 96]),
        Self.candidate("r", ["budgeted_reloads_per_widget_day": 15, "acceptable_glance_pct": 99]),
      ], columns: Self.columns)
    #expect(o.best?.candidate == 2 && o.runnerUp?.candidate == 1)
    #expect(o.best?.slacks == [4])
    #expect(o.advantage == 5)
  }

  /// Values are judged as the CSV prints them: 1.004 % is "1.00" and meets
  /// "at most 1"; 85.001 and 84.999 are both "85.00", a tie.
  @Test func judgesAtCSVPrecisionAndBreaksTiesByOrder() {
    let c = [
      Self.candidate("late", point: 1, ["fresh_glance_pct": 84.999, "frozen_widget_day_pct": 0.2]),
      Self.candidate("early", point: 1, ["fresh_glance_pct": 85.001, "frozen_widget_day_pct": 1.004]),
    ]
    let o = Objective(
      goal: .maximize, metric: .freshGlancePct, bounds: [.init(metric: .frozenWidgetDayPct, kind: .atMost, value: 1)]
    ).evaluate(c, columns: Self.columns)
    #expect(o.ranking.count == 2)
    #expect(o.best?.candidate == 0, "equal at two decimals: the first listed wins")
    #expect(o.advantage == 0)
    #expect(o.ranking[1].slacks == [0])
  }

  @Test func nothingFeasibleNamesTheClosestAndEachBound() {
    let c = [
      Self.candidate("a", ["fresh_glance_pct": 90, "frozen_widget_day_pct": 5, "backend_peak_rps": 100]),
      Self.candidate("b", ["fresh_glance_pct": 99, "frozen_widget_day_pct": 0, "backend_peak_rps": 2000]),
      Self.candidate("c", ["fresh_glance_pct": 70, "frozen_widget_day_pct": 1.5, "backend_peak_rps": 450]),
    ]
    let o = Self.freshUnderCaps.evaluate(c, columns: Self.columns)
    #expect(o.best == nil && o.runnerUp == nil && o.ranking.isEmpty)
    // Scales: dry max(1, 5) = 5, peak max(500, 1900) = 1900.
    // a: 4/5 = 0.8; b: 1500/1900 = 0.79; c: 0.5/5 = 0.1.
    #expect(o.closest?.candidate == 2)
    #expect(o.boundStats[0].met == 1 && o.boundStats[1].met == 2)
    #expect(o.boundStats[0].bestValue == 0 && o.boundStats[1].bestValue == 100)
  }

  @Test func missingValuesAreLeftOutOrFail() {
    let c = [
      Self.candidate("no-objective", ["frozen_widget_day_pct": 0, "backend_peak_rps": 1]),
      Self.candidate("no-dry", ["fresh_glance_pct": 99, "backend_peak_rps": 1]),
      Self.candidate("ok", ["fresh_glance_pct": 50, "frozen_widget_day_pct": 0, "backend_peak_rps": 1]),
    ]
    let o = Self.freshUnderCaps.evaluate(c, columns: Self.columns)
    #expect(o.unscored == 1)
    #expect(o.best?.candidate == 2 && o.runnerUp == nil)
    #expect(o.perCandidate[1]?.slacks[0] == nil && o.perCandidate[1]?.isFeasible == false)
  }

  /// A strategy the sweep does not change has identical rows at every
  /// point: one choice, not a runner-up to itself.
  @Test func identicalResultsOfOneStrategyCountOnce() {
    let same: [String: Double] = ["fresh_glance_pct": 97, "frozen_widget_day_pct": 0, "backend_peak_rps": 10]
    let c = [
      Self.candidate("hybrid", point: 0, same),
      Self.candidate("poll", point: 0, ["fresh_glance_pct": 90, "frozen_widget_day_pct": 0, "backend_peak_rps": 10]),
      Self.candidate("hybrid", point: 1, same),
      Self.candidate("poll", point: 1, ["fresh_glance_pct": 80, "frozen_widget_day_pct": 0, "backend_peak_rps": 10]),
    ]
    #expect(ObjectiveCandidate.representatives(c) == [0, 1, 0, 3])
    let o = Self.freshUnderCaps.evaluate(c, columns: Self.columns)
    #expect(o.best?.candidate == 0 && o.best?.twins == [2] && o.best?.twinChoices == 1)
    #expect(o.runnerUp?.candidate == 1)
    #expect(o.best?.points(in: c) == [0, 1])
    #expect(o.feasibleChoices == 4 && o.ranking.count == 3)
  }

  /// Grouped candidates (a strategy across an assumption's values) are
  /// judged on their worst case.
  @Test func groupsAreJudgedOnTheirWorstCase() {
    let c = [
      Self.candidate("steady", point: 0, group: 0, ["fresh_glance_pct": 90, "frozen_widget_day_pct": 0.5, "backend_peak_rps": 1]),
      Self.candidate("fragile", point: 0, group: 1, ["fresh_glance_pct": 95, "frozen_widget_day_pct": 0.2, "backend_peak_rps": 1]),
      Self.candidate("steady", point: 1, group: 0, ["fresh_glance_pct": 70, "frozen_widget_day_pct": 0.8, "backend_peak_rps": 1]),
      Self.candidate("fragile", point: 1, group: 1, ["fresh_glance_pct": 94, "frozen_widget_day_pct": 2, "backend_peak_rps": 1]),
    ]
    let o = Self.freshUnderCaps.evaluate(c, columns: Self.columns)
    #expect(o.choices == 2)
    #expect(o.best?.members == [0, 2] && o.best?.worst == 2 && o.best?.objective == 70)
    #expect(o.best?.slacks[0] == 0.2, "the worst member's dry days")
    #expect(o.runnerUp == nil, "fragile fails at point 1")
    #expect(o.perCandidate[1]?.isFeasible == true, "alone, fragile at point 0 would pass")
  }

  @Test func textNamesGoalAndBounds() {
    #expect(Self.freshUnderCaps.text == "maximize fresh_glance_pct subject to frozen_widget_day_pct <= 1, backend_peak_rps <= 500")
    #expect(Objective.Bound(metric: .freshGlancePct, kind: .atLeast, value: 0.5).text == "fresh_glance_pct >= 0.5")
  }

  /// Each strategy judged on its own points: polling's best interval even
  /// when another strategy wins overall; a strategy the sweep leaves
  /// unchanged is one choice (its twins); one that never meets the
  /// constraints gets its closest miss. Indices refer to the whole outcome.
  @Test func byStrategyGivesEachStrategysOwnBestPoint() throws {
    let o = Objective(
      goal: .minimize, metric: .budgetedReloadsPerWidgetDay,
      bounds: [.init(metric: .acceptableGlancePct, kind: .atLeast, value: 90)])
    var c: [ObjectiveCandidate] = []
    // (interval, poll's reloads, poll's acceptable share)
    for (point, (reloads, ok)) in [(60.0, 99.0), (20, 95), (10, 91), (5, 80)].enumerated() {
      c.append(Self.candidate("poll", point: point, ["budgeted_reloads_per_widget_day": reloads, "acceptable_glance_pct": ok]))
      c.append(Self.candidate("hybrid", point: point, ["budgeted_reloads_per_widget_day": 4, "acceptable_glance_pct": 97]))
      c.append(Self.candidate("future", point: point, ["budgeted_reloads_per_widget_day": 2, "acceptable_glance_pct": 70]))
    }
    let outcome = o.evaluate(c, columns: Self.columns)
    #expect(outcome.candidates[outcome.best!.candidate].strategy == "hybrid")
    let per = outcome.byStrategy(columns: Self.columns)
    #expect(per.map(\.strategy) == ["poll", "hybrid", "future"])
    let poll = try #require(per[0].outcome.best)
    #expect(c[poll.candidate].strategy == "poll" && c[poll.candidate].point == 2, "10: the cheapest that keeps 90 %")
    #expect(poll.objective == 10 && per[0].outcome.candidates.count == c.count)
    let hybrid = try #require(per[1].outcome.best)
    #expect(c[hybrid.candidate].strategy == "hybrid" && hybrid.twinChoices == 3)
    #expect(hybrid.twins.allSatisfy { c[$0].strategy == "hybrid" })
    #expect(per[2].outcome.best == nil)
    let miss = try #require(per[2].outcome.closest)
    #expect(c[miss.candidate].strategy == "future" && miss.slacks == [-20])
  }

  /// After decoding, objectives hold summary metrics; JSON names them by
  /// their column, as scenario files and sweep.json do.
  @Test func metricsAreWrittenAndReadAsTheirColumnNames() throws {
    let data = try JSONEncoder().encode(Self.freshUnderCaps)
    let text = String(decoding: data, as: UTF8.self)
    #expect(text.contains(#""metric":"fresh_glance_pct""#) && text.contains(#""metric":"frozen_widget_day_pct""#))
    #expect(try JSONDecoder().decode(Objective.self, from: data) == Self.freshUnderCaps)
    #expect(throws: DecodingError.self) { try JSONDecoder().decode(SummaryMetric.self, from: Data(#""fresh""#.utf8)) }
  }
}
