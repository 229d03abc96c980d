import ReloadEngine
import ReloadMetrics
import ReloadStrategies
import Testing
import WidgetModel

/// A robustness run keeps a strategy's base results under every variant of
/// the model that changes only parameters the strategy's simulation never
/// reads (`ModelVariant.changes`, from `ModelParameterGroup.isRead(by:)`).
/// Here every such pair of a preset and a variant runs in full, on devices
/// that use everything a variant can touch (app sessions, audio, Low Power
/// Mode, Background App Refresh off, force-quits, taps), and must give the
/// base's results exactly: a wrong declaration fails.
@Suite struct RobustnessReuseTests {
  static func scenario(_ strategy: Strategy) -> Scenario {
    let segment = Segment(
      name: "busy", utcOffsets: [.init(hours: 1, weight: 1), .init(hours: -6, weight: 1)], appSessionsPerDay: 6,
      audioSessionsPerDay: 1, tapsPerDay: 1, lowPowerMode: LowPowerHabit(share: 0.5, fromHour: 15, toHour: 23),
      backgroundRefreshOffShare: 0.3, forceQuitShare: 0.3, widgets: [WidgetSlot(kind: 0), WidgetSlot(kind: 1)])
    let kinds = [
      WidgetKindSpec(
        name: "forecast", scheduled: ScheduledChanges(every: .hours(1)), unpredictable: UnpredictableChanges(perDay: 6),
        tolerance: .minutes(30)),
      WidgetKindSpec(name: "news", unpredictable: UnpredictableChanges(perDay: 12), tolerance: .minutes(15)),
    ]
    return Scenario(
      name: "reuse", seed: 5, days: 3, warmupDays: 0.5, devices: 10, segments: [segment], kinds: kinds,
      strategies: [strategy], model: .standard)
  }

  @Test func aStrategyAVariantCannotChangeKeepsItsResultsExactly() {
    var pairs = 0
    var dependent = 0
    for preset in StrategyCatalog.presets {
      let base = Self.scenario(preset.strategy)
      var baseRows: [ResultRow]?
      for variant in ModelVariant.all() {
        let model = variant.patch.applied(to: base.model)
        guard model != base.model else { continue }
        if variant.changes(preset.strategy, under: base.model) {
          dependent += 1
          continue
        }
        var changed = base
        changed.model = model
        let rows = runScenario(changed).summary.rows
        if baseRows == nil { baseRows = runScenario(base).summary.rows }
        #expect(rows == baseRows, "\(preset.name) under \(variant.name)")
        pairs += 1
      }
    }
    // Both kinds of pair occur, or the test shows nothing.
    #expect(pairs > 20)
    #expect(dependent > 20)
  }

  @Test func aGroupIsReadByTheStrategiesThatUseIt() {
    let polling = StrategyCatalog.preset(named: "poll-15m")?.strategy
    let silent = StrategyCatalog.preset(named: "silent-push")?.strategy
    #expect(polling.map(ModelParameterGroup.budget.isRead) == true)
    #expect(polling.map(ModelParameterGroup.silentPush.isRead) == false)
    #expect(silent.map(ModelParameterGroup.silentPush.isRead) == true)
    var located = Strategy(name: "located", timeline: EntryTimeline(policy: .never))
    located.wakes = [WakeSource(name: "region", type: .location, perDay: 4)]
    #expect(ModelParameterGroup.locationWakes.isRead(by: located))
    #expect(!ModelParameterGroup.audioWakes.isRead(by: located))
  }

  @Test func everyAlternativeIsAVariantAndProfilesComeLast() {
    let all = ModelVariant.all()
    #expect(all.count == Assumption.allCases.reduce(0) { $0 + $1.alternatives.count } + ModelVariant.profiles.count)
    #expect(all.suffix(ModelVariant.profiles.count).allSatisfy { $0.assumption == nil })
    let some = ModelVariant.all(assumptions: [.whenEmpty], includeProfiles: false)
    #expect(some.map(\.name) == ["when_empty = drop"])
    for a in Assumption.allCases { #expect(Assumption(key: a.key) == a) }
  }
}
