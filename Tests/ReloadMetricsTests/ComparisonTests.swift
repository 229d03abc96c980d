import Foundation
import ReloadMetrics
import Testing

/// Baseline comparison (`reloadbench check`): direction from polarity,
/// tolerances, confidence intervals, and expectations.
@Suite struct ComparisonTests {
  static func compare(
    _ metric: Metric, _ baseline: Double?, _ now: Double?, tolerance: Tolerance? = nil, ci: (Double, Double)? = nil
  ) -> MetricComparison {
    MetricComparison(
      strategy: "p", segment: "all", metric: metric, baseline: baseline, now: now, baselineCI95: ci?.0,
      nowCI95: ci?.1, tolerance: tolerance ?? Tolerance.standard(for: metric.unit))
  }

  @Test func theDirectionComesFromThePolarity() {
    let fresh = SummaryMetric.freshGlancePct.metric  // higher is better
    let stale = SummaryMetric.stalenessP95Min.metric  // lower is better
    let free = SummaryMetric.freeReloadsPerWidgetDay.metric  // neutral
    #expect(Self.compare(fresh, 90, 85).verdict == .regressed)
    #expect(Self.compare(fresh, 85, 90).verdict == .improved)
    #expect(Self.compare(stale, 30, 45).verdict == .regressed)
    #expect(Self.compare(stale, 45, 30).verdict == .improved)
    #expect(Self.compare(free, 3, 4).verdict == .changed)
    #expect(Self.compare(free, 4, 3).verdict == .changed)
  }

  @Test func movesWithinTheToleranceAreUnchanged() {
    let fresh = SummaryMetric.freshGlancePct.metric  // +-0.5 points by default
    #expect(Self.compare(fresh, 90, 89.6).verdict == .unchanged)
    #expect(Self.compare(fresh, 90, 89.4).verdict == .regressed)
    let reloads = SummaryMetric.budgetedReloadsPerWidgetDay.metric  // 2 % relative, 0.01 absolute
    #expect(Self.compare(reloads, 50, 50.9).verdict == .unchanged)
    #expect(Self.compare(reloads, 50, 51.1).verdict == .regressed)
    // Near zero the absolute part holds: 0.001 -> 0.005 is +400 % but 0.004 per widget-day.
    #expect(Self.compare(reloads, 0.001, 0.005).verdict == .unchanged)
    // With no tolerance any move beyond float noise counts, and float noise never does.
    #expect(Self.compare(fresh, 90, 90.001, tolerance: .exact).verdict == .improved)
    #expect(Self.compare(fresh, 0.1 + 0.2, 0.3, tolerance: .exact).verdict == .unchanged)
  }

  @Test func aValueThatAppearsOrVanishesIsAChange() {
    let hour = SummaryMetric.firstFrozenHourMedian.metric
    #expect(Self.compare(hour, nil, 8.5).verdict == .changed)
    #expect(Self.compare(hour, 8.5, nil).verdict == .changed)
    #expect(Self.compare(hour, nil, nil).verdict == .unchanged)
  }

  /// With replications, a move inside the confidence interval of the
  /// difference is noise, however far beyond the tolerance.
  @Test func confidenceIntervalsWidenTheThreshold() {
    let fresh = SummaryMetric.freshGlancePct.metric
    let noisy = Self.compare(fresh, 90, 88, ci: (1.5, 1.5))  // half-width of the difference 2.12
    #expect(noisy.verdict == .unchanged && noisy.thresholdIsCI && noisy.isWithinNoiseOnly)
    #expect(abs(noisy.threshold - (1.5 * 1.5 * 2).squareRoot()) < 1e-12)
    let real = Self.compare(fresh, 90, 87, ci: (1.5, 1.5))
    #expect(real.verdict == .regressed)
    // Narrow intervals leave the tolerance in charge.
    let narrow = Self.compare(fresh, 90, 89.6, ci: (0.1, 0.1))
    #expect(narrow.verdict == .unchanged && !narrow.thresholdIsCI && !narrow.isWithinNoiseOnly)
  }

  @Test func everyUnitHasADefaultTolerance() {
    for metric in SummaryMetrics.all {
      let t = Tolerance.standard(for: metric.unit)
      #expect(t.relativePct > 0 || t.absolute > 0, "\(metric.name)")
    }
    #expect(Tolerance.standard(for: .percent) == Tolerance(relativePct: 0, absolute: 0.5))
  }

  @Test func tablesCompareRowByRowAndColumnByName() {
    let columns = [SummaryMetric.freshGlancePct.metric, SummaryMetric.budgetedReloadsPerWidgetDay.metric]
    let base = ResultTable(
      columns: columns,
      rows: [
        ResultRow(scenario: "s", strategy: "a", segment: "all", values: [90, 10]),
        ResultRow(scenario: "s", strategy: "gone", segment: "all", values: [50, 5]),
      ])
    let now = ResultTable(
      columns: columns.reversed() + [SummaryMetric.frozenWidgetDayPct.metric],
      rows: [ResultRow(scenario: "s", strategy: "a", segment: "all", values: [12, 91, 0])])
    let (comparisons, notes) = now.compared(with: base) { Tolerance.standard(for: $0.unit) }
    #expect(comparisons.map(\.metric.name) == ["budgeted_reloads_per_widget_day", "fresh_glance_pct"])
    #expect(comparisons.map(\.verdict) == [.regressed, .improved])
    #expect(notes.contains { $0.contains("frozen_widget_day_pct") && $0.contains("not in the baseline") })
    #expect(notes.contains { $0.contains("gone") && $0.contains("baseline only") })
  }

  @Test func anExpectationWithoutAPolicyChecksEveryStrategy() {
    let columns = [SummaryMetric.freshGlancePct.metric, SummaryMetric.silentPushesDeliveredPct.metric]
    let table = ResultTable(
      columns: columns,
      rows: [
        ResultRow(scenario: "s", strategy: "a", segment: "x", values: [10, nil]),
        ResultRow(scenario: "s", strategy: "a", segment: "all", values: [80, nil], ci95: [1.5, nil]),
        ResultRow(scenario: "s", strategy: "b", segment: "all", values: [95, 99], ci95: [0.5, nil]),
      ])
    let everyone = Expectation(metric: .freshGlancePct, min: 90).evaluate(on: table)
    #expect(everyone.map(\.strategy) == ["a", "b"])
    #expect(everyone.map(\.verdict) == [.failed, .holds])
    let segment = Expectation(strategy: "a", segment: "x", metric: .freshGlancePct, max: 10).evaluate(on: table)
    #expect(segment.map(\.verdict) == [.holds])  // bounds are inclusive
    let pushes = Expectation(metric: .silentPushesDeliveredPct, min: 90).evaluate(on: table)
    #expect(pushes.map(\.verdict) == [.notApplicable, .holds])
    let precision = Expectation(metric: .freshGlancePct, ci95: true, max: 1).evaluate(on: table)
    #expect(precision.map(\.value) == [1.5, 0.5])
    #expect(precision.map(\.verdict) == [.failed, .holds])
  }

  /// An expectation bounds a summary metric or, for a headline metric, its
  /// `_ci95` column, or a Live Activity metric (no interval); other names
  /// are none.
  @Test func anExpectationNamesAMetricOrAHeadlineMetricsInterval() throws {
    let plain = try #require(Expectation.parse(column: "fresh_glance_pct"))
    #expect(plain.metric == .summary(.freshGlancePct) && !plain.ci95)
    let interval = try #require(Expectation.parse(column: "fresh_glance_pct_ci95"))
    #expect(interval.metric == .summary(.freshGlancePct) && interval.ci95)
    #expect(Expectation.parse(column: "devices_ci95") == nil, "devices is not a headline metric")
    #expect(Expectation.parse(column: "fresh") == nil)
    let activity = try #require(Expectation.parse(column: "activity_fresh_glance_pct"))
    #expect(activity.metric == .liveActivity(.freshGlancePct) && !activity.ci95)
    #expect(Expectation.parse(column: "activity_fresh_glance_pct_ci95") == nil)
    #expect(Expectation.parse(column: "devices")?.metric == .summary(.devices), "summary.csv's first")
    let e = Expectation(metric: .stalenessMeanMin, ci95: true, max: 2)
    #expect(e.column == "staleness_mean_min_ci95")
    #expect(try JSONDecoder().decode(Expectation.self, from: JSONEncoder().encode(e)) == e)
    let a = Expectation(strategy: "x", metric: .liveActivity(.budgetExhaustedActivityPct), max: 0)
    #expect(try JSONDecoder().decode(Expectation.self, from: JSONEncoder().encode(a)) == a)
  }

  /// A Live Activity expectation reads the activity table's row of its
  /// strategy and segment, every activity strategy when it names none.
  @Test func aLiveActivityExpectationReadsTheActivityTable() {
    var values = [Double?](repeating: nil, count: ActivityMetric.allCases.count)
    values[ActivityMetric.budgetExhaustedActivityPct.index] = 4
    var other = values
    other[ActivityMetric.budgetExhaustedActivityPct.index] = 0
    let activities = ActivityTable(
      rows: [
        .init(strategy: "p10", segment: "all", values: values), .init(strategy: "p10", segment: "fans", values: other),
        .init(strategy: "mix", segment: "all", values: other),
      ], series: [], events: [], eventKinds: [])
    let table = ResultTable(columns: SummaryMetrics.all, rows: [])
    let e = Expectation(metric: .liveActivity(.budgetExhaustedActivityPct), max: 1)
    let results = e.evaluate(on: table, activities: activities)
    #expect(results.map(\.strategy) == ["p10", "mix"])
    #expect(results.map(\.verdict) == [.failed, .holds])
    let fans = Expectation(strategy: "p10", segment: "fans", metric: .liveActivity(.budgetExhaustedActivityPct), max: 1)
    #expect(fans.evaluate(on: table, activities: activities).map(\.verdict) == [.holds])
    #expect(e.evaluate(on: table).isEmpty, "no activity table, no strategy to judge")
    let missing = Expectation(metric: .liveActivity(.missedStartPct), max: 1)
    #expect(missing.evaluate(on: table, activities: activities).map(\.verdict) == [.notApplicable, .notApplicable])
  }
}
