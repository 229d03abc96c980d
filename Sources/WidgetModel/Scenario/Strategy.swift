import ReloadEngine

/// A reload strategy: what the timeline provider returns, what the app does
/// when it runs, and what the backend sends. Composed of parts, so a
/// scenario can express the presets of `ReloadStrategies` and anything between.
public struct Strategy: Sendable {
  public var name: String
  public var timeline: EntryTimeline
  public var app: AppBehaviour
  public var backend: BackendBehaviour

  public init(name: String, timeline: EntryTimeline, app: AppBehaviour = .init(), backend: BackendBehaviour = .init()) {
    self.name = name
    self.timeline = timeline
    self.app = app
    self.backend = backend
  }
}

/// What the app does with `WidgetCenter` while it runs.
public struct AppBehaviour: Sendable, Equatable {
  /// `reloadAllTimelines()` when the app comes to the foreground.
  public var reloadOnForeground: Bool
  /// `reloadTimelines(ofKind:)` after a silent push wakes the app.
  public var reloadOnSilentPush: Bool
  /// Submit a `BGAppRefreshTaskRequest` with this earliest-begin interval and
  /// reload all timelines in the task; `nil` for none.
  public var backgroundRefreshInterval: SimDuration?
  /// A widget button's App Intent also reloads the other instances of its kind.
  public var reloadKindOnTap: Bool
  /// While in the foreground or an audio session, reload the kind whenever
  /// its data changes (a live connection).
  public var reloadOnChangeWhileRunning: Bool

  public init(
    reloadOnForeground: Bool = false, reloadOnSilentPush: Bool = false,
    backgroundRefreshInterval: SimDuration? = nil, reloadKindOnTap: Bool = false,
    reloadOnChangeWhileRunning: Bool = false
  ) {
    self.reloadOnForeground = reloadOnForeground
    self.reloadOnSilentPush = reloadOnSilentPush
    self.backgroundRefreshInterval = backgroundRefreshInterval
    self.reloadKindOnTap = reloadKindOnTap
    self.reloadOnChangeWhileRunning = reloadOnChangeWhileRunning
  }
}

/// What the backend pushes when data changes.
public struct BackendBehaviour: Sendable, Equatable {
  /// Silent (background, `apns-priority 5`) pushes on data change.
  public var silentPush: PushTrigger?
  /// WidgetKit pushes (iOS 26) on data change.
  public var widgetPush: PushTrigger?

  public init(silentPush: PushTrigger? = nil, widgetPush: PushTrigger? = nil) {
    self.silentPush = silentPush
    self.widgetPush = widgetPush
  }
}

/// Which changes trigger a push, and how the backend coalesces them: after
/// a push, changes within `coalesce` ride on one push at the window's end.
public struct PushTrigger: Sendable, Equatable {
  public enum Changes: String, Sendable {
    /// Every change, scheduled or not.
    case all
    /// Only the changes a timeline could not have shown ahead.
    case unpredictable
  }
  public var on: Changes
  public var coalesce: SimDuration

  public init(on: Changes = .all, coalesce: SimDuration = .zero) {
    self.on = on
    self.coalesce = coalesce
  }
}
