import ReloadEngine
import ReloadMetrics

/// The widgets of one device and the WidgetKit machinery that reloads them:
/// pending reloads, budgets, refusals, timelines and glances, around the
/// state every part shares (`context`: the event queue, the app's state,
/// the counters). Triggers and wake sources see it as a `ReloadingDevice`:
/// the context and the reloads they may ask for (`reload`, `appReload`,
/// `budgetedRequest`, ...), nothing of the machinery. The reloads are in
/// `DeviceWidgets+Reloads.swift`, the glances in `GlanceCursors.swift`.
struct DeviceWidgets<Provider: TimelineProvider>: ReloadingDevice {
  var context: DeviceContext
  let provider: Provider
  let rules: ReloadRules
  let widgets: WidgetTimelines
  var pending: PendingReloads
  var budget: ReloadBudget
  let refusals: BudgetRefusals
  let glances: GlanceCursors
  /// The current device's widgets.
  private(set) var count = 0
  /// Lateness of policy reloads and the user's wake-up time.
  var latenessRNG = Xoshiro256StarStar(seed: 0)
  /// Background app calls' latency and morning times (drawn only when some call may wait).
  var appReloadRNG = Xoshiro256StarStar(seed: 0)
  /// For `reload.asap: paced`: the span over which the device's user sees
  /// the widget each day (its awake hours; 24 h when the night is like the day).
  var awakeSpan = SimDuration.day

  init(
    _ prepared: PreparedScenario, _ strategy: Strategy, provider: Provider, widgets w: Int, storage: _DeviceStorage,
    recordLog: Bool = false
  ) {
    let scenario = prepared.scenario
    self.provider = provider
    context = DeviceContext(
      prepared, countsPushes: strategy.backend.sendsPushes, recordLog: recordLog, storage: storage)
    rules = ReloadRules(
      scenario, strategy, providerDraws: provider.usesRandomDraw, providerReadsLastChange: provider.readsLastChange)
    widgets = WidgetTimelines(widgets: w, storage: storage)
    pending = PendingReloads(widgets: w, storage: storage)
    budget = ReloadBudget(scenario.model.budget, ringCapacity: prepared.ringCapacity, widgets: w, storage: storage)
    refusals = BudgetRefusals(widgets: w, end: prepared.end, frozenAfter: rules.frozenAfter, storage: storage)
    glances = GlanceCursors(widgets: w, kinds: scenario.kinds.count, storage: storage)
  }

  // MARK: - A new device

  /// Resets every widget of `env`'s device (the first half of a device's start).
  mutating func reset(for env: DeviceEnvironment) {
    context.queue.reset()
    context.counts.select(segment: env.segment)
    latenessRNG = context.stream(.lateness, env)
    if rules.delaysBackgroundCalls { appReloadRNG = context.stream(.appReloadLatency, env) }
    if rules.pacedAsap {
      let hours = rules.params.reload.whileAsleep == .run ? 24 : max(1, env.awakeHours.nonzeroBitCount)
      awakeSpan = .hour * Int64(hours)
    }
    count = env.widgetCount
    pending.reset(widgets: count)
    for w in 0..<count {
      widgets.unpredictableNext[w] = .never
      widgets.changeCursor[w] = 0
      widgets.predictedNext[w] = .never
      widgets.nextAsked[w] = WidgetTimelines.notAsked
      widgets.upcomingAt[w] = .never
      widgets.kind[w] = env.widgetKind[w]
      refusals.reset(w)
      glances.reset(w, env)
    }
    glances.resetKinds(context.kindCount)
    budget.reset(widgets: count)
    context.app.reset(learningDays: rules.params.budget.learningDays)
    if context.log.enabled { context.log.reset() }
  }

  /// Widget `w` starts showing data captured at t = 0 from a timeline made
  /// then; its first policy request is spread over the policy's interval.
  mutating func start(_ w: Int, _ env: DeviceEnvironment) {
    let k = widgets.kind[w]
    widgets.tolerance[w] = rules.tolerance[k]
    widgets.failures[w] = 0
    budget.start(w, dailyBudget: env.widgetBudget[w], context.app)
    let request = TimelineRequest(
      now: .zero, kind: k, utcOffset: env.utcOffset, hasSchedule: env.schedules[k] != nil,
      random: rules.drawsPerReload ? reloadDraw(w, at: .zero, env) : 0)
    let first = provider.timeline(for: request)
    widgets.placeholder[w] = first.placeholder
    let plan = TimelinePlan(
      first, request, schedule: env.schedules[k], horizon: context.feed.horizon[k], dataTime: .zero)
    widgets.show(w, plan, madeAt: .zero, eventMode: rules.eventMode, context.feed, env)
    glances.startHourlySamples(w, measureStart: context.counts.measureStart, env)
    if plan.nextRequest != .never {
      let spread = rules.params.reload.firstRequestSpread ?? provider.firstRequestSpread(kind: k)
      var rng = context.streams.stream(entity: UInt64(env.device) << 8 | UInt64(w), purpose: .firstRequest)
      let first =
        spread.milliseconds > 0
        ? SimTime(milliseconds: Int64(rng.nextUnit() * Double(spread.milliseconds))) : plan.nextRequest
      pending.set(w, .policyRequest, at: first, cause: .policy, on: &context.queue)
    }
  }

  /// Event-by-event mode: widget `w`'s first glance enters the queue.
  mutating func scheduleFirstGlance(_ w: Int, _ env: DeviceEnvironment) {
    let g = glances.cursor[w]
    if rules.eventMode && g < env.glanceStart[w + 1] { context.queue.scheduleGlance(w, at: env.glances[g]) }
  }

  /// Event-by-event mode: kind `k`'s first unpredictable change enters the queue.
  mutating func scheduleFirstChange(kind k: Int, _ env: DeviceEnvironment) {
    guard rules.eventMode else { return }
    var c = glances.changeCursor[k]
    let first = context.feed.firstUnpredictable(kind: k, after: SimTime(milliseconds: -1), cursor: &c, env)
    glances.changeCursor[k] = c
    if first < context.end { context.queue.scheduleChange(kind: k, at: first) }
  }

  /// Accounts everything up to the end of the run and adds the device to the tally.
  mutating func finish(_ env: DeviceEnvironment) {
    let end = context.end
    for w in 0..<count {
      catchUp(w, before: end, env)
      refusals.reloads(w, at: end, last: pending.lastReload[w], env, &context.counts)
    }
    let measureStart = context.counts.measureStart
    let localDays = UInt64(measuredLocalDays(env))
    var changes: UInt64 = 0
    var measuredGlances: UInt64 = 0
    for w in 0..<count {
      let k = env.widgetKind[w]
      let widgetChanges = UInt64(env.measuredChanges[k])
      let widgetGlances = glances.measuredGlances(w, from: measureStart, env)
      changes &+= widgetChanges
      measuredGlances &+= widgetGlances
      context.counts.count(.widgets, kind: k)
      context.counts.count(.measuredLocalWidgetDays, kind: k, localDays)
      context.counts.count(.dataChanges, kind: k, widgetChanges)
      context.counts.count(.measuredGlances, kind: k, widgetGlances)
    }
    context.counts.count(.devices)
    context.counts.count(.widgets, UInt64(count))
    context.counts.count(.measuredLocalWidgetDays, UInt64(count) &* localDays)
    context.counts.count(.dataChanges, changes)
    context.counts.count(.measuredGlances, measuredGlances)
    context.counts.count(.events, changes &+ measuredGlances)
  }

  /// The number of local days of `env`'s device wholly inside the measured window.
  func measuredLocalDays(_ env: DeviceEnvironment) -> Int {
    let day = SimDuration.day.milliseconds
    let o = env.utcOffset.milliseconds
    let first = ChangeSchedule.floorDiv(context.counts.measureStart.milliseconds + o + day - 1, day)
    let last = ChangeSchedule.floorDiv(context.end.milliseconds + o, day) - 1
    return Int(max(0, last - first + 1))
  }

  // MARK: - Low Power Mode and the learning period

  mutating func lowPowerStarted(at t: SimTime, _ env: DeviceEnvironment) {
    catchUpAll(before: t, env)
    context.app.lowPower = true
    if budget.isTokenBucket {
      for w in 0..<count { budget.clampTokens(w, context.app) }
    }
  }

  mutating func lowPowerEnded(at t: SimTime, _ env: DeviceEnvironment) {
    catchUpAll(before: t, env)
    context.app.lowPower = false
    // A larger budget may release withheld reloads early.
    for w in 0..<count where pending.withheld[w] && pending.time(w) > t {
      let available = budget.available(w, at: t, context.app)
      if available < pending.time(w) {
        let cause = pending.cause(w)
        pending.take(w)
        let at = cause == .policy ? lateExecution(w, after: available) : available
        pending.set(w, .exec, at: at, cause: cause, on: &context.queue)
      }
    }
  }

  mutating func learningEnded(at t: SimTime, _ env: DeviceEnvironment) {
    catchUpAll(before: t, env)
    context.app.learning = false
  }
}
