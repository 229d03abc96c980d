import ReloadEngine
import ReloadMetrics

// The reloads of a device's widgets: the requests that wait for the
// minimum interval, the budget and the lateness, the app's calls, and the
// reload itself (docs/model.md#budgeted-reloads, #exempt-reloads).

extension DeviceWidgets {
  /// Widget `w`'s pending action (`kind`) is due.
  mutating func pendingFired(_ kind: DeviceEvent, _ w: Int, at t: SimTime, _ env: DeviceEnvironment) {
    pending.take(w)
    switch kind {
    case .exec: reload(w, at: t, charge: .budget, cause: pending.cause(w), env)
    case .policyRequest: policyRequest(w, at: t, env)
    default: budgetedRequest(w, at: t, late: false, cause: pending.cause(w), env)
    }
  }

  /// A policy reload (`.atEnd` / `.after`) is due.
  mutating func policyRequest(_ w: Int, at t: SimTime, _ env: DeviceEnvironment) {
    if rules.params.reload.whileAsleep == .deferToWake && !env.isAwake(at: t) {
      // The user wakes some time in their first awake hour.
      let wake = env.nextAwakeTime(atOrAfter: t) + .hour.scaled(by: latenessRNG.nextUnit())
      if wake < context.end { pending.set(w, .policyRequest, at: wake, cause: .policy, on: &context.queue) }
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
    let earliest = pending.lastReload[w] + rules.minInterval
    if earliest > t {
      pending.set(w, late ? .policyRequest : .appRequest, at: earliest, cause: cause, on: &context.queue)
      return
    }
    // A token bucket is settled to `t` by the check below: the widget's
    // hourly budget samples before `t` are taken first, so they read the
    // bucket as it was at each sample, not as it is now.
    if budget.isTokenBucket { catchUp(w, before: t, env) }
    let available = budget.available(w, at: t, context.app)
    if context.measured(t) { context.counts.countBoth(.budgetRequests, kind: widgets.kind[w]) }
    if available > t {
      if context.measured(t) {
        context.counts.countBoth(.withheldRequests, kind: widgets.kind[w])
        context.counts.count(.events)
      }
      refusals.refused(w, at: t, env, context.counts)
      if rules.params.budget.whenEmpty == .drop { return }
      let at = late ? lateExecution(w, after: available) : available
      if at < context.end {
        pending.set(w, .exec, at: at, cause: cause, on: &context.queue)
        if pending.time(w) == at { pending.withheld[w] = true }
      }
      return
    }
    if late {
      let at = lateExecution(w, after: t)
      if at < context.end { pending.set(w, .exec, at: at, cause: cause, on: &context.queue) }
    } else {
      reload(w, at: t, charge: .budget, cause: cause, env)
    }
  }

  /// When widget `w`'s policy reload, allowed at `t`, runs: `t` plus a
  /// lateness draw, scaled by the budget's pressure under
  /// `reload.lateness_pressure: budget` (docs/model.md#lateness-pressure).
  @inline(__always)
  mutating func lateExecution(_ w: Int, after t: SimTime) -> SimTime {
    let lateness = rules.params.reload.lateness
    if lateness.isZero { return t }
    var d = lateness.sample(using: &latenessRNG)
    if rules.latenessPressure { d = pressured(d, w, at: t) }
    return max(t, t + d)
  }

  /// `d` scaled by the share of widget `w`'s budget spent at `t`.
  @inline(__always)
  func pressured(_ d: SimDuration, _ w: Int, at t: SimTime) -> SimDuration {
    let cap = budget.cap(w, context.app)
    let used = 1 - Double(budget.left(w, at: t, cap: cap)) / Double(cap)
    return .milliseconds(_roundedToInt64(Double(d.milliseconds) * rules.params.reload.pressureFactor(used: used)))
  }

  /// The spacing of `reload.asap: paced` for widget `w`: its budget spread
  /// over the user's awake span, never less than the minimum interval
  /// (docs/model.md#asap-reloads).
  @inline(__always)
  func asapPace(_ w: Int) -> SimDuration {
    let pace = SimDuration.milliseconds(awakeSpan.milliseconds / Int64(budget.cap(w, context.app)))
    return max(rules.minInterval, pace)
  }

  /// Widget `w`, reloaded at `t`, asked to reload at once: under
  /// `reload.asap: paced` its next policy request waits for `asapPace`.
  @inline(never)
  mutating func pacedRequest(_ w: Int, at t: SimTime) {
    let next = t + asapPace(w)
    if next < context.end { pending.set(w, .policyRequest, at: next, cause: .policy, on: &context.queue) }
  }

  // MARK: - The app's calls

  /// A reload the app asks for (`reloadTimelines`) while it runs: free in
  /// the foreground or an audio session, budgeted otherwise
  /// (docs/model.md#exempt-reloads, #budgeted-reloads).
  mutating func appReload(_ w: Int, at t: SimTime, cause: ReloadCause, _ env: DeviceEnvironment) {
    if context.app.reloadsAreFree {
      reload(w, at: t, charge: .free, cause: cause, env)
    } else if rules.delaysBackgroundCalls {
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
    let latency = rules.params.appReload.backgroundLatency
    if !latency.isZero { at = t + max(.zero, latency.sample(using: &appReloadRNG)) }
    if rules.params.appReload.whileAsleep == .deferToWake && !env.isAwake(at: at) {
      let wake = env.nextAwakeTime(atOrAfter: at)
      if wake == .never { return }
      // The user wakes some time in their first awake hour (as for policy reloads).
      at = wake + .hour.scaled(by: appReloadRNG.nextUnit())
    }
    if at == t {
      budgetedRequest(w, at: t, late: false, cause: cause, env)
    } else if at < context.end {
      pending.set(w, .appRequest, at: at, cause: cause, on: &context.queue)
    }
  }

  /// Every widget reloads now, for free (a foreground reload, a settings change).
  mutating func reloadAllFree(at t: SimTime, cause: ReloadCause, _ env: DeviceEnvironment) {
    for w in 0..<count { reload(w, at: t, charge: .free, cause: cause, env) }
  }

  /// The app asks to reload every widget of kind `k` (`reloadTimelines(ofKind:)`).
  mutating func appReload(kind k: Int, at t: SimTime, cause: ReloadCause, _ env: DeviceEnvironment) {
    if context.log.enabled { context.log.event(.reloadCall, at: t, widgetKind: k, cause: cause, context.app) }
    for w in 0..<count where widgets.kind[w] == k { appReload(w, at: t, cause: cause, env) }
  }

  /// The app asks to reload every widget (`reloadAllTimelines()`).
  mutating func appReloadAll(at t: SimTime, cause: ReloadCause, _ env: DeviceEnvironment) {
    if context.log.enabled { context.log.event(.reloadCall, at: t, cause: cause, context.app) }
    for w in 0..<count { appReload(w, at: t, cause: cause, env) }
  }

  /// The app fetched its data in the foreground. When some kind's widgets
  /// read the app's cache, that fetch is the backend's load (docs/model.md#data-source).
  mutating func appFetched(at t: SimTime) {
    context.app.lastFetch = t
    if rules.cacheReaders { context.counts.recordBackendRequest(at: t) }
  }

  // MARK: - The reload

  /// The widget reloads now: it captures the current data, gets a new
  /// timeline, and its policy asks for the next reload.
  mutating func reload(_ w: Int, at t: SimTime, charge: Charge, cause: ReloadCause, _ env: DeviceEnvironment) {
    catchUp(w, before: t, env)
    if rules.defersFirstEntry && widgets.upcomingAt[w] <= t { showUpcoming(w, env) }
    let k = widgets.kind[w]
    let schedule = env.schedules[k]
    let budgeted = charge != .free
    // The request is built in place unless some reload may draw, fail or
    // read a cache (NOTE: for performance: a request handed `inout` to an
    // out-of-line function was kept in memory and copied several times
    // on every reload).
    let request: TimelineRequest
    let dataTime: SimTime
    if rules.special {
      (request, dataTime) = preparedRequest(w, kind: k, at: t, hasSchedule: schedule != nil, env)
    } else {
      request = TimelineRequest(now: t, kind: k, utcOffset: env.utcOffset, hasSchedule: schedule != nil)
      dataTime = t
    }
    let answer = provider.timeline(for: request)
    if !answer.completionCalled {
      completionNeverCalled(w, at: t, request, charge: charge, cause: cause, env)
      return
    }
    let newPlan = TimelinePlan(
      answer, request, schedule: schedule, horizon: context.feed.horizon[k], dataTime: dataTime)
    if context.measured(t) {
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
      if rules.special && widgets.placeholder[w] && !answer.placeholder { changed = true }
      countReload(budgeted: budgeted, wasted: wasted, cause: cause, kind: k)
      if budgeted && changed { context.counts.countBoth(.changedBudgetedReloads, kind: k) }
      let hour = context.counts.hourIndex(t)
      context.counts.countHourly(budgeted ? .budgetedReloads : .freeReloads, hour)
    }
    if request.fetch != .cached && !lockedAtBoot(kind: request.kind) { context.counts.recordBackendRequest(at: t) }
    if rules.special { widgets.failures[w] = request.fetch == .failed ? widgets.failures[w] &+ 1 : 0 }
    if charge == .budget { budget.spend(w, at: t, context.app) }
    if rules.defersFirstEntry, case .single(let at) = answer.entries, at > t {
      deferFirstEntry(w, newPlan, placeholder: answer.placeholder, at: at, now: t, env)
    } else {
      widgets.upcomingAt[w] = .never
      if rules.special { widgets.placeholder[w] = answer.placeholder }
      widgets.show(w, newPlan, madeAt: t, eventMode: rules.eventMode, context.feed, env)
    }
    refusals.reloads(w, at: t, last: pending.lastReload[w], env, &context.counts)
    pending.reloaded(w, at: t)
    if context.log.enabled {
      context.log.timeline(w, kind: k, at: t, answer, next: newPlan.nextRequest, cause: cause, context.app)
    }
    if newPlan.nextRequest < context.end {
      // Due at once (`.atEnd` past its last entry, `.after(now)`): under
      // `reload.asap: paced` only eligible, paced by the budget.
      if rules.pacedAsap && newPlan.nextRequest <= t {
        pacedRequest(w, at: t)
      } else {
        pending.set(w, .policyRequest, at: max(t, newPlan.nextRequest), cause: .policy, on: &context.queue)
      }
    }
  }

  /// Widget `w`'s reload at `t` returned `newPlan`, whose first entry is
  /// dated `at`, later: the widget keeps the entry it shows now until
  /// then (the rest of the old timeline is replaced), and shows `newPlan`
  /// from `at` (docs/model.md#future-first-entry). The old plan takes the
  /// new policy's request, which is the last timeline's.
  @inline(never)
  mutating func deferFirstEntry(
    _ w: Int, _ newPlan: TimelinePlan, placeholder: Bool, at: SimTime, now t: SimTime, _ env: DeviceEnvironment
  ) {
    var kept = widgets.plan[w]
    kept.lastEntry = min(kept.lastEntry, kept.coveredUntil(t))
    kept.nextRequest = newPlan.nextRequest
    widgets.show(w, kept, madeAt: t, eventMode: rules.eventMode, context.feed, env)
    widgets.upcoming[w] = newPlan
    widgets.upcomingAt[w] = at
    widgets.upcomingPlaceholder[w] = placeholder
  }

  /// Widget `w`'s reload at `t` returned no timeline: its provider never
  /// called the completion handler, and WidgetKit ended the extension after
  /// its time limit (docs/model.md#no-completion). The launch, the fetch and
  /// the budget were spent as for any reload; the widget keeps its old
  /// timeline (what it shows, and the data it was made from), and the next
  /// request follows `reload.no_completion`. No timeline is logged: none
  /// was returned.
  @inline(never)
  mutating func completionNeverCalled(
    _ w: Int, at t: SimTime, _ request: TimelineRequest, charge: Charge, cause: ReloadCause, _ env: DeviceEnvironment
  ) {
    let budgeted = charge != .free
    if context.measured(t) {
      // Wasted when the widget already showed current data, as for any
      // reload; it never changes what the widget shows.
      countReload(
        budgeted: budgeted, wasted: widgets.firstUnshownChange(w, at: t, env) > t, cause: cause, kind: widgets.kind[w])
      context.counts.countHourly(budgeted ? .budgetedReloads : .freeReloads, context.counts.hourIndex(t))
    }
    if request.fetch != .cached && !lockedAtBoot(kind: request.kind) { context.counts.recordBackendRequest(at: t) }
    if rules.special { widgets.failures[w] = request.fetch == .failed ? widgets.failures[w] &+ 1 : 0 }
    if charge == .budget { budget.spend(w, at: t, context.app) }
    refusals.reloads(w, at: t, last: pending.lastReload[w], env, &context.counts)
    pending.reloaded(w, at: t)
    guard rules.params.reload.noCompletion == .oldPolicy else { return }
    // The old timeline's policy stands: a date still ahead is kept, one
    // already passed (the request that ran this reload) is due at once.
    let next = widgets.plan[w].nextRequest
    if next >= context.end { return }
    if rules.pacedAsap && next <= t {
      pacedRequest(w, at: t)
    } else {
      pending.set(w, .policyRequest, at: max(t, next), cause: .policy, on: &context.queue)
    }
  }

  /// The request of a reload of widget `w` at `t` when some reloads draw,
  /// fail or read a cache, and the time of the data it fetches. Kept out
  /// of line, so the common reload stays small.
  @inline(never)
  func preparedRequest(
    _ w: Int, kind k: Int, at t: SimTime, hasSchedule: Bool, _ env: DeviceEnvironment
  ) -> (TimelineRequest, SimTime) {
    var (request, dataTime) = fetchedRequest(w, kind: k, at: t, hasSchedule: hasSchedule, env)
    if rules.readsLastChange { request.lastChange = context.feed.lastUnpredictable(kind: k, atOrBefore: dataTime, env) }
    return (request, dataTime)
  }

  /// `preparedRequest` before `lastChange`: what the reload reads, and the
  /// time of its data.
  func fetchedRequest(
    _ w: Int, kind k: Int, at t: SimTime, hasSchedule: Bool, _ env: DeviceEnvironment
  ) -> (TimelineRequest, SimTime) {
    var request = TimelineRequest(now: t, kind: k, utcOffset: env.utcOffset, hasSchedule: hasSchedule)
    request.previousFailures = widgets.failures[w]
    if rules.drawsPerReload { request.random = reloadDraw(w, at: t, env) }
    if lockedAtBoot(kind: k) {
      // The data is protected until the first unlock after a restart
      // (docs/model.md#device-restart): the provider cannot read it.
      request.fetch = .failed
      return (request, widgets.plan[w].reloadTime)
    }
    if rules.maxAge[k] > 0 {
      // The provider keeps what it fetched last and fetches again only
      // once that is `max_age` old (docs/model.md#max-age).
      let held = widgets.upcomingAt[w] != .never ? widgets.upcoming[w].reloadTime : widgets.plan[w].reloadTime
      if t.milliseconds - held.milliseconds < rules.maxAge[k] {
        request.fetch = .cached
        return (request, held)
      }
    }
    if rules.readsCache[k] {
      request.fetch = .cached
      // An app that keeps its cache current while it runs (docs/model.md#cache-while-running).
      if rules.cacheWhileRunning && (context.app.foreground || context.app.audio) { return (request, t) }
      return (request, min(t, context.app.lastFetch))
    }
    if let f = rules.failure[k],
      f.inOutage(t) || fetchFails(w, at: t, f.probability, env) || (f.whenUnpublished && unpublished(k, at: t, env))
    {
      request.fetch = .failed
      return (request, widgets.plan[w].reloadTime)  // the widget keeps what it showed
    }
    return (request, t)
  }

  /// Whether a reload of kind `k` now runs before the first unlock after a
  /// restart and cannot read its data: no request reaches the backend.
  @inline(__always)
  func lockedAtBoot(kind k: Int) -> Bool { rules.special && context.app.beforeFirstUnlock && rules.lockedAtBoot[k] }

  /// Whether kind `k`'s newest scheduled change at `t` is not published yet.
  func unpublished(_ k: Int, at t: SimTime, _ env: DeviceEnvironment) -> Bool {
    guard let schedule = env.schedules[k] else { return false }
    return schedule.next(after: context.feed.publishedThrough(kind: k, at: t, env)) <= t
  }

  /// The uniform draw of widget `w`'s reload at `t` (counter-based: it does
  /// not disturb any other stream).
  @inline(__always)
  func reloadDraw(_ w: Int, at t: SimTime, _ env: DeviceEnvironment) -> Double {
    let bits = context.streams.counter(
      entity: UInt64(env.device) << 8 | UInt64(w), purpose: .fetch, index: UInt64(bitPattern: t.milliseconds) << 1)
    return Double(bits >> 11) * 0x1p-53
  }

  /// Whether widget `w`'s fetch at `t` fails (probability `p`).
  @inline(__always)
  func fetchFails(_ w: Int, at t: SimTime, _ p: Double, _ env: DeviceEnvironment) -> Bool {
    guard p > 0 else { return false }
    let bits = context.streams.counter(
      entity: UInt64(env.device) << 8 | UInt64(w), purpose: .fetch,
      index: UInt64(bitPattern: t.milliseconds) << 1 | 1)
    return Double(bits >> 11) * 0x1p-53 < p
  }

  @inline(__always)
  private func countReload(budgeted: Bool, wasted: Bool, cause: ReloadCause, kind k: Int) {
    context.counts.countBoth(budgeted ? .budgetedReloads : .freeReloads, kind: k)
    if wasted { context.counts.countBoth(.wastedReloads, kind: k) }
    context.counts.count(.events)
    switch cause {
    case .silentPush: context.counts.count(.silentPushReloads)
    case .backgroundRefresh: context.counts.count(.bgRefreshReloads)
    case .widgetPush: context.counts.count(.widgetPushReloads)
    default: break
    }
  }
}
