import ReloadEngine
import WidgetModel

/// Small scenarios built in code for model tests.
enum TestScenarios {
  /// R1 (docs/r1.md) at `devices` widgets and `days` days.
  static func r1(devices: Int = 500, days: Double = 7, seed: UInt64 = 42, engine: EngineMode = .elided) -> Scenario {
    var glanceProfile = [Double](repeating: 0, count: 24)
    for h in 7..<23 { glanceProfile[h] = 1 }
    let segment = Segment(
      name: "r1", wakeHour: 0...0, sleepHour: 24...24, homeViewsPerDay: 64, lockViewsPerDay: 0,
      viewProfile: glanceProfile, appSessionsPerDay: 0, widgets: [WidgetSlot(kind: 0)])
    let kind = WidgetKindSpec(
      name: "r1", unpredictable: UnpredictableChanges(perDay: 48), tolerance: .minutes(30))
    let strategy = Strategy(
      name: "poll-15m", timeline: EntryTimeline(entries: 1, dating: .spaced, policy: .after(.minutes(15))))
    var model = ModelParameters.standard
    model.budget = BudgetParameters(
      accrual: .slidingWindow, maxPerDay: 50, minPerDay: 50, fullBudgetViewsPerDay: 0,
      minInterval: .zero)
    // R1 fixes its own rules (docs/r1.md), whatever the model's defaults become.
    model.reload = ReloadTiming(
      lateness: .uniform(.zero, .seconds(120)), whileAsleep: .run, asap: .immediate, latenessPressure: .none)
    model.appReload = AppReloadParameters(backgroundLatency: .constant(.zero), whileAsleep: .spend)
    return Scenario(
      name: "r1", seed: seed, days: days, warmupDays: 0, devices: devices, segments: [segment],
      kinds: [kind], strategies: [strategy], model: model, engine: engine)
  }
}

extension ModelParameters {
  /// Pins the rules that the hand-built tests compute by hand: "as soon as
  /// possible" at once, lateness independent of the budget, budgeted app
  /// calls reloading at once, night or day (docs/model.md#asap-reloads,
  /// #lateness-pressure, #background-latency, #background-while-asleep).
  /// The defaults are chosen by the evidence and may move; a test about
  /// another alternative sets it after this. The budget's accrual is set
  /// where each test builds its `BudgetParameters`.
  mutating func pinHandComputedRules() {
    reload.asap = .immediate
    reload.latenessPressure = .none
    appReload.backgroundLatency = .constant(.zero)
    appReload.whileAsleep = .spend
  }
}

