import ReloadEngine

/// WidgetKit's `TimelineReloadPolicy`: when the provider asks for its
/// next timeline (docs/model.md#reload-policy). `.after` here is an
/// interval from the reload; it is a request, not a schedule.
public enum TimelineReloadPolicy: Sendable, Equatable {
  /// Ask again after the last entry's date.
  case atEnd
  /// Ask again no earlier than this long after the reload.
  case after(SimDuration)
  /// Only the app (or an App Intent) reloads the widget.
  case never
}

/// What a timeline provider returns on each reload: how many entries, how
/// they are dated, and the reload policy. Every preset strategy is one of
/// these (see `ReloadStrategies`).
///
///     // 4 hourly entries dated on the content's schedule, .atEnd:
///     EntryTimeline(entries: 4, spacing: .hours(1), dating: .content, policy: .atEnd)
///     // Polling every 15 minutes:
///     EntryTimeline(entries: 1, dating: .spaced, policy: .after(.minutes(15)))
public struct EntryTimeline: TimelineProvider, Sendable, Equatable {
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
  }

  public var entries: Int
  public var spacing: SimDuration
  public var dating: Dating
  public var policy: TimelineReloadPolicy

  public init(entries: Int = 1, spacing: SimDuration = .minutes(15), dating: Dating = .spaced, policy: TimelineReloadPolicy) {
    precondition(entries >= 1, "a timeline needs at least one entry, got \(entries)")
    self.entries = entries
    self.spacing = spacing
    self.dating = dating
    self.policy = policy
  }

  public func plan(reloadAt time: SimTime, schedule: ChangeSchedule?, horizon: SimDuration) -> TimelinePlan {
    let horizonEnd = time + horizon
    var effectiveDating = dating
    if dating == .content && schedule == nil { effectiveDating = .spaced }
    var lastEntry = time
    switch effectiveDating {
    case .now:
      lastEntry = time
    case .spaced:
      lastEntry = time + spacing * Int64(entries - 1)
    case .content:
      // Entries at the next scheduled changes inside the horizon.
      if let schedule {
        var t = time
        for _ in 1..<max(1, entries) {
          let s = schedule.next(after: t)
          if s > horizonEnd { break }
          t = s
        }
        lastEntry = t
      }
    }
    let next: SimTime
    switch policy {
    case .atEnd: next = lastEntry
    case .after(let d): next = time + d
    case .never: next = .never
    }
    let mode: TimelinePlan.Coverage
    switch effectiveDating {
    case .now: mode = .captureOnly
    case .content: mode = .upToLastEntry
    case .spaced: mode = .grid(spacing: max(SimDuration(milliseconds: 1), spacing))
    }
    return TimelinePlan(
      reloadTime: time, lastEntry: lastEntry, horizonEnd: horizonEnd, coverage: mode, nextRequest: next)
  }

  /// A spread for the first request of a widget: the policy's natural interval.
  public var naturalInterval: SimDuration {
    switch policy {
    case .after(let d): return d
    case .atEnd: return dating == .now ? .seconds(60) : spacing * Int64(max(1, entries - 1))
    case .never: return .zero
    }
  }
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

  /// The time up to which the entry shown at `glance` includes scheduled changes.
  @inlinable @inline(__always)
  public func coveredUntil(_ glance: SimTime) -> SimTime {
    switch coverage {
    case .captureOnly:
      return reloadTime
    case .upToLastEntry:
      return min(glance, min(lastEntry, horizonEnd))
    case .grid(let spacing):
      let steps = (glance.milliseconds - reloadTime.milliseconds) / spacing.milliseconds
      let entryDate = SimTime(milliseconds: reloadTime.milliseconds + max(0, steps) * spacing.milliseconds)
      return min(entryDate, min(lastEntry, horizonEnd))
    }
  }

  /// The latest time any entry covers.
  public var coverageEnd: SimTime { coverage == .captureOnly ? reloadTime : min(lastEntry, horizonEnd) }
}

/// What a widget's timeline provider (WidgetKit's `TimelineProvider`,
/// its `getTimeline`) returns on each reload: the seam between the
/// simulator and a strategy's timelines.
///
/// `DeviceSimulator` is generic over it (specialized, never an existential),
/// so a library user can plug a provider of their own.
public protocol TimelineProvider: Sendable {
  /// The timeline returned by a reload at `time`, for data with the given
  /// schedule (`nil` when nothing is scheduled) and provider horizon.
  func plan(reloadAt time: SimTime, schedule: ChangeSchedule?, horizon: SimDuration) -> TimelinePlan
  /// How far to spread the first request of each widget.
  var naturalInterval: SimDuration { get }
}
