import ReloadEngine

/// WidgetKit's `TimelineReloadPolicy`: when the provider asks for its
/// next timeline (docs/model.md#reload-policy). A request, not a schedule.
public enum TimelineReloadPolicy: Sendable, Equatable {
  /// Ask again after the last entry's date.
  case atEnd
  /// Ask again no earlier than this long after the reload (`.after(now + d)`).
  case after(SimDuration)
  /// Ask again no earlier than this date (`.after(date)`).
  case afterDate(SimTime)
  /// Ask again at the next local clock time in `window` (`.after(date)` with
  /// a date the provider computes: "start of tomorrow", "13:10 today", a
  /// random time in 00:00-00:30). The simulator resolves it in the device's
  /// time zone from the request's random draw.
  case atLocalTime(ClockWindow)
  /// Only the app (or an App Intent) reloads the widget.
  case never
}

/// A local clock time (`from == to`) or a window of them, minutes after
/// local midnight; `to` may pass 24:00 (a window that ends after midnight).
public struct ClockWindow: Sendable, Equatable {
  @usableFromInline var from: Int16
  @usableFromInline var to: Int16
  public var fromMinute: Int { Int(from) }
  public var toMinute: Int { Int(to) }

  public init(fromMinute: Int, toMinute: Int) {
    precondition(fromMinute >= 0 && fromMinute < 1440 && toMinute >= fromMinute && toMinute - fromMinute < 1440)
    from = Int16(fromMinute)
    to = Int16(toMinute)
  }

  /// One clock time, e.g. `ClockWindow(at: 13, 10)` for 13:10.
  public init(at hour: Int, _ minute: Int = 0) {
    self.init(fromMinute: hour * 60 + minute, toMinute: hour * 60 + minute)
  }
}

/// What a timeline provider's `getTimeline` returns: its entries (as a
/// rule, not an array, so a reload allocates nothing) and a reload policy.
/// WidgetKit's `Timeline(entries:policy:)`.
public struct Timeline: Sendable, Equatable {
  /// How the entries are dated.
  public enum Entries: Sendable, Equatable {
    /// One entry (or several) dated now: nothing ahead is shown, and
    /// `.atEnd` asks for the next reload at once (the anti-pattern).
    case now
    /// `count` entries `every` apart from now; each shows the scheduled
    /// changes known up to its date.
    case spaced(count: Int, every: SimDuration)
    /// The first entry now, the next `count - 1` at the content's next
    /// scheduled changes within the horizon, each showing its change on time.
    case content(count: Int)
    /// One entry dated `date` (e.g. now + 5 min) showing the data fetched
    /// now: `.atEnd` asks for the next reload at that date.
    case single(at: SimTime)
  }

  public var entries: Entries
  public var policy: TimelineReloadPolicy
  /// The entries show a placeholder (no data: not logged in, not
  /// published yet, a failed first fetch): glances at it are counted
  /// apart (`placeholder_glance_pct`).
  public var placeholder: Bool
  /// The provider called `getTimeline`'s completion handler. `false`: it
  /// never did (a failed fetch left unhandled); WidgetKit ends the
  /// extension after its time limit, the widget keeps its old timeline and
  /// `entries`, `policy` and `placeholder` are not read
  /// (docs/model.md#no-completion).
  public var completionCalled: Bool

  public init(
    entries: Entries, policy: TimelineReloadPolicy, placeholder: Bool = false, completionCalled: Bool = true
  ) {
    self.entries = entries
    self.policy = policy
    self.placeholder = placeholder
    self.completionCalled = completionCalled
  }

  /// What a provider that never calls its completion handler "returns":
  /// nothing (docs/model.md#no-completion).
  public static let completionNeverCalled = Timeline(entries: .now, policy: .never, completionCalled: false)
}

/// Where the data of a reload came from.
public enum FetchResult: UInt8, Sendable, Equatable {
  /// The provider fetched from the backend and got current data.
  case fetched
  /// The fetch failed (docs/model.md#fetch-failure): the widget keeps what it showed.
  case failed
  /// The provider re-read the app's cache (no request): it shows what the
  /// app last fetched (docs/model.md#data-source).
  case cached
}

/// What `getTimeline` knows when it is called: the time, the widget's kind,
/// the device's clock, the data's schedule and whether the fetch worked.
public struct TimelineRequest: Sendable {
  /// Now (the reload's time).
  public var now: SimTime
  /// The widget's kind (index into `Scenario.kinds`).
  public var kind: Int
  /// The device's offset from UTC.
  public var utcOffset: SimDuration
  /// The kind's data changes on a schedule (so `.content` entries can be dated by it).
  public var hasSchedule: Bool
  public var fetch: FetchResult
  /// Failed fetches since the last successful one, before this reload.
  public var previousFailures: Int
  /// A uniform draw in [0, 1) for this reload (deterministic per device, widget and time).
  public var random: Double
  /// The newest unpredictable change of the kind's data at or before the
  /// data this reload fetched (`SimTime.never`: none yet): the data's
  /// state, for a provider whose policy depends on it (a print job running:
  /// changes in the last minutes). Filled only for a provider whose
  /// `readsLastChange` is `true`.
  public var lastChange: SimTime = .never

  @inlinable
  public init(
    now: SimTime, kind: Int = 0, utcOffset: SimDuration = .zero, hasSchedule: Bool = false,
    fetch: FetchResult = .fetched, previousFailures: Int = 0, random: Double = 0
  ) {
    self.now = now
    self.kind = kind
    self.utcOffset = utcOffset
    self.hasSchedule = hasSchedule
    self.fetch = fetch
    self.previousFailures = previousFailures
    self.random = random
  }

  /// The first time strictly after now at local `window` (a random point
  /// in it, from `random`): "13:10 today, else tomorrow".
  @inlinable
  public func next(_ window: ClockWindow) -> SimTime {
    let day = SimDuration.day.milliseconds
    let minute = SimDuration.minute.milliseconds
    let local = now.milliseconds &+ utcOffset.milliseconds
    let midnight = ChangeSchedule.floorDiv(local, day) &* day
    let span = Int64(window.toMinute - window.fromMinute) * minute
    let offset = Int64(window.fromMinute) * minute &+ Int64(random * Double(span))
    var at = midnight &+ offset
    if at <= local { at &+= day }
    return SimTime(milliseconds: at &- utcOffset.milliseconds)
  }

  /// Local midnight at the start of tomorrow.
  public var startOfTomorrow: SimTime { next(ClockWindow(at: 0)) }
}

/// A strategy's code: what the widget's timeline provider returns on each
/// reload (`getTimeline`) and the calls the app makes to `WidgetCenter`.
///
/// Strategies written in JSON are `StrategyTimelines`; a strategy written
/// in Swift is a value of the team's own type in `Strategy.code`, run by a
/// simulator specialised for it like the built-in ones (`CodeProvider`):
/// its methods are called where WidgetKit and the app would call them
/// (once per reload, once per app event), never per glance or data change,
/// and nothing is allocated per call. The simulator calls a provider from
/// several worker threads at once: keep it a value without mutable state
/// (everything a reload knows is in the request). See
/// `Examples/CustomStrategy` for one written in Swift.
public protocol TimelineProvider: Sendable {
  /// WidgetKit's `getTimeline`: the timeline a reload returns.
  func timeline(for request: TimelineRequest) -> Timeline
  /// How far to spread the first policy request of a widget of `kind`
  /// (its natural reload interval).
  func firstRequestSpread(kind: Int) -> SimDuration
  /// The app's own `WidgetCenter` calls after `event`, beyond the
  /// strategy's declared triggers. The default makes none.
  func reloadCalls(after event: AppEvent, _ app: AppSnapshot) -> ReloadCalls
  /// Whether `timeline(for:)` reads `request.random` (if not, the
  /// simulator skips drawing it). The default is `true`.
  var usesRandomDraw: Bool { get }
  /// Whether `reloadCalls(after:_:)` may make calls (if not, the simulator
  /// skips asking). The default is `true`; providers that keep the default
  /// `reloadCalls` should say `false`.
  static var makesReloadCalls: Bool { get }
  /// Whether `timeline(for:)` reads `request.lastChange` (if not, the
  /// simulator skips looking it up). The default is `false`.
  var readsLastChange: Bool { get }
}

extension TimelineProvider {
  public func reloadCalls(after event: AppEvent, _ app: AppSnapshot) -> ReloadCalls { .none }
  public var usesRandomDraw: Bool { true }
  public static var makesReloadCalls: Bool { true }
  public var readsLastChange: Bool { false }
}

/// A moment in the app's life a strategy can react to with `WidgetCenter` calls.
public enum AppEvent: UInt8, Sendable, Equatable, CaseIterable {
  /// The app came to the foreground (scene phase `.active`).
  case foreground
  /// The app entered the background (`didEnterBackground`, scene phase `.background`).
  case background
  /// An in-app event (a save, a finished sync, a settings change) while the app is open.
  case inApp
  /// The app fetched its data (on launch, in a BGAppRefresh run, after a silent push or another wake).
  case appFetch
  /// A BGAppRefresh task ran.
  case backgroundRefresh
  /// A silent push woke the app.
  case silentPush
  /// A wake source (location, an accessory reading, a Network Extension, audio) ran the app.
  case wake
  /// A widget button's App Intent ran (`perform()`); the tapped widget itself reloads for free anyway.
  case tap
}

/// What the app is doing when an event happens.
public struct AppSnapshot: Sendable, Equatable {
  public var now: SimTime
  public var utcOffset: SimDuration
  public var foreground: Bool
  /// An audio or navigation session is running.
  public var audio: Bool
  public var lowPowerMode: Bool
  /// For `.wake`: which of the strategy's wake sources (index).
  public var wakeSource: Int

  public init(
    now: SimTime, utcOffset: SimDuration = .zero, foreground: Bool = false, audio: Bool = false,
    lowPowerMode: Bool = false, wakeSource: Int = 0
  ) {
    self.now = now
    self.utcOffset = utcOffset
    self.foreground = foreground
    self.audio = audio
    self.lowPowerMode = lowPowerMode
    self.wakeSource = wakeSource
  }
}

/// A set of widget kinds (bit `k` = kind `k`; at most 64 kinds).
public struct KindSet: Sendable, Equatable, Hashable {
  public var bits: UInt64
  public init(bits: UInt64) { self.bits = bits }
  /// Every kind (`reloadAllTimelines()`).
  public static let all = KindSet(bits: ~0)
  public static let none = KindSet(bits: 0)
  public init(_ kinds: [Int]) { bits = kinds.reduce(0) { $0 | (1 << UInt64($1)) } }
  @inlinable public func contains(_ k: Int) -> Bool { k < 64 && bits >> UInt64(k) & 1 == 1 }
  public var isAll: Bool { bits == ~0 }
}

/// The `WidgetCenter` calls an app makes after one event: `calls` calls
/// for each kind in `kinds` (`reloadTimelines(ofKind:)`, or
/// `reloadAllTimelines()` for `.all`), `spacing` apart, the first `delay` after the event.
public struct ReloadCalls: Sendable, Equatable {
  public var kinds: KindSet
  public var calls: Int
  public var spacing: SimDuration
  public var delay: SimDuration

  public init(kinds: KindSet, calls: Int = 1, spacing: SimDuration = .zero, delay: SimDuration = .zero) {
    precondition(calls >= 0, "a burst needs zero or more calls")
    self.kinds = kinds
    self.calls = calls
    self.spacing = spacing
    self.delay = delay
  }

  public static let none = ReloadCalls(kinds: .none, calls: 0)
}

/// A timeline as the simulator needs it: what each glance will show, and
/// when the provider asks to be reloaded.
@frozen
public struct TimelinePlan: Sendable, Equatable {
  /// Which scheduled changes the entries show.
  public enum Coverage: Sendable, Equatable {
    /// Only the data captured at the reload.
    case captureOnly
    /// Every scheduled change up to the last entry, on time.
    case upToLastEntry
    /// Entries on a grid: a glance shows changes up to the latest entry before it.
    case grid(spacing: SimDuration)
  }
  public var reloadTime: SimTime
  public var lastEntry: SimTime
  /// The provider cannot see scheduled data past this.
  public var horizonEnd: SimTime
  public var coverage: Coverage
  /// When the policy asks for the next reload (`.never` for `.never`).
  public var nextRequest: SimTime

  public init(reloadTime: SimTime, lastEntry: SimTime, horizonEnd: SimTime, coverage: Coverage, nextRequest: SimTime) {
    self.reloadTime = reloadTime
    self.lastEntry = lastEntry
    self.horizonEnd = horizonEnd
    self.coverage = coverage
    self.nextRequest = nextRequest
  }

  /// The plan of `timeline`, returned by a reload at `request.now` whose
  /// data is as of `dataTime` (now, unless the fetch failed or read a
  /// cache), for content with `schedule` known `horizon` ahead.
  @inlinable @inline(__always)
  public init(
    _ timeline: Timeline, _ request: TimelineRequest, schedule: ChangeSchedule?, horizon: SimDuration, dataTime: SimTime
  ) {
    let time = request.now
    let horizonEnd = dataTime + horizon
    var lastEntry = time
    var coverage = Coverage.captureOnly
    switch timeline.entries {
    case .now:
      lastEntry = time
    case .single(let at):
      lastEntry = max(time, at)
    case .spaced(let count, let every):
      lastEntry = time + every * Int64(count - 1)
      coverage = .grid(spacing: max(SimDuration(milliseconds: 1), every))
    case .content(let count):
      coverage = .upToLastEntry
      if let schedule {
        lastEntry = schedule.last(of: max(1, count) - 1, after: time, notAfter: horizonEnd)
      }
    }
    let next: SimTime
    switch timeline.policy {
    case .atEnd: next = lastEntry
    case .after(let d): next = time + d
    case .afterDate(let d): next = d
    case .atLocalTime(let w): next = request.next(w)
    case .never: next = .never
    }
    self.init(reloadTime: dataTime, lastEntry: lastEntry, horizonEnd: horizonEnd, coverage: coverage, nextRequest: next)
  }

  /// The time up to which the entry shown at `glance` includes scheduled changes.
  @inlinable @inline(__always)
  public func coveredUntil(_ glance: SimTime) -> SimTime {
    switch coverage {
    case .captureOnly:
      return reloadTime
    case .upToLastEntry:
      return min(glance, min(lastEntry, horizonEnd))
    case .grid(let spacing):
      return min(gridEntry(at: glance, spacing: spacing), min(lastEntry, horizonEnd))
    }
  }

  /// The date of the entry a grid timeline of entries `spacing` apart
  /// shows at `glance` (its first, dated at the reload, before that).
  @inlinable @inline(__always)
  public func gridEntry(at glance: SimTime, spacing: SimDuration) -> SimTime {
    // No overflow: times are below 2^55 ms and `steps * spacing` is at
    // most `glance - reloadTime`.
    let steps = (glance.milliseconds &- reloadTime.milliseconds) / spacing.milliseconds
    return SimTime(milliseconds: reloadTime.milliseconds &+ max(0, steps) &* spacing.milliseconds)
  }

  /// The latest time any entry covers.
  public var coverageEnd: SimTime { coverage == .captureOnly ? reloadTime : min(lastEntry, horizonEnd) }
}
