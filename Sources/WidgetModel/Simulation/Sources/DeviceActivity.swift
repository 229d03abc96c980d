import ReloadEngine

/// Something that makes widgets reload on a device, apart from the
/// timeline's own reload policy: an **app-side trigger** (a reason the app
/// calls `reloadTimelines(ofKind:)` or `reloadAllTimelines()`), a **wake
/// source** (a reason the system runs the app in the background), or a
/// system event that reloads widgets by itself (a tap on an App Intent
/// button, a settings change, a WidgetKit push).
///
/// Each activity owns its state and its own `DeviceEvent`s, and sees its
/// device as a `ReloadingDevice`: the shared `DeviceContext` (queue, app
/// state, counters, content) and the reloads it may ask for. The app's
/// lifecycle reaches it through the hooks below, each with a default that
/// does nothing, so an activity implements only what it reacts to.
/// `DeviceSources` lists the registered activities and calls their hooks
/// in a fixed order (the order decides which of two events at one
/// millisecond runs first, so it is part of the results). See
/// `Sources/WidgetModel/README.md` for how to add one.
protocol DeviceActivity {
  /// A new device: reset the activity's state (its first events are
  /// scheduled by the `start` hooks below, in the registry's order).
  mutating func reset<D: ReloadingDevice>(_ device: inout D, _ env: DeviceEnvironment)
  /// Schedules the activity's first event for widget `w`.
  mutating func start<D: ReloadingDevice>(widget w: Int, _ device: inout D, _ env: DeviceEnvironment)
  /// Schedules the activity's first event for kind `k` (only kinds the device shows).
  mutating func start<D: ReloadingDevice>(kind k: Int, _ device: inout D, _ env: DeviceEnvironment)
  /// Schedules the activity's first device-wide event.
  mutating func startDevice<D: ReloadingDevice>(_ device: inout D, _ env: DeviceEnvironment)
  /// Every first event is scheduled: what the app does when installed
  /// (submit its first BGAppRefresh request).
  mutating func deviceStarted<D: ReloadingDevice>(_ device: inout D, _ env: DeviceEnvironment)
  /// The app came to the foreground at `t` (a session started).
  mutating func appDidBecomeActive<D: ReloadingDevice>(at t: SimTime, _ device: inout D, _ env: DeviceEnvironment)
  /// The app left the foreground at `t`; `app.forceQuit` says whether the user force-quit it.
  mutating func appDidEnterBackground<D: ReloadingDevice>(at t: SimTime, _ device: inout D, _ env: DeviceEnvironment)
  /// An audio (or navigation) session started or ended at `t` (`app.audio`).
  mutating func audioSessionChanged<D: ReloadingDevice>(at t: SimTime, _ device: inout D, _ env: DeviceEnvironment)
  /// Low Power Mode ended at `t`.
  mutating func lowPowerModeEnded<D: ReloadingDevice>(at t: SimTime, _ device: inout D, _ env: DeviceEnvironment)
}

extension DeviceActivity {
  mutating func reset<D: ReloadingDevice>(_ device: inout D, _ env: DeviceEnvironment) {}
  mutating func start<D: ReloadingDevice>(widget w: Int, _ device: inout D, _ env: DeviceEnvironment) {}
  mutating func start<D: ReloadingDevice>(kind k: Int, _ device: inout D, _ env: DeviceEnvironment) {}
  mutating func startDevice<D: ReloadingDevice>(_ device: inout D, _ env: DeviceEnvironment) {}
  mutating func deviceStarted<D: ReloadingDevice>(_ device: inout D, _ env: DeviceEnvironment) {}
  mutating func appDidBecomeActive<D: ReloadingDevice>(at t: SimTime, _ device: inout D, _ env: DeviceEnvironment) {}
  mutating func appDidEnterBackground<D: ReloadingDevice>(at t: SimTime, _ device: inout D, _ env: DeviceEnvironment) {}
  mutating func audioSessionChanged<D: ReloadingDevice>(at t: SimTime, _ device: inout D, _ env: DeviceEnvironment) {}
  mutating func lowPowerModeEnded<D: ReloadingDevice>(at t: SimTime, _ device: inout D, _ env: DeviceEnvironment) {}
}

/// A device as its triggers and wake sources see it: the state every part
/// of the device's simulation shares (`context`), and the reloads an
/// activity may ask for. Whether a reload the app asks for is free or
/// budgeted follows from the app's state at that moment (`appReload`), not
/// from the activity. `DeviceWidgets` is the one conformer; activities are
/// generic over it, so every call is specialised and direct.
protocol ReloadingDevice {
  associatedtype Provider: TimelineProvider
  /// The queue, the app's state, the counters, the content feed, the streams.
  var context: DeviceContext { get set }
  /// The strategy's timeline provider (its own `WidgetCenter` calls: `reloadCalls`).
  var provider: Provider { get }
  /// Widget `w` reloads now (a tap, a new widget, the app's reaction to a
  /// change, a WidgetKit push), paid as `charge` says.
  mutating func reload(_ w: Int, at t: SimTime, charge: Charge, cause: ReloadCause, _ env: DeviceEnvironment)
  /// Every widget reloads now, for free (a foreground reload, a settings change).
  mutating func reloadAllFree(at t: SimTime, cause: ReloadCause, _ env: DeviceEnvironment)
  /// The app asks to reload widget `w` (`reloadTimelines`): free while it
  /// runs, budgeted otherwise.
  mutating func appReload(_ w: Int, at t: SimTime, cause: ReloadCause, _ env: DeviceEnvironment)
  /// The app asks to reload every widget of kind `k` (`reloadTimelines(ofKind:)`).
  mutating func appReload(kind k: Int, at t: SimTime, cause: ReloadCause, _ env: DeviceEnvironment)
  /// The app asks to reload every widget (`reloadAllTimelines()`).
  mutating func appReloadAll(at t: SimTime, cause: ReloadCause, _ env: DeviceEnvironment)
  /// A request that spends widget `w`'s budget: the minimum interval, the
  /// budget, and for a policy reload (`late`) its lateness.
  mutating func budgetedRequest(_ w: Int, at t: SimTime, late: Bool, cause: ReloadCause, _ env: DeviceEnvironment)
}
