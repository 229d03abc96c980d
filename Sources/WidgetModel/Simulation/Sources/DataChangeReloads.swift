import ReloadEngine

/// App-side trigger: while the app runs (foreground or an audio session),
/// it reloads a kind's widgets whenever that kind's data changes. Free,
/// since the app runs (docs/model.md#exempt-reloads).
struct DataChangeReloads: DeviceActivity {
  let enabled: Bool
  /// Each kind's next change to watch for.
  private let cursor: Column<Int>
  /// Bumped when the app stops running, so watches scheduled before are ignored.
  private var generation: UInt32 = 0

  init(_ strategy: Strategy, kinds: Int, storage: _DeviceStorage) {
    enabled = strategy.app.reloadOnChangeWhileRunning
    cursor = storage.column(max(1, kinds), 0)
  }

  mutating func reset<D: ReloadingDevice>(_ device: inout D, _ env: DeviceEnvironment) {
    for k in 0..<device.context.kindCount { cursor[k] = 0 }
    generation = 0
  }

  mutating func appDidBecomeActive<D: ReloadingDevice>(at t: SimTime, _ device: inout D, _ env: DeviceEnvironment) {
    if enabled { startWatching(at: t, &device.context, env) }
  }

  mutating func appDidEnterBackground<D: ReloadingDevice>(at t: SimTime, _ device: inout D, _ env: DeviceEnvironment) {
    generation &+= 1
    if device.context.app.audio && enabled { startWatching(at: t, &device.context, env) }
  }

  mutating func audioSessionChanged<D: ReloadingDevice>(at t: SimTime, _ device: inout D, _ env: DeviceEnvironment) {
    let app = device.context.app
    if app.audio {
      if enabled && !app.foreground { startWatching(at: t, &device.context, env) }
    } else if !app.foreground {
      generation &+= 1
    }
  }

  /// `DeviceEvent.changeWhileRunning`: kind `k`'s data changed while the app runs.
  mutating func changed<D: ReloadingDevice>(
    kind k: Int, generation g: UInt32, at t: SimTime, _ device: inout D, _ env: DeviceEnvironment
  ) {
    guard g == (generation & 0x7FFFF), device.context.app.reloadsAreFree else { return }
    for w in 0..<env.widgetCount where env.widgetKind[w] == k {
      device.reload(w, at: t, charge: .free, cause: .running, env)
    }
    scheduleNext(kind: k, after: t, &device.context, env)
  }

  private mutating func startWatching(at t: SimTime, _ context: inout DeviceContext, _ env: DeviceEnvironment) {
    generation &+= 1
    for k in 0..<context.kindCount where env.hasKind[k] { scheduleNext(kind: k, after: t, &context, env) }
  }

  private func scheduleNext(kind k: Int, after t: SimTime, _ context: inout DeviceContext, _ env: DeviceEnvironment) {
    var c = cursor[k]
    let next = context.feed.nextChange(kind: k, after: t, on: .all, cursor: &c, env)
    cursor[k] = c
    context.schedule(.changeWhileRunning, k, at: next, generation: generation & 0x7FFFF)
  }
}
