import ReloadEngine
import ReloadMetrics

/// What makes the app run, and what it does then: foreground and audio
/// sessions, widget taps, settings changes, silent pushes, BGAppRefresh,
/// WidgetKit pushes (docs/model.md#exempt-reloads, #app-must-run, sections 2-3).
extension DeviceSimulator {
  // MARK: - Sessions

  mutating func sessionStarted(at t: SimTime, _ env: DeviceEnvironment) {
    if measured(t) { count(.events) }
    foreground = true
    forceQuit = false  // launching the app undoes a force-quit
    if strategy.app.reloadOnForeground {
      for w in 0..<widgetCount {
        executeReload(w, at: t, budgeted: false, chargeTimeline: false, cause: .foreground, env)
      }
    }
    if let interval = strategy.app.backgroundRefreshInterval, !backgroundPending, !env.backgroundRefreshOff {
      submitBackgroundRefresh(earliest: t + interval, now: t, env)
    }
    if strategy.app.reloadOnChangeWhileRunning { startWatchingChanges(at: t, env) }
    schedule(.sessionEnd, 0, at: env.sessionEnd[sessionCursor])
  }

  mutating func sessionEnded(at t: SimTime, _ env: DeviceEnvironment) {
    foreground = false
    forceQuit = env.sessionForceQuit[sessionCursor]
    if forceQuit { backgroundPending = false; backgroundGen &+= 1 }  // the task dies with the app
    runningGen &+= 1
    if audio && strategy.app.reloadOnChangeWhileRunning { startWatchingChanges(at: t, env) }
    sessionCursor += 1
    if sessionCursor < env.sessionStart.count { schedule(.sessionStart, 0, at: env.sessionStart[sessionCursor]) }
  }

  mutating func audioStarted(at t: SimTime, _ env: DeviceEnvironment) {
    if measured(t) { count(.events) }
    audio = true
    if strategy.app.reloadOnChangeWhileRunning && !foreground { startWatchingChanges(at: t, env) }
    schedule(.audioEnd, 0, at: env.audioEnd[audioCursor])
  }

  mutating func audioEnded(at t: SimTime, _ env: DeviceEnvironment) {
    audio = false
    if !foreground { runningGen &+= 1 }
    audioCursor += 1
    if audioCursor < env.audioStart.count { schedule(.audioStart, 0, at: env.audioStart[audioCursor]) }
  }

  /// While the app runs, it reloads a kind whenever its data changes.
  mutating func startWatchingChanges(at t: SimTime, _ env: DeviceEnvironment) {
    runningGen &+= 1
    for k in 0..<kindCount where env.hasKind[k] { scheduleRunningChange(kind: k, after: t, env) }
  }

  mutating func scheduleRunningChange(kind k: Int, after t: SimTime, _ env: DeviceEnvironment) {
    var c = runningCursor[k]
    let next = nextChange(kind: k, after: t, on: .all, cursor: &c, env)
    runningCursor[k] = c
    if next < end { schedule(.changeWhileRunning, k, at: next, generation: runningGen & 0x7FFFF) }
  }

  mutating func changedWhileRunning(kind k: Int, at t: SimTime, _ env: DeviceEnvironment) {
    guard foreground || audio else { return }
    for w in 0..<widgetCount where widgetKind[w] == k {
      executeReload(w, at: t, budgeted: false, chargeTimeline: false, cause: .running, env)
    }
    scheduleRunningChange(kind: k, after: t, env)
  }

  // MARK: - Taps, settings, Low Power Mode

  /// An App Intent button: the tapped widget reloads at once, for free (A).
  mutating func tapped(_ w: Int, at t: SimTime, _ env: DeviceEnvironment) {
    if measured(t) { count(.events) }
    executeReload(w, at: t, budgeted: false, chargeTimeline: false, cause: .tap, env)
    if strategy.app.reloadKindOnTap {
      let k = widgetKind[w]
      for other in 0..<env.widgetCount where other != w && widgetKind[other] == k {
        appReload(other, at: t, cause: .tap, env)
      }
    }
    tapCursor[w] += 1
    if tapCursor[w] < env.tapStart[w + 1] { schedule(.tap, w, at: env.taps[tapCursor[w]]) }
  }

  /// A newly added widget gets its first timeline from a free reload (A).
  mutating func widgetAdded(_ w: Int, at t: SimTime, _ env: DeviceEnvironment) {
    if measured(t) { count(.events) }
    executeReload(w, at: t, budgeted: false, chargeTimeline: false, cause: .added, env)
    addCursor[w] += 1
    if addCursor[w] < env.addStart[w + 1] { schedule(.widgetAdded, w, at: env.adds[addCursor[w]]) }
  }

  /// Locale, Dynamic Type or accessibility change: every widget reloads, free (A).
  mutating func settingsChanged(at t: SimTime, _ env: DeviceEnvironment) {
    if measured(t) { count(.events) }
    for w in 0..<widgetCount {
      executeReload(w, at: t, budgeted: false, chargeTimeline: false, cause: .settings, env)
    }
    settingsCursor += 1
    if settingsCursor < env.settingsChanges.count {
      schedule(.settingsChange, 0, at: env.settingsChanges[settingsCursor])
    }
  }

  mutating func lowPowerStarted(at t: SimTime, _ env: DeviceEnvironment) {
    if measured(t) { count(.events) }
    catchUpAll(before: t, env)
    lowPower = true
    if params.budget.accrual == .tokenBucket {
      for w in 0..<widgetCount { tokens[w] = min(tokens[w], tokenCapacity(w, env)) }
    }
    schedule(.lowPowerEnd, 0, at: env.lowPowerEnd[lowPowerCursor])
  }

  mutating func lowPowerEnded(at t: SimTime, _ env: DeviceEnvironment) {
    catchUpAll(before: t, env)
    lowPower = false
    // A larger budget may release withheld reloads early.
    for w in 0..<widgetCount where withheld[w] && pendingAt[w] > t {
      let available = budgetAvailable(w, at: t, env)
      if available < pendingAt[w] {
        if dryUntil[w] != .never { dryUntil[w] = min(dryUntil[w], available) }
        let cause = pendingCause[w]
        pendingAt[w] = .never
        let at = cause == .policy ? lateExecution(after: available) : available
        setPending(w, .exec, at: at, cause: cause)
      }
    }
    if heldPushes > 0 && !releaseScheduled {
      releaseScheduled = true
      schedule(.silentPushRelease, 0, at: t)
    }
    lowPowerCursor += 1
    if lowPowerCursor < env.lowPowerStart.count {
      schedule(.lowPowerStart, 0, at: env.lowPowerStart[lowPowerCursor])
    }
  }

  // MARK: - Silent pushes

  /// The backend sends a silent push for `kind` (coalescing later changes).
  mutating func silentPushSent(kind k: Int, at t: SimTime, _ env: DeviceEnvironment) {
    guard let trigger = strategy.backend.silentPush else { return }
    if measured(t) {
      count(.silentPushesSent)
      count(.events)
      countHourly(.silentPushesSent, hourIndex(t))
    }
    receiveSilentPush(kind: k, at: t, env)
    var c = pushCursor[k]
    let next = nextChange(kind: k, after: t, on: trigger.on, cursor: &c, env)
    pushCursor[k] = c
    let at = max(next, t + trigger.coalesce)
    if next < end && at < end { schedule(.silentPushSend, k, at: at) }
  }

  /// The system's throttle: a token bucket per device; pushes over it are
  /// held (only the newest survives); none reach a force-quit app; Low
  /// Power Mode holds or drops them (docs/model.md#silent-push-throttle, #force-quit).
  mutating func receiveSilentPush(kind k: Int, at t: SimTime, _ env: DeviceEnvironment) {
    if forceQuit { return }
    if lowPower {
      if params.silentPush.lowPower == .hold { holdPush(kind: k) }
      return
    }
    refreshPushTokens(at: t)
    if pushTokens >= 1 && heldPushes == 0 {
      pushTokens -= 1
      deliverLater(kind: k, at: t)
    } else {
      holdPush(kind: k)
      if !releaseScheduled { scheduleRelease(at: t) }
    }
  }

  mutating func holdPush(kind k: Int) {
    heldKind = k
    heldPushes = params.silentPush.holdNewestOnly ? 1 : heldPushes + 1
  }

  mutating func refreshPushTokens(at t: SimTime) {
    let rate = params.silentPush.ratePerHour / 3_600_000
    let dt = Double(t.milliseconds - pushTokensAt.milliseconds)
    if dt > 0 {
      pushTokens = min(params.silentPush.burst, pushTokens + dt * rate)
      pushTokensAt = t
    }
  }

  mutating func scheduleRelease(at t: SimTime) {
    let rate = params.silentPush.ratePerHour / 3_600_000
    guard rate > 0 else { return }
    let wait = max(0, (1 - pushTokens) / rate).rounded(.up)
    // Compared as a Double first: a tiny rate gives a wait past Int64.
    guard wait < Double(end.milliseconds &- t.milliseconds) else { return }
    let at = t + .milliseconds(Int64(wait))
    if at < end {
      releaseScheduled = true
      schedule(.silentPushRelease, 0, at: at)
    }
  }

  mutating func releaseHeldPush(at t: SimTime, _ env: DeviceEnvironment) {
    releaseScheduled = false
    guard heldPushes > 0, !lowPower else { return }
    if forceQuit {
      heldPushes = 0
      return
    }
    refreshPushTokens(at: t)
    if pushTokens >= 1 {
      pushTokens -= 1
      heldPushes -= 1
      deliverLater(kind: heldKind, at: t)
    }
    if heldPushes > 0 { scheduleRelease(at: t) }
  }

  mutating func deliverLater(kind k: Int, at t: SimTime) {
    let at = t + max(.zero, params.silentPush.deliveryDelay.sample(using: &pushRNG))
    if at < end { schedule(.silentPushDeliver, k, at: at) }
  }

  /// The push wakes the app for ~30 s: it fetches, then reloads the kind.
  mutating func silentPushDelivered(kind k: Int, at t: SimTime, _ env: DeviceEnvironment) {
    if forceQuit { return }
    if measured(t) {
      count(.silentPushesDelivered)
      count(.appWakes)
      countHourly(.silentPushesDelivered, hourIndex(t))
    }
    recordBackendRequest(at: t)
    guard strategy.app.reloadOnSilentPush else { return }
    for w in 0..<widgetCount where widgetKind[w] == k {
      appReload(w, at: t, cause: .silentPush, env)
    }
  }

  // MARK: - WidgetKit push (iOS 26)

  /// A WidgetKit push reloads the kind's widgets without waking the app,
  /// from its own budget (or the timeline budget, by parameter).
  mutating func widgetPushSent(kind k: Int, at t: SimTime, _ env: DeviceEnvironment) {
    guard let trigger = strategy.backend.widgetPush else { return }
    if measured(t) {
      count(.widgetPushesSent)
      count(.events)
    }
    let p = params.widgetPush
    let dt = Double(t.milliseconds - widgetPushTokensAt[k].milliseconds)
    widgetPushTokens[k] = min(p.burst, widgetPushTokens[k] + dt * p.ratePerHour / 3_600_000)
    widgetPushTokensAt[k] = t
    if widgetPushTokens[k] >= 1 {
      widgetPushTokens[k] -= 1
      if measured(t) { count(.widgetPushesAccepted) }
      for w in 0..<widgetCount where widgetKind[w] == k {
        if p.sharesTimelineBudget {
          budgetedRequest(w, at: t, late: false, cause: .widgetPush, env)
        } else {
          executeReload(w, at: t, budgeted: true, chargeTimeline: false, cause: .widgetPush, env)
        }
      }
    }
    var c = widgetPushCursor[k]
    let next = nextChange(kind: k, after: t, on: trigger.on, cursor: &c, env)
    widgetPushCursor[k] = c
    let at = max(next, t + trigger.coalesce)
    if next < end && at < end { schedule(.widgetPushSend, k, at: at) }
  }

  // MARK: - BGAppRefresh

  /// The app submits a refresh request; the system runs it after a delay
  /// that grows the less the app is used, and not while the user sleeps.
  mutating func submitBackgroundRefresh(earliest: SimTime, now t: SimTime, _ env: DeviceEnvironment) {
    let p = params.backgroundRefresh
    if measured(t) { count(.bgRefreshRequested) }
    let median = p.medianDelay(sessionsPerDay: env.appSessionsPerDay)
    let delay = DurationDistribution.logNormal(median: median, sigma: p.sigma).sample(using: &refreshRNG)
    var run = max(t, earliest + delay)
    if p.followUsage && !env.isAwake(at: run) {
      run = env.nextAwakeTime(atOrAfter: run) + .milliseconds(Int64(refreshRNG.nextUnit() * 1_800_000))
    }
    backgroundGen &+= 1
    backgroundPending = true
    if run < end { schedule(.backgroundRefreshRun, 0, at: run, generation: backgroundGen & 0x7FFFF) }
  }

  mutating func backgroundRefreshRan(at t: SimTime, _ env: DeviceEnvironment) {
    backgroundPending = false
    if forceQuit { return }  // discarded until the next launch
    if lowPower, let until = env.lowPowerEnd(containing: t) {
      backgroundPending = true
      backgroundGen &+= 1
      let at = until + .milliseconds(Int64(refreshRNG.nextUnit() * 600_000))
      if at < end { schedule(.backgroundRefreshRun, 0, at: at, generation: backgroundGen & 0x7FFFF) }
      return
    }
    if measured(t) {
      count(.bgRefreshRuns)
      count(.appWakes)
      count(.events)
    }
    recordBackendRequest(at: t)
    for w in 0..<widgetCount { appReload(w, at: t, cause: .backgroundRefresh, env) }
    if let interval = strategy.app.backgroundRefreshInterval {
      submitBackgroundRefresh(earliest: t + interval, now: t, env)
    }
  }
}
