import ReloadEngine

/// A widget kind and the data behind it: what changes, when, and whether
/// the provider can see a change coming.
public struct WidgetKindSpec: Sendable {
  public var name: String
  /// Per user (each device has its own data) or shared by every user of the
  /// kind (one news feed: every device sees the same change at once).
  public var scope: ContentScope
  /// Changes on a known schedule (hourly forecast, calendar), visible to the
  /// provider up to a horizon ahead.
  public var scheduled: ScheduledChanges?
  /// Changes nobody can predict.
  public var unpredictable: UnpredictableChanges?
  /// Staleness that still counts as acceptable at a glance.
  public var tolerance: SimDuration
  /// Whether the widget has buttons or toggles (App Intents).
  public var interactive: Bool
  /// How often fetching the kind's data fails (docs/model.md#fetch-failure).
  public var fetchFailure: FetchFailure?
  /// Changes the running app itself makes (a podcast's now playing, a
  /// workout): only during its sessions (docs/model.md#session-changes).
  public var sessionChanges: SessionChanges?

  public init(
    name: String, scope: ContentScope = .perUser, scheduled: ScheduledChanges? = nil,
    unpredictable: UnpredictableChanges? = nil, tolerance: SimDuration = .minutes(30),
    interactive: Bool = false, fetchFailure: FetchFailure? = nil, sessionChanges: SessionChanges? = nil
  ) {
    self.sessionChanges = sessionChanges
    self.fetchFailure = fetchFailure
    self.name = name
    self.scope = scope
    self.scheduled = scheduled
    self.unpredictable = unpredictable
    self.tolerance = tolerance
    self.interactive = interactive
  }
}

/// When a fetch of a kind's data fails (docs/model.md#fetch-failure):
/// each fetch independently with `probability`, and every fetch during a
/// daily outage of `[outageFromHour, outageToHour)` UTC (a backend's
/// maintenance window, a provider's publication gap).
public struct FetchFailure: Sendable, Equatable {
  public var probability: Double
  public var outageFromHour: Double
  public var outageToHour: Double
  /// A fetch fails while the newest scheduled change is not published
  /// yet: the provider finds no data for today (Wikipedia's "not valid
  /// for today", docs/model.md#publication-lag).
  public var whenUnpublished: Bool

  public init(
    probability: Double = 0, outageFromHour: Double = 0, outageToHour: Double = 0, whenUnpublished: Bool = false
  ) {
    self.whenUnpublished = whenUnpublished
    self.probability = probability
    self.outageFromHour = outageFromHour
    self.outageToHour = outageToHour
  }

  /// Whether a fetch at `t` falls in the daily outage.
  @inlinable
  public func inOutage(_ t: SimTime) -> Bool {
    guard outageToHour > outageFromHour else { return false }
    let day = SimDuration.day.milliseconds
    var ms = t.milliseconds % day
    if ms < 0 { ms += day }
    let h = Double(ms) / Double(SimDuration.hour.milliseconds)
    return (h >= outageFromHour && h < outageToHour) || (h + 24 >= outageFromHour && h + 24 < outageToHour)
  }
}

/// Changes of a per-user kind's data that happen only while the app runs:
/// one when a session starts (playback begins, a workout starts, the app
/// syncs) and `perHour` more, at random, while it lasts
/// (docs/model.md#session-changes).
public struct SessionChanges: Sendable, Equatable {
  public enum Session: String, Sendable, CaseIterable {
    /// The app's foreground sessions.
    case foreground
    /// Its audio (or navigation) sessions.
    case audio
  }
  public var session: Session
  /// A change when each session starts.
  public var atStart: Bool
  /// Mean changes per hour during a session, after its start.
  public var perHour: Double

  public init(session: Session, atStart: Bool = true, perHour: Double = 0) {
    self.session = session
    self.atStart = atStart
    self.perHour = perHour
  }
}

public enum ContentScope: String, Sendable {
  case perUser = "per_user"
  case shared
}

/// Changes on a known schedule, in the content's clock: a grid
/// (`offset + k * every`, inside the active local hours) or a list of clock
/// times each day (`at`), on every day, weekdays or weekends, optionally
/// with another schedule on weekends, and optionally published later than
/// they happen (docs/model.md#clock-times, #weekday-patterns,
/// #publication-lag).
public struct ScheduledChanges: Sendable, Equatable {
  public var every: SimDuration
  public var offset: SimDuration
  /// Active local hours `[fromHour, toHour)`; `0, 24` is all day.
  public var fromHour: Int
  public var toHour: Int
  /// Clock times of the changes each day (time since local midnight,
  /// increasing). When not empty it replaces `every`, `offset` and the
  /// active hours.
  public var at: [SimDuration]
  /// The `at` times move by this much each day: on local day `d` they are
  /// `at + d * driftPerDay` (sunrise, sunset) (docs/model.md#clock-times).
  public var driftPerDay: SimDuration
  /// Which days of the week the schedule runs.
  public var days: ScheduleDays
  /// Another schedule on Saturdays and Sundays; `nil` = the same as weekdays.
  public var weekend: WeekendSchedule?
  /// When the data of each change is published; `nil` = known as soon as
  /// the provider's horizon reaches it (docs/model.md#publication-lag).
  public var publication: Publication?
  /// How far ahead the provider knows the schedule's data.
  public var horizon: SimDuration
  /// For shared content: the clock of the schedule (hours east of UTC).
  /// Per-user content follows each device's local time.
  public var sharedUTCOffsetHours: Double

  public init(
    every: SimDuration, offset: SimDuration = .zero, fromHour: Int = 0, toHour: Int = 24,
    horizon: SimDuration = .day, sharedUTCOffsetHours: Double = 0, at: [SimDuration] = [],
    driftPerDay: SimDuration = .zero, days: ScheduleDays = .everyDay, weekend: WeekendSchedule? = nil,
    publication: Publication? = nil
  ) {
    self.every = every
    self.offset = offset
    self.fromHour = fromHour
    self.toHour = toHour
    self.horizon = horizon
    self.sharedUTCOffsetHours = sharedUTCOffsetHours
    self.at = at
    self.driftPerDay = driftPerDay
    self.days = days
    self.weekend = weekend
    self.publication = publication
  }

  /// Changes at the clock times `at` (time since local midnight) each day.
  public static func clockTimes(
    _ at: [SimDuration], driftPerDay: SimDuration = .zero, horizon: SimDuration = .day,
    sharedUTCOffsetHours: Double = 0, days: ScheduleDays = .everyDay, weekend: WeekendSchedule? = nil,
    publication: Publication? = nil
  ) -> ScheduledChanges {
    ScheduledChanges(
      every: .day, horizon: horizon, sharedUTCOffsetHours: sharedUTCOffsetHours, at: at, driftPerDay: driftPerDay,
      days: days, weekend: weekend, publication: publication)
  }

  /// `true` when the schedule is a plain grid on every day, known up to
  /// the horizon (what every scenario before the calendar could say).
  public var isPlainGrid: Bool { at.isEmpty && days == .everyDay && weekend == nil && publication == nil }
}

/// The days of the week a schedule runs (in the content's clock).
public enum ScheduleDays: String, Sendable, CaseIterable {
  case everyDay = "every_day"
  /// Monday to Friday (a stock market).
  case weekdays
  /// Saturday and Sunday.
  case weekends
}

/// A kind's schedule on Saturdays and Sundays, when it differs from the
/// weekdays': a grid or a list of clock times, like `ScheduledChanges`.
public struct WeekendSchedule: Sendable, Equatable {
  public var every: SimDuration
  public var offset: SimDuration
  public var fromHour: Int
  public var toHour: Int
  /// Clock times each weekend day; when not empty it replaces the grid.
  public var at: [SimDuration]

  public init(
    every: SimDuration = .day, offset: SimDuration = .zero, fromHour: Int = 0, toHour: Int = 24,
    at: [SimDuration] = []
  ) {
    self.every = every
    self.offset = offset
    self.fromHour = fromHour
    self.toHour = toHour
    self.at = at
  }
}

/// When a scheduled change's data is published: the data of the changes on
/// local date D (in the content's clock) appears at `atUTC` on UTC date
/// `D - daysAhead` (docs/model.md#publication-lag).
public struct Publication: Sendable, Equatable {
  /// Time of day, UTC.
  public var atUTC: SimDuration
  /// 0: published on the same date (Wikipedia's "most read", about 02:00
  /// UTC); 1: the day before (day-ahead electricity prices).
  public var daysAhead: Int

  public init(atUTC: SimDuration, daysAhead: Int = 0) {
    self.atUTC = atUTC
    self.daysAhead = daysAhead
  }
}

/// Unpredictable changes: a Poisson process with a time-of-day rate, plus
/// occasional bursts (a live match, breaking news).
public struct UnpredictableChanges: Sendable, Equatable {
  public var perDay: Double
  /// Relative weight of each local hour (24 values).
  public var profile: [Double]
  public var bursts: Bursts?
  /// For shared content: the clock of the profile (hours east of UTC).
  public var sharedUTCOffsetHours: Double
  /// The rate on Saturdays and Sundays (of the content's clock) relative to
  /// weekdays, bursts included; 0 = weekdays only (docs/model.md#weekday-patterns).
  public var weekendFactor: Double

  public init(
    perDay: Double, profile: [Double] = Segment.flatProfile, bursts: Bursts? = nil, sharedUTCOffsetHours: Double = 0,
    weekendFactor: Double = 1
  ) {
    self.perDay = perDay
    self.profile = profile
    self.bursts = bursts
    self.sharedUTCOffsetHours = sharedUTCOffsetHours
    self.weekendFactor = weekendFactor
  }

  /// Hourly rates: `perDay` spread over the hours by `profile`.
  public var ratesPerHour: [Double] {
    let total = profile.reduce(0, +)
    if total <= 0 { return Array(repeating: 0, count: 24) }
    return profile.map { perDay * $0 / total }
  }
}

/// On some days, a window of frequent changes.
public struct Bursts: Sendable, Equatable {
  /// Probability that a given day has a burst.
  public var dailyProbability: Double
  /// The burst starts uniformly in `[fromHour, toHour)` local.
  public var fromHour: Int
  public var toHour: Int
  public var duration: SimDuration
  public var perHour: Double

  public init(dailyProbability: Double, fromHour: Int, toHour: Int, duration: SimDuration, perHour: Double) {
    self.dailyProbability = dailyProbability
    self.fromHour = fromHour
    self.toHour = toHour
    self.duration = duration
    self.perHour = perHour
  }
}
