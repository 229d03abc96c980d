import ReloadEngine
import ReloadMetrics
import Testing

import WidgetModel

/// A provider whose next request is the first of `requests` after the
/// reload: a widget whose reload times the test writes in.
struct ScriptedRequests: TimelineProvider {
  let requests: [SimTime]
  func timeline(for request: TimelineRequest) -> Timeline {
    guard let next = requests.first(where: { $0 > request.now }) else { return Timeline(entries: .now, policy: .never) }
    return Timeline(entries: .now, policy: .afterDate(next))
  }
  func firstRequestSpread(kind: Int) -> SimDuration { .milliseconds(1) }
  var usesRandomDraw: Bool { false }
  static var makesReloadCalls: Bool { false }
}

/// The four dry figures (docs/model.md#dry-spells) on one hand-built device,
/// each checked against its value worked out by hand and against the
/// hourly dry share, at several thresholds.
///
/// Budget 2 per 24 h (sliding window), 3 days, UTC, requests scripted at
/// 0, 6 h, 23:55, 26 h, 40 h and 53:50 (run time):
///
/// | request | window then | withheld until | wait |
/// |---|---|---|---|
/// | 0, 6 h | not full | - | - |
/// | 23:55 | 0, 6 h | 24:00 | 5 min |
/// | 26 h (day 1, 02:00) | 6 h, 24 h | 30 h | 4 h |
/// | 40 h (day 1, 16:00) | 24 h, 30 h | 48 h | 8 h |
/// | 53:50 (day 2, 05:50) | 30 h, 48 h | 54 h | 10 min |
@Suite struct DrySpellTests {
  static let hour: Int64 = 3_600_000
  static let minute: Int64 = 60_000

  static func run(dryAfterMinutes: Double) -> ScenarioResults {
    let h = hour
    let m = minute
    let script = ScriptedRequests(
      requests: [6 * h, 23 * h + 55 * m, 26 * h, 40 * h, 53 * h + 50 * m].map { SimTime(milliseconds: $0) })
    let budget = BudgetParameters(
      accrual: .slidingWindow, maxPerDay: 2, minPerDay: 1, fullBudgetViewsPerDay: 0, minInterval: .zero, dryAfter: .minutes(dryAfterMinutes))
    let scenario = MetricDefinitionTests.scenario(strategy: MetricDefinitionTests.never, days: 3, budget: budget)
    return MetricDefinitionTests.run(scenario, provider: script, glances: [], changes: [])
  }

  static func value(_ r: ScenarioResults, _ metric: SummaryMetric) -> Double? {
    r.summary.value(metric, in: r.summary.overallRows[0])
  }

  /// The hourly dry share (percent of the widget's hour), by run hour (= UTC hour here).
  static func hourly(_ r: ScenarioResults) -> [Double] { r.series[0].hourly[.widgetsDryPct] }

  /// The dry spells at each threshold: (start, end) in hours of the run.
  static let cases: [(minutes: Double, spells: [(Double, Double)])] = [
    (0, [(23 + 55.0 / 60, 24), (26, 30), (40, 48), (53 + 50.0 / 60, 54)]),  // every refusal
    (5, [(26, 30), (40, 48), (53 + 50.0 / 60, 54)]),  // 5 min is not longer than 5 min
    (10, [(26, 30), (40, 48)]),
    (15, [(26, 30), (40, 48)]),  // the default
    (300, [(40, 48)]),
    (600, []),
  ]

  @Test func withheldRequestsCountEveryRefusalWhateverTheThreshold() {
    for c in Self.cases {
      let r = Self.run(dryAfterMinutes: c.minutes)
      #expect(Self.value(r, .withheldRequestsPerWidgetDay) == 4.0 / 3, "threshold \(c.minutes) min")
      #expect(Self.value(r, .budgetedReloadsPerWidgetDay) == 2)  // 0, 6, 24, 30, 48 and 54 h
    }
  }

  /// dry_hours_per_widget_day: the spells' time per widget-day, and the sum of the hourly dry shares.
  @Test func dryHoursAreTheSpellsTimeAndTheSumOfTheHourlyShares() {
    for c in Self.cases {
      let r = Self.run(dryAfterMinutes: c.minutes)
      let hand = c.spells.reduce(0) { $0 + $1.1 - $1.0 } / 3
      let dry = Self.value(r, .dryHoursPerWidgetDay)!
      #expect(abs(dry - hand) < 1e-9, "threshold \(c.minutes) min: \(dry) h, by hand \(hand) h")
      let fromHourly = Self.hourly(r).reduce(0, +) / 100 / 3
      #expect(abs(dry - fromHourly) < 1e-9, "threshold \(c.minutes) min: hourly shares sum to \(fromHourly) h")
    }
  }

  /// The hourly dry share: each hour's share of time inside a spell.
  @Test func hourlyDrySharesAreTheSpellsTimeInEachHour() {
    for c in Self.cases {
      let r = Self.run(dryAfterMinutes: c.minutes)
      let shares = Self.hourly(r)
      #expect(shares.count == 72)
      for hour in 0..<72 {
        let a = Double(hour)
        let inSpells = c.spells.reduce(0) { $0 + max(0, min(a + 1, $1.1) - max(a, $1.0)) }
        #expect(abs(shares[hour] - 100 * inSpells) < 1e-9, "threshold \(c.minutes) min, hour \(hour)")
      }
    }
  }

  /// dry_widget_day_pct: the local days a spell touches, and the days with a dry hour.
  @Test func dryWidgetDaysAreTheDaysASpellTouchesAndTheDaysWithADryHour() {
    for c in Self.cases {
      let r = Self.run(dryAfterMinutes: c.minutes)
      let handDays = Set(c.spells.flatMap { s in (Int(s.0 / 24)...Int((s.1 - 1e-9) / 24)).map { $0 } })
      let pct = Self.value(r, .dryWidgetDayPct)!
      #expect(abs(pct - 100 * Double(handDays.count) / 3) < 1e-9, "threshold \(c.minutes) min: \(pct) %")
      let shares = Self.hourly(r)
      let hourlyDays = Set((0..<72).filter { shares[$0] > 0 }.map { $0 / 24 })
      #expect(hourlyDays == handDays, "threshold \(c.minutes) min")
    }
  }

  /// first_dry_hour_median: the local hour the day's first spell started, and
  /// the first dry hour of that day in the hourly shares. The median is
  /// read from tenth-of-an-hour bins, interpolated within its bin.
  @Test func firstDryHourIsWhenTheDaysFirstSpellStartedAndTheFirstDryHourOfTheDay() {
    let expected: [Double: Double?] = [
      0: 5.85,  // starts 23:55 (bin 239), 02:00 (bin 20), 05:50 (bin 58): the middle one, mid-bin
      5: 2.1,  // 02:00 and 05:50: the median reaches the end of the first one's bin
      10: 2.05, 15: 2.05,  // day 1 at 02:00 alone
      300: 16.05,  // day 1 at 16:00 alone
      600: nil,  // no spell, no first dry hour
    ]
    for c in Self.cases {
      let r = Self.run(dryAfterMinutes: c.minutes)
      let median = Self.value(r, .firstDryHourMedian)
      let hand = expected[c.minutes]!
      if let hand {
        #expect(median != nil && abs(median! - hand) < 1e-9, "threshold \(c.minutes) min: \(String(describing: median))")
      } else {
        #expect(median == nil, "threshold \(c.minutes) min")
      }
      // The first dry hour of each day in the hourly shares is the hour a
      // spell started that day (none here carries over midnight).
      let shares = Self.hourly(r)
      let firstFromHourly = (0..<3).compactMap { d in (0..<24).first { shares[d * 24 + $0] > 0 } }
      let firstByHand = (0..<3).compactMap { d in c.spells.filter { Int($0.0 / 24) == d }.map { Int($0.0) % 24 }.min() }
      #expect(firstFromHourly == firstByHand, "threshold \(c.minutes) min")
      if let median, !firstByHand.isEmpty {
        let sorted = firstByHand.sorted()
        #expect(Int(median) == sorted[(sorted.count - 1) / 2], "threshold \(c.minutes) min")
      }
    }
  }
}
