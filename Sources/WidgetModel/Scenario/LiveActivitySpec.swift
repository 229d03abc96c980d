import ReloadEngine

/// Live Activities (ActivityKit) in a scenario: the events users follow
/// with one, and the ways to update it that are compared
/// (docs/model.md#live-activities). Simulated apart from the widgets, on
/// the same devices and the same content (`kinds`).
public struct LiveActivitySpec: Sendable, Equatable {
  public var events: [ActivityEvent]
  public var strategies: [ActivityStrategy]
  /// Share of users who switched Live Activities off for the app (Settings).
  public var switchedOffShare: Double
  /// The size of the activity's content state, bytes (ActivityKit's limit is 4 KB).
  public var contentBytes: Int

  public init(
    events: [ActivityEvent], strategies: [ActivityStrategy], switchedOffShare: Double = 0, contentBytes: Int = 1024
  ) {
    self.events = events
    self.strategies = strategies
    self.switchedOffShare = switchedOffShare
    self.contentBytes = contentBytes
  }

  /// ActivityKit's limit on an activity's static and dynamic data, and on a
  /// push's payload (docs/model.md#activity-updates).
  public static let contentLimitBytes = 4096
}

/// What a Live Activity follows: an event with a start and an end (a match,
/// a delivery, a workout) whose data is a kind's content.
public struct ActivityEvent: Sendable, Equatable {
  public enum Start: String, Sendable, CaseIterable {
    /// The app starts it (`Activity.request`) while it runs: at the first
    /// foreground session during the event (none: no activity).
    case app
    /// A push-to-start (iOS 17.2) at the event's start, one push per follower.
    case pushToStart = "push_to_start"
  }
  public var name: String
  /// The kind whose changes the activity shows (index into `Scenario.kinds`).
  public var kind: Int
  /// A shared event: its start, a clock time each day in the kind's clock
  /// (`nil`: a per-user event drawn `perDay` times a day).
  public var at: SimDuration?
  /// For a shared event: the simulated days it happens on (empty: every day).
  public var days: [Int]
  /// For a per-user event: events per day, over the user's awake hours.
  public var perDay: Double
  /// An event that is each of the app's sessions (a workout the app
  /// records, a navigation): its start and end are the session's; `nil`:
  /// `at` or `perDay`.
  public var sessions: SessionChanges.Session? = nil
  public var length: DurationDistribution
  /// Share of devices that follow it (a shared event) or have such events (per user).
  public var share: Double
  public var start: Start

  public init(
    name: String, kind: Int, at: SimDuration? = nil, days: [Int] = [], perDay: Double = 0,
    length: DurationDistribution, share: Double = 1, start: Start = .pushToStart
  ) {
    self.name = name
    self.kind = kind
    self.at = at
    self.days = days
    self.perDay = perDay
    self.length = length
    self.share = share
    self.start = start
  }

  public var isShared: Bool { at != nil }
}

/// How the app and its backend update a Live Activity and end it.
public struct ActivityStrategy: Sendable, Equatable {
  /// The `apns-priority` of update pushes.
  public enum Priority: String, Sendable, CaseIterable {
    /// 10: delivered at once, counted against the push budget.
    case high
    /// 5: not budgeted, delivered when the system chooses.
    case low
    /// 10 while the budget has room, else 5 (a backend that tracks the budget).
    case budgetAware = "budget_aware"
  }
  /// How the activity ends after its event.
  public enum End: String, Sendable, CaseIterable {
    /// An end push at the event's end, with the dismissal policy.
    case push
    /// The app ends it (`activity.end`) when it next runs after the event.
    case app
    /// Nothing ends it: the system does, after the 8-hour limit.
    case limit
  }
  /// Which updates carry an `alert` (`AlertConfiguration`): it lights the
  /// screen and shows the expanded presentation (docs/model.md#activity-alerts).
  public enum Alert: String, Sendable, CaseIterable {
    case none
    /// Every update (a goal, each a change of the score).
    case updates
    /// The end push only (the order has arrived, the final score).
    case end
  }
  /// How the backend addresses its update and end pushes (docs/model.md#activity-fleet-push).
  public enum PushVia: String, Sendable, CaseIterable {
    /// One push per activity, to its push token.
    case token
    /// For a shared event, one broadcast request per change to the event's
    /// channel (iOS 18), which APNs fans out to every subscribed device;
    /// each user's own events still go by token.
    case channel
  }
  /// `ActivityUIDismissalPolicy`: how long an ended activity stays on the Lock Screen.
  public enum Dismissal: String, Sendable, CaseIterable {
    case immediate
    /// The system's default: up to 4 hours.
    case `default`
    /// Up to a date (`dismissalAfter` after the end, at most 4 hours).
    case after
  }
  public var name: String
  public var priority: Priority
  /// The backend collects the changes of this span into one push (0: one per change).
  public var coalesce: SimDuration
  /// The app updates the activity itself (`activity.update`) while it runs
  /// (foreground or an audio session), with no push.
  public var localWhileRunning: Bool
  /// `NSSupportsLiveActivitiesFrequentUpdates`: a larger push budget.
  public var frequentUpdates: Bool
  /// `staleDate` = each update + this (`nil`: none).
  public var staleAfter: SimDuration?
  public var end: End
  public var dismissal: Dismissal
  public var dismissalAfter: SimDuration
  public var alert: Alert = .none
  public var pushVia: PushVia = .token

  public init(
    name: String, priority: Priority = .high, coalesce: SimDuration = .zero, localWhileRunning: Bool = false,
    frequentUpdates: Bool = false, staleAfter: SimDuration? = nil, end: End = .push, dismissal: Dismissal = .default,
    dismissalAfter: SimDuration = .zero
  ) {
    self.name = name
    self.priority = priority
    self.coalesce = coalesce
    self.localWhileRunning = localWhileRunning
    self.frequentUpdates = frequentUpdates
    self.staleAfter = staleAfter
    self.end = end
    self.dismissal = dismissal
    self.dismissalAfter = dismissalAfter
  }

  /// The named strategies a scenario can list by name (Scenarios/README.md, "Writing a Live Activity").
  public static let presets: [(ActivityStrategy, summary: String)] = [
    (
      ActivityStrategy(name: "activity-push-every-change"),
      "A priority-10 push for every change, an end push with the default dismissal."
    ),
    (
      ActivityStrategy(name: "activity-coalesced-1m", coalesce: .minutes(1)),
      "Priority 10, the changes of each minute in one push."
    ),
    (
      ActivityStrategy(name: "activity-priority-mix", priority: .budgetAware),
      "Priority 10 while the push budget has room, priority 5 beyond it."
    ),
    (
      ActivityStrategy(name: "activity-local-plus-push", coalesce: .minutes(1), localWhileRunning: true),
      "The app updates the activity itself while it runs; coalesced priority-10 pushes otherwise."
    ),
  ]

  public static func preset(named name: String) -> ActivityStrategy? {
    presets.first { $0.0.name == name }?.0
  }
}

/// ActivityKit's documented limits (docs/model.md#activity-lifecycle).
public enum ActivityKitLimits {
  /// An activity is active at most 8 hours; the system then ends it.
  public static let maxActive = SimDuration.hours(8)
  /// An ended activity stays on the Lock Screen at most 4 hours more (the
  /// default dismissal policy's upper bound).
  public static let lockScreenAfterEnd = SimDuration.hours(4)
}
