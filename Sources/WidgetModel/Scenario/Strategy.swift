import ReloadEngine

/// A reload strategy: what the timeline provider returns, what the app does
/// when it runs, and what the backend sends. Composed of parts, so a
/// scenario can express the presets of `ReloadStrategies` and anything between.
public struct Strategy: Sendable {
  public var name: String
  /// The timeline every kind returns unless `kinds` gives it its own.
  public var timeline: EntryTimeline
  public var app: AppBehaviour
  public var backend: BackendBehaviour
  /// Per-kind timelines and data sources, by kind index (`nil`: `timeline`, fetched).
  public var kinds: [KindStrategy?]
  /// The app's `WidgetCenter` calls on its own events (docs/model.md#app-triggers).
  public var triggers: [AppTrigger]
  /// What else runs the app in the background (docs/model.md#wake-sources).
  public var wakes: [WakeSource]
  /// A timeline provider written in Swift, used instead of `timeline` and
  /// the kinds' timelines (the kinds' data sources still apply; see
  /// `Examples/CustomStrategy`).
  public var code: (any TimelineProvider)?

  public init(
    name: String, timeline: EntryTimeline, app: AppBehaviour = .init(), backend: BackendBehaviour = .init(),
    kinds: [KindStrategy?] = [], triggers: [AppTrigger] = [], wakes: [WakeSource] = [],
    code: (any TimelineProvider)? = nil
  ) {
    self.code = code
    self.name = name
    self.timeline = timeline
    self.app = app
    self.backend = backend
    self.kinds = kinds
    self.triggers = triggers
    self.wakes = wakes
  }

  /// A strategy written in Swift: `code` decides every kind's timeline
  /// (WidgetKit's `getTimeline`) and may make the app's own `WidgetCenter`
  /// calls; `triggers`, `wakes`, `app` and `backend` say the rest as for a
  /// strategy written as data, and `data` where each kind's reloads get
  /// their data (by kind index; absent kinds fetch).
  public init(
    name: String, code: any TimelineProvider, app: AppBehaviour = .init(), backend: BackendBehaviour = .init(),
    data: [DataSource] = [], triggers: [AppTrigger] = [], wakes: [WakeSource] = []
  ) {
    let unused = EntryTimeline(policy: .never)
    self.init(
      name: name, timeline: unused, app: app, backend: backend,
      kinds: data.map { KindStrategy(timeline: unused, data: $0) }, triggers: triggers, wakes: wakes, code: code)
  }

  /// The timeline kind `k` returns.
  public func timeline(kind k: Int) -> EntryTimeline {
    k < kinds.count ? kinds[k]?.timeline ?? timeline : timeline
  }

  /// Where kind `k`'s reloads get their data.
  public func dataSource(kind k: Int) -> DataSource {
    k < kinds.count ? kinds[k]?.data ?? .fetch : .fetch
  }

  /// How old kind `k`'s data must be before its provider fetches again
  /// (docs/model.md#max-age); `nil`: every reload fetches.
  public func maxAge(kind k: Int) -> SimDuration? { k < kinds.count ? kinds[k]?.maxAge : nil }

  /// Whether kind `k`'s provider can read its data before the first unlock
  /// after a restart (docs/model.md#device-restart).
  public func readsBeforeFirstUnlock(kind k: Int) -> Bool {
    (k < kinds.count ? kinds[k]?.readsBeforeFirstUnlock : nil)
      ?? KindStrategy.readsBeforeFirstUnlock(dataSource(kind: k))
  }
}

/// One kind's own timeline and data source within a strategy.
public struct KindStrategy: Sendable, Equatable {
  public var timeline: EntryTimeline
  public var data: DataSource
  /// Whether the provider can read its data before the device's first
  /// unlock after a restart (docs/model.md#device-restart); `nil`: as
  /// `data` implies (`readsBeforeFirstUnlock(_:)`).
  public var readsBeforeFirstUnlock: Bool?
  /// A provider that fetches only when the data it fetched last is at
  /// least this old, and otherwise re-reads it (docs/model.md#max-age);
  /// `nil`: it fetches on every reload.
  public var maxAge: SimDuration?

  public init(
    timeline: EntryTimeline, data: DataSource = .fetch, readsBeforeFirstUnlock: Bool? = nil, maxAge: SimDuration? = nil
  ) {
    self.maxAge = maxAge
    self.timeline = timeline
    self.data = data
    self.readsBeforeFirstUnlock = readsBeforeFirstUnlock
  }

  /// The default of `readsBeforeFirstUnlock` for `data`: a provider that
  /// reads the App Group's files cannot before the first unlock (iOS
  /// protects files until the first unlock unless the app says
  /// otherwise); one that fetches can.
  public static func readsBeforeFirstUnlock(_ data: DataSource) -> Bool { data == .fetch }
}

/// Where a widget's reload gets its data (docs/model.md#data-source).
public enum DataSource: String, Sendable, Equatable, CaseIterable {
  /// The provider fetches from the backend: one request per reload, current data.
  case fetch
  /// The provider re-reads what the app last wrote to its App Group: no
  /// request, and new data only if the app has fetched it since the change.
  case appCache = "app_cache"
}

/// An app-side trigger (docs/model.md#app-triggers): on `event`, after
/// `delay`, the app calls `reloadTimelines(ofKind:)` for each of `kinds`
/// (`reloadAllTimelines()` for `.all`), `calls` times `spacing` apart.
/// Whether each reload is free or budgeted follows from the app's state at
/// the moment of the call.
public struct AppTrigger: Sendable, Equatable {
  public var event: AppEvent
  public var kinds: KindSet
  public var calls: Int
  public var spacing: SimDuration
  public var delay: SimDuration
  /// For `.inApp`: events per foreground session (Poisson mean), spread
  /// uniformly over the session.
  public var perSession: Double
  /// For `.inApp`: events per day with a local time-of-day profile; only
  /// those that fall while the app is open call.
  public var perDay: Double
  public var profile: [Double]
  /// For `.wake`: only this wake source (index into `Strategy.wakes`); nil = any.
  public var wakeSource: Int?
  /// Call only for those of `kinds` whose data changed since this trigger
  /// last fired, and not at all if none did (Maple after PR #548).
  public var onlyIfChanged: Bool

  public init(
    on event: AppEvent, kinds: KindSet = .all, calls: Int = 1, spacing: SimDuration = .zero, delay: SimDuration = .zero,
    perSession: Double = 0, perDay: Double = 0, profile: [Double] = Segment.flatProfile, wakeSource: Int? = nil,
    onlyIfChanged: Bool = false
  ) {
    self.onlyIfChanged = onlyIfChanged
    self.event = event
    self.kinds = kinds
    self.calls = calls
    self.spacing = spacing
    self.delay = delay
    self.perSession = perSession
    self.perDay = perDay
    self.profile = profile
    self.wakeSource = wakeSource
  }

  public var reloadCalls: ReloadCalls { ReloadCalls(kinds: kinds, calls: calls, spacing: spacing, delay: delay) }
}

/// Something other than silent push and BGAppRefresh that runs the app in
/// the background (docs/model.md#wake-sources). What stops it is a model
/// parameter of its type (`model.wake_sources`).
public struct WakeSource: Sendable, Equatable {
  public enum SourceType: String, Sendable, CaseIterable {
    /// Region monitoring (geofences) or significant location changes.
    case location
    /// An accessory or health reading (a Bluetooth sensor, a CGM, HealthKit background delivery).
    case accessory
    /// A Network Extension (VPN, content filter) reporting a status change.
    case networkExtension = "network_extension"
    /// An audio or navigation session (the segment's `audio_sessions_per_day`).
    case audio
  }
  public var name: String
  public var type: SourceType
  /// Poisson wakes per day, shaped by `profile` (local hours).
  public var perDay: Double
  public var profile: [Double]
  /// Or a reading every this often (accessory), instead of `perDay`.
  public var every: SimDuration?
  /// Or a wake at each change of this kind's data (a CGM reading, a VPN's
  /// status change): the change itself runs the app.
  public var onChangesOf: Int?
  /// The app fetches from the backend when woken (a request).
  public var fetches: Bool
  /// How long after its event (a boundary crossed, a reading taken, a
  /// change) the system runs the app (docs/model.md#wake-delivery); zero:
  /// at once.
  public var deliveryDelay: DurationDistribution

  public init(
    name: String, type: SourceType, perDay: Double = 0, profile: [Double] = Segment.flatProfile,
    every: SimDuration? = nil,
    fetches: Bool = true, onChangesOf: Int? = nil, deliveryDelay: DurationDistribution = .constant(.zero)
  ) {
    self.deliveryDelay = deliveryDelay
    self.onChangesOf = onChangesOf
    self.fetches = fetches
    self.name = name
    self.type = type
    self.perDay = perDay
    self.profile = profile
    self.every = every
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
  /// The BGAppRefresh task calls `reloadAllTimelines()` (some apps' tasks
  /// only send data and reload nothing).
  public var backgroundRefreshReloads: Bool
  /// A widget button's App Intent also reloads the other instances of its kind.
  public var reloadKindOnTap: Bool
  /// While in the foreground or an audio session, reload the kind whenever
  /// its data changes (a live connection).
  public var reloadOnChangeWhileRunning: Bool
  /// While in the foreground or an audio session, the app keeps the data
  /// it shares with its widgets current (a now-playing episode, readings
  /// from a connected sensor, a sync), so a cache-reading widget sees the
  /// data as of its reload while the app runs, and as of the session's end
  /// after it (docs/model.md#cache-while-running).
  public var writesCacheWhileRunning: Bool

  public init(
    reloadOnForeground: Bool = false, reloadOnSilentPush: Bool = false,
    backgroundRefreshInterval: SimDuration? = nil, reloadKindOnTap: Bool = false,
    reloadOnChangeWhileRunning: Bool = false, backgroundRefreshReloads: Bool = true,
    writesCacheWhileRunning: Bool = false
  ) {
    self.writesCacheWhileRunning = writesCacheWhileRunning
    self.backgroundRefreshReloads = backgroundRefreshReloads
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

  /// The backend sends APNs pushes of some kind (counted per second).
  public var sendsPushes: Bool { silentPush != nil || widgetPush != nil }
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
  /// The kinds whose changes the backend pushes for (`.all`: every kind's).
  public var kinds: KindSet

  public init(on: Changes = .all, coalesce: SimDuration = .zero, kinds: KindSet = .all) {
    self.on = on
    self.coalesce = coalesce
    self.kinds = kinds
  }
}
