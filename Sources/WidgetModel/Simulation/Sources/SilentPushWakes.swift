import ReloadEngine

/// Wake source: the backend sends a silent (background) push when a kind's
/// data changes; the system's throttle delivers, holds or drops it; a
/// delivered push wakes the app for ~30 s, it fetches, and (by strategy)
/// calls `reloadTimelines(ofKind:)` from the background, which is budgeted
/// (docs/model.md#silent-push-throttle, #silent-push-delivery, #force-quit, #silent-push-low-power, #budgeted-reloads).
struct SilentPushWakes: DeviceActivity {
  let trigger: PushTrigger?
  let reloadsOnWake: Bool
  private var throttle: SilentPushThrottle
  /// Each kind's next change the backend pushes for.
  private let cursor: Column<Int>
  private var rng = Xoshiro256StarStar(seed: 0)

  init(_ strategy: Strategy, _ parameters: SilentPushParameters, kinds: Int, storage: _DeviceStorage) {
    trigger = strategy.backend.silentPush
    reloadsOnWake = strategy.app.reloadOnSilentPush
    throttle = SilentPushThrottle(parameters)
    cursor = storage.column(max(1, kinds), 0)
  }

  mutating func reset<D: ReloadingDevice>(_ device: inout D, _ env: DeviceEnvironment) {
    for k in 0..<device.context.kindCount { cursor[k] = 0 }
    throttle.reset()
    rng = device.context.stream(.pushDelivery, env)
  }

  mutating func start<D: ReloadingDevice>(kind k: Int, _ device: inout D, _ env: DeviceEnvironment) {
    guard let trigger, trigger.kinds.contains(k) else { return }
    var c = cursor[k]
    let first = device.context.feed.nextChange(
      kind: k, after: SimTime(milliseconds: -1), on: trigger.on, cursor: &c, env)
    cursor[k] = c
    device.context.schedule(.silentPushSend, k, at: first)
  }

  mutating func lowPowerModeEnded<D: ReloadingDevice>(at t: SimTime, _ device: inout D, _ env: DeviceEnvironment) {
    if throttle.held > 0 && !throttle.releaseScheduled {
      throttle.releaseScheduled = true
      device.context.schedule(.silentPushRelease, 0, at: t)
    }
  }

  /// `DeviceEvent.silentPushSend`: the backend pushes for kind `k` (coalescing later changes).
  mutating func sent(kind k: Int, at t: SimTime, _ context: inout DeviceContext, _ env: DeviceEnvironment) {
    guard let trigger else { return }
    if context.measured(t) {
      context.counts.count(.silentPushesSent)
      context.counts.count(.events)
      context.counts.countHourly(.silentPushesSent, context.counts.hourIndex(t))
      context.counts.recordPush(at: t, widget: false)
    }
    receive(kind: k, at: t, &context)
    var c = cursor[k]
    let next = context.feed.nextChange(kind: k, after: t, on: trigger.on, cursor: &c, env)
    cursor[k] = c
    // `at` is never before `next`: before the end, both are.
    context.schedule(.silentPushSend, k, at: max(next, t + trigger.coalesce))
  }

  /// The system's throttle: pushes over it are held (only the newest
  /// survives); none reach a force-quit app; Low Power Mode holds or drops them.
  private mutating func receive(kind k: Int, at t: SimTime, _ context: inout DeviceContext) {
    if context.app.forceQuit { return }
    if context.app.lowPower {
      if throttle.parameters.lowPower == .hold { throttle.hold(kind: k) }
      return
    }
    if throttle.admit(at: t) {
      deliverLater(kind: k, at: t, &context)
    } else {
      throttle.hold(kind: k)
      if !throttle.releaseScheduled { scheduleRelease(at: t, &context) }
    }
  }

  private mutating func scheduleRelease(at t: SimTime, _ context: inout DeviceContext) {
    if let at = throttle.nextRelease(after: t, end: context.end) {
      throttle.releaseScheduled = true
      context.schedule(.silentPushRelease, 0, at: at)
    }
  }

  /// `DeviceEvent.silentPushRelease`: a held push may go through now.
  mutating func release(at t: SimTime, _ context: inout DeviceContext, _ env: DeviceEnvironment) {
    throttle.releaseScheduled = false
    guard throttle.held > 0, !context.app.lowPower else { return }
    if context.app.forceQuit {
      throttle.held = 0
      return
    }
    if let k = throttle.releaseHeld(at: t) { deliverLater(kind: k, at: t, &context) }
    if throttle.held > 0 { scheduleRelease(at: t, &context) }
  }

  private mutating func deliverLater(kind k: Int, at t: SimTime, _ context: inout DeviceContext) {
    let at = t + max(.zero, throttle.parameters.deliveryDelay.sample(using: &rng))
    context.schedule(.silentPushDeliver, k, at: at)
  }

  /// `DeviceEvent.silentPushDeliver`: the push wakes the app for ~30 s: it
  /// fetches, then reloads the kind from the background.
  @discardableResult
  func delivered<D: ReloadingDevice>(
    kind k: Int, at t: SimTime, _ device: inout D, _ env: DeviceEnvironment
  ) -> Bool {
    if device.context.app.forceQuit { return false }
    if device.context.measured(t) {
      device.context.counts.count(.silentPushesDelivered)
      device.context.counts.count(.appWakes)
      device.context.counts.countHourly(.silentPushesDelivered, device.context.counts.hourIndex(t))
    }
    device.context.counts.recordBackendRequest(at: t)
    device.context.app.lastFetch = t
    if reloadsOnWake { device.appReload(kind: k, at: t, cause: .silentPush, env) }
    return true
  }
}

/// The system's silent-push throttle of one device: a token bucket
/// ("no more than two or three per hour"), and the pushes it holds
/// (only the newest survives, by default) (docs/model.md#silent-push-throttle).
struct SilentPushThrottle {
  let parameters: SilentPushParameters
  private var tokens = 0.0
  private var tokensAt = SimTime.zero
  /// Pushes held back, and the kind of the newest.
  var held = 0
  private var heldKind = 0
  var releaseScheduled = false

  init(_ parameters: SilentPushParameters) { self.parameters = parameters }

  mutating func reset() {
    tokens = parameters.burst
    tokensAt = .zero
    held = 0
    releaseScheduled = false
  }

  mutating func hold(kind k: Int) {
    heldKind = k
    held = parameters.holdNewestOnly ? 1 : held + 1
  }

  private mutating func refill(at t: SimTime) {
    let rate = parameters.ratePerHour / Double(SimDuration.hour.milliseconds)
    let dt = Double(t.milliseconds - tokensAt.milliseconds)
    if dt > 0 {
      tokens = min(parameters.burst, tokens + dt * rate)
      tokensAt = t
    }
  }

  /// A push arriving at `t` goes through now (spending a token) when
  /// nothing is held and a token is left.
  mutating func admit(at t: SimTime) -> Bool {
    refill(at: t)
    if tokens >= 1 && held == 0 {
      tokens -= 1
      return true
    }
    return false
  }

  /// Releases the newest held push if a token is left at `t`: its kind.
  mutating func releaseHeld(at t: SimTime) -> Int? {
    refill(at: t)
    guard tokens >= 1 else { return nil }
    tokens -= 1
    held -= 1
    return heldKind
  }

  /// When the next token arrives after `t`, if before `end`.
  func nextRelease(after t: SimTime, end: SimTime) -> SimTime? {
    let rate = parameters.ratePerHour / Double(SimDuration.hour.milliseconds)
    guard rate > 0 else { return nil }
    let wait = max(0, (1 - tokens) / rate).rounded(.up)
    // Compared as a Double first: a tiny rate gives a wait past Int64.
    guard wait < Double(end.milliseconds &- t.milliseconds) else { return nil }
    let at = t + .milliseconds(Int64(wait))
    return at < end ? at : nil
  }
}
