import ReloadEngine

/// Something that makes widgets reload on a device, apart from the
/// timeline's own reload policy: an **app-side trigger** (a reason the app
/// calls `reloadTimelines(ofKind:)` or `reloadAllTimelines()`), a **wake
/// source** (a reason the system runs the app in the background), or a
/// system event that reloads widgets by itself (a tap on an App Intent
/// button, a settings change, a WidgetKit push).
///
/// Each activity owns its state and its own `DeviceEvent`s, and acts on the
/// device only through `DeviceWidgets`' verbs (`appReload`, `reload`,
/// `budgetedRequest`, ...). The app's lifecycle reaches it through the
/// hooks below, each with a default that does nothing, so an activity
/// implements only what it reacts to. `DeviceSources` lists the registered
/// activities and calls their hooks in a fixed order (the order decides
/// which of two events at one millisecond runs first, so it is part of the
/// results). See `Sources/WidgetModel/README.md` for how to add one.
protocol DeviceActivity {
  /// A new device: reset the activity's state (its first events are
  /// scheduled by the `start` hooks below, in the registry's order).
  mutating func reset<T>(_ device: inout DeviceWidgets<T>, _ env: DeviceEnvironment)
  /// Schedules the activity's first event for widget `w`.
  mutating func start<T>(widget w: Int, _ device: inout DeviceWidgets<T>, _ env: DeviceEnvironment)
  /// Schedules the activity's first event for kind `k` (only kinds the device shows).
  mutating func start<T>(kind k: Int, _ device: inout DeviceWidgets<T>, _ env: DeviceEnvironment)
  /// Schedules the activity's first device-wide event.
  mutating func startDevice<T>(_ device: inout DeviceWidgets<T>, _ env: DeviceEnvironment)
  /// Every first event is scheduled: what the app does when installed (submit its first BGAppRefresh request).
  mutating func deviceStarted<T>(_ device: inout DeviceWidgets<T>, _ env: DeviceEnvironment)
  /// The app came to the foreground at `t` (a session started).
  mutating func appDidBecomeActive<T>(at t: SimTime, _ device: inout DeviceWidgets<T>, _ env: DeviceEnvironment)
  /// The app left the foreground at `t`; `device.app.forceQuit` says whether the user force-quit it.
  mutating func appDidEnterBackground<T>(at t: SimTime, _ device: inout DeviceWidgets<T>, _ env: DeviceEnvironment)
  /// An audio (or navigation) session started or ended at `t` (`device.app.audio`).
  mutating func audioSessionChanged<T>(at t: SimTime, _ device: inout DeviceWidgets<T>, _ env: DeviceEnvironment)
  /// Low Power Mode ended at `t`.
  mutating func lowPowerModeEnded<T>(at t: SimTime, _ device: inout DeviceWidgets<T>, _ env: DeviceEnvironment)
}

extension DeviceActivity {
  mutating func reset<T>(_ device: inout DeviceWidgets<T>, _ env: DeviceEnvironment) {}
  mutating func start<T>(widget w: Int, _ device: inout DeviceWidgets<T>, _ env: DeviceEnvironment) {}
  mutating func start<T>(kind k: Int, _ device: inout DeviceWidgets<T>, _ env: DeviceEnvironment) {}
  mutating func startDevice<T>(_ device: inout DeviceWidgets<T>, _ env: DeviceEnvironment) {}
  mutating func deviceStarted<T>(_ device: inout DeviceWidgets<T>, _ env: DeviceEnvironment) {}
  mutating func appDidBecomeActive<T>(at t: SimTime, _ device: inout DeviceWidgets<T>, _ env: DeviceEnvironment) {}
  mutating func appDidEnterBackground<T>(at t: SimTime, _ device: inout DeviceWidgets<T>, _ env: DeviceEnvironment) {}
  mutating func audioSessionChanged<T>(at t: SimTime, _ device: inout DeviceWidgets<T>, _ env: DeviceEnvironment) {}
  mutating func lowPowerModeEnded<T>(at t: SimTime, _ device: inout DeviceWidgets<T>, _ env: DeviceEnvironment) {}
}
