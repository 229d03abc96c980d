import ReloadEngine

/// What a timeline provider written as data returns on each reload: how
/// many entries, how they are dated, the reload policy, and what it
/// returns instead when the fetch fails. Every preset strategy is one of
/// these (see `ReloadStrategies`); a scenario's strategy can give each kind
/// its own (`StrategyTimelines`).
///
///     // 4 hourly entries dated on the content's schedule, .atEnd:
///     EntryTimeline(entries: 4, spacing: .hours(1), dating: .content, policy: .atEnd)
///     // Polling every 15 minutes:
///     EntryTimeline(entries: 1, dating: .spaced, policy: .after(.minutes(15)))
///     // One entry at now + 5 min, .atEnd (a reload every 5 minutes asked):
///     EntryTimeline(entries: 1, spacing: .minutes(5), dating: .offset, policy: .atEnd)
public struct EntryTimeline: TimelineProvider, Equatable {
  /// How the entries of a timeline are dated.
  public enum Dating: String, Sendable, CaseIterable {
    /// The first entry now, the others at the content's next scheduled
    /// changes within the horizon, each showing its change on time. Content
    /// without a schedule falls back to `spaced`.
    case content
    /// Entries `spacing` apart from now; each shows the scheduled changes
    /// known up to its date.
    case spaced
    /// Every entry dated now (the anti-pattern): nothing ahead is shown and
    /// `.atEnd` asks for the next reload at once.
    case now
    /// One entry dated `spacing` after now, showing the data fetched now.
    case offset
  }

  public var entries: Int
  public var spacing: SimDuration
  public var dating: Dating
  public var policy: TimelineReloadPolicy
  /// What the provider returns when its fetch fails; `nil`: the same timeline.
  public var onFailure: FailureBranch?

  public init(
    entries: Int = 1, spacing: SimDuration = .minutes(15), dating: Dating = .spaced, policy: TimelineReloadPolicy,
    onFailure: FailureBranch? = nil
  ) {
    precondition(entries >= 1, "a timeline needs at least one entry, got \(entries)")
    self.entries = entries
    self.spacing = spacing
    self.dating = dating
    self.policy = policy
    self.onFailure = onFailure
  }

  /// The timeline a reload described by `request` returns.
  @inlinable @inline(__always)
  public func timeline(for request: TimelineRequest) -> Timeline {
    if request.fetch == .failed, let onFailure {
      return onFailure.timeline(for: request)
    }
    return shape.timeline(for: request)
  }

  /// Its entries and policy without the failure branch: a small plain
  /// value to read on every reload.
  @inlinable
  var shape: EntryShape { EntryShape(entries: entries, spacing: spacing, dating: dating, policy: policy) }

  /// The plan for a reload at `time` whose fetch succeeded (a shorthand for tests).
  public func plan(reloadAt time: SimTime, schedule: ChangeSchedule?, horizon: SimDuration) -> TimelinePlan {
    let r = TimelineRequest(now: time, hasSchedule: schedule != nil)
    return TimelinePlan(timeline(for: r), r, schedule: schedule, horizon: horizon, dataTime: time)
  }

  public static var makesReloadCalls: Bool { false }

  public func firstRequestSpread(kind: Int) -> SimDuration { naturalInterval }

  /// Whether a reload's random draw matters (a window of clock times, a retry jitter).
  public var usesRandomDraw: Bool {
    if case .atLocalTime(let w) = policy, w.toMinute > w.fromMinute { return true }
    return onFailure.map { $0.jitter > .zero } ?? false
  }

  /// A spread for the first request of a widget: the policy's natural interval.
  public var naturalInterval: SimDuration {
    switch policy {
    case .after(let d): return d
    case .atEnd:
      switch dating {
      case .now: return .seconds(60)
      case .offset: return spacing
      default: return spacing * Int64(max(1, entries - 1))
      }
    case .atLocalTime, .afterDate: return .day
    case .never: return .zero
    }
  }
}

/// An `EntryTimeline`'s entries and policy: what a successful reload returns.
@usableFromInline
struct EntryShape: Sendable {
  @usableFromInline let entries: Int
  @usableFromInline let spacing: SimDuration
  @usableFromInline let dating: EntryTimeline.Dating
  @usableFromInline let policy: TimelineReloadPolicy

  @inlinable
  init(entries: Int, spacing: SimDuration, dating: EntryTimeline.Dating, policy: TimelineReloadPolicy) {
    self.entries = entries
    self.spacing = spacing
    self.dating = dating
    self.policy = policy
  }

  @inlinable @inline(__always)
  func timeline(for request: TimelineRequest) -> Timeline {
    let e: Timeline.Entries
    switch dating {
    case .now: e = .now
    case .offset: e = .single(at: request.now + spacing)
    case .spaced: e = .spaced(count: entries, every: spacing)
    case .content: e = !request.hasSchedule ? .spaced(count: entries, every: spacing) : .content(count: entries)
    }
    return Timeline(entries: e, policy: policy)
  }
}

/// What a timeline provider returns when its fetch fails
/// (docs/model.md#fetch-failure): a retry schedule with backoff (the
/// `n`-th consecutive failure retries after `retry[min(n, last)]`, plus
/// up to `jitter`), or another policy (`.never` when logged out), and
/// whether it shows a placeholder or keeps the last data; or nothing at
/// all, when the provider never calls its completion handler on a failure
/// (`callsCompletion: false`, docs/model.md#no-completion).
///
/// A plain value (no references), so timelines copy for free on every reload.
public struct FailureBranch: Sendable, Equatable {
  /// The most backoff steps a branch holds.
  public static let maxRetries = 8
  /// Backoff steps, in order; `retryCount` of the 8 slots are used.
  @usableFromInline var steps:
    (SimDuration, SimDuration, SimDuration, SimDuration, SimDuration, SimDuration, SimDuration, SimDuration)
  public private(set) var retryCount: Int
  /// Up to this much random delay added to each retry.
  public var jitter: SimDuration
  /// The policy when there are no retry steps.
  public var policy: TimelineReloadPolicy
  /// Show a placeholder instead of the last data.
  public var placeholder: Bool
  /// The provider calls `getTimeline`'s completion handler on a failure;
  /// `false`: it never does, and the other fields are not read.
  public var callsCompletion: Bool

  /// `retry`: the delay after the 1st, 2nd, ... consecutive failure (at most
  /// `maxRetries`); the last repeats. Empty: use `policy`.
  public init(
    retry: [SimDuration] = [], jitter: SimDuration = .zero, policy: TimelineReloadPolicy = .atEnd,
    placeholder: Bool = false, callsCompletion: Bool = true
  ) {
    precondition(retry.count <= Self.maxRetries, "at most \(Self.maxRetries) retry steps, got \(retry.count)")
    var s = [SimDuration](repeating: .zero, count: Self.maxRetries)
    for (i, d) in retry.enumerated() { s[i] = d }
    steps = (s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7])
    retryCount = retry.count
    self.jitter = jitter
    self.policy = policy
    self.placeholder = placeholder
    self.callsCompletion = callsCompletion
  }

  /// A provider that never calls its completion handler when its fetch
  /// fails (docs/model.md#no-completion).
  public static let completionNeverCalled = FailureBranch(callsCompletion: false)

  /// The backoff steps.
  public var retry: [SimDuration] { (0..<retryCount).map(step) }

  @inlinable
  func step(_ i: Int) -> SimDuration {
    withUnsafeBytes(of: steps) { $0.load(fromByteOffset: i * MemoryLayout<SimDuration>.stride, as: SimDuration.self) }
  }

  public static func == (a: FailureBranch, b: FailureBranch) -> Bool {
    a.retry == b.retry && a.jitter == b.jitter && a.policy == b.policy && a.placeholder == b.placeholder
      && a.callsCompletion == b.callsCompletion
  }

  @inlinable
  public func timeline(for request: TimelineRequest) -> Timeline {
    if !callsCompletion { return .completionNeverCalled }
    var p = policy
    if retryCount > 0 {
      let d = step(min(request.previousFailures, retryCount - 1))
      p = .after(d + SimDuration(milliseconds: Int64(request.random * Double(jitter.milliseconds))))
    }
    return Timeline(entries: .now, policy: p, placeholder: placeholder)
  }
}
