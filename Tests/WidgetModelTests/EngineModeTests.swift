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
}
