import ReloadEngine

/// A locale, Dynamic Type or accessibility change: every widget reloads,
/// for free (docs/model.md#exempt-reloads).
struct SettingsChanges: DeviceActivity {
  private var cursor = 0

  mutating func reset<D: ReloadingDevice>(_ device: inout D, _ env: DeviceEnvironment) { cursor = 0 }

  mutating func startDevice<D: ReloadingDevice>(_ device: inout D, _ env: DeviceEnvironment) {
    if !env.settingsChanges.isEmpty { device.context.schedule(.settingsChange, 0, at: env.settingsChanges[0]) }
  }

  /// `DeviceEvent.settingsChange`.
  mutating func changed<D: ReloadingDevice>(at t: SimTime, _ device: inout D, _ env: DeviceEnvironment) {
    device.context.countEvent(at: t)
    device.reloadAllFree(at: t, cause: .settings, env)
    cursor += 1
    if cursor < env.settingsChanges.count {
      device.context.schedule(.settingsChange, 0, at: env.settingsChanges[cursor])
    }
  }
}
