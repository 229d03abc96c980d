import ReloadEngine
import ReloadMetrics
import ReloadStrategies
import Testing
import WidgetModel

/// The elided engine (glances and data changes read in bulk between state
/// changes) against the event-by-event reference, where every glance and
/// change goes through the event queue.
@Suite struct EngineModeTests {
  static func compare(_ scenario: Scenario) {
    var fast = scenario
    fast.engine = .elided
    var slow = scenario
    slow.engine = .eventByEvent
    let a = runScenario(fast)
    let b = runScenario(slow)
    #expect(a.summary.rows.count == b.summary.rows.count)
    for (ra, rb) in zip(a.summary.rows, b.summary.rows) {
      for (i, metric) in a.summary.columns.enumerated() where metric != SummaryMetric.eventsPerWidgetDay.metric {
        #expect(ra.values[i] == rb.values[i], "\(ra.strategy)/\(ra.segment) \(metric.name): \(String(describing: ra.values[i])) vs \(String(describing: rb.values[i]))")
      }
    }
    for (sa, sb) in zip(a.series, b.series) {
      #expect(sa.staleness == sb.staleness, "\(sa.strategy) staleness distribution")
      #expect(sa.budgetLeftByLocalHour == sb.budgetLeftByLocalHour)
      #expect(sa.hourly == sb.hourly)
    }
  }

  @Test(arguments: [UInt64(1), 2, 3])
  func elidedAndEventByEventGiveTheSameResultsOnR1(seed: UInt64) {
    Self.compare(TestScenarios.r1(devices: 40, days: 4, seed: seed))
  }

  @Test(arguments: [UInt64(7), 8])
  func elidedAndEventByEventGiveTheSameResultsOnAMixedScenario(seed: UInt64) {
    let kinds = [
      WidgetKindSpec(
        name: "forecast", scheduled: ScheduledChanges(every: .hours(1)), unpredictable: UnpredictableChanges(perDay: 4),
        interactive: true),
      WidgetKindSpec(name: "news", scope: .shared, unpredictable: UnpredictableChanges(perDay: 30)),
    ]
    let segment = Segment(
      name: "mixed", utcOffsets: [.init(hours: 2, weight: 1), .init(hours: -7, weight: 1)], wakeHour: 6...8,
      sleepHour: 22...25, appSessionsPerDay: 4, audioSessionsPerDay: 0.5, tapsPerDay: 3,
      lowPowerMode: LowPowerHabit(share: 0.4, dailyProbability: 0.5), forceQuitShare: 0.3,
      settingsChangesPer30Days: 3, widgetAddsPer30Days: 4,
      widgets: [WidgetSlot(kind: 0, count: 2), WidgetSlot(kind: 1, placement: .smartStack, probability: 0.6)])
    let strategies = StrategyCatalog.presets.map(\.strategy)
    Self.compare(
      Scenario(
        name: "mixed", seed: seed, days: 4, warmupDays: 1, devices: 30, segments: [segment], kinds: kinds,
        strategies: strategies))
  }

  /// Offsets that are not whole hours: a glance's local hour then turns
  /// inside the run's hours, so the elided path finds it glance by glance;
  /// hourly entries (a grid) and 15-minute ones, with a horizon shorter
  /// than a day, so that spans end at entries and at the coverage's end.
  @Test(arguments: [UInt64(11), 12])
  func elidedAndEventByEventGiveTheSameResultsWithHalfHourOffsets(seed: UInt64) {
    let kinds = [
      WidgetKindSpec(
        name: "hourly", scheduled: ScheduledChanges(every: .hours(1), horizon: .hours(6)),
        unpredictable: UnpredictableChanges(perDay: 5)),
      WidgetKindSpec(
        name: "quarter", scheduled: ScheduledChanges(every: .minutes(15), fromHour: 7, toHour: 21),
        unpredictable: UnpredictableChanges(perDay: 2)),
    ]
    let segment = Segment(
      name: "offsets", utcOffsets: [.init(hours: 5.5, weight: 1), .init(hours: -9.5, weight: 1), .init(hours: 5.75, weight: 1)],
      wakeHour: 6...8, sleepHour: 22...24, appSessionsPerDay: 3,
      lowPowerMode: LowPowerHabit(share: 0.5, dailyProbability: 0.5),
      widgets: [WidgetSlot(kind: 0), WidgetSlot(kind: 1, placement: .lockScreen)])
    Self.compare(
      Scenario(
        name: "offsets", seed: seed, days: 5, warmupDays: 1, devices: 30, segments: [segment], kinds: kinds,
        strategies: StrategyCatalog.presets.map(\.strategy)))
  }

  /// Clock times, weekdays, a publication lag, weekend factors and the
  /// new placements (docs/model.md#clock-times, #publication-lag,
  /// #weekday-patterns, #watch-complications, #standby).
  @Test func elidedAndEventByEventGiveTheSameResultsWithTheCalendar() {
    let kinds = [
      WidgetKindSpec(
        name: "most-read",
        scheduled: .clockTimes([.zero], publication: Publication(atUTC: .minutes(135)))),
      WidgetKindSpec(
        name: "market", scope: .shared,
        scheduled: ScheduledChanges(every: .minutes(30), fromHour: 9, toHour: 17, days: .weekdays),
        unpredictable: UnpredictableChanges(perDay: 20, weekendFactor: 0)),
      WidgetKindSpec(
        name: "sun",
        scheduled: .clockTimes([.minutes(6 * 60 + 40), .minutes(19 * 60)], driftPerDay: .minutes(2),
          weekend: WeekendSchedule(every: .hours(2), fromHour: 8))),
    ]
    let segment = Segment(
      name: "week", utcOffsets: [.init(hours: 10, weight: 1), .init(hours: -5, weight: 1)], wakeHour: 6...8,
      sleepHour: 22...24, appSessionsPerDay: 3,
      widgets: [
        WidgetSlot(kind: 0), WidgetSlot(kind: 1, placement: .standby), WidgetSlot(kind: 2, placement: .watchComplication),
        WidgetSlot(kind: 1, placement: .lockScreen, probability: 0.5),
      ],
      weekendViewsFactor: 0.6, weekendSessionsFactor: 1.5)
    Self.compare(
      Scenario(
        name: "calendar", seed: 9, days: 8, warmupDays: 1, devices: 24, segments: [segment], kinds: kinds,
        strategies: StrategyCatalog.presets.map(\.strategy), startWeekday: .thursday))
  }
}
