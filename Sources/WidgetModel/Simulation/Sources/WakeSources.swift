import ReloadEngine

/// Wake sources other than silent push and BGAppRefresh
/// (docs/model.md#wake-sources): location and geofence events, accessory
/// or health readings, Network Extension status changes, and audio
/// sessions. Each wake runs the app in the background: it fetches (a
/// backend request when `fetches`) and its triggers on `wake` and
/// `app_fetch` call `WidgetCenter` (budgeted, unless an audio session runs).
/// What stops each type (force-quit, Low Power Mode, Background App Refresh
/// off) is a model parameter (`model.wake_sources`).
struct WakeSources: DeviceActivity {
  let sources: [WakeSource]
  let rules: [WakeSourceRules.Rule]
  /// Local-time rates per source (events per hour for each local hour).
  private let rates: [TimeOfDayPoissonProcess]
  private var rng = Xoshiro256StarStar(seed: 0)
  /// Delivery delays (docs/model.md#wake-delivery), apart from `rng` so a
  /// source delivered at once draws nothing and changes no other draw.
  private var deliveryRNG = Xoshiro256StarStar(seed: 0)
  /// Some source's events reach the app late.
  private let delays: Bool
  /// The generation of a `.wake` event that is a delayed delivery, not the source's event.
  static let delivery: UInt32 = 1
  /// Per source: where it is in its kind's changes (`onChangesOf`).
  private let changeCursor: Column<Int>

  init(_ strategy: Strategy, _ rules: WakeSourceRules, storage: _DeviceStorage) {
    changeCursor = storage.column(max(1, strategy.wakes.count), 0)
    sources = strategy.wakes
    delays = strategy.wakes.contains { !$0.deliveryDelay.isZero }
    self.rules = strategy.wakes.map { rules.rule($0.type) }
    rates = strategy.wakes.map { s in
      let total = s.profile.reduce(0, +)
      return TimeOfDayPoissonProcess(ratesPerHour: s.profile.map { total > 0 ? s.perDay * $0 / total : 0 })
    }
  }

  mutating func reset<D: ReloadingDevice>(_ device: inout D, _ env: DeviceEnvironment) {
    guard !sources.isEmpty else { return }
    rng = device.context.stream(.wakeSources, env)
    if delays { deliveryRNG = device.context.stream(.wakeDelivery, env) }
    for i in sources.indices { changeCursor[i] = 0 }
  }

  mutating func startDevice<D: ReloadingDevice>(_ device: inout D, _ env: DeviceEnvironment) {
    for i in sources.indices where sources[i].type != .audio {
      if let k = sources[i].onChangesOf {
        scheduleChange(i, kind: k, after: SimTime(milliseconds: -1), &device.context, env)
      } else if let every = sources[i].every {
        let phase = SimTime(milliseconds: Int64(rng.nextUnit() * Double(every.milliseconds)))
        device.context.schedule(.wake, i, at: phase)
      } else {
        scheduleNext(i, after: .zero, &device.context, env)
      }
    }
  }

  /// An audio session starting is a wake of every `audio` source.
  /// Returns the sources that woke the app, as a bit set.
  mutating func audioWakes(at t: SimTime, _ context: inout DeviceContext, _ env: DeviceEnvironment) -> UInt64 {
    var woke: UInt64 = 0
    guard context.app.audio else { return 0 }
    for i in sources.indices where sources[i].type == .audio {
      if run(i, at: t, &context, env) { woke |= 1 << UInt64(i) }
    }
    return woke
  }

  /// `DeviceEvent.wake` of source `i`: whether the app ran. The source's
  /// event (`generation` 0) runs the app at once, or after its delivery
  /// delay as a second `.wake` event (`generation: Self.delivery`).
  mutating func fired(
    _ i: Int, generation: UInt32, at t: SimTime, _ context: inout DeviceContext, _ env: DeviceEnvironment
  ) -> Bool {
    if generation == Self.delivery { return run(i, at: t, &context, env) }
    if let k = sources[i].onChangesOf {
      scheduleChange(i, kind: k, after: t, &context, env)
    } else if let every = sources[i].every {
      context.schedule(.wake, i, at: t + every)
    } else {
      scheduleNext(i, after: t, &context, env)
    }
    if delays && !sources[i].deliveryDelay.isZero {
      let d = sources[i].deliveryDelay.sample(using: &deliveryRNG)
      context.schedule(.wake, i, at: t + max(.zero, d), generation: Self.delivery)
      return false
    }
    return run(i, at: t, &context, env)
  }

  private func stopped(_ i: Int, _ app: AppState, _ env: DeviceEnvironment) -> Bool {
    let rule = rules[i]
    return (rule.stoppedByForceQuit && app.forceQuit) || (rule.stoppedByLowPowerMode && app.lowPower)
      || (rule.stoppedByBackgroundRefreshOff && env.backgroundRefreshOff)
  }

  private func run(_ i: Int, at t: SimTime, _ context: inout DeviceContext, _ env: DeviceEnvironment) -> Bool {
    if stopped(i, context.app, env) || context.app.foreground { return false }
    if context.measured(t) {
      context.counts.count(.appWakes)
      context.counts.count(.events)
    }
    if sources[i].fetches { context.counts.recordBackendRequest(at: t) }
    context.app.lastFetch = t
    return true
  }

  /// The next change of kind `k` after `t` wakes source `i`.
  private func scheduleChange(
    _ i: Int, kind k: Int, after t: SimTime, _ context: inout DeviceContext, _ env: DeviceEnvironment
  ) {
    guard env.hasKind[k] else { return }
    var cursor = changeCursor[i]
    let next = context.feed.nextChange(kind: k, after: t, on: .all, cursor: &cursor, env)
    changeCursor[i] = cursor
    context.schedule(.wake, i, at: next)
  }

  private mutating func scheduleNext(
    _ i: Int, after t: SimTime, _ context: inout DeviceContext, _ env: DeviceEnvironment
  ) {
    guard !rates[i].isEmpty else { return }
    // The process is in local time: shift in, draw, shift back.
    let local = rates[i].nextArrival(after: t + env.utcOffset, using: &rng)
    guard local != .never else { return }
    context.schedule(.wake, i, at: max(t, local - env.utcOffset))
  }
}
