import ReloadEngine
import ReloadStrategies
import Testing
import WidgetModel

@Suite struct StrategyCatalogTests {
  @Test func theDocumentedPresetsExistOnceEach() {
    let names = [
      "poll-5m", "poll-15m", "poll-30m", "poll-60m", "future-entries", "on-demand", "silent-push", "bg-refresh",
      "widget-push", "hybrid", "anti-pattern-now",
    ]
    #expect(StrategyCatalog.names == names)
    for p in StrategyCatalog.presets {
      #expect(p.strategy.name == p.name)
      #expect(!p.summary.isEmpty && !p.code.isEmpty)
    }
  }

  @Test func pollingPresetsAskAfterTheirInterval() {
    for m in [5, 15, 30, 60] {
      let t = StrategyCatalog.preset(named: "poll-\(m)m")!.strategy.timeline
      #expect(t.policy == .after(.minutes(Double(m))))
      #expect(t.entries == 1)
      let plan = t.plan(reloadAt: SimTime.zero + .hours(1), schedule: nil, horizon: .zero)
      #expect(plan.nextRequest == SimTime.zero + .hours(1) + .minutes(Double(m)))
    }
  }

  @Test func presetsAreMadeOfTheDocumentedParts() {
    let hybrid = StrategyCatalog.preset(named: "hybrid")!.strategy
    #expect(hybrid.timeline.dating == .content && hybrid.timeline.policy == .atEnd)
    #expect(hybrid.app.reloadOnForeground && hybrid.app.reloadOnSilentPush)
    #expect(hybrid.backend.silentPush?.on == .unpredictable)
    let onDemand = StrategyCatalog.preset(named: "on-demand")!.strategy
    #expect(onDemand.timeline.policy == .never && onDemand.app.reloadOnForeground)
    #expect(StrategyCatalog.preset(named: "silent-push")!.strategy.backend.silentPush?.on == .all)
    #expect(StrategyCatalog.preset(named: "bg-refresh")!.strategy.app.backgroundRefreshInterval == .minutes(30))
    #expect(StrategyCatalog.preset(named: "widget-push")!.strategy.backend.widgetPush != nil)
  }

  /// Entries dated now with .atEnd ask again at once; entries on the
  /// content's schedule ask after the last scheduled change they show.
  @Test func timelineDatingDecidesTheNextRequest() {
    let now = StrategyCatalog.preset(named: "anti-pattern-now")!.strategy.timeline
    let t = SimTime.zero + .minutes(10)
    #expect(now.plan(reloadAt: t, schedule: nil, horizon: .hours(24)).nextRequest == t)
    let hourly = ChangeSchedule(ScheduledChanges(every: .hours(1)), clockOffset: .zero)
    let future = StrategyCatalog.preset(named: "future-entries")!.strategy.timeline
    let plan = future.plan(reloadAt: t, schedule: hourly, horizon: .hours(24))
    // Eight entries: now, then the next seven hourly changes (01:00 ... 07:00).
    #expect(plan.lastEntry == SimTime.zero + .hours(7))
    #expect(plan.nextRequest == plan.lastEntry)
    // A short horizon stops the entries early.
    let short = future.plan(reloadAt: t, schedule: hourly, horizon: .hours(3))
    #expect(short.lastEntry == SimTime.zero + .hours(3))
    // A glance between entries shows the latest scheduled change.
    #expect(plan.coveredUntil(SimTime.zero + .minutes(150)) == SimTime.zero + .minutes(150))
    #expect(plan.coveredUntil(SimTime.zero + .hours(9)) == SimTime.zero + .hours(7))
  }
}
