import ReloadEngine

/// The device's app and power state, played back from its environment:
/// foreground sessions (and force-quits), audio sessions, Low Power Mode,
/// and the learning period of a new widget (docs/model.md#exempt-reloads, #low-power-mode, #learning-period).
///
/// Reloads the app asks for are free while it is in the foreground or has
/// an audio session (#exempt-reloads); budgets shrink in Low Power Mode
/// (#low-power-budget).
package struct AppState {

  package init() {}
  /// The app is in the foreground.
  var foreground = false
  /// The app has an active audio (or navigation) session.
  var audio = false
  /// The user force-quit the app; it gets no pushes or BGAppRefresh until relaunched.
  var forceQuit = false
  package var lowPower = false
  /// The first days after install, with a larger budget (#learning-period).
  var learning = false
  /// The next session, audio session, Low Power Mode spell and settings change to play back.
  var sessionCursor = 0
  var audioCursor = 0
  var lowPowerCursor = 0
  var settingsCursor = 0
  /// When the app last fetched its data (what a cache-reading widget
  /// shows; docs/model.md#data-source). The app is installed and opened at t = 0.
  var lastFetch = SimTime.zero

  /// The device has restarted and not been unlocked yet: data protected
  /// until the first unlock cannot be read (docs/model.md#device-restart).
  var beforeFirstUnlock = false

  /// The app is inside `didEnterBackground` and the model treats calls
  /// made there as free (`model.app_reload.enter_background`).
  var enteringBackground = false

  /// The app runs (foreground or audio), so its reload calls are free.
  @inline(__always)
  var reloadsAreFree: Bool { foreground || audio || enteringBackground }

  /// Back to a fresh device.
  mutating func reset(learningDays: Double) {
    self = AppState()
    learning = learningDays > 0
  }
}
