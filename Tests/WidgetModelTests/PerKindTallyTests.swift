import ReloadEngine
import ReloadMetrics
import ReloadStrategies
import Testing
import WidgetModel

/// Each widget kind counted on its own: the kinds' rows add up to the
/// `all` row where a metric adds up, a kind that goes stale shows it while
/// another does not, and a single-kind scenario has no kind rows.
@Suite struct PerKindTallyTests {
  /// Two kinds on every device, polled hourly: scores change 30 times a
  /// day with a 10-minute tolerance (they go stale), a daily quote once a
  /// day with a day's tolerance (it does not). Two segments, one with Low
  /// Power Mode, so the budget bites differently.
  static func scenario(devices: Int = 120, strategies: [String] = ["poll-60m", "poll-15m"]) -> Scenario {
    let home = Segment(
      name: "home", wakeHour: 6...8, sleepHour: 22...24, homeViewsPerDay: 40, lockViewsPerDay: 10,
      viewProfile: DailyProfile.daytime.weights, appSessionsPerDay: 2,
      widgets: [WidgetSlot(kind: 0), WidgetSlot(kind: 1)])
    var busy = home
    busy.name = "busy"
    busy.homeViewsPerDay = 90
    let scores = WidgetKindSpec(
      name: "scores", unpredictable: UnpredictableChanges(perDay: 30), tolerance: .minutes(10))
    let quote = WidgetKindSpec(
      name: "quote", unpredictable: UnpredictableChanges(perDay: 1), tolerance: .hours(24))
    return Scenario(
      name: "two-kinds", seed: 11, days: 4, warmupDays: 1, devices: devices, segments: [home, busy],
      kinds: [scores, quote], strategies: strategies.map { StrategyCatalog.preset(named: $0)!.strategy })
  }

  static func tallies(_ s: Scenario, split: Int = 1) -> [StrategyTally] {
    let prepared = PreparedScenario(s)
    // Devices simulated in `split` workers, their tallies merged as shards' are.
    let bounds = (0...split).map { $0 * s.devices / split }
    var total: [StrategyTally]? = nil
    for i in 0..<split {
      var w = DeviceWorker(prepared)
      w.simulate(devices: bounds[i]..<bounds[i + 1])
      w.flush()
      if let t = total {
        for (a, b) in zip(t, w.tallies) { a.merge(b) }
      } else {
        total = w.tallies.map { $0.copy() }
      }
    }
    return total ?? []
  }

  static func results(_ s: Scenario, _ tallies: [StrategyTally]) -> ScenarioResults {
    let facts = RunFacts(
      scenario: s.name, description: "", toolVersion: "test", seed: s.seed, days: s.days, warmupDays: s.warmupDays,
      devices: s.devices, widgets: 0, fleetDevices: s.fleetDevices, replications: 1,
      strategies: s.strategies.map(\.name), segments: s.segments.map(\.name), toleranceMinutes: 10)
    return ResultsBuilder.build(s, replications: [tallies], facts: facts, parameters: [])
  }

  @Test func kindRowsAddUpToTheAllRow() throws {
    let s = Self.scenario()
    let r = Self.results(s, Self.tallies(s))
    let t = r.summary
    // Every strategy x segment (and all) has one row per kind.
    #expect(t.kindRows.count == s.strategies.count * (s.segments.count + 1) * s.kinds.count)
    #expect(t.kinds == ["scores", "quote"])
    for row in t.rows {
      let kinds = ["scores", "quote"].map { t.row(strategy: row.strategy, segment: row.segment, kind: $0)! }
      func v(_ r: ResultRow, _ m: SummaryMetric) -> Double { t.value(m, in: r) ?? .nan }
      // Counts add up.
      for m in [SummaryMetric.widgets, .widgetDays, .glances] {
        #expect(abs(kinds.map { v($0, m) }.reduce(0, +) - v(row, m)) < 1e-6, "\(m) of \(row.segment)")
      }
      // Rates per widget-day add up weighted by widget-days, shares of
      // glances weighted by glances, shares of reloads by reloads.
      for m in [SummaryMetric.budgetedReloadsPerWidgetDay, .freeReloadsPerWidgetDay, .withheldRequestsPerWidgetDay,
        .frozenHoursPerWidgetDay, .dataChangesPerWidgetDay, .budgetLimitedHoursPerWidgetDay]
      {
        let sum = kinds.map { v($0, m) * v($0, .widgetDays) }.reduce(0, +)
        #expect(abs(sum - v(row, m) * v(row, .widgetDays)) < 1e-6 * max(1, sum), "\(m) of \(row.segment)")
      }
      for m in [SummaryMetric.freshGlancePct, .acceptableGlancePct, .placeholderGlancePct] {
        let sum = kinds.map { v($0, m) * v($0, .glances) }.reduce(0, +)
        #expect(abs(sum - v(row, m) * v(row, .glances)) < 1e-6 * max(1, sum), "\(m) of \(row.segment)")
      }
      let glancesWithData = { (r: ResultRow) in v(r, .glances) * (1 - v(r, .placeholderGlancePct) / 100) }
      let staleSum = kinds.map { v($0, .stalenessMeanMin) * glancesWithData($0) }.reduce(0, +)
      #expect(abs(staleSum - v(row, .stalenessMeanMin) * glancesWithData(row)) < 1e-6 * max(1, staleSum))
      // What a device counts has no value per kind.
      for k in kinds {
        #expect(v(k, .devices).isNaN && v(k, .appWakesPerDeviceDay).isNaN && v(k, .backendPeakRps).isNaN)
      }
    }
    // The segment tallies' own sums agree too: every glance is fresh,
    // stale or at a placeholder, and each kind's counters sum to the segment's.
    for tally in Self.tallies(s) {
      for g in tally.segments {
        #expect(g.measuredGlances == g.glances)
        let kinds = (0..<g.kindCount).map { g.kind($0) }
        #expect(kinds.map(\.freshGlances).reduce(0, +) == g.freshGlances)
        #expect(kinds.map(\.staleSumMs).reduce(0, +) == g.staleSumMs)
        #expect(kinds.map(\.frozenWidgetDays).reduce(0, +) == g.frozenWidgetDays)
        #expect(kinds.map(\.budgetRequests).reduce(0, +) == g.budgetRequests)
        var histogram = LogHistogram()
        for k in kinds { histogram.merge(k.staleness) }
        #expect(histogram == g.staleness)
      }
    }
  }

  @Test func theKindThatGoesStaleShowsItAndTheOtherDoesNot() {
    let s = Self.scenario(strategies: ["poll-60m"])
    let t = Self.results(s, Self.tallies(s)).summary
    let scores = t.value(.acceptableGlancePct, in: t.row(strategy: "poll-60m", kind: "scores")!)!
    let quote = t.value(.acceptableGlancePct, in: t.row(strategy: "poll-60m", kind: "quote")!)!
    let all = t.value(.acceptableGlancePct, in: t.row(strategy: "poll-60m")!)!
    // Hourly polls cannot keep 10-minute scores within tolerance; a daily
    // quote with a day's tolerance always is.
    #expect(scores < EvidenceScoring.acceptablePct)
    #expect(quote > 99)
    #expect(scores < all && all < quote)
    #expect(EvidenceScoring.has(.stale, frozenWidgetDayPct: nil, acceptableGlancePct: scores) == true)
    #expect(EvidenceScoring.has(.fine, frozenWidgetDayPct: nil, acceptableGlancePct: quote) == true)
  }

  @Test func kindTalliesMergeExactlyAcrossWorkers() {
    let s = Self.scenario(devices: 90)
    let one = Self.results(s, Self.tallies(s, split: 1)).summary
    let three = Self.results(s, Self.tallies(s, split: 3)).summary
    #expect(one.kindRows == three.kindRows)
    #expect(one.rows == three.rows)
  }

  @Test func aScenarioWithOneKindHasNoKindRows() {
    var s = Self.scenario(devices: 30)
    s.kinds = [s.kinds[0]]
    for i in s.segments.indices { s.segments[i].widgets = [WidgetSlot(kind: 0)] }
    let t = Self.results(s, Self.tallies(s)).summary
    #expect(t.kindRows.isEmpty)
    #expect(t.kinds.isEmpty)
    #expect(t.row(strategy: "poll-60m", kind: "scores") == nil)
  }
}
