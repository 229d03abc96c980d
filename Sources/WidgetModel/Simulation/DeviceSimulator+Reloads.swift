import ReloadEngine
import ReloadMetrics

extension DeviceSimulator {
  /// Makes `kind` at `t` the widget's one pending action, unless an earlier
  /// one is already pending (it will capture the same data, or later data).
  @inline(__always)
  mutating func setPending(_ w: Int, _ kind: DeviceEvent, at t: SimTime, cause: ReloadCause) {
    if pendingAt[w] <= t { return }
    gen[w] &+= 1
    pendingAt[w] = t
    pendingKind[w] = kind
    pendingCause[w] = cause
    withheld[w] = false
    schedule(kind, w, at: t, generation: gen[w] & 0x7FFFF)
  }

  /// A policy reload (`.atEnd` / `.after`) is due.
  mutating func policyRequest(_ w: Int, at t: SimTime, _ env: DeviceEnvironment) {
    if params.reload.whileAsleep == .deferToWake && !env.isAwake(at: t) {
      // The user wakes some time in their first awake hour.
      let wake = env.nextAwakeTime(atOrAfter: t) + .milliseconds(Int64(latenessRNG.nextUnit() * 3_600_000))
      if wake < end { setPending(w, .policyRequest, at: wake, cause: .policy) }
      return
    }
    budgetedRequest(w, at: t, late: true, cause: .policy, env)
  }

  /// A request that spends budget: the minimum interval, then the budget,
  /// then (for policy reloads) the lateness distribution.
  ///
  /// Source: R1 §Semantics (check at the request, execute at
  /// `max(requested, earliest allowed) + jitter`) and Apple's "Keeping a
  /// widget up to date" (withheld until budget returns).
  mutating func budgetedRequest(_ w: Int, at t: SimTime, late: Bool, cause: ReloadCause, _ env: DeviceEnvironment) {
    let earliest = lastReload[w] + minInterval
    if earliest > t {
      setPending(w, late ? .policyRequest : .appRequest, at: earliest, cause: cause)
      return
    }
    let available = budgetAvailable(w, at: t, env)
    if available > t {
      if measured(t) {
        count(.withheldRequests)
        count(.events)
      }
      openDry(w, at: t, until: available, env)
      if params.budget.whenEmpty == .drop { return }
      let at = late ? lateExecution(after: available) : available
      if at < end {
        setPending(w, .exec, at: at, cause: cause)
        if pendingAt[w] == at { withheld[w] = true }
      }
      return
    }
    if late {
      let at = lateExecution(after: t)
      if at < end { setPending(w, .exec, at: at, cause: cause) }
    } else {
      executeReload(w, at: t, budgeted: true, chargeTimeline: true, cause: cause, env)
    }
  }

  @inline(__always)
  mutating func lateExecution(after t: SimTime) -> SimTime {
    let lateness = params.reload.lateness
    if lateness.isZero { return t }
    return max(t, t + lateness.sample(using: &latenessRNG))
  }

  /// A reload the app asks for while it runs: free in the foreground or an
  /// audio session, budgeted otherwise.
  mutating func appReload(_ w: Int, at t: SimTime, cause: ReloadCause, _ env: DeviceEnvironment) {
    if foreground || audio {
      executeReload(w, at: t, budgeted: false, chargeTimeline: false, cause: cause, env)
    } else {
      budgetedRequest(w, at: t, late: false, cause: cause, env)
    }
  }

  /// The widget reloads now: it captures the current data, gets a new
  /// timeline, and its policy asks for the next reload.
  mutating func executeReload(
    _ w: Int, at t: SimTime, budgeted: Bool, chargeTimeline: Bool, cause: ReloadCause, _ env: DeviceEnvironment
  ) {
    catchUp(w, before: t, env)
    let k = widgetKind[w]
    let schedule = env.schedules[k]
    let newPlan = policy.plan(reloadAt: t, schedule: schedule, horizon: kindHorizon[k])
    if measured(t) {
      // Wasted: the widget already showed current data and the new timeline
      // adds no scheduled change the old one lacked.
      var wasted = firstUnshownChange(w, at: t, env) > t
      if wasted, let schedule {
        let from = max(t, plans[w].coverageEnd)
        if schedule.next(after: from) <= newPlan.coverageEnd { wasted = false }
      }
      countReload(budgeted: budgeted, wasted: wasted, cause: cause)
      let hour = hourIndex(t)
      if budgeted { countHourly(.budgetedReloads, hour) } else { countHourly(.freeReloads, hour) }
    }
    recordBackendRequest(at: t)
    if budgeted && chargeTimeline { consumeBudget(w, at: t, env) }
    plans[w] = newPlan
    predictedNext[w] = schedule?.next(after: newPlan.coverageEnd) ?? .never
    if eventMode {
      unpredictableNext[w] = .never
    } else {
      var cursor = changeCursor[w]
      unpredictableNext[w] = firstUnpredictable(kind: k, after: t, cursor: &cursor, env)
      changeCursor[w] = cursor
    }
    lastReload[w] = t
    gen[w] &+= 1
    pendingAt[w] = .never
    withheld[w] = false
    if newPlan.nextRequest < end {
      setPending(w, .policyRequest, at: max(t, newPlan.nextRequest), cause: .policy)
    }
  }

  @inline(__always)
  func countReload(budgeted: Bool, wasted: Bool, cause: ReloadCause) {
    count(budgeted ? .budgetedReloads : .freeReloads)
    if wasted { count(.wastedReloads) }
    count(.events)
    switch cause {
    case .silentPush: count(.silentPushReloads)
    case .backgroundRefresh: count(.bgRefreshReloads)
    case .widgetPush: count(.widgetPushReloads)
    default: break
    }
  }

  @inline(__always)
  func hourIndex(_ t: SimTime) -> Int {
    Int((t.milliseconds &- measureStart.milliseconds) / 3_600_000)
  }

  /// One backend request (a timeline fetch or a background fetch) at `t`.
  @inline(__always)
  mutating func recordBackendRequest(at t: SimTime) {
    guard measured(t) else { return }
    let offset = t.milliseconds &- measureStart.milliseconds
    count(.backendRequests)
    requests.entries[requests.count] = UInt32(truncatingIfNeeded: seg) << 25 | UInt32(truncatingIfNeeded: offset / 1000)
    requests.count &+= 1
    if requests.count == _RequestLog.capacity { requests.flush(into: segmentPerSecond) }
    countHourly(.backendRequests, Int(offset / 3_600_000))
  }

  // MARK: - Content

  /// The first unpredictable change of `kind` strictly after `t`; `cursor`
  /// only moves forward (times asked for never decrease per cursor).
  @inline(__always)
  func firstUnpredictable(kind k: Int, after t: SimTime, cursor: inout Int, _ env: DeviceEnvironment) -> SimTime {
    if kindShared[k] {
      let shared = sharedStart[k]
      let n = sharedCount[k]
      var c = cursor
      while c < n && shared[c] <= t { c &+= 1 }
      cursor = c
      return c < n ? shared[c] : .never
    }
    let lo = env.changeStart[k]
    let hi = env.changeStart[k + 1]
    var c = max(cursor, lo)
    while c < hi && env.changes[c] <= t { c &+= 1 }
    cursor = c
    return c < hi ? env.changes[c] : .never
  }

  /// The next change of `kind` after `t` that a push trigger reacts to.
  func nextChange(
    kind k: Int, after t: SimTime, on: PushTrigger.Changes, cursor: inout Int, _ env: DeviceEnvironment
  ) -> SimTime {
    let u = firstUnpredictable(kind: k, after: t, cursor: &cursor, env)
    if on == .all, let schedule = env.schedules[k] { return min(u, schedule.next(after: t)) }
    return u
  }

  /// The first change the widget does not show at `g` (`> g` means fresh).
  @inline(__always)
  func firstUnshownChange(_ w: Int, at g: SimTime, _ env: DeviceEnvironment) -> SimTime {
    var first = unpredictableNext[w]
    let plan = plans[w]
    if case .grid = plan.coverage, let schedule = env.schedules[widgetKind[w]] {
      first = min(first, schedule.next(after: plan.coveredUntil(g)))
    } else if g >= plan.coverageEnd {
      first = min(first, predictedNext[w])
    }
    return first
  }
}
