import ReloadEngine
import ReloadMetrics

/// Simulates one strategy on one device at a time, accumulating into its
/// `tally`. Reused for every device a worker handles; its state lives in
/// fixed storage allocated once, so the hot loop allocates nothing.
///
/// It is a dispatcher: each event goes to the owner of the mechanism it
/// belongs to. `DeviceWidgets` owns the widgets and WidgetKit's reload
/// machinery (pending reloads, budgets, refusals, timelines, glances)
/// around the state every part shares (`DeviceContext`: the queue, the
/// app's state, the counters); `DeviceSources` holds the triggers and wake
/// sources (foreground reloads, BGAppRefresh, silent and WidgetKit pushes,
/// taps, ...), each owning its own state and seeing the device as a
/// `ReloadingDevice`.
///
/// Each device has its own small event queue: the devices of a fleet do
/// not interact (shared content and backend load are functions of time that
/// every device reads), so one queue per device keeps the heap tiny and in
/// cache. In `.elided` mode glances and unpredictable data changes never
/// enter the queue: they are read in order from the device's pre-drawn
/// arrays just before each event that changes a widget's state, which gives
/// exactly the results of the `.eventByEvent` mode (tested) at a fraction of
/// the queue traffic. Each widget's pending reload (`PendingReloads`) and
/// each lifecycle's next change (`LifecycleSlots`) wait in slots beside
/// the queue, numbered by it, and the run loop hands out whichever of
/// them and the queue's next event comes first.
///
/// - Important: a simulator is a single-owner value: its storage is not
///   copied with it, so a copy would share its state. `run(_:)` checks that
///   the simulator is not a copy and traps if it is.
public struct DeviceSimulator<Provider: TimelineProvider> {
  public let prepared: PreparedScenario
  public let strategy: Strategy
  /// The strategy's timeline provider.
  public let provider: Provider

  private var storage: _DeviceStorage
  var device: DeviceWidgets<Provider>
  var sources: DeviceSources
  /// The next change of the app's sessions, audio and Low Power Mode.
  var lifecycle = LifecycleSlots()

  /// The most widgets one device can have.
  public static var maxWidgetsPerDevice: Int { 64 }

  /// With `recordLog`, the simulator also keeps each device's reload log
  /// (`LogRecorder`; read with `logRecords`), for `run --emit-log`.
  public init(prepared: PreparedScenario, strategy: Strategy, provider: Provider, recordLog: Bool = false) {
    self.prepared = prepared
    self.strategy = strategy
    self.provider = provider
    let storage = _DeviceStorage()
    let w = Self.maxWidgetsPerDevice
    self.storage = storage
    device = DeviceWidgets(prepared, strategy, provider: provider, widgets: w, storage: storage, recordLog: recordLog)
    sources = DeviceSources(strategy, prepared, providerCalls: Provider.makesReloadCalls, widgets: w, storage: storage)
  }

  /// What this simulator has counted so far (its blocks are its own).
  public var tally: StrategyTally { device.context.counts.tally }

  /// Simulates the strategy on `env`'s device and adds what happened to
  /// `tally` (backend requests may wait in a buffer: `flush()` before
  /// reading the tally).
  public mutating func run(_ env: DeviceEnvironment) {
    precondition(isKnownUniquelyReferenced(&storage), "a copied DeviceSimulator would share its state; make a new one")
    start(env)
    while true {
      // The earliest event kept beside the queue: a widget's pending
      // reload or a lifecycle's next change.
      let pending = device.pending.next
      let slot = Event.precedes(pending, lifecycle.next) ? pending : lifecycle.next
      guard let event = device.context.queue.step(before: device.context.end, or: slot) else { break }
      handle(event, env)
    }
    device.finish(env)
  }

  /// The reload log of the last device run (`recordLog` only), in time
  /// order, and whether some of it did not fit.
  public var logRecords: (count: Int, overflowed: Bool) { (device.context.log.count, device.context.log.overflowed) }

  /// Line `i` of the last device's reload log.
  public func logRecord(_ i: Int) -> LogRecord { device.context.log[i] }

  /// Adds buffered backend requests to the per-second tallies.
  public mutating func flush() {
    device.context.counts.flush()
  }

  /// Resets every owner for `env`'s device and schedules its first events.
  /// The order of the scheduling decides ties at one millisecond, so it is
  /// fixed here: per widget, then device-wide, then per kind.
  mutating func start(_ env: DeviceEnvironment) {
    let n = env.widgetCount
    precondition(
      n <= Self.maxWidgetsPerDevice, "a device has \(n) widgets; at most \(Self.maxWidgetsPerDevice) are supported")
    device.reset(for: env)
    lifecycle.reset()
    sources.reset(&device, env)
    for w in 0..<n {
      device.start(w, env)
      sources.start(widget: w, &device, env)
      device.scheduleFirstGlance(w, env)
    }
    if let first = env.sessionStart.first {
      lifecycle.set(.session, .sessionStart, at: first, on: &device.context.queue)
    }
    if let first = env.audioStart.first { lifecycle.set(.audio, .audioStart, at: first, on: &device.context.queue) }
    if let first = env.lowPowerStart.first {
      lifecycle.set(.lowPower, .lowPowerStart, at: first, on: &device.context.queue)
    }
    sources.startDevice(&device, env)
    if device.context.app.learning {
      device.context.queue.schedule(.learningEnd, 0, at: .zero + .days(device.rules.params.budget.learningDays))
    }
    for k in 0..<device.context.kindCount where env.hasKind[k] {
      sources.start(kind: k, &device, env)
      device.scheduleFirstChange(kind: k, env)
    }
    sources.deviceStarted(&device, env)
  }

  /// Routes one event to its owner.
  mutating func handle(_ event: Event, _ env: DeviceEnvironment) {
    let (kind, index, generation) = DeviceEvent.unpack(event.payload)
    let t = event.time
    switch kind {
    case .policyRequest, .appRequest, .exec:
      device.pendingFired(kind, index, at: t, env)
    case .sessionStart: sessionStarted(at: t, env)
    case .sessionEnd: sessionEnded(at: t, env)
    case .audioStart: audioStarted(at: t, env)
    case .audioEnd: audioEnded(at: t, env)
    case .lowPowerStart: lowPowerStarted(at: t, env)
    case .lowPowerEnd: lowPowerEnded(at: t, env)
    case .learningEnd: device.learningEnded(at: t, env)
    case .tap:
      sources.taps.tapped(index, at: t, &device, env)
      sources.triggers.tapped(at: t, &device, env)
    case .widgetAdded: sources.adds.added(index, at: t, &device, env)
    case .settingsChange: sources.settings.changed(at: t, &device, env)
    case .restart: sources.restarts.restarted(at: t, &device, env)
    case .silentPushSend: sources.silentPush.sent(kind: index, at: t, &device.context, env)
    case .silentPushDeliver:
      if sources.silentPush.delivered(kind: index, at: t, &device, env) {
        if device.context.log.enabled {
          device.context.log.event(.silentPush, at: t, widgetKind: index, cause: .silentPush, device.context.app)
        }
        sources.triggers.woke(.silentPush, at: t, &device, env)
      }
    case .silentPushRelease: sources.silentPush.release(at: t, &device.context, env)
    case .widgetPushSend: sources.widgetPush.sent(kind: index, at: t, &device, env)
    case .backgroundRefreshRun:
      if sources.backgroundRefresh.ran(generation: generation, at: t, &device, env) {
        if device.context.log.enabled {
          device.context.log.event(.backgroundRefresh, at: t, cause: .backgroundRefresh, device.context.app)
        }
        sources.triggers.woke(.backgroundRefresh, at: t, &device, env)
      }
    case .inAppEvent: sources.triggers.inAppEvent(index, generation: generation, at: t, &device, env)
    case .reloadCall: sources.triggers.slotFired(index, at: t, &device, env)
    case .wake:
      if sources.wakes.fired(index, generation: generation, at: t, &device.context, env) {
        sources.triggers.woke(.wake, source: index, at: t, &device, env)
      }
    case .changeWhileRunning: sources.dataChanges.changed(kind: index, generation: generation, at: t, &device, env)
    case .glance: device.glanced(index, at: t, env)
    case .change: device.changeHappened(kind: index, at: t, env)
    }
  }

  // MARK: - The app's lifecycle, played back from the environment

  mutating func sessionStarted(at t: SimTime, _ env: DeviceEnvironment) {
    device.context.countEvent(at: t)
    device.context.app.foreground = true
    device.context.app.forceQuit = false  // launching the app undoes a force-quit
    if device.context.log.enabled {
      device.context.log.event(.foreground, at: t, cause: .foreground, device.context.app)
    }
    sources.appDidBecomeActive(at: t, &device, env)
    let end = env.sessionEnd[device.context.app.sessionCursor]
    lifecycle.set(.session, .sessionEnd, at: end, on: &device.context.queue)
  }

  mutating func sessionEnded(at t: SimTime, _ env: DeviceEnvironment) {
    device.context.app.foreground = false
    device.context.app.forceQuit = env.sessionForceQuit[device.context.app.sessionCursor]
    // The cache it kept current while it ran is as of now (docs/model.md#cache-while-running).
    if device.rules.cacheWhileRunning && !device.context.app.audio { device.context.app.lastFetch = t }
    if device.context.log.enabled {
      device.context.log.event(.background, at: t, cause: .foreground, device.context.app)
    }
    sources.appDidEnterBackground(at: t, &device, env)
    device.context.app.sessionCursor += 1
    let next = device.context.app.sessionCursor
    if next < env.sessionStart.count {
      lifecycle.set(.session, .sessionStart, at: env.sessionStart[next], on: &device.context.queue)
    } else {
      lifecycle.end(.session)
    }
  }

  mutating func audioStarted(at t: SimTime, _ env: DeviceEnvironment) {
    device.context.countEvent(at: t)
    device.context.app.audio = true
    sources.audioSessionChanged(at: t, &device, env)
    lifecycle.set(.audio, .audioEnd, at: env.audioEnd[device.context.app.audioCursor], on: &device.context.queue)
  }

  mutating func audioEnded(at t: SimTime, _ env: DeviceEnvironment) {
    device.context.app.audio = false
    if device.rules.cacheWhileRunning && !device.context.app.foreground { device.context.app.lastFetch = t }
    sources.audioSessionChanged(at: t, &device, env)
    device.context.app.audioCursor += 1
    let next = device.context.app.audioCursor
    if next < env.audioStart.count {
      lifecycle.set(.audio, .audioStart, at: env.audioStart[next], on: &device.context.queue)
    } else {
      lifecycle.end(.audio)
    }
  }

  mutating func lowPowerStarted(at t: SimTime, _ env: DeviceEnvironment) {
    device.context.countEvent(at: t)
    device.lowPowerStarted(at: t, env)
    let end = env.lowPowerEnd[device.context.app.lowPowerCursor]
    lifecycle.set(.lowPower, .lowPowerEnd, at: end, on: &device.context.queue)
  }

  mutating func lowPowerEnded(at t: SimTime, _ env: DeviceEnvironment) {
    device.lowPowerEnded(at: t, env)
    sources.lowPowerModeEnded(at: t, &device, env)
    device.context.app.lowPowerCursor += 1
    let next = device.context.app.lowPowerCursor
    if next < env.lowPowerStart.count {
      lifecycle.set(.lowPower, .lowPowerStart, at: env.lowPowerStart[next], on: &device.context.queue)
    } else {
      lifecycle.end(.lowPower)
    }
  }
}
