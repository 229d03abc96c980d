import ReloadEngine

/// Device restarts: WidgetKit asks every widget for a timeline, for free
/// (seed 004), at boot, before the user first unlocks the device, when
/// data protected until the first unlock cannot be read; or after the
/// first unlock; or not at all (`reload.at_restart`, docs/model.md#device-restart).
struct Restarts: DeviceActivity {
  let rule: ReloadTiming.AtRestart
  private var cursor = 0

  init(_ rule: ReloadTiming.AtRestart) { self.rule = rule }

  mutating func reset<D: ReloadingDevice>(_ device: inout D, _ env: DeviceEnvironment) { cursor = 0 }

  mutating func startDevice<D: ReloadingDevice>(_ device: inout D, _ env: DeviceEnvironment) {
    if rule != .none && !env.restarts.isEmpty { device.context.schedule(.restart, 0, at: env.restarts[0]) }
  }

  /// `DeviceEvent.restart`.
  mutating func restarted<D: ReloadingDevice>(at t: SimTime, _ device: inout D, _ env: DeviceEnvironment) {
    device.context.countEvent(at: t)
    device.context.app.beforeFirstUnlock = rule == .beforeFirstUnlock
    device.reloadAllFree(at: t, cause: .restart, env)
    device.context.app.beforeFirstUnlock = false
    cursor += 1
    if cursor < env.restarts.count { device.context.schedule(.restart, 0, at: env.restarts[cursor]) }
  }
}
