import ReloadEngine

/// The random streams of the Live Activity simulation: 60 and up, apart
/// from the widget model's (Sources/WidgetModel/Population/StreamPurpose+Model.swift).
extension StreamPurpose {
  /// Whether a device follows an event, and whether its user switched Live Activities off.
  public static let activityFollow = StreamPurpose(rawValue: 60)
  /// Per-user events: their times and lengths.
  public static let activityEvents = StreamPurpose(rawValue: 61)
  /// Glances at an activity.
  public static let activityGlances = StreamPurpose(rawValue: 62)
  /// Priority-5 delivery delays.
  public static let activityDelivery = StreamPurpose(rawValue: 63)
  /// A shared event's length, the same for every follower (keyed by event and day).
  public static let activitySharedEvents = StreamPurpose(rawValue: 64)
}
