import ReloadEngine

/// The random processes of the widget model, each drawn from its own stream
/// (see `RandomStreams`). The raw values are part of the reproducibility
/// contract: changing one changes every result. 99 is the engine's `test`.
extension StreamPurpose {
  /// Device attributes: segment draw, time zone, habits, widget placement.
  public static let attributes = StreamPurpose(rawValue: 1)
  /// Home Screen views of a device.
  public static let homeViews = StreamPurpose(rawValue: 2)
  /// Lock Screen views of a device.
  public static let lockViews = StreamPurpose(rawValue: 3)
  /// Which of its surface's views a rarely seen widget gets (counter-based).
  public static let visibility = StreamPurpose(rawValue: 4)
  /// Foreground app sessions and the force-quits after them.
  public static let appSessions = StreamPurpose(rawValue: 5)
  /// Audio or navigation sessions.
  public static let audioSessions = StreamPurpose(rawValue: 6)
  /// Button and toggle taps on an interactive widget.
  public static let taps = StreamPurpose(rawValue: 7)
  /// The evenings Low Power Mode is on.
  public static let lowPowerMode = StreamPurpose(rawValue: 8)
  /// Unpredictable data changes (per user, or shared by the fleet).
  public static let contentChanges = StreamPurpose(rawValue: 9)
  /// Locale, Dynamic Type and accessibility changes.
  public static let settingsChanges = StreamPurpose(rawValue: 10)
  /// The user adding (or re-adding) a widget.
  public static let widgetAdds = StreamPurpose(rawValue: 11)
  /// Device restarts.
  public static let restarts = StreamPurpose(rawValue: 12)
  /// Changes the running app makes during its sessions.
  public static let sessionChanges = StreamPurpose(rawValue: 13)
  /// Wrist raises that show the watch face (watch complications' views).
  /// 40 and up: the placements' own range, apart from other new purposes.
  public static let watchViews = StreamPurpose(rawValue: 40)
  /// Looks at the phone in StandBy.
  public static let standbyViews = StreamPurpose(rawValue: 41)

  // Strategy-dependent draws (reload lateness, push and refresh delays).

  /// Lateness of `.atEnd` / `.after` reloads.
  public static let lateness = StreamPurpose(rawValue: 20)
  /// Silent-push delivery delays.
  public static let pushDelivery = StreamPurpose(rawValue: 21)
  /// BGAppRefresh launch delays.
  public static let backgroundRefresh = StreamPurpose(rawValue: 22)
  /// When each widget makes its first policy request.
  public static let firstRequest = StreamPurpose(rawValue: 23)
  /// Whether a fetch fails, and the random draw a timeline provider gets (counter-based).
  public static let fetch = StreamPurpose(rawValue: 24)
  /// The app's in-app events that call `WidgetCenter`.
  public static let appTriggers = StreamPurpose(rawValue: 25)
  /// Location, accessory, Network Extension wakes.
  public static let wakeSources = StreamPurpose(rawValue: 26)
  /// Latency of the app's background `reloadTimelines` calls, and when a
  /// call deferred to the morning runs (docs/model.md#background-latency).
  public static let appReloadLatency = StreamPurpose(rawValue: 27)
  /// How late a wake source's events reach the app (docs/model.md#wake-delivery).
  public static let wakeDelivery = StreamPurpose(rawValue: 28)
}
