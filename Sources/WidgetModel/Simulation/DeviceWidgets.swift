import ReloadEngine
import ReloadMetrics

/// The widgets of one device and the WidgetKit machinery that reloads them:
/// the event queue, pending reloads, budgets, dry spells, timelines,
/// glances and counters, and the app's state that decides whether a reload
/// is free. Triggers and wake sources act on the device through its verbs
/// (`reload`, `appReload`, `budgetedRequest`, `reloadAll`, ...), never by
/// reaching into its state.
struct DeviceWidgets<Provider: TimelineProvider> {
  let prepared: PreparedScenario
  let provider: Provider
  let params: ModelParameters
  let eventMode: Bool
  let end: SimTime
  let minInterval: SimDuration
  let kindCount: Int
  /// Per kind: its reloads re-read the app's cache (docs/model.md#data-source).
  let readsCache: [Bool]
  let cacheReaders: Bool
  /// Per kind: its fetches can fail (docs/model.md#fetch-failure).
  let failure: [FetchFailure?]
  /// Some kind's provider may use a reload's random draw or fail.
  let drawsPerReload: Bool
  /// Some reload may draw, fail, read a cache or show a placeholder: the
  /// per-reload bookkeeping for those is skipped when `false`.
  let special: Bool
  /// `reload.asap: paced`: a policy request due at once waits for the budget's pace.
  let pacedAsap: Bool
  /// `reload.lateness_pressure: budget`: lateness grows with the budget spent.
  let latenessPressure: Bool
  /// Some budgeted app call may wait (`app_reload.background_latency`, `while_asleep`).
  let delaysBackgroundCalls: Bool

  var queue = Simulator<EventQueue>()
  var counts: TallyWriter
  var app = AppState()
  let feed: ContentFeed
  let widgets: WidgetTimelines
  var pending: PendingReloads
  var budget: ReloadBudget
  let dry: DrySpells
  let glances: GlanceCursors
  /// The device's reload log, kept only for `run --emit-log`.
  var log: LogRecorder
  /// The current device's widgets.
  private(set) var count = 0
  /// Lateness of policy reloads and the user's wake-up time.
  private var latenessRNG = Xoshiro256StarStar(seed: 0)
  /// Background app calls' latency and morning times (drawn only when some call may wait).
  private var appReloadRNG = Xoshiro256StarStar(seed: 0)
  /// For `reload.asap: paced`: the span over which the device's user sees
  /// the widget each day (its awake hours; 24 h when the night is like the day).
  private var awakeSpan = SimDuration.day
  init(
    _ prepared: PreparedScenario, _ strategy: Strategy, provider: Provider, widgets w: Int, storage: _DeviceStorage,
    recordLog: Bool = false
  ) {
    let scenario = prepared.scenario
    self.prepared = prepared
    self.provider = provider
    readsCache = (0..<scenario.kinds.count).map { strategy.dataSource(kind: $0) == .appCache }
    cacheReaders = readsCache.contains(true)
    failure = scenario.kinds.map { f in
      f.fetchFailure.flatMap { $0.probability > 0 || $0.outageToHour > $0.outageFromHour || $0.whenUnpublished ? $0 : nil }
    }
    drawsPerReload = provider.usesRandomDraw || failure.contains { $0 != nil }
    special = drawsPerReload || cacheReaders
    params = scenario.model
    pacedAsap = scenario.model.reload.asap == .paced
    latenessPressure = scenario.model.reload.latenessPressure == .budget
    delaysBackgroundCalls = scenario.model.appReload.delaysBackgroundCalls
    eventMode = scenario.engine == .eventByEvent
    end = prepared.end
    minInterval = scenario.model.budget.minInterval
    kindCount = scenario.kinds.count
    counts = TallyWriter(
      segments: scenario.segments.count, ringCapacity: prepared.ringCapacity, measureStart: prepared.measureStart,
      end: prepared.end, countsPushes: strategy.backend.sendsPushes,
      logCapacity: RequestLog.capacity(devices: scenario.devices), storage: storage)
    feed = ContentFeed(prepared, storage: storage)
    widgets = WidgetTimelines(widgets: w, storage: storage)
    pending = PendingReloads(widgets: w, storage: storage)
    budget = ReloadBudget(scenario.model.budget, ringCapacity: prepared.ringCapacity, widgets: w, storage: storage)
    dry = DrySpells(widgets: w, end: prepared.end, dryAfter: scenario.model.budget.dryAfter, storage: storage)
    glances = GlanceCursors(widgets: w, kinds: scenario.kinds.count, storage: storage)
    log = LogRecorder(enabled: recordLog, measureStart: prepared.measureStart, storage: storage)
  }

  @inline(__always)
  func measured(_ t: SimTime) -> Bool { counts.measured(t) }

  // MARK: - A new device

  /// Resets every widget of `env`'s device (the first half of a device's start).
  mutating func reset(for env: DeviceEnvironment) {
    queue.reset()
    counts.select(segment: env.segment)
    latenessRNG = prepared.streams.stream(entity: UInt64(env.device), purpose: .lateness)
    if delaysBackgroundCalls {
      appReloadRNG = prepared.streams.stream(entity: UInt64(env.device), purpose: .appReloadLatency)
    }
    if pacedAsap {
      let hours = params.reload.whileAsleep == .run ? 24 : max(1, env.awakeHours.nonzeroBitCount)
      awakeSpan = .milliseconds(Int64(hours) * 3_600_000)
    }
    count = env.widgetCount
    pending.reset(widgets: count)
    for w in 0..<count {
      widgets.unpredictableNext[w] = .never
      widgets.changeCursor[w] = 0
      widgets.predictedNext[w] = .never
      widgets.nextAsked[w] = WidgetTimelines.notAsked
      widgets.kind[w] = env.widgetKind[w]
      dry.reset(w)
      glances.reset(w, env)
    }
    glances.resetKinds(kindCount)
    budget.reset(widgets: count)
    app.reset(learningDays: params.budget.learningDays)
    if log.enabled { log.reset() }
  }

  /// Widget `w` starts showing data captured at t = 0 from a timeline made
  /// then; its first policy request is spread over the policy's interval.
  mutating func start(_ w: Int, _ env: DeviceEnvironment) {
    let k = widgets.kind[w]
    widgets.tolerance[w] = prepared.scenario.kinds[k].tolerance.milliseconds
    widgets.failures[w] = 0
    budget.start(w, dailyBudget: env.widgetBudget[w], app)
    let request = TimelineRequest(
      now: .zero, kind: k, utcOffset: env.utcOffset, hasSchedule: env.schedules[k] != nil,
      random: drawsPerReload ? reloadDraw(w, at: .zero, env) : 0)
    let first = provider.timeline(for: request)
    widgets.placeholder[w] = first.placeholder
    let plan = TimelinePlan(first, request, schedule: env.schedules[k], horizon: feed.horizon[k], dataTime: .zero)
    widgets.show(w, plan, madeAt: .zero, eventMode: eventMode, feed, env)
    glances.startHourlySamples(w, measureStart: counts.measureStart, env)
    if plan.nextRequest != .never {
      let spread = params.reload.firstRequestSpread ?? provider.firstRequestSpread(kind: k)
      var rng = prepared.streams.stream(entity: UInt64(env.device) << 8 | UInt64(w), purpose: .firstRequest)
      let first =
        spread.milliseconds > 0
        ? SimTime(milliseconds: Int64(rng.nextUnit() * Double(spread.milliseconds))) : plan.nextRequest
      pending.set(w, .policyRequest, at: first, cause: .policy, on: &queue)
    }
  }

  /// Event-by-event mode: widget `w`'s first glance enters the queue.
  mutating func scheduleFirstGlance(_ w: Int, _ env: DeviceEnvironment) {
    let g = glances.cursor[w]
    if eventMode && g < env.glanceStart[w + 1] { queue.scheduleGlance(w, at: env.glances[g]) }
  }

  /// Event-by-event mode: kind `k`'s first unpredictable change enters the queue.
  mutating func scheduleFirstChange(kind k: Int, _ env: DeviceEnvironment) {
    guard eventMode else { return }
    var c = glances.changeCursor[k]
    let first = feed.firstUnpredictable(kind: k, after: SimTime(milliseconds: -1), cursor: &c, env)
    glances.changeCursor[k] = c
    if first < end { queue.scheduleChange(kind: k, at: first) }
  }

  /// Accounts everything up to the end of the run and adds the device to the tally.
  mutating func finish(_ env: DeviceEnvironment) {
    for w in 0..<count {
      catchUp(w, before: end, env)
      dry.close(w, at: end, env, &counts)
    }
    var changes: UInt64 = 0
    for w in 0..<count { changes &+= UInt64(env.measuredChanges[env.widgetKind[w]]) }
    let measuredGlances = count == 0 ? 0 : glances.measuredGlances(widgets: count, from: counts.measureStart, env)
    counts.count(.devices)
    counts.count(.widgets, UInt64(count))
    counts.count(.measuredLocalWidgetDays, UInt64(count * measuredLocalDays(env)))
    counts.count(.dataChanges, changes)
    counts.count(.events, changes &+ measuredGlances)
  }

  /// The number of local days of `env`'s device wholly inside the measured window.
  @inline(__always)
  func measuredLocalDays(_ env: DeviceEnvironment) -> Int {
    let day: Int64 = 86_400_000
    let o = env.utcOffset.milliseconds
    let first = ChangeSchedule.floorDiv(counts.measureStart.milliseconds + o + day - 1, day)
    let last = ChangeSchedule.floorDiv(end.milliseconds + o, day) - 1
    return Int(max(0, last - first + 1))
  }

  // MARK: - Reload requests

  /// Widget `w`'s pending action (`kind`) is due.
  mutating func pendingFired(_ kind: DeviceEvent, _ w: Int, at t: SimTime, _ env: DeviceEnvironment) {
    pending.take(w)
    switch kind {
    case .exec: reload(w, at: t, budgeted: true, chargeTimeline: true, cause: pending.cause(w), env)
    case .policyRequest: policyRequest(w, at: t, env)
    default: budgetedRequest(w, at: t, late: false, cause: pending.cause(w), env)
    }
  }

  /// A policy reload (`.atEnd` / `.after`) is due.
  mutating func policyRequest(_ w: Int, at t: SimTime, _ env: DeviceEnvironment) {
    if params.reload.whileAsleep == .deferToWake && !env.isAwake(at: t) {
      // The user wakes some time in their first awake hour.
      let wake = env.nextAwakeTime(atOrAfter: t) + .milliseconds(Int64(latenessRNG.nextUnit() * 3_600_000))
      if wake < end { pending.set(w, .policyRequest, at: wake, cause: .policy, on: &queue) }
      return
    }
    budgetedRequest(w, at: t, late: true, cause: .policy, env)
  }

  /// A request that spends budget: the minimum interval, then the budget,
  /// then (for policy reloads) the lateness distribution.
  ///
  /// Source: docs/r1.md#semantics (check at the request, execute at
  /// `max(requested, earliest allowed) + jitter`) and Apple's "Keeping a
  /// widget up to date" (withheld until budget returns).
  mutating func budgetedRequest(_ w: Int, at t: SimTime, late: Bool, cause: ReloadCause, _ env: DeviceEnvironment) {
    let earliest = pending.lastReload[w] + minInterval
    if earliest > t {
      pending.set(w, late ? .policyRequest : .appRequest, at: earliest, cause: cause, on: &queue)
      return
    }
    // A token bucket is settled to `t` by the check below: the widget's
    // hourly budget samples before `t` are taken first, so they read the
    // bucket as it was at each sample, not as it is now.
    if budget.isTokenBucket { catchUp(w, before: t, env) }
    let available = budget.available(w, at: t, app)
    if available > t {
      if measured(t) {
        counts.count(.withheldRequests)
        counts.count(.events)
      }
      dry.open(w, at: t, until: available, env, &counts)
      if params.budget.whenEmpty == .drop { return }
      let at = late ? lateExecution(w, after: available) : available
      if at < end {
        pending.set(w, .exec, at: at, cause: cause, on: &queue)
        if pending.time(w) == at { pending.withheld[w] = true }
      }
      return
    }
    if late {
      let at = lateExecution(w, after: t)
      if at < end { pending.set(w, .exec, at: at, cause: cause, on: &queue) }
    } else {
      reload(w, at: t, budgeted: true, chargeTimeline: true, cause: cause, env)
    }
  }

  /// When widget `w`'s policy reload, allowed at `t`, runs: `t` plus a
  /// lateness draw, scaled by the budget's pressure under
  /// `reload.lateness_pressure: budget` (docs/model.md#lateness-pressure).
  @inline(__always)
  mutating func lateExecution(_ w: Int, after t: SimTime) -> SimTime {
    let lateness = params.reload.lateness
    if lateness.isZero { return t }
    var d = lateness.sample(using: &latenessRNG)
    if latenessPressure { d = pressured(d, w, at: t) }
    return max(t, t + d)
  }

  /// `d` scaled by the share of widget `w`'s budget spent at `t`.
  @inline(__always)
  func pressured(_ d: SimDuration, _ w: Int, at t: SimTime) -> SimDuration {
    let cap = budget.cap(w, app)
    let used = 1 - Double(budget.left(w, at: t, cap: cap)) / Double(cap)
    return .milliseconds(_roundedToInt64(Double(d.milliseconds) * params.reload.pressureFactor(used: used)))
  }

  /// The spacing of `reload.asap: paced` for widget `w`: its budget spread
  /// over the user's awake span, never less than the minimum interval
  /// (docs/model.md#asap-reloads).
  @inline(__always)
  func asapPace(_ w: Int) -> SimDuration {
    let pace = SimDuration.milliseconds(awakeSpan.milliseconds / Int64(budget.cap(w, app)))
    return max(minInterval, pace)
  }

  /// Widget `w`, reloaded at `t`, asked to reload at once: under
  /// `reload.asap: paced` its next policy request waits for `asapPace`.
  @inline(never)
  mutating func pacedRequest(_ w: Int, at t: SimTime) {
    let next = t + asapPace(w)
    if next < end { pending.set(w, .policyRequest, at: next, cause: .policy, on: &queue) }
  }

  /// A reload the app asks for (`reloadTimelines`) while it runs: free in
  /// the foreground or an audio session, budgeted otherwise (docs/model.md#exempt-reloads, #budgeted-reloads).
  mutating func appReload(_ w: Int, at t: SimTime, cause: ReloadCause, _ env: DeviceEnvironment) {
    if app.reloadsAreFree {
      reload(w, at: t, budgeted: false, chargeTimeline: false, cause: cause, env)
    } else if delaysBackgroundCalls {
      delayedAppRequest(w, at: t, cause: cause, env)
    } else {
      budgetedRequest(w, at: t, late: false, cause: cause, env)
    }
  }

  /// A budgeted app call that may wait: the background latency
  /// (docs/model.md#background-latency), then, under
  /// `app_reload.while_asleep: defer_to_wake`, the user's wake-up hour
  /// (docs/model.md#background-while-asleep). The budget is checked when it runs.
  @inline(never)
  mutating func delayedAppRequest(_ w: Int, at t: SimTime, cause: ReloadCause, _ env: DeviceEnvironment) {
    var at = t
    let latency = params.appReload.backgroundLatency
    if !latency.isZero { at = t + max(.zero, latency.sample(using: &appReloadRNG)) }
    if params.appReload.whileAsleep == .deferToWake && !env.isAwake(at: at) {
      let wake = env.nextAwakeTime(atOrAfter: at)
      if wake == .never { return }
      // The user wakes some time in their first awake hour (as for policy reloads).
      at = wake + .milliseconds(Int64(appReloadRNG.nextUnit() * 3_600_000))
    }
    if at == t {
      budgetedRequest(w, at: t, late: false, cause: cause, env)
    } else if at < end {
      pending.set(w, .appRequest, at: at, cause: cause, on: &queue)
    }
  }

  /// Every widget reloads now, for free (a foreground reload, a settings change).
  mutating func reloadAllFree(at t: SimTime, cause: ReloadCause, _ env: DeviceEnvironment) {
    for w in 0..<count { reload(w, at: t, budgeted: false, chargeTimeline: false, cause: cause, env) }
  }

  /// The app asks to reload every widget of kind `k` (`reloadTimelines(ofKind:)`).
  mutating func appReload(kind k: Int, at t: SimTime, cause: ReloadCause, _ env: DeviceEnvironment) {
    if log.enabled { log.event(.reloadCall, at: t, widgetKind: k, cause: cause, app) }
    for w in 0..<count where widgets.kind[w] == k { appReload(w, at: t, cause: cause, env) }
  }

  /// The app asks to reload every widget (`reloadAllTimelines()`).
  mutating func appReloadAll(at t: SimTime, cause: ReloadCause, _ env: DeviceEnvironment) {
    if log.enabled { log.event(.reloadCall, at: t, cause: cause, app) }
    for w in 0..<count { appReload(w, at: t, cause: cause, env) }
  }

  /// The widget reloads now: it captures the current data, gets a new
  /// timeline, and its policy asks for the next reload.
  mutating func reload(
    _ w: Int, at t: SimTime, budgeted: Bool, chargeTimeline: Bool, cause: ReloadCause, _ env: DeviceEnvironment
  ) {
    catchUp(w, before: t, env)
    let k = widgets.kind[w]
    let schedule = env.schedules[k]
    // The request is built in place unless some reload may draw, fail or
    // read a cache (NOTE: for performance: a request handed `inout` to an
    // out-of-line function was kept in memory and copied several times
    // on every reload).
    let request: TimelineRequest
    let dataTime: SimTime
    if special {
      (request, dataTime) = preparedRequest(w, kind: k, at: t, hasSchedule: schedule != nil, env)
    } else {
      request = TimelineRequest(now: t, kind: k, utcOffset: env.utcOffset, hasSchedule: schedule != nil)
      dataTime = t
    }
    let answer = provider.timeline(for: request)
    let newPlan = TimelinePlan(answer, request, schedule: schedule, horizon: feed.horizon[k], dataTime: dataTime)
    if measured(t) {
      // Wasted: the widget already showed current data and the new timeline
      // adds no scheduled change the old one lacked. Changed: the reload's
      // data holds a change the widget did not show (a failed fetch or a
      // stale cache can hold none even when the widget was stale), the new
      // timeline adds a scheduled change, or a placeholder gives way to data.
      let first = widgets.firstUnshownChange(w, at: t, env)
      var wasted = first > t
      var changed = first <= dataTime
      if !changed, let schedule {
        let from = max(t, widgets.plan[w].coverageEnd)
        if schedule.next(after: from) <= newPlan.coverageEnd {
          wasted = false
          changed = true
        }
      }
      if special && widgets.placeholder[w] && !answer.placeholder { changed = true }
      countReload(budgeted: budgeted, wasted: wasted, cause: cause)
      if budgeted && changed { counts.count(.changedBudgetedReloads) }
      let hour = counts.hourIndex(t)
      counts.countHourly(budgeted ? .budgetedReloads : .freeReloads, hour)
    }
    if request.fetch != .cached { counts.recordBackendRequest(at: t) }
    if special {
      widgets.failures[w] = request.fetch == .failed ? widgets.failures[w] &+ 1 : 0
      widgets.placeholder[w] = answer.placeholder
    }
    if budgeted && chargeTimeline { budget.spend(w, at: t, app) }
    widgets.show(w, newPlan, madeAt: t, eventMode: eventMode, feed, env)
    pending.reloaded(w, at: t)
    if log.enabled { log.timeline(w, kind: k, at: t, answer, next: newPlan.nextRequest, cause: cause, app) }
    if newPlan.nextRequest < end {
      // Due at once (`.atEnd` past its last entry, `.after(now)`): under
      // `reload.asap: paced` only eligible, paced by the budget.
      if pacedAsap && newPlan.nextRequest <= t {
        pacedRequest(w, at: t)
      } else {
        pending.set(w, .policyRequest, at: max(t, newPlan.nextRequest), cause: .policy, on: &queue)
      }
    }
  }

  /// The request of a reload of widget `w` at `t` when some reloads draw,
  /// fail or read a cache, and the time of the data it fetches. Kept out
  /// of line, so the common reload stays small.
  @inline(never)
  mutating func preparedRequest(
    _ w: Int, kind k: Int, at t: SimTime, hasSchedule: Bool, _ env: DeviceEnvironment
  ) -> (TimelineRequest, SimTime) {
    var request = TimelineRequest(now: t, kind: k, utcOffset: env.utcOffset, hasSchedule: hasSchedule)
    request.previousFailures = widgets.failures[w]
    if drawsPerReload { request.random = reloadDraw(w, at: t, env) }
    if readsCache[k] {
      request.fetch = .cached
      return (request, min(t, app.lastFetch))
    }
    if let f = failure[k], f.inOutage(t) || fetchFails(w, at: t, f.probability, env) || (f.whenUnpublished && unpublished(k, at: t, env)) {
      request.fetch = .failed
      return (request, widgets.plan[w].reloadTime)  // the widget keeps what it showed
    }
    return (request, t)
  }

  /// Whether kind `k`'s newest scheduled change at `t` is not published yet.
  func unpublished(_ k: Int, at t: SimTime, _ env: DeviceEnvironment) -> Bool {
    guard let schedule = env.schedules[k] else { return false }
    return schedule.next(after: feed.publishedThrough(kind: k, at: t, env)) <= t
  }

  /// The uniform draw of widget `w`'s reload at `t` (counter-based: it does
  /// not disturb any other stream).
  @inline(__always)
  func reloadDraw(_ w: Int, at t: SimTime, _ env: DeviceEnvironment) -> Double {
    let bits = prepared.streams.counter(
      entity: UInt64(env.device) << 8 | UInt64(w), purpose: .fetch, index: UInt64(bitPattern: t.milliseconds) << 1)
    return Double(bits >> 11) * 0x1p-53
  }

  /// Whether widget `w`'s fetch at `t` fails (probability `p`).
  @inline(__always)
  func fetchFails(_ w: Int, at t: SimTime, _ p: Double, _ env: DeviceEnvironment) -> Bool {
    guard p > 0 else { return false }
    let bits = prepared.streams.counter(
      entity: UInt64(env.device) << 8 | UInt64(w), purpose: .fetch, index: UInt64(bitPattern: t.milliseconds) << 1 | 1)
    return Double(bits >> 11) * 0x1p-53 < p
  }

  @inline(__always)
  private func countReload(budgeted: Bool, wasted: Bool, cause: ReloadCause) {
    counts.count(budgeted ? .budgetedReloads : .freeReloads)
    if wasted { counts.count(.wastedReloads) }
    counts.count(.events)
    switch cause {
    case .silentPush: counts.count(.silentPushReloads)
    case .backgroundRefresh: counts.count(.bgRefreshReloads)
    case .widgetPush: counts.count(.widgetPushReloads)
    default: break
    }
  }

  /// The app fetched its data in the foreground. When some kind's widgets
  /// read the app's cache, that fetch is the backend's load (docs/model.md#data-source).
  mutating func appFetched(at t: SimTime) {
    app.lastFetch = t
    if cacheReaders { counts.recordBackendRequest(at: t) }
  }

  // MARK: - Low Power Mode and the learning period

  mutating func lowPowerStarted(at t: SimTime, _ env: DeviceEnvironment) {
    catchUpAll(before: t, env)
    app.lowPower = true
    if budget.isTokenBucket {
      for w in 0..<count { budget.clampTokens(w, app) }
    }
  }

  mutating func lowPowerEnded(at t: SimTime, _ env: DeviceEnvironment) {
    catchUpAll(before: t, env)
    app.lowPower = false
    // A larger budget may release withheld reloads early.
    for w in 0..<count where pending.withheld[w] && pending.time(w) > t {
      let available = budget.available(w, at: t, app)
      if available < pending.time(w) {
        dry.budgetReturns(w, at: available)
        let cause = pending.cause(w)
        pending.take(w)
        let at = cause == .policy ? lateExecution(w, after: available) : available
        pending.set(w, .exec, at: at, cause: cause, on: &queue)
      }
    }
  }

  mutating func learningEnded(at t: SimTime, _ env: DeviceEnvironment) {
    catchUpAll(before: t, env)
    app.learning = false
  }
}
