import ReloadEngine
import ReloadMetrics
import ReloadStrategies
import Testing
import WidgetModel

/// Weekend factors for use and content, the new placements' views and
/// budgets (docs/model.md#weekday-patterns, #watch-complications, #standby),
/// checked on drawn device environments and on whole runs.
@Suite struct WeekdayUseTests {
  static let day: Int64 = 86_400_000

  static func scenario(_ segment: Segment, kinds: [WidgetKindSpec]? = nil, devices: Int = 400, days: Double = 14,
                       strategies: [String] = ["poll-60m"], model: ModelParameters = .standard) -> Scenario {
    Scenario(
      name: "week", seed: 11, days: days, warmupDays: 1, devices: devices, segments: [segment],
      kinds: kinds ?? [WidgetKindSpec(name: "k", unpredictable: UnpredictableChanges(perDay: 4))],
      strategies: strategies.map { StrategyCatalog.preset(named: $0)!.strategy }, model: model, startWeekday: .monday)
  }

  /// Counts of `times` on local weekdays and weekend days among local days
  /// 1...12 (whole days of a 14-day run on every clock used here).
  static func weekSplit(_ times: ArraySlice<SimTime>, offset: SimDuration, calendar: WeekCalendar) -> (weekday: Int, weekend: Int) {
    var split = (weekday: 0, weekend: 0)
    for t in times {
      let d = WeekCalendar.localDay(of: t, clockOffset: offset)
      guard d >= 1 && d <= 12 else { continue }
      if calendar.isWeekend(localDay: d) { split.weekend += 1 } else { split.weekday += 1 }
    }
    return split
  }

  /// Local days 1...12 from a Monday: 9 weekdays, 3 weekend days (5, 6, 12).
  static func perDayRatio(_ split: (weekday: Int, weekend: Int)) -> (ratio: Double, sigma: Double) {
    let r = (Double(split.weekend) / 3) / (Double(split.weekday) / 9)
    return (r, r * (1 / Double(split.weekend) + 1 / Double(split.weekday)).squareRoot())
  }

  @Test(arguments: [0.5, 2.0])
  func aWeekendViewsFactorScalesWeekendViews(factor: Double) {
    let segment = Segment(
      name: "s", utcOffsets: [.init(hours: 9, weight: 1), .init(hours: -6, weight: 1)], homeViewsPerDay: 40,
      lockViewsPerDay: 30,
      widgets: [WidgetSlot(kind: 0, count: 2), WidgetSlot(kind: 0, placement: .lockScreen)],
      weekendViewsFactor: factor)
    let sc = Self.scenario(segment)
    let prepared = PreparedScenario(sc)
    var env = DeviceEnvironment()
    var home = (weekday: 0, weekend: 0)
    var lock = (weekday: 0, weekend: 0)
    for device in 0..<sc.devices {
      env.generate(device: device, in: prepared)
      let h = Self.weekSplit(env.glances[env.glanceStart[0]..<env.glanceStart[1]], offset: env.utcOffset, calendar: sc.calendar)
      let l = Self.weekSplit(env.glances[env.glanceStart[2]..<env.glanceStart[3]], offset: env.utcOffset, calendar: sc.calendar)
      home = (home.weekday + h.weekday, home.weekend + h.weekend)
      lock = (lock.weekday + l.weekday, lock.weekend + l.weekend)
    }
    for (surface, split) in [("home (shared process)", home), ("lock (one widget)", lock)] {
      let (r, sigma) = Self.perDayRatio(split)
      #expect(abs(r - factor) < 4 * sigma, "\(surface): weekend/weekday views per day \(r), expected \(factor) ± \(4 * sigma)")
    }
  }

  @Test func aWeekendSessionsFactorScalesWeekendSessions() {
    let segment = Segment(
      name: "s", utcOffsets: [.init(hours: 2, weight: 1), .init(hours: -3, weight: 1)], appSessionsPerDay: 5,
      sessionLength: .constant(.seconds(1)), widgets: [WidgetSlot(kind: 0)], weekendSessionsFactor: 2)
    let sc = Self.scenario(segment)
    let prepared = PreparedScenario(sc)
    var env = DeviceEnvironment()
    var split = (weekday: 0, weekend: 0)
    for device in 0..<sc.devices {
      env.generate(device: device, in: prepared)
      let s = Self.weekSplit(env.sessionStart[...], offset: env.utcOffset, calendar: sc.calendar)
      split = (split.weekday + s.weekday, split.weekend + s.weekend)
    }
    let (r, sigma) = Self.perDayRatio(split)
    #expect(abs(r - 2) < 4 * sigma, "weekend/weekday sessions per day \(r), expected 2 ± \(4 * sigma)")
  }

  @Test func unpredictableChangesFollowTheirWeekendFactor() {
    let segment = Segment(name: "s", utcOffsets: [.init(hours: 5, weight: 1), .init(hours: -8, weight: 1)], widgets: [WidgetSlot(kind: 0), WidgetSlot(kind: 1)])
    let kinds = [
      WidgetKindSpec(name: "market", unpredictable: UnpredictableChanges(perDay: 30, bursts: Bursts(dailyProbability: 1, fromHour: 10, toHour: 12, duration: .hours(1), perHour: 10), weekendFactor: 0)),
      WidgetKindSpec(name: "sport", unpredictable: UnpredictableChanges(perDay: 10, weekendFactor: 3)),
    ]
    let sc = Self.scenario(segment, kinds: kinds, devices: 200)
    let prepared = PreparedScenario(sc)
    var env = DeviceEnvironment()
    var sport = (weekday: 0, weekend: 0)
    var market = 0
    for device in 0..<sc.devices {
      env.generate(device: device, in: prepared)
      for c in env.changes[env.changeStart[0]..<env.changeStart[1]] {
        #expect(!sc.calendar.isWeekend(at: c, clockOffset: env.utcOffset), "a market change on a local weekend day at \(c)")
        market += 1
      }
      let s = Self.weekSplit(env.changes[env.changeStart[1]..<env.changeStart[2]], offset: env.utcOffset, calendar: sc.calendar)
      sport = (sport.weekday + s.weekday, sport.weekend + s.weekend)
    }
    #expect(market > 200 * 9 * 30)
    let (r, sigma) = Self.perDayRatio(sport)
    #expect(abs(r - 3) < 4 * sigma, "weekend/weekday changes per day \(r), expected 3 ± \(4 * sigma)")
  }

  @Test func theBudgetFollowsTheWeeksMeanViews() {
    // Another Home Screen page: 40 x 0.15 = 6 views a day; B = 70 x (6 / 12)^0.5 = 49.5.
    func budget(_ factor: Double) -> Int {
      let segment = Segment(name: "s", homeViewsPerDay: 40, widgets: [WidgetSlot(kind: 0, placement: .homeOtherPage)], weekendViewsFactor: factor)
      let prepared = PreparedScenario(Self.scenario(segment, devices: 1))
      var env = DeviceEnvironment()
      env.generate(device: 0, in: prepared)
      return env.widgetBudget[0]
    }
    #expect(budget(1) == 49)
    #expect(budget(0.5) == 46)  // 6 x (5 + 1) / 7 = 5.14 views: 70 x 0.655 = 45.8
  }

  @Test func aWatchComplicationHasItsOwnBudgetWhateverItsViews() {
    let segment = Segment(name: "s", widgets: [WidgetSlot(kind: 0, placement: .watchComplication)], watchViewsPerDay: 3)
    var model = ModelParameters.standard
    func budget() -> Int {
      let prepared = PreparedScenario(Self.scenario(segment, devices: 1, model: model))
      var env = DeviceEnvironment()
      env.generate(device: 0, in: prepared)
      return env.widgetBudget[0]
    }
    #expect(budget() == 50, "model.budget.watch_complication_per_day")
    model.budget.watchComplicationPerDay = nil
    #expect(budget() == 35, "from 3 views a day: 70 x (3 / 12)^0.5")
    model.budget.watchComplicationPerDay = 120
    #expect(PreparedScenario(Self.scenario(segment, devices: 1, model: model)).ringCapacity == 120)
  }

  /// Polling every 5 minutes exhausts any budget: a watch complication
  /// then gets its 50 reloads a day where a Home Screen widget gets 70.
  @Test func pollingAWatchComplicationSpendsItsFiftyReloadsADay() {
    let watch = Segment(name: "watch", widgets: [WidgetSlot(kind: 0, placement: .watchComplication)])
    var home = watch
    home.name = "home"
    home.widgets = [WidgetSlot(kind: 0)]
    // Under a sliding window a widget polled this often spends exactly its
    // budget; a token bucket also discards part of the night's refill.
    var model = ModelParameters.standard
    model.budget.accrual = .slidingWindow
    var sc = Self.scenario(watch, devices: 40, days: 5, strategies: ["poll-5m"], model: model)
    sc.segments = [watch, home]
    let r = runScenario(sc)
    let v = { (segment: String) in r.summary.value(.budgetedReloadsPerWidgetDay, in: r.summary.row(strategy: "poll-5m", segment: segment)!)! }
    #expect(v("watch") > 46 && v("watch") <= 50, "watch complication: \(v("watch")) budgeted reloads a day")
    #expect(v("home") > 65 && v("home") <= 70, "home screen: \(v("home"))")
  }

  @Test func watchAndStandByViewsComeFromTheirOwnSurfaces() {
    let segment = Segment(
      name: "s", utcOffsets: [.init(hours: 1, weight: 1)], wakeHour: 7...7, sleepHour: 23...23,
      widgets: [WidgetSlot(kind: 0, placement: .watchComplication), WidgetSlot(kind: 0, placement: .standby)],
      watchViewsPerDay: 80, standby: StandByHabit(viewsPerDay: 9, fromHour: 21, toHour: 30))
    let sc = Self.scenario(segment, devices: 100)
    let prepared = PreparedScenario(sc)
    var env = DeviceEnvironment()
    var watchViews = 0
    var standbyViews = 0
    var standbyAsleep = 0
    for device in 0..<sc.devices {
      env.generate(device: device, in: prepared)
      for g in env.glances[env.glanceStart[0]..<env.glanceStart[1]] {
        #expect(env.isAwake(at: g), "wrist raises happen while awake")
        watchViews += 1
      }
      for g in env.glances[env.glanceStart[1]..<env.glanceStart[2]] {
        let h = env.localHour(of: g)
        #expect(h >= 21 || h < 6, "StandBy at \(h):00 is outside 21:00-06:00")
        if !env.isAwake(at: g) { standbyAsleep += 1 }
        standbyViews += 1
      }
    }
    let days = 14.0 * 100
    #expect(abs(Double(watchViews) / days - 80) < 4 * (80 / days).squareRoot() + 1, "\(Double(watchViews) / days) watch views a day")
    #expect(abs(Double(standbyViews) / days - 9) < 4 * (9 / days).squareRoot() + 0.3, "\(Double(standbyViews) / days) StandBy views a day")
    #expect(standbyAsleep > standbyViews / 2, "the StandBy window is mostly night: \(standbyAsleep) of \(standbyViews)")
  }
}
