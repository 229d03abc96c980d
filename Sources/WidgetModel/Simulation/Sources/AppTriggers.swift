import ReloadEngine

/// App-side triggers (docs/model.md#app-triggers): the `WidgetCenter`
/// calls a strategy's app makes on its own events (coming to the
/// foreground, entering the background, an in-app event, after its own
/// fetch, a BGAppRefresh run, a silent push, a wake source), declared as
/// data (`Strategy.triggers`) or in Swift (`TimelineProvider.reloadCalls`).
///
/// Each call reloads every instance of its kinds. Whether a reload is free
/// or budgeted follows from the app's state at the moment of the call
/// (docs/model.md#exempt-reloads); delayed and repeated calls wait in a
/// small ring of burst slots.
struct AppTriggers: DeviceActivity {
  let triggers: [AppTrigger]
  let parameters: AppReloadParameters
  /// Some trigger or the provider may react to events (skip all work otherwise).
  let active: Bool
  private let inApp: [Int]
  /// Per trigger: its in-app events' rate by local hour (`perDay` shaped by `profile`).
  private let inAppRates: [TimeOfDayPoissonProcess]
  /// Burst slots: kinds, calls left, spacing.
  private let slotKinds: Column<UInt64>
  private let slotCalls: Column<Int>
  private let slotSpacing: Column<SimDuration>
  private var nextSlot = 0
  /// Per kind: the last call's time (for `burst: one`).
  private let lastCall: Column<SimTime>
  /// Per trigger: when it last fired (for `onlyIfChanged`).
  private let lastFired: Column<SimTime>
  /// Bumped when a session ends, so its pending in-app events are ignored.
  private var session: UInt32 = 0
  private var rng = Xoshiro256StarStar(seed: 0)

  static let slots = 64

  init(
    _ strategy: Strategy, _ parameters: AppReloadParameters, providerCalls: Bool, kinds: Int, storage: _DeviceStorage
  ) {
    let triggers = strategy.triggers
    self.triggers = triggers
    self.parameters = parameters
    active = !triggers.isEmpty || providerCalls
    inApp = triggers.indices.filter { triggers[$0].event == .inApp }
    inAppRates = triggers.map { t in
      let total = t.profile.reduce(0, +)
      return TimeOfDayPoissonProcess(ratesPerHour: t.profile.map { total > 0 ? t.perDay * $0 / total : 0 })
    }
    slotKinds = storage.column(Self.slots, 0)
    slotCalls = storage.column(Self.slots, 0)
    slotSpacing = storage.column(Self.slots, .zero)
    lastCall = storage.column(max(1, kinds), SimTime(milliseconds: Int64.min / 2))
    lastFired = storage.column(max(1, triggers.count), .zero)
  }

  mutating func reset<D: ReloadingDevice>(_ device: inout D, _ env: DeviceEnvironment) {
    guard active else { return }
    for s in 0..<Self.slots { slotCalls[s] = 0 }
    for k in 0..<device.context.kindCount { lastCall[k] = SimTime(milliseconds: Int64.min / 2) }
    for i in triggers.indices { lastFired[i] = .zero }
    nextSlot = 0
    session = 0
    rng = device.context.stream(.appTriggers, env)
  }

  mutating func appDidBecomeActive<D: ReloadingDevice>(at t: SimTime, _ device: inout D, _ env: DeviceEnvironment) {
    guard active else { return }
    happened(.foreground, at: t, &device, env)
    happened(.appFetch, at: t, &device, env)
    scheduleInAppEvents(at: t, &device.context, env)
  }

  mutating func appDidEnterBackground<D: ReloadingDevice>(at t: SimTime, _ device: inout D, _ env: DeviceEnvironment) {
    guard active else { return }
    session &+= 1
    device.context.app.enteringBackground = parameters.enterBackground == .free
    happened(.background, at: t, &device, env)
    device.context.app.enteringBackground = false
  }

  /// The app ran in the background for `event` (a BGAppRefresh run, a
  /// silent push, wake source `source`) and fetched its data.
  mutating func woke<D: ReloadingDevice>(
    _ event: AppEvent, source: Int = 0, at t: SimTime, _ device: inout D, _ env: DeviceEnvironment
  ) {
    guard active else { return }
    happened(event, source: source, at: t, &device, env)
    happened(.appFetch, at: t, &device, env)
  }

  /// A widget button's App Intent ran: its `perform()` code may call too.
  mutating func tapped<D: ReloadingDevice>(at t: SimTime, _ device: inout D, _ env: DeviceEnvironment) {
    guard active else { return }
    happened(.tap, at: t, &device, env)
  }

  /// Every call `event` makes: the declared triggers in order, then the provider's.
  private mutating func happened<D: ReloadingDevice>(
    _ event: AppEvent, source: Int = 0, at t: SimTime, _ device: inout D, _ env: DeviceEnvironment
  ) {
    for i in triggers.indices where triggers[i].event == event && event != .inApp {
      if event == .wake, let only = triggers[i].wakeSource, only != source { continue }
      fire(i, at: t, &device, env)
    }
    let app = device.context.app
    let snapshot = AppSnapshot(
      now: t, utcOffset: env.utcOffset, foreground: app.foreground, audio: app.audio, lowPowerMode: app.lowPower,
      wakeSource: source)
    let own = device.provider.reloadCalls(after: event, snapshot)
    if own.calls > 0 && own.kinds.bits != 0 { call(own, at: t, &device, env) }
  }

  /// `DeviceEvent.inAppEvent`: trigger `i`'s in-app event (session `g`).
  mutating func inAppEvent<D: ReloadingDevice>(
    _ i: Int, generation g: UInt32, at t: SimTime, _ device: inout D, _ env: DeviceEnvironment
  ) {
    guard g == (session & 0x7FFFF), device.context.app.foreground else { return }
    fire(i, at: t, &device, env)
  }

  /// Trigger `i` calls, unless it calls only on changed data and none of
  /// its kinds changed since its last call.
  private mutating func fire<D: ReloadingDevice>(_ i: Int, at t: SimTime, _ device: inout D, _ env: DeviceEnvironment) {
    let trigger = triggers[i]
    var calls = trigger.reloadCalls
    if trigger.onlyIfChanged {
      var changed: UInt64 = 0
      for k in 0..<device.context.kindCount where trigger.kinds.contains(k) && env.hasKind[k] {
        var cursor = 0
        let next = device.context.feed.nextChange(kind: k, after: lastFired[i], on: .all, cursor: &cursor, env)
        if next <= t { changed |= 1 << UInt64(k) }
      }
      lastFired[i] = t
      if changed == 0 { return }
      calls.kinds = KindSet(bits: changed)
    }
    call(calls, at: t, &device, env)
  }

  /// `DeviceEvent.reloadCall`: the next call of burst slot `s`.
  mutating func slotFired<D: ReloadingDevice>(_ s: Int, at t: SimTime, _ device: inout D, _ env: DeviceEnvironment) {
    guard slotCalls[s] > 0 else { return }
    let kinds = KindSet(bits: slotKinds[s])
    slotCalls[s] -= 1
    reload(kinds, at: t, &device, env)
    if slotCalls[s] > 0 {
      let next = t + slotSpacing[s]
      if next < device.context.end { device.context.schedule(.reloadCall, s, at: next) } else { slotCalls[s] = 0 }
    }
  }

  /// Makes `calls`: the first now (delay 0) or later, the rest `spacing` apart.
  private mutating func call<D: ReloadingDevice>(
    _ calls: ReloadCalls, at t: SimTime, _ device: inout D, _ env: DeviceEnvironment
  ) {
    var left = calls.calls
    if calls.delay == .zero && left > 0 {
      reload(calls.kinds, at: t, &device, env)
      left -= 1
      if left == 0 { return }
    }
    let first = calls.delay == .zero ? t + calls.spacing : t + calls.delay
    guard first < device.context.end else { return }
    let s = nextSlot
    nextSlot = (nextSlot + 1) % Self.slots
    slotKinds[s] = calls.kinds.bits
    slotCalls[s] = left
    slotSpacing[s] = calls.spacing
    device.context.schedule(.reloadCall, s, at: first)
  }

  /// One call for `kinds`: every instance of each reloads (free or budgeted).
  private mutating func reload<D: ReloadingDevice>(
    _ kinds: KindSet, at t: SimTime, _ device: inout D, _ env: DeviceEnvironment
  ) {
    device.context.countEvent(at: t)
    for k in 0..<device.context.kindCount where kinds.contains(k) && env.hasKind[k] {
      if parameters.burst == .one {
        if t - lastCall[k] < parameters.burstWindow { continue }
        lastCall[k] = t
      }
      device.appReload(kind: k, at: t, cause: .appTrigger, env)
    }
  }

  /// Draws the in-app events of the session starting at `t`.
  private mutating func scheduleInAppEvents(at t: SimTime, _ context: inout DeviceContext, _ env: DeviceEnvironment) {
    guard !inApp.isEmpty else { return }
    let end = min(env.sessionEnd[context.app.sessionCursor], context.end)
    let length = Double((end - t).milliseconds)
    guard length > 0 else { return }
    let g = session & 0x7FFFF
    for i in inApp {
      let trigger = triggers[i]
      if trigger.perSession > 0 {
        let n = PoissonSampler(lambda: trigger.perSession).sample(using: &rng)
        for _ in 0..<n {
          let at = t + .milliseconds(Int64(rng.nextUnit() * length))
          context.schedule(.inAppEvent, i, at: at, generation: g)
        }
      }
      if trigger.perDay > 0 {
        // A Poisson process of perDay events a day shaped by the profile
        // (in local time: shift in, draw, shift back); those inside this
        // session happen.
        var at = t
        while true {
          let local = inAppRates[i].nextArrival(after: at + env.utcOffset, using: &rng)
          guard local != .never else { break }
          let next = max(at, local - env.utcOffset)
          if next >= end { break }
          context.schedule(.inAppEvent, i, at: next, generation: g)
          at = next
        }
      }
    }
  }
}
