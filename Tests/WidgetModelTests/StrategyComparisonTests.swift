import ReloadEngine
import ReloadMetrics
import ReloadStrategies
import Testing
import WidgetModel

/// Strategies compared on the same users and data rank as the documents
/// predict, and the comparison is fair (common random numbers).
@Suite struct StrategyComparisonTests {
  static func scenario(
    kind: WidgetKindSpec, strategies: [String], devices: Int = 150, seed: UInt64 = 5,
    model: ModelParameters = .standard
  ) -> Scenario {
    let segment = Segment(
      name: "users", utcOffsets: [.init(hours: 1, weight: 1), .init(hours: -5, weight: 1)], wakeHour: 6...8,
      sleepHour: 22...24, homeViewsPerDay: 40, lockViewsPerDay: 0, viewProfile: DailyProfile.daytime.weights,
      appSessionsPerDay: 3, widgets: [WidgetSlot(kind: 0)])
    return Scenario(
      name: "comparison", seed: seed, days: 6, warmupDays: 1, devices: devices, segments: [segment], kinds: [kind],
      strategies: strategies.map { StrategyCatalog.preset(named: $0)!.strategy }, model: model)
  }

  static let predictable = WidgetKindSpec(
    name: "forecast", scheduled: ScheduledChanges(every: .hours(1), horizon: .hours(24)), tolerance: .minutes(15))
  static let unpredictable = WidgetKindSpec(
    name: "scores", unpredictable: UnpredictableChanges(perDay: 20, profile: DailyProfile.evening.weights),
    tolerance: .minutes(15))

  @Test func onPredictableContentFutureEntriesAreFresherThanPollingAtAFractionOfTheBudget() {
    let r = runScenario(Self.scenario(kind: Self.predictable, strategies: ["poll-15m", "future-entries", "anti-pattern-now"]))
    let v = { (m: SummaryMetric, p: String) in r.summary.value(m, in: r.summary.row(strategy: p)!)! }
    #expect(v(.freshGlancePct, "future-entries") > v(.freshGlancePct, "poll-15m"))
    #expect(v(.budgetedReloadsPerWidgetDay, "future-entries") < 0.25 * v(.budgetedReloadsPerWidgetDay, "poll-15m"))
    #expect(v(.freshGlancePct, "anti-pattern-now") < v(.freshGlancePct, "poll-15m"))
  }

  @Test func onUnpredictableContentPushesBeatPollingAndTheAntiPatternSpendsTheMost() {
    let names = ["poll-15m", "poll-60m", "silent-push", "hybrid", "on-demand", "anti-pattern-now"]
    let r = runScenario(Self.scenario(kind: Self.unpredictable, strategies: names))
    let fresh = { (p: String) in r.summary.value(.freshGlancePct, in: r.summary.row(strategy: p)!)! }
    let budgeted = { (p: String) in r.summary.value(.budgetedReloadsPerWidgetDay, in: r.summary.row(strategy: p)!)! }
    for pushy in ["silent-push", "hybrid"] {
      for polling in ["poll-15m", "poll-60m"] {
        #expect(fresh(pushy) > fresh(polling), "\(pushy) \(fresh(pushy)) vs \(polling) \(fresh(polling))")
      }
    }
    // By default "as soon as possible" is paced (docs/model.md#asap-reloads):
    // the anti-pattern spends the whole budget, more than any other strategy.
    for other in names where other != "anti-pattern-now" {
      #expect(budgeted("anti-pattern-now") > budgeted(other), "anti-pattern-now vs \(other)")
    }
  }

  /// Under the seeds' reading (asked at once, a sliding window) the
  /// anti-pattern burns its budget in the morning and is the stalest.
  @Test func underTheSeedsReadingTheAntiPatternIsTheStalest() {
    let names = ["poll-15m", "poll-60m", "silent-push", "hybrid", "on-demand", "anti-pattern-now"]
    var model = ModelParameters.standard
    model.reload.asap = .immediate
    model.budget.accrual = .slidingWindow
    let r = runScenario(Self.scenario(kind: Self.unpredictable, strategies: names, model: model))
    let acceptable = { (p: String) in r.summary.value(.acceptableGlancePct, in: r.summary.row(strategy: p)!)! }
    for other in names where other != "anti-pattern-now" {
      #expect(acceptable("anti-pattern-now") < acceptable(other), "anti-pattern-now vs \(other)")
    }
  }

  /// Every strategy sees the same devices, glances and data changes: the
  /// glances per local hour, per segment, and the data changes are equal
  /// across strategies, and a device's environment does not depend on what
  /// was simulated before it.
  @Test func strategiesSeeTheSameGlancesAndChanges() {
    let names = ["poll-15m", "hybrid", "bg-refresh", "anti-pattern-now"]
    let r = runScenario(Self.scenario(kind: Self.unpredictable, strategies: names, devices: 60))
    let reference = r.series[0].glancesByLocalHour
    #expect(reference.reduce(0, +) > 1000)
    for s in r.series { #expect(s.glancesByLocalHour == reference, "\(s.strategy)") }
    let changes = names.map { r.summary.value(.dataChangesPerWidgetDay, in: r.summary.row(strategy: $0)!)! }
    #expect(Set(changes).count == 1)

    let prepared = PreparedScenario(Self.scenario(kind: Self.unpredictable, strategies: names, devices: 60))
    var a = DeviceEnvironment()
    a.generate(device: 17, in: prepared)
    var b = DeviceEnvironment()
    for d in [3, 59, 0] { b.generate(device: d, in: prepared) }
    b.generate(device: 17, in: prepared)
    #expect(a.glances == b.glances && a.changes == b.changes && a.sessionStart == b.sessionStart)
  }

  /// Replications run independent seeds and give confidence half-widths.
  @Test func replicationsGiveConfidenceIntervals() {
    var s = Self.scenario(kind: Self.unpredictable, strategies: ["poll-60m", "silent-push"], devices: 40)
    s.replications = 3
    let prepared = (0..<3).map { PreparedScenario(s, replication: $0) }
    let tallies = prepared.map { p -> [StrategyTally] in
      var w = DeviceWorker(p)
      w.simulate(devices: 0..<s.devices)
      return w.tallies
    }
    let facts = RunFacts(
      scenario: s.name, description: "", toolVersion: "t", seed: s.seed, days: s.days, warmupDays: s.warmupDays,
      devices: s.devices, widgets: s.devices, fleetDevices: s.fleetDevices, replications: 3,
      strategies: ["poll-60m", "silent-push"], segments: ["users"], toleranceMinutes: 15)
    let r = ResultsBuilder.build(s, replications: tallies, facts: facts, parameters: [])
    let row = r.summary.row(strategy: "poll-60m")!
    let i = r.summary.columnIndex(.freshGlancePct)!
    let ci = row.ci95![i]!
    #expect(ci > 0 && ci < 10)
    // Replications differ (different seeds), and the pooled value lies between them.
    let perRep = tallies.map { t -> Double in
      let all = t[0].allSegments()
      return 100 * Double(all.freshGlances) / Double(all.glances)
    }
    #expect(Set(perRep).count == 3)
    #expect(row.values[i]! >= perRep.min()! && row.values[i]! <= perRep.max()!)
    // Non-headline columns get no interval.
    #expect(row.ci95![r.summary.columnIndex(.devices)!] == nil)
  }
}
