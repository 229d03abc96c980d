import ReloadEngine

/// App-side trigger: the app calls `reloadAllTimelines()` when it comes to
/// the foreground (scene phase `.active`). Free: the app is in the
/// foreground (docs/model.md#exempt-reloads).
struct ForegroundReloads: DeviceActivity {
  let enabled: Bool

  init(_ strategy: Strategy) { enabled = strategy.app.reloadOnForeground }

  mutating func appDidBecomeActive<D: ReloadingDevice>(at t: SimTime, _ device: inout D, _ env: DeviceEnvironment) {
    guard enabled else { return }
    device.reloadAllFree(at: t, cause: .foreground, env)
  }
}
