import ReloadEngine
import ReloadMetrics
import Testing
import WidgetModel

/// Each construct of the strategy language (Scenarios/README.md, "Writing
/// your strategy") run on hand-built devices whose sessions, glances and
/// changes are written in, checked by its effect on the counters.
@Suite struct StrategyLanguageTests {
  static let hour: Int64 = 3_600_000
  static let minute: Int64 = 60_000

  /// One device with one widget of kind "a" (and `extra` more slots),
  /// nothing drawn: sessions, glances and changes come from `device`. Its
  /// clock is `utcOffset` hours from UTC, awake `wake`..`sleep` local; a
  /// budget of 70 for every widget, no lateness.
  static func scenario(
    _ strategy: Strategy, days: Double = 4, kinds: [WidgetKindSpec]? = nil, slots: [WidgetSlot] = [WidgetSlot(kind: 0)],
    utcOffset: Double = 2, wake: Int = 0, sleep: Int = 24, model: (inout ModelParameters) -> Void = { _ in }
  ) -> Scenario {
    let segment = Segment(
      name: "s", utcOffsets: [WeightedOffset(hours: utcOffset, weight: 1)], wakeHour: wake...wake,
      sleepHour: sleep...sleep, homeViewsPerDay: 0, lockViewsPerDay: 0, appSessionsPerDay: 0, widgets: slots)
    var m = ModelParameters.standard
    m.budget = BudgetParameters(accrual: .slidingWindow, maxPerDay: 70, minPerDay: 70, fullBudgetViewsPerDay: 0)
    m.reload = ReloadTiming(lateness: .constant(.zero), whileAsleep: .run, firstRequestSpread: .milliseconds(1))
    m.pinHandComputedRules()
    model(&m)
    return Scenario(
      name: "hand-built", seed: 1, days: days, warmupDays: 0, devices: 1, segments: [segment],
      kinds: kinds ?? [
        WidgetKindSpec(name: "a", unpredictable: UnpredictableChanges(perDay: 1), tolerance: .minutes(30))
      ],
      strategies: [strategy], model: m)
  }

  struct Device {
    var sessions: [(Int64, Int64)] = []
    var audio: [(Int64, Int64)] = []
    /// Taps on the first widget's button.
    var taps: [Int64] = []
    var forceQuit: [Bool]? = nil
    var glances: [Int64] = []
    var changes: [Int64] = []
    var backgroundRefreshOff = false
    /// Device restarts (docs/model.md#device-restart).
    var restarts: [Int64] = []
  }

  /// Runs `scenario`'s first strategy on one device described by `device`.
  static func run(_ scenario: Scenario, _ device: Device) -> ScenarioResults {
    let prepared = PreparedScenario(scenario)
    let strategy = scenario.strategies[0]
    var sim = DeviceSimulator(
      prepared: prepared, strategy: strategy, provider: StrategyTimelines(strategy, kinds: scenario.kinds.count))
    var env = DeviceEnvironment()
    env.generate(device: 0, in: prepared)
    let n = env.widgetCount
    env.glances = (0..<n).flatMap { _ in device.glances.map { SimTime(milliseconds: $0) } }
    env.glanceStart = (0...n).map { $0 * device.glances.count }
    env.changeStart = (0...scenario.kinds.count).map { $0 == 0 ? 0 : device.changes.count }
    env.changes = device.changes.map { SimTime(milliseconds: $0) }
    env.measuredChanges = scenario.kinds.indices.map { $0 == 0 ? device.changes.count : 0 }
    env.sessionStart = device.sessions.map { SimTime(milliseconds: $0.0) }
    env.sessionEnd = device.sessions.map { SimTime(milliseconds: $0.1) }
    env.sessionForceQuit = device.forceQuit ?? device.sessions.map { _ in false }
    env.audioStart = device.audio.map { SimTime(milliseconds: $0.0) }
    env.audioEnd = device.audio.map { SimTime(milliseconds: $0.1) }
    env.lowPowerStart = []
    env.lowPowerEnd = []
    env.backgroundRefreshOff = device.backgroundRefreshOff
    env.taps = device.taps.map { SimTime(milliseconds: $0) }
    env.tapStart = (0...n).map { $0 == 0 ? 0 : device.taps.count }
    env.adds = []
    env.addStart = [Int](repeating: 0, count: n + 1)
    env.settingsChanges = []
    env.restarts = device.restarts.map { SimTime(milliseconds: $0) }
    sim.run(env)
    sim.flush()
    let facts = RunFacts(
      scenario: "hand-built", description: "", toolVersion: "test", seed: 1, days: scenario.days, warmupDays: 0,
      devices: 1, widgets: n, fleetDevices: 1, replications: 1, strategies: [strategy.name], segments: ["s"],
      toleranceMinutes: 30)
    return ResultsBuilder.build(scenario, replications: [[sim.tally]], facts: facts, parameters: [])
  }

  static func total(_ r: ScenarioResults, _ metric: SummaryMetric) -> Double {
    let row = r.summary.overallRows[0]
    let perDay = r.summary.value(metric, in: row) ?? .nan
    guard metric.metric.unit == .perWidgetDay else { return perDay }
    return (perDay * (r.summary.value(.widgetDays, in: row) ?? .nan)).rounded()
  }

  static let never = EntryTimeline(entries: 1, dating: .spaced, policy: .never)
  /// Three sessions on day 1 (09:00, 13:00, 19:00 UTC, 10 minutes each).
  static let threeSessions: [(Int64, Int64)] = [9, 13, 19].map { (($0 + 24) * hour, ($0 + 24) * hour + 10 * minute) }

  // MARK: - App-side triggers

  @Test func foregroundTriggerIsFreeAndBackgroundTriggerIsBudgeted() {
    let fg = Strategy(name: "fg", timeline: Self.never, triggers: [AppTrigger(on: .foreground)])
    let bg = Strategy(name: "bg", timeline: Self.never, triggers: [AppTrigger(on: .background)])
    let a = Self.run(Self.scenario(fg), Device(sessions: Self.threeSessions))
    let b = Self.run(Self.scenario(bg), Device(sessions: Self.threeSessions))
    #expect(Self.total(a, .freeReloadsPerWidgetDay) == 3)
    #expect(Self.total(a, .budgetedReloadsPerWidgetDay) == 0)
    #expect(Self.total(b, .budgetedReloadsPerWidgetDay) == 3)
    #expect(Self.total(b, .freeReloadsPerWidgetDay) == 0)
  }

  @Test func enterBackgroundRuleIsAParameter() {
    let bg = Strategy(name: "bg", timeline: Self.never, triggers: [AppTrigger(on: .background)])
    let free = Self.run(
      Self.scenario(bg) { $0.appReload.enterBackground = .free }, Device(sessions: Self.threeSessions))
    #expect(Self.total(free, .freeReloadsPerWidgetDay) == 3)
    #expect(Self.total(free, .budgetedReloadsPerWidgetDay) == 0)
  }

  @Test func aDelayedForegroundCallAfterTheSessionIsBudgeted() {
    // The call comes 15 minutes after launch; the session lasted 10.
    let late = Strategy(
      name: "late", timeline: Self.never, triggers: [AppTrigger(on: .foreground, delay: .minutes(15))])
    let soon = Strategy(name: "soon", timeline: Self.never, triggers: [AppTrigger(on: .foreground, delay: .minutes(5))])
    let a = Self.run(Self.scenario(late), Device(sessions: Self.threeSessions))
    let b = Self.run(Self.scenario(soon), Device(sessions: Self.threeSessions))
    #expect(Self.total(a, .budgetedReloadsPerWidgetDay) == 3)
    #expect(Self.total(b, .freeReloadsPerWidgetDay) == 3)
  }

  @Test func oneCallReloadsEveryInstanceOfItsKindOnly() {
    let kinds = [
      WidgetKindSpec(name: "a", unpredictable: UnpredictableChanges(perDay: 1)),
      WidgetKindSpec(name: "b", unpredictable: UnpredictableChanges(perDay: 1)),
    ]
    let s = Strategy(name: "k", timeline: Self.never, triggers: [AppTrigger(on: .background, kinds: KindSet([0]))])
    let r = Self.run(
      Self.scenario(s, kinds: kinds, slots: [WidgetSlot(kind: 0, count: 3), WidgetSlot(kind: 1, count: 2)]),
      Device(sessions: Self.threeSessions))
    // 3 sessions x 3 instances of "a"; "b" untouched.
    #expect(Self.total(r, .budgetedReloadsPerWidgetDay) == 9)
  }

  @Test func aBurstCostsOneReloadPerCallOrOneByTheBurstParameter() {
    let s = Strategy(
      name: "burst", timeline: Self.never, triggers: [AppTrigger(on: .background, calls: 3, spacing: .seconds(60))])
    let each = Self.run(Self.scenario(s), Device(sessions: Self.threeSessions))
    let one = Self.run(
      Self.scenario(s) {
        $0.appReload.burst = .one
        $0.appReload.burstWindow = .minutes(5)
      }, Device(sessions: Self.threeSessions))
    #expect(Self.total(each, .budgetedReloadsPerWidgetDay) == 9)
    #expect(Self.total(one, .budgetedReloadsPerWidgetDay) == 3)
  }

  @Test func inAppEventsPerSessionCallWhileTheAppIsOpen() {
    // 200 one-hour sessions over 10 days, 2 events per session on average.
    let sessions = (0..<200).map { i -> (Int64, Int64) in
      let start = Int64(i) * (Self.hour * 12 / 10) + Self.hour
      return (start, start + Self.hour)
    }
    let s = Strategy(name: "save", timeline: Self.never, triggers: [AppTrigger(on: .inApp, perSession: 2)])
    let r = Self.run(Self.scenario(s, days: 11), Device(sessions: sessions))
    let free = Self.total(r, .freeReloadsPerWidgetDay)
    // Poisson(400): within 5 standard deviations.
    #expect(abs(free - 400) < 100, "free reloads \(free)")
    #expect(Self.total(r, .budgetedReloadsPerWidgetDay) == 0)
  }

  // MARK: - Timelines

  @Test func afterALocalClockTimeReloadsOnceADayAtIt() {
    // .after(00:15 local) on a device at UTC+2: 22:15 UTC every day.
    let s = Strategy(
      name: "midnight",
      timeline: EntryTimeline(entries: 1, dating: .spaced, policy: .atLocalTime(ClockWindow(at: 0, 15))))
    let r = Self.run(Self.scenario(s, days: 5), Device())
    let hourly = r.series[0].hourly[.budgetedReloads]
    // (The first request, spread to t = 0 by the test's model, aside.)
    let busy = hourly.indices.filter { hourly[$0] > 0 && $0 > 0 }
    #expect(busy.allSatisfy { $0 % 24 == 22 }, "reload hours \(busy)")
    #expect(busy.count == 5)
    #expect(busy.allSatisfy { hourly[$0] == 1 })
  }

  @Test func aRandomTimeInAWindowStaysInTheWindow() {
    let s = Strategy(
      name: "window",
      timeline: EntryTimeline(
        entries: 1, dating: .spaced, policy: .atLocalTime(ClockWindow(fromMinute: 0, toMinute: 30))))
    let r = Self.run(Self.scenario(s, days: 8), Device())
    let hourly = r.series[0].hourly[.budgetedReloads]
    let busy = hourly.indices.filter { hourly[$0] > 0 && $0 > 0 }
    #expect(busy.allSatisfy { $0 % 24 == 22 } && busy.count == 8, "reload hours \(busy)")
  }

  @Test func oneEntryAtAnOffsetWithAtEndAsksAgainAtThatOffset() {
    // DuckDuckGo's VPN widget: one entry dated now + 5 min, .atEnd: 288 a day
    // asked, the budget (70) granted.
    let s = Strategy(
      name: "vpn", timeline: EntryTimeline(entries: 1, spacing: .minutes(5), dating: .offset, policy: .atEnd))
    let r = Self.run(Self.scenario(s, days: 3), Device())
    let perDay = MetricDefinitionTests.value(r, .budgetedReloadsPerWidgetDay)
    #expect(perDay > 65 && perDay <= 71, "budgeted per day \(perDay)")
    #expect(MetricDefinitionTests.value(r, .withheldRequestsPerWidgetDay) > 0)
  }

  @Test func aFirstEntryDatedAheadIsShownFromItsDate() {
    // Clouds: one entry dated now + 15 min with .atEnd. A change at 30:00
    // (UTC); the reload after it fetches the new data, whose entry is
    // dated 15 minutes later (docs/model.md#future-first-entry).
    let t = EntryTimeline(entries: 1, spacing: .minutes(15), dating: .offset, policy: .atEnd)
    let change: Int64 = 30 * Self.hour
    // Glances every minute from 29:50 to 30:59.
    let glances = (0..<70).map { 29 * Self.hour + 50 * Self.minute + Int64($0) * Self.minute }
    let device = Device(glances: glances, changes: [change])
    func run(_ rule: ReloadTiming.FutureFirstEntry) -> ScenarioResults {
      Self.run(
        Self.scenario(Strategy(name: "clouds", timeline: t), days: 2) {
          $0.reload.asap = .immediate
          $0.reload.futureFirstEntry = rule
        }, device)
    }
    let kept = run(.keepsShown)
    let early = run(.shownAtOnce)
    // Reloads every 15 minutes either way (the budget allows 70 a day:
    // the sliding window spends them by about 17:30 of day 0, then one
    // every ~20.6 min), asked at each entry's date.
    #expect(Self.total(kept, .budgetedReloadsPerWidgetDay) == Self.total(early, .budgetedReloadsPerWidgetDay))
    // The change is stale for longer when the data shows only at its
    // entry's date: each glance sees the entry of the reload before last.
    let keptStale = 100 - MetricDefinitionTests.value(kept, .freshGlancePct)
    let earlyStale = 100 - MetricDefinitionTests.value(early, .freshGlancePct)
    #expect(keptStale > earlyStale, "stale glances: kept \(keptStale) %, at once \(earlyStale) %")
    // The delay is one entry's offset: 15 more stale glances (minutes).
    #expect(abs((keptStale - earlyStale) * 70 / 100 - 15) <= 1, "kept \(keptStale) %, at once \(earlyStale) %")
  }

  @Test func aRestartReloadsEveryWidgetForFreeAndProtectedDataCannotBeReadBeforeTheFirstUnlock() {
    // SideStore: a cache-reading widget with one entry a day at midnight;
    // on a failed read, one entry with a placeholder (the "zero") and .atEnd.
    let day = EntryTimeline(
      entries: 1, dating: .spaced, policy: .atLocalTime(ClockWindow(at: 0)),
      onFailure: FailureBranch(policy: .atEnd, placeholder: true))
    let strategy = Strategy(
      name: "sidestore", timeline: day, kinds: [KindStrategy(timeline: day, data: .appCache)])
    let kinds = [WidgetKindSpec(name: "a", tolerance: .hours(24))]
    // A restart at 34:00 UTC; glances every 5 minutes for an hour after it.
    let restart: Int64 = 34 * Self.hour
    let glances = (1...12).map { restart + Int64($0) * 5 * Self.minute }
    let device = Device(glances: glances, restarts: [restart])
    // The segment says its devices restart (the one restart is written in).
    func restarting(_ s: Scenario) -> Scenario {
      var s = s
      s.segments[0].restartsPer30Days = 1
      return s
    }
    func run(_ rule: ReloadTiming.AtRestart) -> ScenarioResults {
      Self.run(
        restarting(
          Self.scenario(strategy, days: 3, kinds: kinds) {
            $0.reload.asap = .paced
            $0.reload.atRestart = rule
          }), device)
    }
    let locked = run(.beforeFirstUnlock)
    let unlocked = run(.afterFirstUnlock)
    let none = run(.none)
    // The restart's reload is free under both readings; none without one.
    #expect(Self.total(locked, .freeReloadsPerWidgetDay) == 1)
    #expect(Self.total(unlocked, .freeReloadsPerWidgetDay) == 1)
    #expect(Self.total(none, .freeReloadsPerWidgetDay) == 0)
    // Before the first unlock the App Group file cannot be read: the
    // placeholder shows until the paced .atEnd request (24 h / 70 = 20.6
    // min) reads it: four glances of twelve.
    #expect(abs(MetricDefinitionTests.value(locked, .placeholderGlancePct) - 100.0 * 4 / 12) < 1e-9)
    #expect(MetricDefinitionTests.value(unlocked, .placeholderGlancePct) == 0)
    #expect(MetricDefinitionTests.value(none, .placeholderGlancePct) == 0)
    // The failed read reaches no backend, and it is followed by a budgeted reload.
    #expect(Self.total(locked, .budgetedReloadsPerWidgetDay) == Self.total(none, .budgetedReloadsPerWidgetDay) + 1)
    // A kind that fetches (and needs nothing locked) reads through a restart.
    let fetching = Strategy(name: "fetch", timeline: day, kinds: [KindStrategy(timeline: day, data: .fetch)])
    let f = Self.run(restarting(Self.scenario(fetching, days: 3, kinds: kinds) { $0.reload.asap = .paced }), device)
    #expect(MetricDefinitionTests.value(f, .placeholderGlancePct) == 0)
    #expect(Self.total(f, .freeReloadsPerWidgetDay) == 1)
  }

  @Test func aProviderWithAMaximumAgeFetchesOnlyWhenItsDataIsThatOld() {
    // Polling every 15 minutes, but the provider fetches only when what it
    // fetched last is an hour old (docs/model.md#max-age).
    let poll = EntryTimeline(entries: 1, dating: .spaced, policy: .after(.minutes(15)))
    let plain = Strategy(name: "poll", timeline: poll)
    let aged = Strategy(name: "aged", timeline: poll, kinds: [KindStrategy(timeline: poll, maxAge: .hours(1))])
    let glances = (0..<48).map { 24 * Self.hour + Int64($0) * 30 * Self.minute }
    let changes = (0..<24).map { 24 * Self.hour + Int64($0) * Self.hour + 7 * Self.minute }
    let device = Device(glances: glances, changes: changes)
    let a = Self.run(Self.scenario(plain, days: 3), device)
    let b = Self.run(Self.scenario(aged, days: 3), device)
    // The same reloads; a quarter of them reach the backend.
    let reloads = Self.total(b, .budgetedReloadsPerWidgetDay)
    #expect(reloads == Self.total(a, .budgetedReloadsPerWidgetDay))
    #expect(Self.total(a, .backendRequestsPerWidgetDay) == reloads)
    let requests = Self.total(b, .backendRequestsPerWidgetDay)
    #expect(abs(requests - reloads / 4) <= 2, "requests \(requests) of \(reloads) reloads")
    // And the widget is further behind: a change waits up to an hour.
    #expect(
      MetricDefinitionTests.value(b, .freshGlancePct) < MetricDefinitionTests.value(a, .freshGlancePct))
  }

  @Test(arguments: [1 as UInt64, 2, 3])
  func changesTheRunningAppMakesHappenOnlyInItsSessions(seed: UInt64) {
    // A podcast player's now playing: a change as playback starts and two
    // an hour while it plays (docs/model.md#session-changes).
    let kinds = [
      WidgetKindSpec(name: "episode", sessionChanges: SessionChanges(session: .audio, atStart: true, perHour: 2))
    ]
    var scenario = Self.scenario(Strategy(name: "s", timeline: EntryTimeline(policy: .never)), days: 30, kinds: kinds)
    scenario.seed = seed
    scenario.segments[0].audioSessionsPerDay = 3
    scenario.segments[0].audioLength = .logNormal(median: .minutes(40), sigma: 0.5)
    let prepared = PreparedScenario(scenario)
    var env = DeviceEnvironment()
    env.generate(device: 0, in: prepared)
    let changes = env.changes[env.changeStart[0]..<env.changeStart[1]]
    let sessions = zip(env.audioStart, env.audioEnd)
    #expect(env.audioStart.count > 60)
    // Every change falls in a session; every session starts with one.
    for c in changes { #expect(sessions.contains { c >= $0.0 && c < $0.1 }, "change at \(c) outside sessions") }
    for start in env.audioStart { #expect(changes.contains(start)) }
    #expect(zip(changes, changes.dropFirst()).allSatisfy { $0.0 <= $0.1 }, "sorted")
    // Two an hour of playback, beyond the starts: within 4 standard deviations.
    let hours = sessions.reduce(0.0) { $0 + Double($1.1.milliseconds - $1.0.milliseconds) / Double(Self.hour) }
    let extra = Double(changes.count - env.audioStart.count)
    #expect(abs(extra - 2 * hours) <= 4 * (2 * hours).squareRoot(), "\(extra) changes in \(hours) h of playback")
  }

  @Test func thirtySecondCodesAreShownByEntriesEveryThirtySeconds() {
    // An authenticator: a code every 30 s (a schedule finer than a minute).
    let kinds = [
      WidgetKindSpec(name: "a", scheduled: ScheduledChanges(every: .seconds(30)), tolerance: .seconds(10))
    ]
    // 120 entries on the codes (an hour), .atEnd; against 60 one-minute entries.
    let codes = EntryTimeline(entries: 120, spacing: .seconds(30), dating: .content, policy: .atEnd)
    let minutes = EntryTimeline(entries: 60, spacing: .minutes(1), dating: .spaced, policy: .atEnd)
    // Glances 15 s and 45 s into a minute.
    let second: Int64 = 1000
    let device = Device(glances: [
      34 * Self.hour + 15 * second, 34 * Self.hour + 5 * Self.minute + 45 * second,
      38 * Self.hour + 20 * Self.minute + 45 * second, 44 * Self.hour + 15 * second,
    ])
    let a = Self.run(Self.scenario(Strategy(name: "codes", timeline: codes), days: 3, kinds: kinds), device)
    let b = Self.run(Self.scenario(Strategy(name: "minutes", timeline: minutes), days: 3, kinds: kinds), device)
    // Every glance shows the current code; one reload per 59.5 minutes.
    #expect(MetricDefinitionTests.value(a, .freshGlancePct) == 100)
    let reloads = Self.total(a, .budgetedReloadsPerWidgetDay)
    #expect(abs(reloads - 3 * 1440 / 59.5) <= 1, "reloads in 3 days: \(reloads)")
    // Minute entries miss the code of the second half of each minute.
    #expect(MetricDefinitionTests.value(b, .freshGlancePct) == 50)
  }

  @Test func aFailedFetchTakesTheRetryBranchWithBackoff() {
    let daily = EntryTimeline(
      entries: 1, dating: .spaced, policy: .after(.hours(24)),
      onFailure: FailureBranch(retry: [.minutes(10), .minutes(30), .minutes(60)], placeholder: true))
    let failing = [
      WidgetKindSpec(
        name: "a", unpredictable: UnpredictableChanges(perDay: 1), fetchFailure: FetchFailure(probability: 1))
    ]
    let ok = Self.run(
      Self.scenario(Strategy(name: "daily", timeline: daily), days: 2), Device(glances: [30 * Self.hour]))
    let bad = Self.run(
      Self.scenario(Strategy(name: "daily", timeline: daily), days: 2, kinds: failing),
      Device(glances: [30 * Self.hour]))
    // Succeeding: one reload a day. Failing: at 0, then 10, 30, then every
    // 60 minutes: 0, 0:10, 0:40, 1:40, ..., 47:40 = 50 reloads in 48 h.
    #expect(Self.total(ok, .budgetedReloadsPerWidgetDay) == 2)
    let retries = Self.total(bad, .budgetedReloadsPerWidgetDay)
    #expect(retries == 50, "retries in 2 days: \(retries)")
    #expect(MetricDefinitionTests.value(bad, .placeholderGlancePct) == 100)
    #expect(MetricDefinitionTests.value(ok, .placeholderGlancePct) == 0)
    // The failed fetches still reach the backend.
    #expect(Self.total(bad, .backendRequestsPerWidgetDay) == retries)
  }

  @Test func aDailyOutageFailsOnlyInsideItsHours() {
    let t = EntryTimeline(
      entries: 1, dating: .spaced, policy: .after(.hours(1)), onFailure: FailureBranch(retry: [.minutes(15)]))
    let kinds = [
      WidgetKindSpec(
        name: "a", unpredictable: UnpredictableChanges(perDay: 1),
        fetchFailure: FetchFailure(outageFromHour: 2, outageToHour: 4))
    ]
    let r = Self.run(Self.scenario(Strategy(name: "h", timeline: t), days: 3, kinds: kinds), Device())
    let hourly = r.series[0].hourly[.budgetedReloads]
    // Hourly reloads; 4 retries an hour in 02:00-04:00 UTC.
    for day in 1..<3 {
      #expect(
        hourly[day * 24 + 2] == 4 && hourly[day * 24 + 3] == 4, "day \(day): \(hourly[(day * 24)..<(day * 24 + 5)])")
      #expect(hourly[day * 24 + 10] == 1)
    }
  }

  @Test func aProviderThatNeverCallsCompletionKeepsTheOldTimeline() {
    // Hourly polling; every fetch fails 02:00-04:00 UTC and the provider
    // then never calls its completion handler (docs/model.md#no-completion).
    let t = EntryTimeline(
      entries: 1, dating: .spaced, policy: .after(.hours(1)), onFailure: .completionNeverCalled)
    let kinds = [
      WidgetKindSpec(
        name: "a", unpredictable: UnpredictableChanges(perDay: 1),
        fetchFailure: FetchFailure(outageFromHour: 2, outageToHour: 4))
    ]
    // A change in the outage; glances in it and after it.
    let device = Device(
      glances: [27 * Self.hour + 30 * Self.minute, 30 * Self.hour], changes: [26 * Self.hour + 30 * Self.minute])
    func run(_ rule: ReloadTiming.NoCompletion) -> ScenarioResults {
      Self.run(
        Self.scenario(Strategy(name: "h", timeline: t), days: 3, kinds: kinds) {
          $0.reload.asap = .paced
          $0.reload.noCompletion = rule
        }, device)
    }
    let old = run(.oldPolicy)
    let never = run(.never)
    // old_policy: the old .after(1 h) date has passed at each unfinished
    // reload, so the next request is due at once and paced (24 h / 70 =
    // 20.6 min): 02:00, 02:20.6, 02:41.1, 03:01.7, 03:22.3, 03:42.9, then
    // 04:03.4 succeeds and the hourly policy resumes. Each one spends budget
    // and reaches the backend.
    let hourly = old.series[0].hourly[.budgetedReloads]
    for day in 0..<3 {
      #expect(
        hourly[day * 24 + 2] == 3 && hourly[day * 24 + 3] == 3, "day \(day): \(hourly[(day * 24)..<(day * 24 + 6)])")
      #expect(hourly[day * 24 + 4] == 1 && hourly[day * 24 + 10] == 1)
    }
    #expect(Self.total(old, .backendRequestsPerWidgetDay) == Self.total(old, .budgetedReloadsPerWidgetDay))
    // The old timeline stays: its data, not a placeholder; the change made
    // in the outage is shown from the first reload after it.
    #expect(MetricDefinitionTests.value(old, .placeholderGlancePct) == 0)
    #expect(MetricDefinitionTests.value(old, .freshGlancePct) == 50)
    // never: nothing asks again after the first unfinished reload (day 0,
    // 02:00), so the widget, which the app never reloads, is stuck.
    #expect(Self.total(never, .budgetedReloadsPerWidgetDay) == 3)
    #expect(never.series[0].hourly[.budgetedReloads][(3)...].allSatisfy { $0 == 0 })
    #expect(MetricDefinitionTests.value(never, .freshGlancePct) == 0)
    #expect(MetricDefinitionTests.value(never, .placeholderGlancePct) == 0)
  }

  // MARK: - Data sources

  @Test func aCacheReadingReloadWithoutAnAppFetchStaysStale() {
    // Polls every 15 minutes but only re-reads the app's cache; one change at 30 h.
    let poll = EntryTimeline(entries: 1, dating: .spaced, policy: .after(.minutes(15)))
    let cache = Strategy(name: "cache", timeline: poll, kinds: [KindStrategy(timeline: poll, data: .appCache)])
    let fetch = Strategy(name: "fetch", timeline: poll)
    let device = Device(glances: [36 * Self.hour, 60 * Self.hour], changes: [30 * Self.hour])
    let stale = Self.run(Self.scenario(cache, days: 3), device)
    let fresh = Self.run(Self.scenario(fetch, days: 3), device)
    #expect(MetricDefinitionTests.value(stale, .freshGlancePct) == 0)
    #expect(MetricDefinitionTests.value(fresh, .freshGlancePct) == 100)
    #expect(Self.total(stale, .backendRequestsPerWidgetDay) == 0)
    #expect(Self.total(stale, .budgetedReloadsPerWidgetDay) == Self.total(fresh, .budgetedReloadsPerWidgetDay))
    // The app opens at 40 h and fetches: the next cache read shows the change.
    var opened = device
    opened.sessions = [(40 * Self.hour, 40 * Self.hour + 5 * Self.minute)]
    let later = Self.run(Self.scenario(cache, days: 3), opened)
    #expect(MetricDefinitionTests.value(later, .freshGlancePct) == 50)
    #expect(Self.total(later, .backendRequestsPerWidgetDay) == 1)
  }

  @Test func aCacheTheAppKeepsCurrentWhileItRunsIsCurrentAtEachReload() {
    // A now-playing widget that re-reads the app's cache; an episode change
    // at 30:30 during an audio session 30:00-31:00 (docs/model.md#cache-while-running).
    let device = Device(
      audio: [(30 * Self.hour, 31 * Self.hour)], glances: [30 * Self.hour + 45 * Self.minute, 32 * Self.hour],
      changes: [30 * Self.hour + 30 * Self.minute])
    func run(_ timeline: EntryTimeline, onChange: Bool, writes: Bool) -> ScenarioResults {
      let app = AppBehaviour(reloadOnChangeWhileRunning: onChange, writesCacheWhileRunning: writes)
      let s = Strategy(
        name: "np", timeline: timeline, app: app, kinds: [KindStrategy(timeline: timeline, data: .appCache)])
      return Self.run(Self.scenario(s, days: 2), device)
    }
    // The app reloads the widget at the change (free, audio runs): it shows
    // the new episode only if the app wrote it; the cache of the app's
    // launch at 0 h holds none.
    #expect(MetricDefinitionTests.value(run(Self.never, onChange: true, writes: true), .freshGlancePct) == 100)
    #expect(MetricDefinitionTests.value(run(Self.never, onChange: true, writes: false), .freshGlancePct) == 0)
    // No app call, a reload every 2 h: the 32:00 reload after the session
    // reads the cache as of its end (31:00), which holds the change.
    let poll = EntryTimeline(entries: 1, dating: .spaced, policy: .after(.hours(2)))
    let after = run(poll, onChange: false, writes: true)
    #expect(MetricDefinitionTests.value(after, .freshGlancePct) == 50)
    #expect(MetricDefinitionTests.value(run(poll, onChange: false, writes: false), .freshGlancePct) == 0)
  }

  // MARK: - Per-kind timelines

  @Test func eachKindHasItsOwnTimeline() {
    let kinds = [
      WidgetKindSpec(name: "a", unpredictable: UnpredictableChanges(perDay: 1)),
      WidgetKindSpec(name: "b", unpredictable: UnpredictableChanges(perDay: 1)),
    ]
    let hourly = EntryTimeline(entries: 1, dating: .spaced, policy: .after(.hours(1)))
    let s = Strategy(name: "mixed", timeline: Self.never, kinds: [KindStrategy(timeline: hourly), nil])
    let r = Self.run(
      Self.scenario(s, days: 2, kinds: kinds, slots: [WidgetSlot(kind: 0), WidgetSlot(kind: 1, count: 3)]), Device())
    // Only the one "a" widget reloads, 24 times a day.
    #expect(Self.total(r, .budgetedReloadsPerWidgetDay) == 48)
  }

  // MARK: - Wake sources

  @Test func aWakeSourceRunsTheAppAndItsTriggerIsBudgeted() {
    let s = Strategy(
      name: "cgm", timeline: Self.never, triggers: [AppTrigger(on: .wake, delay: .seconds(5))],
      wakes: [WakeSource(name: "cgm", type: .accessory, every: .minutes(60))])
    let r = Self.run(Self.scenario(s, days: 3), Device())
    #expect(MetricDefinitionTests.value(r, .appWakesPerDeviceDay) == 24)
    #expect(Self.total(r, .budgetedReloadsPerWidgetDay) == 72)
    // Every 5 minutes: 288 calls a day, the budget of 70 is the ceiling.
    let fast = Strategy(
      name: "cgm", timeline: Self.never, triggers: [AppTrigger(on: .wake)],
      wakes: [WakeSource(name: "cgm", type: .accessory, every: .minutes(5))])
    let f = Self.run(Self.scenario(fast, days: 3), Device())
    let perDay = MetricDefinitionTests.value(f, .budgetedReloadsPerWidgetDay)
    #expect(perDay > 65 && perDay <= 71, "budgeted per day \(perDay)")
  }

  @Test func forceQuitStopsLocationWakesButNotANetworkExtension() {
    let quit = Device(sessions: [(Self.hour, Self.hour + Self.minute)], forceQuit: [true])
    func wakes(_ type: WakeSource.SourceType) -> Double {
      let s = Strategy(
        name: "w", timeline: Self.never, triggers: [AppTrigger(on: .wake)],
        wakes: [WakeSource(name: "w", type: type, every: .minutes(30))])
      return Self.total(Self.run(Self.scenario(s, days: 2), quit), .budgetedReloadsPerWidgetDay)
    }
    #expect(wakes(.location) <= 2)  // only before the force-quit at 01:01
    #expect(wakes(.networkExtension) == 96)
    // Background App Refresh off stops location wakes by default.
    let s = Strategy(
      name: "w", timeline: Self.never, triggers: [AppTrigger(on: .wake)],
      wakes: [WakeSource(name: "w", type: .location, every: .minutes(30))])
    #expect(
      Self.total(Self.run(Self.scenario(s, days: 2), Device(backgroundRefreshOff: true)), .budgetedReloadsPerWidgetDay)
        == 0)
  }

  @Test func appFetchTriggersFollowEveryWake() {
    let s = Strategy(
      name: "fetch", timeline: Self.never, triggers: [AppTrigger(on: .appFetch)],
      wakes: [WakeSource(name: "geo", type: .location, every: .hours(6))])
    let r = Self.run(Self.scenario(s, days: 2), Device(sessions: Self.threeSessions))
    // 8 wakes (budgeted) and 3 launches (free).
    #expect(Self.total(r, .budgetedReloadsPerWidgetDay) == 8)
    #expect(Self.total(r, .freeReloadsPerWidgetDay) == 3)
  }

  // MARK: - More triggers and policies

  @Test func backgroundRefreshAndSilentPushTriggersFollowTheirWakes() {
    // BGAppRefresh every 60+ minutes: its run reloads nothing by itself
    // (bg_refresh_min's own reloadAllTimelines is off here) but the trigger does.
    var noAutoReload = AppBehaviour(backgroundRefreshInterval: .minutes(60))
    noAutoReload.reloadOnForeground = false
    let withTrigger = Strategy(
      name: "bg", timeline: Self.never, app: noAutoReload,
      triggers: [AppTrigger(on: .backgroundRefresh, kinds: KindSet([0]))])
    let r = Self.run(Self.scenario(withTrigger, days: 3), Device())
    let runs = MetricDefinitionTests.value(r, .bgRefreshRunsPerDeviceDay)
    #expect(runs > 0)
    // One reload from the built-in reloadAllTimelines and one from the trigger, per run.
    #expect(abs(MetricDefinitionTests.value(r, .budgetedReloadsPerWidgetDay) - 2 * runs) < 0.01)
    // Silent pushes on every change: the trigger adds a second call per delivered push.
    let push = Strategy(
      name: "push", timeline: Self.never, app: AppBehaviour(reloadOnSilentPush: false),
      backend: BackendBehaviour(silentPush: PushTrigger(on: .all)),
      triggers: [AppTrigger(on: .silentPush, delay: .minutes(1))])
    let changes: [Int64] = [26, 30, 34, 40].map { $0 * Self.hour }
    let p = Self.run(Self.scenario(push, days: 3), Device(changes: changes))
    #expect(Self.total(p, .budgetedReloadsPerWidgetDay) == 4)
    #expect(MetricDefinitionTests.value(p, .silentPushesDeliveredPct) == 100)
  }

  @Test func reloadAllTimelinesReachesEveryKindAndAudioSessionsMakeCallsFree() {
    let kinds = [
      WidgetKindSpec(name: "a", unpredictable: UnpredictableChanges(perDay: 1)),
      WidgetKindSpec(name: "b", unpredictable: UnpredictableChanges(perDay: 1)),
    ]
    let audio = Strategy(
      name: "audio", timeline: Self.never, triggers: [AppTrigger(on: .wake)],
      wakes: [WakeSource(name: "music", type: .audio)])
    let slots = [WidgetSlot(kind: 0), WidgetSlot(kind: 1, count: 2)]
    let sessions: [(Int64, Int64)] = [(26 * Self.hour, 27 * Self.hour), (50 * Self.hour, 51 * Self.hour)]
    let r = Self.run(Self.scenario(audio, days: 3, kinds: kinds, slots: slots), Device(audio: sessions))
    // Each audio session wakes the app: reloadAllTimelines() reaches all 3 widgets, free.
    #expect(Self.total(r, .freeReloadsPerWidgetDay) == 6)
    #expect(Self.total(r, .budgetedReloadsPerWidgetDay) == 0)
    #expect(MetricDefinitionTests.value(r, .appWakesPerDeviceDay) > 0)
  }

  @Test func inAppEventsPerDayHappenOnlyWhileTheAppIsOpen() {
    // 48 events a day, flat; the app is open 4 h of each day: about 8 a day.
    let sessions = (0..<10).map { d -> (Int64, Int64) in
      (Int64(d) * 24 * Self.hour + 10 * Self.hour, Int64(d) * 24 * Self.hour + 14 * Self.hour)
    }
    let s = Strategy(name: "sync", timeline: Self.never, triggers: [AppTrigger(on: .inApp, perDay: 48)])
    let r = Self.run(Self.scenario(s, days: 10), Device(sessions: sessions))
    let free = Self.total(r, .freeReloadsPerWidgetDay)
    #expect(abs(free - 80) < 45, "free reloads \(free)")  // Poisson(80): within 5 sd
    #expect(Self.total(r, .budgetedReloadsPerWidgetDay) == 0)
    // A profile with no weight in 10:00-14:00: none at all.
    var night = [Double](repeating: 0, count: 24)
    night[2] = 1
    let n = Strategy(
      name: "night", timeline: Self.never, triggers: [AppTrigger(on: .inApp, perDay: 48, profile: night)])
    #expect(Self.total(Self.run(Self.scenario(n, days: 10), Device(sessions: sessions)), .freeReloadsPerWidgetDay) == 0)
  }

  @Test func aFailurePolicyOfNeverStopsReloading() {
    let t = EntryTimeline(
      entries: 1, dating: .spaced, policy: .after(.hours(1)), onFailure: FailureBranch(policy: .never))
    let kinds = [
      WidgetKindSpec(
        name: "a", unpredictable: UnpredictableChanges(perDay: 1),
        fetchFailure: FetchFailure(outageFromHour: 5, outageToHour: 6))
    ]
    let r = Self.run(Self.scenario(Strategy(name: "n", timeline: t), days: 3, kinds: kinds), Device())
    let hourly = r.series[0].hourly[.budgetedReloads]
    // Hourly until the first reload inside the 05:00 outage, then nothing.
    #expect(hourly[0..<6].reduce(0, +) == 6)
    #expect(hourly[6...].reduce(0, +) == 0)
  }

  @Test func aTapTriggerRunsInTheAppIntentAndReachesOtherKinds() {
    // Home Assistant: a script button's intent reloads other kinds too.
    let kinds = [
      WidgetKindSpec(name: "scripts", unpredictable: UnpredictableChanges(perDay: 1), interactive: true),
      WidgetKindSpec(name: "gauge", unpredictable: UnpredictableChanges(perDay: 1)),
    ]
    let s = Strategy(name: "tap", timeline: Self.never, triggers: [AppTrigger(on: .tap, kinds: KindSet([1]))])
    let r = Self.run(
      Self.scenario(s, days: 3, kinds: kinds, slots: [WidgetSlot(kind: 0), WidgetSlot(kind: 1, count: 2)]),
      Device(taps: [26 * Self.hour, 50 * Self.hour]))
    // Each tap: the tapped widget free, the two gauges budgeted (the app is not in the foreground).
    #expect(Self.total(r, .freeReloadsPerWidgetDay) == 2)
    #expect(Self.total(r, .budgetedReloadsPerWidgetDay) == 4)
  }

  @Test func onlyIfChangedSkipsCallsWhenNothingChanged() {
    // Maple after PR #548: reload a kind only when its numbers changed.
    let always = Strategy(name: "always", timeline: Self.never, triggers: [AppTrigger(on: .foreground)])
    let changed = Strategy(
      name: "changed", timeline: Self.never, triggers: [AppTrigger(on: .foreground, onlyIfChanged: true)])
    // Sessions at 25, 26, 27, 28 h; one change at 26.5 h.
    let sessions: [(Int64, Int64)] = (25...28).map { (Int64($0) * Self.hour, Int64($0) * Self.hour + Self.minute) }
    let device = Device(sessions: sessions, changes: [26 * Self.hour + 30 * Self.minute])
    #expect(Self.total(Self.run(Self.scenario(always, days: 2), device), .freeReloadsPerWidgetDay) == 4)
    // The first session (changes since t = 0: none before 26.5 h), then only the one after the change.
    #expect(Self.total(Self.run(Self.scenario(changed, days: 2), device), .freeReloadsPerWidgetDay) == 1)
  }

  @Test func aWakeOnEachDataChangeIsTheChangeItself() {
    // Loop / DuckDuckGo: the reading or status change runs the app, which reloads 5 s later.
    let s = Strategy(
      name: "cgm", timeline: Self.never, triggers: [AppTrigger(on: .wake, delay: .seconds(5))],
      wakes: [WakeSource(name: "reading", type: .accessory, fetches: false, onChangesOf: 0)])
    let changes: [Int64] = [25, 27, 29, 40].map { $0 * Self.hour }
    let r = Self.run(Self.scenario(s, days: 2), Device(glances: [28 * Self.hour, 41 * Self.hour], changes: changes))
    #expect(Self.total(r, .budgetedReloadsPerWidgetDay) == 4)
    #expect(MetricDefinitionTests.value(r, .freshGlancePct) == 100)
    #expect(Self.total(r, .backendRequestsPerWidgetDay) == 4)  // the reloads' own fetches; the wakes fetch nothing
  }

  @Test func aWakeDeliveredLateShowsTheChangeLate() {
    // In Office: arriving at the office (the change) wakes the app by a
    // geofence, which reloads; iOS delivers the region event 10 minutes late.
    func strategy(_ delay: DurationDistribution) -> Strategy {
      Strategy(
        name: "geo", timeline: Self.never, triggers: [AppTrigger(on: .wake)],
        wakes: [WakeSource(name: "office", type: .location, fetches: false, onChangesOf: 0, deliveryDelay: delay)])
    }
    let changes: [Int64] = [25, 33].map { $0 * Self.hour }
    // Glances 5 and 15 minutes after each change.
    let glances = changes.flatMap { [$0 + 5 * Self.minute, $0 + 15 * Self.minute] }
    let device = Device(glances: glances, changes: changes)
    let prompt = Self.run(Self.scenario(strategy(.constant(.zero)), days: 2), device)
    let late = Self.run(Self.scenario(strategy(.constant(.minutes(10))), days: 2), device)
    // At once: every glance shows the new place. Late: the app runs, and
    // reloads, 10 minutes after each change, so the first glance is stale.
    #expect(MetricDefinitionTests.value(prompt, .freshGlancePct) == 100)
    #expect(MetricDefinitionTests.value(late, .freshGlancePct) == 50)
    // The same wakes and reloads, only later.
    #expect(Self.total(late, .budgetedReloadsPerWidgetDay) == 2)
    #expect(Self.total(prompt, .budgetedReloadsPerWidgetDay) == 2)
  }

  @Test func aBackgroundRefreshTaskThatDoesNotReloadReloadsNothing() {
    let quiet = Strategy(
      name: "quiet", timeline: Self.never,
      app: AppBehaviour(backgroundRefreshInterval: .minutes(15), backgroundRefreshReloads: false))
    let loud = Strategy(name: "loud", timeline: Self.never, app: AppBehaviour(backgroundRefreshInterval: .minutes(15)))
    let q = Self.run(Self.scenario(quiet, days: 4), Device())
    let l = Self.run(Self.scenario(loud, days: 4), Device())
    #expect(
      MetricDefinitionTests.value(q, .bgRefreshRunsPerDeviceDay)
        == MetricDefinitionTests.value(l, .bgRefreshRunsPerDeviceDay))
    #expect(MetricDefinitionTests.value(l, .bgRefreshRunsPerDeviceDay) > 0)
    #expect(Self.total(q, .budgetedReloadsPerWidgetDay) == 0)
    #expect(Self.total(l, .budgetedReloadsPerWidgetDay) > 0)
  }

  @Test func spacedEntriesAskAgainAfterTheLastOneAndShowScheduledChangesUpToEach() {
    // 4 entries 15 minutes apart with .atEnd: a reload every 45 minutes.
    let kinds = [WidgetKindSpec(name: "a", scheduled: ScheduledChanges(every: .minutes(15)), tolerance: .minutes(1))]
    let s = Strategy(
      name: "spaced", timeline: EntryTimeline(entries: 4, spacing: .minutes(15), dating: .spaced, policy: .atEnd))
    // Glances 20 and 40 minutes into hour 30: each sees the entry that shows the change 5 minutes before.
    let glances = [30 * Self.hour + 20 * Self.minute + 1, 30 * Self.hour + 40 * Self.minute + 1]
    let r = Self.run(Self.scenario(s, days: 2, kinds: kinds), Device(glances: glances))
    #expect(abs(MetricDefinitionTests.value(r, .budgetedReloadsPerWidgetDay) - 32) <= 1)
    #expect(MetricDefinitionTests.value(r, .acceptableGlancePct) == 100)
  }

  @Test func widgetKitPushesReloadWithinTheirOwnBudget() {
    // A WidgetKit push on every change: 4 changes, 4 accepted pushes, 4 reloads.
    let s = Strategy(
      name: "wpush", timeline: Self.never, backend: BackendBehaviour(widgetPush: PushTrigger(on: .all)))
    let changes: [Int64] = [26, 30, 34, 40].map { $0 * Self.hour }
    let r = Self.run(Self.scenario(s, days: 2), Device(glances: [41 * Self.hour], changes: changes))
    #expect(MetricDefinitionTests.value(r, .widgetPushesAcceptedPct) == 100)
    #expect(Self.total(r, .reloadsPerWidgetDay) == 4)
    #expect(MetricDefinitionTests.value(r, .freshGlancePct) == 100)
    // 40 changes in one hour: the push budget (5 an hour, burst 5 by default) turns most away.
    let burst = (0..<40).map { 26 * Self.hour + Int64($0) * 90_000 }
    let b = Self.run(Self.scenario(s, days: 2), Device(changes: burst))
    #expect(MetricDefinitionTests.value(b, .widgetPushesAcceptedPct) < 30)
  }

  @Test func aFetchBeforeTodaysDataIsPublishedFailsToAPlaceholder() {
    // Wikipedia's most-read list: the day changes at local midnight, the list is
    // published at 02:15 UTC. The device is at UTC+2 (the scenario's), so local
    // midnight is 22:00 UTC and the list appears 4 h 15 min later.
    let daily = ScheduledChanges.clockTimes([.zero], publication: Publication(atUTC: .minutes(2 * 60 + 15)))
    let kinds = [
      WidgetKindSpec(
        name: "top-read", scheduled: daily, tolerance: .minutes(60), fetchFailure: FetchFailure(whenUnpublished: true))
    ]
    let t = EntryTimeline(
      entries: 1, dating: .spaced, policy: .atLocalTime(ClockWindow(at: 0, 5)),
      onFailure: FailureBranch(retry: [.hours(2)], placeholder: true))
    // Glances at 23:00 and 01:00 UTC (placeholder: reloaded at 00:05 local, unpublished),
    // then 03:00 (still: the 2 h retry at 00:05 + 2 h = 02:05 local = 00:05 UTC failed too),
    // 05:00 UTC (the retry at 02:05 UTC succeeded).
    let day: Int64 = 24 * Self.hour
    let glances = [day + 23 * Self.hour, 2 * day + 1 * Self.hour, 2 * day + 3 * Self.hour, 2 * day + 5 * Self.hour]
    let r = Self.run(
      Self.scenario(Strategy(name: "wiki", timeline: t), days: 3, kinds: kinds), Device(glances: glances))
    #expect(MetricDefinitionTests.value(r, .placeholderGlancePct) == 75)
    #expect(MetricDefinitionTests.value(r, .freshGlancePct) == 25)
  }
}

@Suite struct DeviceEventTests {
  /// The written-out raw value table agrees with the enum's raw values,
  /// and every case fits the payload's 5 bits.
  @Test func everyRawValueMapsToItsCase() {
    for event in DeviceEvent.allCases {
      #expect(event.rawValue < 32)
      #expect(DeviceEvent.kind(event.rawValue) == event)
      let (kind, index, generation) = DeviceEvent.unpack(DeviceEvent.pack(event, index: 200, generation: 0x7FFFF))
      #expect(kind == event && index == 200 && generation == 0x7FFFF)
    }
  }
}
