import ReloadEngine
import ReloadMetrics
import Testing
import WidgetModel

/// Each metric's definition on a hand-built device whose answer is known:
/// glance and change times are written in, not drawn.
@Suite struct MetricDefinitionTests {
  static let hour: Int64 = 3_600_000

  /// One device, one per-user widget, no views or sessions of its own:
  /// the test writes the glances and changes.
  static func scenario(
    strategy: Strategy, days: Double, devices: Int = 1,
    budget: BudgetParameters = .init(accrual: .slidingWindow, minInterval: .zero),
    fleet: Double? = nil
  ) -> Scenario {
    let segment = Segment(
      name: "s", wakeHour: 0...0, sleepHour: 24...24, homeViewsPerDay: 0, lockViewsPerDay: 0,
      appSessionsPerDay: 0, widgets: [WidgetSlot(kind: 0)])
    let kind = WidgetKindSpec(name: "k", unpredictable: UnpredictableChanges(perDay: 1), tolerance: .minutes(30))
    var model = ModelParameters.standard
    model.budget = budget
    model.reload = ReloadTiming(lateness: .constant(.zero), whileAsleep: .run, firstRequestSpread: .milliseconds(1))
    model.pinHandComputedRules()
    return Scenario(
      name: "hand-built", seed: 1, days: days, warmupDays: 0, devices: devices, fleetDevices: fleet,
      segments: [segment], kinds: [kind], strategies: [strategy], model: model)
  }

  /// Runs `scenario` with every device's glances and changes replaced.
  static func run(_ scenario: Scenario, glances: [Int64], changes: [Int64]) -> ScenarioResults {
    run(scenario, provider: scenario.strategies[0].timeline, glances: glances, changes: changes)
  }

  /// The same with the strategy's timelines given by `provider`.
  static func run<P: TimelineProvider>(_ scenario: Scenario, provider: P, glances: [Int64], changes: [Int64])
    -> ScenarioResults
  {
    let prepared = PreparedScenario(scenario)
    var sim = DeviceSimulator(prepared: prepared, strategy: scenario.strategies[0], provider: provider)
    var env = DeviceEnvironment()
    for d in 0..<scenario.devices {
      env.generate(device: d, in: prepared)
      env.glances = glances.map { SimTime(milliseconds: $0) }
      env.glanceStart = [0, glances.count]
      env.changes = changes.map { SimTime(milliseconds: $0) }
      env.changeStart = [0, changes.count]
      env.measuredChanges = [changes.count]
      env.taps = []
      env.tapStart = [0, 0]
      sim.run(env)
    }
    sim.flush()
    let facts = RunFacts(
      scenario: "hand-built", description: "", toolVersion: "test", seed: 1, days: scenario.days, warmupDays: 0,
      devices: scenario.devices, widgets: scenario.devices, fleetDevices: scenario.fleetDevices, replications: 1,
      strategies: [scenario.strategies[0].name], segments: ["s"], toleranceMinutes: 30)
    return ResultsBuilder.build(scenario, replications: [[sim.tally]], facts: facts, parameters: [])
  }

  static func value(_ r: ScenarioResults, _ metric: SummaryMetric) -> Double {
    r.summary.value(metric, in: r.summary.overallRows[0]) ?? .nan
  }

  static let never = Strategy(name: "never", timeline: EntryTimeline(entries: 1, dating: .spaced, policy: .never))

  /// Staleness is 0 when the widget shows current data, else the time since
  /// the first change it does not show; acceptable means within tolerance.
  @Test func stalenessFreshnessAndAcceptability() {
    let h = Self.hour
    // Captured at t = 0 and never reloaded; changes at 1.5 h and 4 h.
    let r = Self.run(
      Self.scenario(strategy: Self.never, days: 0.25),
      glances: [1 * h, 2 * h, 3 * h, 5 * h], changes: [3 * h / 2, 4 * h])
    // Staleness: 0, 30, 90, 210 minutes.
    #expect(Self.value(r, .glances) == 4)
    #expect(Self.value(r, .freshGlancePct) == 25)
    #expect(Self.value(r, .acceptableGlancePct) == 50)  // 0 and 30 <= 30 min
    #expect(Self.value(r, .stalenessMeanMin) == 82.5)
    #expect(Self.value(r, .staleGlanceStalenessMeanMin) == 110)
    // Percentiles come from the log histogram: within its 1/32 bucket width.
    #expect(abs(Self.value(r, .stalenessP99Min) - 210) / 210 < 0.035)
    #expect(abs(Self.value(r, .stalenessP95Min) - 210) / 210 < 0.035)
    #expect(Self.value(r, .reloadsPerWidgetDay) == 0)
    #expect(Self.value(r, .dataChangesPerWidgetDay) == 8)  // 2 changes in 0.25 days
  }

  /// A reload captures every change before it; a reload that captures
  /// nothing new is wasted.
  @Test func reloadsCaptureChangesAndWastedReloadsCaptureNothing() {
    let h = Self.hour
    let poll2h = Strategy(
      name: "poll-2h", timeline: EntryTimeline(entries: 1, dating: .spaced, policy: .after(.hours(2))))
    // Reloads at 0, 2, 4, 6 h (the first request is spread over 1 ms).
    let r = Self.run(
      Self.scenario(strategy: poll2h, days: 7.0 / 24),
      glances: [1 * h, 3 * h, 5 * h], changes: [3 * h / 2, 4 * h])
    #expect(Self.value(r, .budgetedReloadsPerWidgetDay) == 4 / (7.0 / 24))
    #expect(Self.value(r, .freshGlancePct) == 100)  // the 4 h change is captured by the 4 h reload
    // Wasted: the reloads at 0 h and 6 h captured nothing new; the ones at
    // 2 h and 4 h changed what the widget shows (the 1.5 h and 4 h changes).
    #expect(Self.value(r, .wastedReloadPct) == 50)
    #expect(Self.value(r, .changedReloadPct) == 50)
    #expect(Self.value(r, .extensionLaunchesPerWidgetDay) == 4 / (7.0 / 24))
    // One timeline fetch per reload.
    #expect(Self.value(r, .backendRequestsPerWidgetDay) == 4 / (7.0 / 24))
    // Energy: 4 extension launches x 15 mJ + 4 fetches x 40 mJ, per device-day.
    #expect(abs(Self.value(r, .energyMjPerDeviceDay) - 220 / (7.0 / 24)) < 1e-9)
  }

  /// Dry: a budgeted request found the budget empty; the widget stays dry
  /// until the oldest reload leaves the 24 h window.
  @Test func dryHoursDaysAndTheHourItRanDry() {
    let poll1h = Strategy(
      name: "poll-1h", timeline: EntryTimeline(entries: 1, dating: .spaced, policy: .after(.hours(1))))
    let budget = BudgetParameters(
      accrual: .slidingWindow, maxPerDay: 2, minPerDay: 1, fullBudgetViewsPerDay: 0, minInterval: .zero)
    // Reloads at 0 h, 1 h; refused at 2 h until 24 h; reloads 24 h, 25 h;
    // refused at 26 h until 48 h.
    let r = Self.run(Self.scenario(strategy: poll1h, days: 2, budget: budget), glances: [], changes: [])
    #expect(Self.value(r, .budgetedReloadsPerWidgetDay) == 2)
    #expect(Self.value(r, .withheldRequestsPerWidgetDay) == 1)
    #expect(Self.value(r, .frozenWidgetDayPct) == 100)
    #expect(Self.value(r, .frozenHoursPerWidgetDay) == 22)
    #expect(abs(Self.value(r, .firstFrozenHourMedian) - 2) < 0.1)
  }

  /// Budget left is sampled at every local hour: the reloads a widget could
  /// make from then to the end of the hour after it (docs/model.md#budget-left).
  /// Polling every 3 h on a budget of 10 (reloads at 0, 3, ..., 21 h each
  /// day; a reload at a sample's own time counts as spent).
  @Test func budgetLeftOfASlidingWindowAtEachLocalHour() {
    let poll3h = Strategy(
      name: "poll-3h", timeline: EntryTimeline(entries: 1, dating: .spaced, policy: .after(.hours(3))))
    let budget = BudgetParameters(
      accrual: .slidingWindow, maxPerDay: 10, minPerDay: 1, fullBudgetViewsPerDay: 0, minInterval: .zero)
    let r = Self.run(Self.scenario(strategy: poll3h, days: 2, budget: budget), glances: [], changes: [])
    let bands = r.series[0].budgetLeftByLocalHour
    #expect(bands.count == 24)
    for h in 0..<24 {
      // Day 0 at h:00: the reloads at 0, 3, ..., 3 x (h / 3) are spent.
      // At 23:00 the slot of 00:00 frees within the hour, at midnight.
      let day0 = Double(10 - (h / 3 + 1) + (h == 23 ? 1 : 0))
      // Day 1: the window (h + 1 h - 24 h, h] holds 8 reloads, or 7 when
      // the hour after the sample frees the slot of day 0's reload at h + 1.
      let day1: Double = h % 3 == 2 ? 3 : 2
      // Two samples per hour: the 10th and 50th percentiles are the
      // smaller, the 90th the larger.
      #expect(bands[h].p10 == min(day0, day1), "hour \(h)")
      #expect(bands[h].p50 == min(day0, day1), "hour \(h)")
      #expect(bands[h].p90 == max(day0, day1), "hour \(h)")
    }
  }

  /// A token bucket's budget left is the whole tokens in it at the sample
  /// plus the hour's refill. Budget 10 a day refills 10/24 = 0.42 of a token
  /// an hour up to 2.5 tokens; polling every 3 h takes one at 0, 3, ..., 21 h:
  /// after each reload the bucket holds 1.5 (read 1.92: 1), an hour later
  /// 1.92 (2.33: 2), two hours 2.33 (2.75: 2).
  /// The samples before a request are read as they were then, not after
  /// the request's budget check refills the bucket to its own time.
  @Test func budgetLeftOfATokenBucketAtEachLocalHour() {
    let poll3h = Strategy(
      name: "poll-3h", timeline: EntryTimeline(entries: 1, dating: .spaced, policy: .after(.hours(3))))
    let budget = BudgetParameters(
      accrual: .tokenBucket, maxPerDay: 10, minPerDay: 1, fullBudgetViewsPerDay: 0, minInterval: .zero)
    let r = Self.run(Self.scenario(strategy: poll3h, days: 2, budget: budget), glances: [], changes: [])
    let bands = r.series[0].budgetLeftByLocalHour
    for h in 0..<24 {
      let left: Double = h % 3 == 0 ? 1 : 2
      #expect(bands[h].p10 == left && bands[h].p50 == left && bands[h].p90 == left, "hour \(h): \(bands[h])")
    }
  }

  /// A provider that shows a placeholder until its first reload at 2 h,
  /// then data with no further reload.
  struct PlaceholderFirst: TimelineProvider {
    func timeline(for request: TimelineRequest) -> Timeline {
      request.now < SimTime.zero + .hours(1)
        ? Timeline(entries: .now, policy: .afterDate(.zero + .hours(2)), placeholder: true)
        : Timeline(entries: .now, policy: .never)
    }
    func firstRequestSpread(kind: Int) -> SimDuration { .milliseconds(1) }
    // Turns on the per-reload bookkeeping that tracks placeholders.
    var usesRandomDraw: Bool { true }
    static var makesReloadCalls: Bool { false }
  }

  /// A placeholder glance is neither fresh nor stale: counted apart, never
  /// within tolerance, left out of staleness and of the stale-glance counts.
  /// The reload that replaces the placeholder with data changed the widget.
  @Test func placeholderGlancesAreApartFromStaleOnes() {
    let h = Self.hour
    // Placeholder from t = 0: the first request (t = 0) is a reload that
    // still shows it; the reload at 2 h shows data. Changes at 0.5 h and
    // 2.5 h. Glances: 1 h and 1.5 h at the placeholder, 2.25 h fresh, 3 h
    // stale for 30 min.
    let r = Self.run(
      Self.scenario(strategy: Self.never, days: 4.0 / 24), provider: PlaceholderFirst(),
      glances: [1 * h, 3 * h / 2, 9 * h / 4, 3 * h], changes: [h / 2, 5 * h / 2])
    #expect(Self.value(r, .glances) == 4)
    #expect(Self.value(r, .placeholderGlancePct) == 50)
    #expect(Self.value(r, .freshGlancePct) == 25)
    #expect(Self.value(r, .acceptableGlancePct) == 50)  // the fresh one and the one 30 min stale
    #expect(Self.value(r, .staleGlanceStalenessMeanMin) == 30)  // the one stale glance
    #expect(Self.value(r, .stalenessMeanMin) == 15)  // over the two glances that showed data
    #expect(abs(Self.value(r, .stalenessP99Min) - 30) / 30 < 0.035)
    let s = r.series[0]
    #expect(s.glancesByLocalHour[1] == 2 && s.staleGlancesByLocalHour[1] == 0)
    #expect(s.glancesByLocalHour[3] == 1 && s.staleGlancesByLocalHour[3] == 1)
    #expect(s.hourly[.staleGlances].reduce(0, +) == 1)
    // Reloads at 0 (placeholder again: nothing changed) and 2 h (data).
    #expect(Self.value(r, .budgetedReloadsPerWidgetDay) == 2 * 6)
    #expect(Self.value(r, .changedReloadPct) == 50)
  }

  /// The backend peak is the busiest UTC second, scaled to the fleet.
  @Test func backendPeakIsTheBusiestSecondScaledToTheFleet() {
    let poll1h = Strategy(
      name: "poll-1h", timeline: EntryTimeline(entries: 1, dating: .spaced, policy: .after(.hours(1))))
    // 10 devices reload in the same second every hour; the fleet is 100x.
    let budget = BudgetParameters(accrual: .slidingWindow, fullBudgetViewsPerDay: 0, minInterval: .zero)
    let r = Self.run(
      Self.scenario(strategy: poll1h, days: 0.5, devices: 10, budget: budget, fleet: 1000), glances: [], changes: [])
    #expect(Self.value(r, .backendPeakRps) == 1000)
    #expect(abs(Self.value(r, .backendPeakMinuteRps) - 1000.0 / 60) < 1e-9)
    // A run shorter than a day has no whole local day to call dry or not.
    #expect(r.summary.value(.frozenWidgetDayPct, in: r.summary.overallRows[0]) == nil)
    // 12 requests per device in 12 h, over 43,200 s, scaled x100.
    #expect(abs(Self.value(r, .backendMeanRps) - 12.0 * 10 / 43_200 * 100) < 1e-9)
  }

  /// A newly added widget gets its first timeline from a free reload.
  @Test func addingAWidgetIsAFreeReload() {
    var s = TestScenarios.r1(devices: 200, days: 6)
    s.strategies = [Self.never]
    s.segments[0].widgetAddsPer30Days = 60  // about twice a day
    let r = runScenario(s)
    let row = r.summary.row(strategy: "never")!
    let free = r.summary.value(.freeReloadsPerWidgetDay, in: row)!
    #expect(abs(free - 2) < 0.2, "\(free) free reloads a day from 2 adds a day")
    #expect(r.summary.value(.budgetedReloadsPerWidgetDay, in: row)! == 0)
  }

  /// A locale, Dynamic Type, accessibility or time-zone change reloads
  /// every widget for free (docs/model.md#device-restart); so does a
  /// restart, whose reload a widget that fetches can always read.
  @Test(arguments: [false, true])
  func aSettingsChangeOrARestartReloadsEveryWidgetForFree(restart: Bool) {
    var s = TestScenarios.r1(devices: 200, days: 6)
    s.strategies = [Self.never]
    s.segments[0].widgets.append(s.segments[0].widgets[0])  // two widgets a device
    if restart { s.segments[0].restartsPer30Days = 30 } else { s.segments[0].settingsChangesPer30Days = 30 }
    let r = runScenario(s)
    let row = r.summary.row(strategy: "never")!
    let free = r.summary.value(.freeReloadsPerWidgetDay, in: row)!
    #expect(abs(free - 1) < 0.15, "\(free) free reloads a widget-day from one change a day")
    #expect(r.summary.value(.budgetedReloadsPerWidgetDay, in: row)! == 0)
    #expect(r.summary.value(.placeholderGlancePct, in: row)! == 0)
  }

  /// Per-segment rows add up to the `all` row for counts.
  @Test func segmentRowsAddUpToTheAllRow() {
    var s = TestScenarios.r1(devices: 60, days: 2)
    var second = s.segments[0]
    second.name = "other"
    second.homeViewsPerDay = 20
    s.segments.append(second)
    let r = runScenario(s)
    let t = r.summary
    for metric in [SummaryMetric.devices, .widgets, .glances] {
      let parts = ["r1", "other"].map { t.value(metric, in: t.row(strategy: "poll-15m", segment: $0)!)! }
      #expect(parts.reduce(0, +) == t.value(metric, in: t.row(strategy: "poll-15m")!)!, "\(metric)")
    }
  }
}
