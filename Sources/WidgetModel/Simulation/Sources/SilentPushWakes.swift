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

  mutating func reset<T>(_ device: inout DeviceWidgets<T>, _ env: DeviceEnvironment) {
    for k in 0..<device.kindCount { cursor[k] = 0 }
    throttle.reset()
    rng = device.prepared.streams.stream(entity: UInt64(env.device), purpose: .pushDelivery)
  }

  mutating func start<T>(kind k: Int, _ device: inout DeviceWidgets<T>, _ env: DeviceEnvironment) {
    guard let trigger else { return }
    var c = cursor[k]
    let first = device.feed.nextChange(kind: k, after: SimTime(milliseconds: -1), on: trigger.on, cursor: &c, env)
    cursor[k] = c
    if first < device.end { device.queue.schedule(.silentPushSend, k, at: first) }
  }

  mutating func lowPowerModeEnded<T>(at t: SimTime, _ device: inout DeviceWidgets<T>, _ env: DeviceEnvironment) {
    if throttle.held > 0 && !throttle.releaseScheduled {
      throttle.releaseScheduled = true
      device.queue.schedule(.silentPushRelease, 0, at: t)
    }
  }

  /// `DeviceEvent.silentPushSend`: the backend pushes for kind `k` (coalescing later changes).
  mutating func sent<T>(kind k: Int, at t: SimTime, _ device: inout DeviceWidgets<T>, _ env: DeviceEnvironment) {
    guard let trigger else { return }
    if device.measured(t) {
      device.counts.count(.silentPushesSent)
      device.counts.count(.events)
      device.counts.countHourly(.silentPushesSent, device.counts.hourIndex(t))
      device.counts.recordPush(at: t, widget: false)
    }
    receive(kind: k, at: t, &device)
    var c = cursor[k]
    let next = device.feed.nextChange(kind: k, after: t, on: trigger.on, cursor: &c, env)
    cursor[k] = c
    let at = max(next, t + trigger.coalesce)
    if next < device.end && at < device.end { device.queue.schedule(.silentPushSend, k, at: at) }
  }

  /// The system's throttle: pushes over it are held (only the newest
  /// survives); none reach a force-quit app; Low Power Mode holds or drops them.
  private mutating func receive<T>(kind k: Int, at t: SimTime, _ device: inout DeviceWidgets<T>) {
    if device.app.forceQuit { return }
    if device.app.lowPower {
      if throttle.parameters.lowPower == .hold { throttle.hold(kind: k) }
      return
    }
    if throttle.admit(at: t) {
      deliverLater(kind: k, at: t, &device)
    } else {
      throttle.hold(kind: k)
      if !throttle.releaseScheduled { scheduleRelease(at: t, &device) }
    }
  }

  private mutating func scheduleRelease<T>(at t: SimTime, _ device: inout DeviceWidgets<T>) {
    if let at = throttle.nextRelease(after: t, end: device.end) {
      throttle.releaseScheduled = true
      device.queue.schedule(.silentPushRelease, 0, at: at)
    }
  }

  /// `DeviceEvent.silentPushRelease`: a held push may go through now.
  mutating func release<T>(at t: SimTime, _ device: inout DeviceWidgets<T>, _ env: DeviceEnvironment) {
    throttle.releaseScheduled = false
    guard throttle.held > 0, !device.app.lowPower else { return }
    if device.app.forceQuit {
      throttle.held = 0
      return
    }
    if let k = throttle.releaseHeld(at: t) { deliverLater(kind: k, at: t, &device) }
    if throttle.held > 0 { scheduleRelease(at: t, &device) }
  }

  private mutating func deliverLater<T>(kind k: Int, at t: SimTime, _ device: inout DeviceWidgets<T>) {
    let at = t + max(.zero, throttle.parameters.deliveryDelay.sample(using: &rng))
    if at < device.end { device.queue.schedule(.silentPushDeliver, k, at: at) }
  }

  /// `DeviceEvent.silentPushDeliver`: the push wakes the app for ~30 s: it
  /// fetches, then reloads the kind from the background.
  @discardableResult
  func delivered<T>(kind k: Int, at t: SimTime, _ device: inout DeviceWidgets<T>, _ env: DeviceEnvironment) -> Bool {
    if device.app.forceQuit { return false }
    if device.measured(t) {
      device.counts.count(.silentPushesDelivered)
      device.counts.count(.appWakes)
      device.counts.countHourly(.silentPushesDelivered, device.counts.hourIndex(t))
    }
    device.counts.recordBackendRequest(at: t)
    device.app.lastFetch = t
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
    let rate = parameters.ratePerHour / 3_600_000
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
    let rate = parameters.ratePerHour / 3_600_000
    guard rate > 0 else { return nil }
    let wait = max(0, (1 - tokens) / rate).rounded(.up)
    // Compared as a Double first: a tiny rate gives a wait past Int64.
    guard wait < Double(end.milliseconds &- t.milliseconds) else { return nil }
    let at = t + .milliseconds(Int64(wait))
    return at < end ? at : nil
  }
}
