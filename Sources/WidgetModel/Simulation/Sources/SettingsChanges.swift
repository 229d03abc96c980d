import ReloadEngine

/// A locale, Dynamic Type or accessibility change: every widget reloads,
/// for free (docs/model.md#exempt-reloads).
struct SettingsChanges: DeviceActivity {
  private var cursor = 0

  mutating func reset<T>(_ device: inout DeviceWidgets<T>, _ env: DeviceEnvironment) { cursor = 0 }

  mutating func startDevice<T>(_ device: inout DeviceWidgets<T>, _ env: DeviceEnvironment) {
    if !env.settingsChanges.isEmpty { device.queue.schedule(.settingsChange, 0, at: env.settingsChanges[0]) }
  }

  /// `DeviceEvent.settingsChange`.
  mutating func changed<T>(at t: SimTime, _ device: inout DeviceWidgets<T>, _ env: DeviceEnvironment) {
    if device.measured(t) { device.counts.count(.events) }
    device.reloadAllFree(at: t, cause: .settings, env)
    cursor += 1
    if cursor < env.settingsChanges.count { device.queue.schedule(.settingsChange, 0, at: env.settingsChanges[cursor]) }
  }
}
