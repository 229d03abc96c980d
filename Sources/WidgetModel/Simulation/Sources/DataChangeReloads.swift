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

  mutating func reset<T>(_ device: inout DeviceWidgets<T>, _ env: DeviceEnvironment) {
    for k in 0..<device.kindCount { cursor[k] = 0 }
    generation = 0
  }

  mutating func appDidBecomeActive<T>(at t: SimTime, _ device: inout DeviceWidgets<T>, _ env: DeviceEnvironment) {
    if enabled { startWatching(at: t, &device, env) }
  }

  mutating func appDidEnterBackground<T>(at t: SimTime, _ device: inout DeviceWidgets<T>, _ env: DeviceEnvironment) {
    generation &+= 1
    if device.app.audio && enabled { startWatching(at: t, &device, env) }
  }

  mutating func audioSessionChanged<T>(at t: SimTime, _ device: inout DeviceWidgets<T>, _ env: DeviceEnvironment) {
    if device.app.audio {
      if enabled && !device.app.foreground { startWatching(at: t, &device, env) }
    } else if !device.app.foreground {
      generation &+= 1
    }
  }

  /// `DeviceEvent.changeWhileRunning`: kind `k`'s data changed while the app runs.
  mutating func changed<T>(kind k: Int, generation g: UInt32, at t: SimTime, _ device: inout DeviceWidgets<T>, _ env: DeviceEnvironment) {
    guard g == (generation & 0x7FFFF), device.app.reloadsAreFree else { return }
    for w in 0..<device.count where device.widgets.kind[w] == k {
      device.reload(w, at: t, budgeted: false, chargeTimeline: false, cause: .running, env)
    }
    scheduleNext(kind: k, after: t, &device, env)
  }

  private mutating func startWatching<T>(at t: SimTime, _ device: inout DeviceWidgets<T>, _ env: DeviceEnvironment) {
    generation &+= 1
    for k in 0..<device.kindCount where env.hasKind[k] { scheduleNext(kind: k, after: t, &device, env) }
  }

  private func scheduleNext<T>(kind k: Int, after t: SimTime, _ device: inout DeviceWidgets<T>, _ env: DeviceEnvironment) {
    var c = cursor[k]
    let next = device.feed.nextChange(kind: k, after: t, on: .all, cursor: &c, env)
    cursor[k] = c
    if next < device.end { device.queue.schedule(.changeWhileRunning, k, at: next, generation: generation & 0x7FFFF) }
  }
}
