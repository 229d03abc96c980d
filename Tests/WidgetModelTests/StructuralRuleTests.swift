import ReloadEngine
import ReloadMetrics
import Testing

import WidgetModel

/// The rules whose structure the evidence questions (issue 14, section 2),
/// each alternative run on a hand-built device and checked by an effect the
/// other alternative (or a plausible wrong model) cannot produce:
/// docs/model.md#asap-reloads, #budget-accrual, #lateness-pressure,
/// #background-latency, #background-while-asleep.
@Suite struct StructuralRuleTests {
  static let hour: Int64 = 3_600_000
  static let minute: Int64 = 60_000

  /// One device at UTC (run hour = local hour), one widget of kind "a",
  /// awake `wake`..`sleep` local, a budget of 70 for every widget, no lateness.
  static func scenario(
    _ strategy: Strategy, days: Double = 2, wake: Int = 0, sleep: Int = 24,
    model: (inout ModelParameters) -> Void = { _ in }
  ) -> Scenario {
    StrategyLanguageTests.scenario(strategy, days: days, utcOffset: 0, wake: wake, sleep: sleep, model: model)
  }

  static func run(_ s: Scenario, _ device: StrategyLanguageTests.Device = .init()) -> ScenarioResults {
    StrategyLanguageTests.run(s, device)
  }

  /// Budgeted reloads in each run hour.
  static func budgeted(_ r: ScenarioResults) -> [UInt64] {
    r.series[0].hourly[.budgetedReloads].map { UInt64($0) }
  }
  static func total(_ r: ScenarioResults, _ m: SummaryMetric) -> Double { StrategyLanguageTests.total(r, m) }

  /// One entry dated now with `.atEnd`: the request is due at once after every reload.
  static let asapNow = Strategy(name: "now", timeline: EntryTimeline(entries: 1, dating: .now, policy: .atEnd))

  // MARK: - docs/model.md#asap-reloads

  @Test func immediateAsapSpendsTheDaysBudgetInHalfAnHour() {
    let r = Self.run(Self.scenario(Self.asapNow))
    let h = Self.budgeted(r)
    // 70 reloads 30 s apart (the minimum interval): all in the first hour, then nothing until the window frees.
    #expect(h[0] == 70)
    #expect(h[1..<24].allSatisfy { $0 == 0 })
    #expect(Self.total(r, .frozenHoursPerWidgetDay) > 20)
  }

  @Test func pacedAsapSpreadsTheBudgetOverTheDayAtItsPace() {
    let r = Self.run(Self.scenario(Self.asapNow) { $0.reload.asap = .paced })
    let h = Self.budgeted(r)
    // 24 h / 70 = 20.6 min apart: 2 or 3 in every hour, 70 a day (a pace of
    // "budget left over time left" would spend about half), never dry.
    #expect(h.allSatisfy { $0 == 2 || $0 == 3 }, "\(h)")
    #expect(h[0..<24].reduce(0, +) == 70)
    #expect(Self.total(r, .frozenHoursPerWidgetDay) == 0)
  }

  @Test func pacedAsapSpreadsTheBudgetOverTheAwakeHours() {
    // Awake 08:00-24:00 (16 h), night deferred: 16 h / 70 = 13.7 min apart,
    // so the day's 70 reloads fit the awake hours, none at night.
    let r = Self.run(
      Self.scenario(Self.asapNow, days: 3, wake: 8, sleep: 24) {
        $0.reload.asap = .paced
        $0.reload.whileAsleep = .deferToWake
      })
    let h = Self.budgeted(r)
    for day in 1..<3 {
      let hours = h[(day * 24)..<(day * 24 + 24)]
      #expect(hours.prefix(8).allSatisfy { $0 == 0 }, "night of day \(day): \(Array(hours))")
      #expect(hours.dropFirst(9).allSatisfy { $0 == 4 || $0 == 5 }, "day \(day): \(Array(hours))")
    }
  }

  @Test func aPolicyRequestInTheFutureIsNotPaced() {
    let poll = Strategy(name: "p", timeline: EntryTimeline(entries: 1, dating: .spaced, policy: .after(.minutes(5))))
    let a = Self.run(Self.scenario(poll))
    let b = Self.run(Self.scenario(poll) { $0.reload.asap = .paced })
    #expect(Self.budgeted(a) == Self.budgeted(b))
    #expect(Self.budgeted(a)[0] == 12)
  }

  // MARK: - docs/model.md#budget-accrual

  /// The anti-pattern, a user awake 07:00-23:00, night deferred.
  static func frequentPolling(_ accrual: BudgetParameters.Accrual) -> [UInt64] {
    let r = Self.run(
      Self.scenario(Self.asapNow, days: 3, wake: 7, sleep: 23) {
        $0.budget.accrual = accrual
        $0.reload.whileAsleep = .deferToWake
      })
    return Self.budgeted(r)
  }

  @Test func frequentPollingFreezesBy08UnderTheWindowAndSlowsToThePaceUnderTheBucket() {
    let window = Self.frequentPolling(.slidingWindow)
    let bucket = Self.frequentPolling(.tokenBucket)
    for day in 1..<3 {
      let w = window[(day * 24)..<(day * 24 + 24)]
      let b = bucket[(day * 24)..<(day * 24 + 24)]
      // Sliding window: the day's budget goes in the first minutes awake
      // (07:00-08:35), then nothing until the next morning.
      #expect(w[(day * 24 + 7)...(day * 24 + 8)].reduce(0, +) == 70, "day \(day): \(Array(w))")
      #expect(w[(day * 24 + 9)..<(day * 24 + 23)].allSatisfy { $0 == 0 }, "day \(day): \(Array(w))")
      // Token bucket (capacity 25 % of 70): the overnight bucket, then one
      // reload per 20.6 min all day.
      #expect(b[(day * 24 + 10)..<(day * 24 + 23)].allSatisfy { $0 == 2 || $0 == 3 }, "day \(day): \(Array(b))")
    }
  }

  // MARK: - docs/model.md#lateness-pressure

  /// `.after(60 min)`, a constant lateness of 60 min, a budget of 10.
  static func hourlyPolicy(_ pressure: ReloadTiming.LatenessPressure) -> [UInt64] {
    let poll = Strategy(name: "p", timeline: EntryTimeline(entries: 1, dating: .spaced, policy: .after(.minutes(60))))
    let r = Self.run(
      Self.scenario(poll, days: 1) {
        $0.budget = BudgetParameters(accrual: .slidingWindow, maxPerDay: 10, minPerDay: 10, fullBudgetViewsPerDay: 0)
        $0.reload.lateness = .constant(.minutes(60))
        $0.reload.latenessPressure = pressure
      })
    return Self.budgeted(r)
  }

  @Test func latenessGrowsWithTheBudgetSpent() {
    // none: every reload, the first included, 60 min late: at 1, 3, 5, ... h.
    let none = Self.hourlyPolicy(.none)
    #expect(Array(none.prefix(12)) == [0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1])
    // budget: the k-th reload's lateness is 60 min x k/10 (k reloads in the
    // window): reloads at 0, 66, 138, 216, 300, 390, 486, 588, 696, 810 min.
    let budget = Self.hourlyPolicy(.budget)
    #expect(Array(budget.prefix(14)) == [1, 1, 1, 1, 0, 1, 1, 0, 1, 1, 0, 1, 0, 1])
  }

  @Test func underPressureAnHourlyPolicyIsLateByLittleAndFiveMinutePollingIsLimited() {
    func perDay(_ minutes: Double, _ pressure: ReloadTiming.LatenessPressure) -> Double {
      let poll = Strategy(name: "p", timeline: EntryTimeline(entries: 1, dating: .spaced, policy: .after(.minutes(minutes))))
      let r = Self.run(
        Self.scenario(poll, days: 8) {
          $0.reload.lateness = ReloadTiming.realisticLateness
          $0.reload.latenessPressure = pressure
        })
      return Self.total(r, .budgetedReloadsPerWidgetDay) / 8
    }
    // Full realistic lateness (median 80 min) on every reload: an hourly
    // policy reloads about every 2.4 h.
    #expect(perDay(60, .none) < 12)
    // Under pressure it is late by a fraction of that: more than 15 a day.
    let hourly = perDay(60, .budget)
    #expect(hourly > 15 && hourly < 24, "\(hourly)")
    // Five-minute polling is held well below its 288 a day and below the budget, yet more often than hourly.
    let five = perDay(5, .budget)
    #expect(five > hourly && five < 60, "\(five)")
  }

  // MARK: - docs/model.md#background-latency

  /// A session 09:00-09:59 on day 1 and a `didEnterBackground` call.
  static func backgroundCall(latency: DurationDistribution, on event: AppEvent = .background) -> [UInt64] {
    let s = Strategy(
      name: "bg", timeline: EntryTimeline(entries: 1, dating: .spaced, policy: .never), triggers: [AppTrigger(on: event)])
    let r = Self.run(
      Self.scenario(s) { $0.appReload.backgroundLatency = latency },
      .init(sessions: [(33 * Self.hour, 33 * Self.hour + 59 * Self.minute)]))
    return Self.budgeted(r)
  }

  @Test func backgroundCallsReloadAfterTheLatency() {
    // Instant (today): the reload is at 09:59, in hour 33.
    #expect(Self.backgroundCall(latency: .constant(.zero))[33] == 1)
    // 2 minutes (Home Assistant #3520): at 10:01, in hour 34.
    let late = Self.backgroundCall(latency: .constant(.seconds(120)))
    #expect(late[33] == 0 && late[34] == 1)
    // 30 s: still in hour 33.
    #expect(Self.backgroundCall(latency: .constant(.seconds(30)))[33] == 1)
  }

  @Test func foregroundCallsAreNotDelayedAndStayFree() {
    let s = Strategy(
      name: "fg", timeline: EntryTimeline(entries: 1, dating: .spaced, policy: .never), triggers: [AppTrigger(on: .foreground)])
    let r = Self.run(
      Self.scenario(s) { $0.appReload.backgroundLatency = .constant(.minutes(30)) },
      .init(sessions: [(33 * Self.hour + 50 * Self.minute, 33 * Self.hour + 55 * Self.minute)]))
    #expect(r.series[0].hourly[.freeReloads][33] == 1)
    #expect(Self.total(r, .budgetedReloadsPerWidgetDay) == 0)
  }

  // MARK: - docs/model.md#background-while-asleep

  /// A sensor every 5 min whose wake reloads the widget; the user sleeps 23:00-07:00.
  static func sensor(_ rule: AppReloadParameters.WhileAsleep) -> ScenarioResults {
    let s = Strategy(
      name: "sensor", timeline: EntryTimeline(entries: 1, dating: .spaced, policy: .never),
      triggers: [AppTrigger(on: .wake)], wakes: [WakeSource(name: "cgm", type: .accessory, every: .minutes(5))])
    return Self.run(
      Self.scenario(s, days: 3, wake: 7, sleep: 23) {
        $0.reload.whileAsleep = .deferToWake
        $0.appReload.whileAsleep = rule
      })
  }

  @Test func spendRunsTheBudgetDryAtNight() {
    let h = Self.budgeted(Self.sensor(.spend))
    // Day 0 from 00:00: 70 reloads 5 min apart, dry from 05:50 (before the user wakes).
    #expect(h[0..<6].reduce(0, +) == 70, "\(Array(h.prefix(24)))")
    #expect(h[0..<7].reduce(0, +) == 70)
  }

  @Test func deferToWakeSpendsNothingWhileTheUserSleeps() {
    let h = Self.budgeted(Self.sensor(.deferToWake))
    for day in 0..<3 {
      for hour in [23, 0, 1, 2, 3, 4, 5, 6] where day * 24 + hour < h.count && !(day == 0 && hour == 23) {
        #expect(h[day * 24 + hour] == 0, "day \(day) hour \(hour)")
      }
    }
    // The night's calls ride on one reload in the first awake hour, then 12 an hour.
    #expect(h[7] >= 1 && h[8] == 12)
  }
}
