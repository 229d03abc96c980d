import ReloadEngine
import ReloadMetrics

extension DeviceSimulator {
  /// Resets every buffer for `env`'s device and schedules its first events.
  mutating func start(_ env: DeviceEnvironment) {
    sim.reset()
    seg = env.segment
    let n = env.widgetCount
    let streams = prepared.streams
    let deviceEntity = UInt64(env.device)
    latenessRNG = streams.stream(entity: deviceEntity, purpose: .lateness)
    pushRNG = streams.stream(entity: deviceEntity, purpose: .pushDelivery)
    refreshRNG = streams.stream(entity: deviceEntity, purpose: .backgroundRefresh)

    precondition(n <= Self.maxWidgetsPerDevice, "a device has \(n) widgets; at most \(Self.maxWidgetsPerDevice) are supported")
    widgetCount = n
    counters = tally.segments[seg].counters.base
    for w in 0..<n {
      gen[w] = 0
      pendingAt[w] = .never
      pendingKind[w] = .exec
      pendingCause[w] = .policy
      withheld[w] = false
      lastReload[w] = SimTime(milliseconds: -(1 << 40))
      unpredictableNext[w] = .never
      changeCursor[w] = 0
      predictedNext[w] = .never
      tickNext[w] = .never
      drySince[w] = .never
      dryUntil[w] = .never
      lastDryDay[w] = Int.min
      lastEpisodeDay[w] = Int.min
      tokens[w] = 0
      tokensAt[w] = .zero
      glanceCursor[w] = env.glanceStart[w]
      tapCursor[w] = env.tapStart[w]
      addCursor[w] = env.addStart[w]
      widgetKind[w] = env.widgetKind[w]
      baseBudget[w] = env.widgetBudget[w]
    }
    rings.reset(rings: n, capacity: ringCapacity)
    for k in 0..<kindCount {
      pushCursor[k] = 0
      widgetPushCursor[k] = 0
      runningCursor[k] = 0
      eventChangeCursor[k] = 0
      widgetPushTokens[k] = params.widgetPush.burst
      widgetPushTokensAt[k] = .zero
    }

    foreground = false
    audio = false
    forceQuit = false
    lowPower = false
    learning = params.budget.learningDays > 0
    sessionCursor = 0
    audioCursor = 0
    lowPowerCursor = 0
    settingsCursor = 0
    pushTokens = params.silentPush.burst
    pushTokensAt = .zero
    heldPushes = 0
    releaseScheduled = false
    backgroundGen = 0
    backgroundPending = false
    runningGen = 0

    let kinds = prepared.scenario.kinds
    // Widgets start showing data captured at t = 0 from a timeline made then;
    // the first policy request is spread over the policy's interval.
    let spread = params.reload.firstRequestSpread ?? policy.naturalInterval
    for w in 0..<n {
      let k = widgetKind[w]
      tolerance[w] = kinds[k].tolerance.milliseconds
      if params.budget.accrual == .tokenBucket { tokens[w] = tokenCapacity(w, env) }
      let plan = policy.plan(reloadAt: .zero, schedule: env.schedules[k], horizon: kindHorizon[k])
      plans[w] = plan
      predictedNext[w] = env.schedules[k]?.next(after: plan.coverageEnd) ?? .never
      if !eventMode {
        var cursor = changeCursor[w]
        unpredictableNext[w] = firstUnpredictable(kind: k, after: .zero, cursor: &cursor, env)
        changeCursor[w] = cursor
      }
      tickNext[w] = nextLocalHour(after: measureStart - .milliseconds(1), env)
      if plan.nextRequest != .never {
        var rng = streams.stream(entity: deviceEntity << 8 | UInt64(w), purpose: .firstRequest)
        let first =
          spread.milliseconds > 0
          ? SimTime(milliseconds: Int64(rng.nextUnit() * Double(spread.milliseconds))) : plan.nextRequest
        setPending(w, .policyRequest, at: first, cause: .policy)
      }
      if tapCursor[w] < env.tapStart[w + 1] { schedule(.tap, w, at: env.taps[tapCursor[w]]) }
      if addCursor[w] < env.addStart[w + 1] { schedule(.widgetAdded, w, at: env.adds[addCursor[w]]) }
      if eventMode && glanceCursor[w] < env.glanceStart[w + 1] {
        sim.schedule(
          payload: DeviceEvent.pack(.glance, index: w), at: env.glances[glanceCursor[w]],
          priority: DeviceEvent.glancePriority)
      }
    }

    if !env.sessionStart.isEmpty { schedule(.sessionStart, 0, at: env.sessionStart[0]) }
    if !env.audioStart.isEmpty { schedule(.audioStart, 0, at: env.audioStart[0]) }
    if !env.lowPowerStart.isEmpty { schedule(.lowPowerStart, 0, at: env.lowPowerStart[0]) }
    if !env.settingsChanges.isEmpty { schedule(.settingsChange, 0, at: env.settingsChanges[0]) }
    if learning { schedule(.learningEnd, 0, at: .zero + .days(params.budget.learningDays)) }

    for k in 0..<kindCount where env.hasKind[k] {
      if let trigger = strategy.backend.silentPush {
        var c = pushCursor[k]
        let first = nextChange(kind: k, after: SimTime(milliseconds: -1), on: trigger.on, cursor: &c, env)
        pushCursor[k] = c
        if first < end { schedule(.silentPushSend, k, at: first) }
      }
      if let trigger = strategy.backend.widgetPush {
        var c = widgetPushCursor[k]
        let first = nextChange(kind: k, after: SimTime(milliseconds: -1), on: trigger.on, cursor: &c, env)
        widgetPushCursor[k] = c
        if first < end { schedule(.widgetPushSend, k, at: first) }
      }
      if eventMode {
        var c = eventChangeCursor[k]
        let first = firstUnpredictable(kind: k, after: SimTime(milliseconds: -1), cursor: &c, env)
        eventChangeCursor[k] = c
        if first < end {
          sim.schedule(
            payload: DeviceEvent.pack(.change, index: k), at: first, priority: DeviceEvent.changePriority)
        }
      }
    }

    if let interval = strategy.app.backgroundRefreshInterval, !env.backgroundRefreshOff {
      let earliest = SimTime(milliseconds: Int64(refreshRNG.nextUnit() * Double(interval.milliseconds)))
      submitBackgroundRefresh(earliest: earliest, now: .zero, env)
    }
  }

  /// Accounts everything up to the end of the run and adds the device to the tally.
  mutating func finish(_ env: DeviceEnvironment) {
    let n = env.widgetCount
    for w in 0..<n {
      catchUp(w, before: end, env)
      closeDry(w, at: end, env)
    }
    var changes: UInt64 = 0
    for w in 0..<n { changes &+= UInt64(env.measuredChanges[env.widgetKind[w]]) }
    let measuredGlances = UInt64(n) == 0 ? 0 : countMeasuredGlances(env)
    count(.devices)
    count(.widgets, UInt64(n))
    count(.measuredLocalWidgetDays, UInt64(n * measuredLocalDays(env)))
    count(.dataChanges, changes)
    count(.events, changes &+ measuredGlances)
  }

  func countMeasuredGlances(_ env: DeviceEnvironment) -> UInt64 {
    var c: UInt64 = 0
    for w in 0..<widgetCount {
      var lo = env.glanceStart[w]
      var hi = env.glanceStart[w + 1]
      let stop = hi
      while lo < hi {
        let mid = (lo + hi) / 2
        if env.glances[mid] < measureStart { lo = mid + 1 } else { hi = mid }
      }
      c &+= UInt64(stop - lo)
    }
    return c
  }

  /// The first local hour boundary strictly after `t`.
  @inline(__always)
  func nextLocalHour(after t: SimTime, _ env: DeviceEnvironment) -> SimTime {
    var local = (t.milliseconds &+ env.utcOffset.milliseconds) % 3_600_000
    if local < 0 { local &+= 3_600_000 }
    return SimTime(milliseconds: t.milliseconds &- local &+ 3_600_000)
  }
}
