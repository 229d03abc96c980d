import ReloadEngine

/// The model's assumptions (docs/model.md#assumptions), each a parameter with a documented
/// default. Nothing here is a hidden constant: `Scenarios/README.md` lists
/// every field with its unit, range and source tag.
public struct ModelParameters: Sendable, Equatable {
  public var budget: BudgetParameters
  public var reload: ReloadTiming
  public var visibility: Visibility
  public var silentPush: SilentPushParameters
  public var backgroundRefresh: BackgroundRefreshParameters
  public var widgetPush: WidgetPushParameters
  public var appReload: AppReloadParameters
  public var wakeSources: WakeSourceRules
  /// How ActivityKit treats a Live Activity's updates (docs/model.md#live-activities).
  public var activity: ActivityParameters

  public init(
    budget: BudgetParameters = .standard, reload: ReloadTiming = .standard,
    visibility: Visibility = .standard, silentPush: SilentPushParameters = .standard,
    backgroundRefresh: BackgroundRefreshParameters = .standard,
    widgetPush: WidgetPushParameters = .standard, appReload: AppReloadParameters = .standard,
    wakeSources: WakeSourceRules = .standard, activity: ActivityParameters = .standard
  ) {
    self.activity = activity
    self.appReload = appReload
    self.wakeSources = wakeSources
    self.budget = budget
    self.reload = reload
    self.visibility = visibility
    self.silentPush = silentPush
    self.backgroundRefresh = backgroundRefresh
    self.widgetPush = widgetPush
  }

  public static let standard = ModelParameters()
}

/// How the reload budget accrues (docs/model.md#budget-size to #learning-period).
public struct BudgetParameters: Sendable, Equatable {
  public enum Accrual: String, Sendable, CaseIterable {
    /// At most `B` budgeted reloads in any 24 h window (ring of reload times).
    case slidingWindow = "sliding_window"
    /// Tokens refill continuously at `B` per 24 h, up to a burst capacity.
    case tokenBucket = "token_bucket"
  }
  public enum WhenEmpty: String, Sendable, CaseIterable {
    /// The request waits until budget returns (Apple: "withheld").
    case withhold
    /// The request is discarded.
    case drop
  }

  public var accrual: Accrual
  /// Budget of a frequently seen widget, reloads per 24 h (A: 40-70; S: ~72).
  public var maxPerDay: Int
  /// Budget floor for a widget that is almost never seen.
  public var minPerDay: Int
  /// Views per day at which a widget earns the full budget; 0 = always full.
  public var fullBudgetViewsPerDay: Double
  /// Budget = max x (views / full)^exponent, clamped to [min, max].
  public var viewsExponent: Double
  /// Token bucket capacity as a share of the daily budget.
  public var tokenBucketBurstFraction: Double
  /// Budget multiplier while Low Power Mode is on.
  public var lowPowerMultiplier: Double
  /// Minimum time between a reload and the next budgeted one.
  public var minInterval: SimDuration
  public var whenEmpty: WhenEmpty
  /// A widget that asked for a reload and was refused for lack of budget is
  /// *frozen* once its last reload is older than this, until it reloads
  /// (docs/model.md#frozen-widgets); `nil` = its kind's `tolerance_min`.
  public var frozenAfter: SimDuration?
  /// Days after install with a larger budget (learning period); 0 = off.
  public var learningDays: Double
  public var learningMultiplier: Double
  /// The budget of a watch complication, whatever its views ("always
  /// considered viewed"); `nil` = from its views like other placements
  /// (docs/model.md#watch-complications).
  public var watchComplicationPerDay: Int?
  /// The budget of a StandBy widget; `nil` = from its views (docs/model.md#standby).
  public var standbyPerDay: Int?

  public init(
    accrual: Accrual = .tokenBucket, maxPerDay: Int = 70, minPerDay: Int = 4,
    fullBudgetViewsPerDay: Double = 12, viewsExponent: Double = 0.5,
    tokenBucketBurstFraction: Double = 0.25, lowPowerMultiplier: Double = 0.5,
    minInterval: SimDuration = .seconds(30), whenEmpty: WhenEmpty = .withhold,
    learningDays: Double = 0, learningMultiplier: Double = 1.5, watchComplicationPerDay: Int? = 50,
    standbyPerDay: Int? = nil, frozenAfter: SimDuration? = nil
  ) {
    self.accrual = accrual
    self.maxPerDay = maxPerDay
    self.minPerDay = minPerDay
    self.fullBudgetViewsPerDay = fullBudgetViewsPerDay
    self.viewsExponent = viewsExponent
    self.tokenBucketBurstFraction = tokenBucketBurstFraction
    self.lowPowerMultiplier = lowPowerMultiplier
    self.minInterval = minInterval
    self.whenEmpty = whenEmpty
    self.learningDays = learningDays
    self.learningMultiplier = learningMultiplier
    self.watchComplicationPerDay = watchComplicationPerDay
    self.standbyPerDay = standbyPerDay
    self.frozenAfter = frozenAfter
  }

  public static let standard = BudgetParameters()

  /// The daily budget of a widget seen `views` times a day.
  public func dailyBudget(viewsPerDay views: Double) -> Int {
    if fullBudgetViewsPerDay <= 0 { return maxPerDay }
    let share = Swift.min(1, Swift.max(0, views / fullBudgetViewsPerDay))
    let raw = Double(maxPerDay) * _pow(share, viewsExponent)
    return Swift.min(maxPerDay, Swift.max(minPerDay, Int(raw.rounded())))
  }

  /// The daily budget of a widget at `placement` seen `views` times a day:
  /// the placement's own budget where it has one, else from its views.
  public func dailyBudget(_ placement: Placement, viewsPerDay views: Double) -> Int {
    fixedBudget(placement) ?? dailyBudget(viewsPerDay: views)
  }

  /// The budget a placement has whatever its views, if any.
  public func fixedBudget(_ placement: Placement) -> Int? {
    switch placement {
    case .watchComplication: return watchComplicationPerDay
    case .standby: return standbyPerDay
    default: return nil
    }
  }

  /// The largest budget any widget can have at any time (ring capacity).
  public var largestBudget: Int {
    Int((Double(maxPerDay) * Swift.max(1, learningDays > 0 ? learningMultiplier : 1)).rounded(.up))
  }

  /// The largest budget a widget at one of `placements` can have.
  public func largestBudget(placements: Set<Placement>) -> Int {
    var largest = largestBudget
    for p in placements {
      guard let b = fixedBudget(p) else { continue }
      largest = Swift.max(
        largest, Int((Double(b) * Swift.max(1, learningDays > 0 ? learningMultiplier : 1)).rounded(.up)))
    }
    return largest
  }
}

/// When reloads happen relative to when they were asked for.
public struct ReloadTiming: Sendable, Equatable {
  public enum WhileAsleep: String, Sendable, CaseIterable {
    /// Policy reloads due while the user sleeps wait for the wake-up hour
    /// (the budget follows when the widget is seen).
    case deferToWake = "defer_to_wake"
    /// The night is like the day.
    case run
  }
  /// What WidgetKit does with a policy request that is due at once
  /// (docs/model.md#asap-reloads): a timeline whose last entry is dated
  /// now or earlier with `.atEnd`, or `.after` a date not later than the reload.
  public enum Asap: String, Sendable, CaseIterable {
    /// The request is made at once; only the minimum interval and the budget hold it back.
    case immediate
    /// The widget is only eligible: the system paces it at
    /// `max(min_interval, awake span / today's budget)` after the reload.
    case paced
  }
  /// Whether lateness grows with budget pressure (docs/model.md#lateness-pressure).
  public enum LatenessPressure: String, Sendable, CaseIterable {
    /// Every policy reload draws the full lateness.
    case none
    /// A draw is scaled by `used^exponent`, `used` the share of the
    /// widget's budget spent at the request.
    case budget
  }
  /// What WidgetKit asks next when a reload's provider never called its
  /// completion handler (docs/model.md#no-completion).
  public enum NoCompletion: String, Sendable, CaseIterable {
    /// The old timeline stays with its reload policy: a policy date still
    /// ahead is kept; one already passed is due at once (`asap`); `.never`
    /// stays `.never`.
    case oldPolicy = "old_policy"
    /// Nothing is asked again until the app or the system reloads the widget.
    case never
  }
  /// What a widget shows between a reload and the date of the new
  /// timeline's first entry, when that date is still ahead
  /// (docs/model.md#future-first-entry).
  public enum FutureFirstEntry: String, Sendable, CaseIterable {
    /// The entry shown at the reload stays until the first new entry's
    /// date: WidgetKit renders an entry at its date.
    case keepsShown = "keeps_shown"
    /// The new data shows from the reload on (the first entry is shown early).
    case shownAtOnce = "shown_at_once"
  }
  /// Lateness of policy reloads (`.atEnd`, `.after`) after they are due
  /// (docs/model.md#lateness). App-requested reloads are not late.
  public var lateness: DurationDistribution
  public var whileAsleep: WhileAsleep
  /// The first policy request of each widget is spread uniformly over
  /// `[0, this)` (or over the policy's own interval when `nil`).
  public var firstRequestSpread: SimDuration?
  public var asap: Asap
  public var latenessPressure: LatenessPressure
  /// For `latenessPressure: .budget`: lateness x used^exponent.
  public var latenessPressureExponent: Double
  public var noCompletion: NoCompletion
  public var futureFirstEntry: FutureFirstEntry
  /// What WidgetKit does for each widget when the device restarts
  /// (docs/model.md#device-restart).
  public enum AtRestart: String, Sendable, CaseIterable {
    /// Every widget is asked for a timeline at boot, before the first
    /// unlock: a provider that reads data protected until then fails.
    case beforeFirstUnlock = "before_first_unlock"
    /// Every widget is asked for a timeline, and its data can be read.
    case afterFirstUnlock = "after_first_unlock"
    /// No reload: the widgets keep the timelines they had.
    case none
  }
  public var atRestart: AtRestart

  public init(
    lateness: DurationDistribution = smallLateness,
    whileAsleep: WhileAsleep = .deferToWake, firstRequestSpread: SimDuration? = nil,
    asap: Asap = .paced, latenessPressure: LatenessPressure = .budget, latenessPressureExponent: Double = 1,
    noCompletion: NoCompletion = .oldPolicy, futureFirstEntry: FutureFirstEntry = .keepsShown,
    atRestart: AtRestart = .beforeFirstUnlock
  ) {
    self.atRestart = atRestart
    self.lateness = lateness
    self.whileAsleep = whileAsleep
    self.firstRequestSpread = firstRequestSpread
    self.asap = asap
    self.latenessPressure = latenessPressure
    self.latenessPressureExponent = latenessPressureExponent
    self.noCompletion = noCompletion
    self.futureFirstEntry = futureFirstEntry
  }

  /// The factor a lateness draw is multiplied by when `used` (0...1) of
  /// the widget's budget is spent (docs/model.md#lateness-pressure).
  public func pressureFactor(used: Double) -> Double {
    guard latenessPressure == .budget else { return 1 }
    let u = Swift.min(1, Swift.max(0, used))
    return latenessPressureExponent == 1 ? u : _pow(u, latenessPressureExponent)
  }

  public static let standard = ReloadTiming()

  /// A request, not a schedule, and nothing measured: uniform 0-10 s
  /// (docs/model.md#lateness, `"lateness": "small"`).
  public static let smallLateness = DurationDistribution.uniform(.zero, .seconds(10))

  /// Developers' measurements: `.after` reloads usually 1-2 h late,
  /// sometimes a little early (docs/model.md#lateness, tag M).
  public static let realisticLateness = DurationDistribution.lateOrEarly(
    median: .minutes(80), sigma: 0.45, earlyProbability: 0.1, earlyMax: .minutes(15))
}

/// What share of its surface's views each placement gets (docs/model.md#visibility).
public struct Visibility: Sendable, Equatable {
  public var homeFirstPage: Double
  public var homeOtherPage: Double
  public var smartStack: Double
  public var lockScreen: Double
  /// Share of the watch face's views (docs/model.md#watch-complications).
  public var watchComplication: Double
  /// Share of the StandBy views (docs/model.md#standby).
  public var standby: Double

  public init(
    homeFirstPage: Double = 1, homeOtherPage: Double = 0.15, smartStack: Double = 0.4, lockScreen: Double = 1,
    watchComplication: Double = 1, standby: Double = 1
  ) {
    self.homeFirstPage = homeFirstPage
    self.homeOtherPage = homeOtherPage
    self.smartStack = smartStack
    self.lockScreen = lockScreen
    self.watchComplication = watchComplication
    self.standby = standby
  }

  public static let standard = Visibility()

  public func share(_ placement: Placement) -> Double {
    switch placement {
    case .homeFirstPage: return homeFirstPage
    case .homeOtherPage: return homeOtherPage
    case .smartStack: return smartStack
    case .lockScreen: return lockScreen
    case .watchComplication: return watchComplication
    case .standby: return standby
    }
  }
}

/// How the system treats silent (background) pushes (docs/model.md#silent-push-throttle).
public struct SilentPushParameters: Sendable, Equatable {
  public enum LowPower: String, Sendable, CaseIterable {
    /// Held (newest only) until Low Power Mode ends.
    case hold
    /// Discarded.
    case drop
  }
  /// Sustained delivery rate per device (A/T: "two or three per hour").
  public var ratePerHour: Double
  /// Pushes deliverable back to back before throttling.
  public var burst: Double
  /// Only the newest held push survives (A).
  public var holdNewestOnly: Bool
  public var deliveryDelay: DurationDistribution
  public var lowPower: LowPower

  public init(
    ratePerHour: Double = 3, burst: Double = 2, holdNewestOnly: Bool = true,
    deliveryDelay: DurationDistribution = .logNormal(median: .seconds(2), sigma: 1),
    lowPower: LowPower = .hold
  ) {
    self.ratePerHour = ratePerHour
    self.burst = burst
    self.holdNewestOnly = holdNewestOnly
    self.deliveryDelay = deliveryDelay
    self.lowPower = lowPower
  }

  public static let standard = SilentPushParameters()
}

/// When the system runs a BGAppRefresh task (docs/model.md#background-refresh-delay).
public struct BackgroundRefreshParameters: Sendable, Equatable {
  /// Median delay after the earliest-begin date for an app used
  /// `referenceSessionsPerDay` times a day.
  public var medianDelay: SimDuration
  /// Log-standard-deviation of the delay.
  public var sigma: Double
  public var referenceSessionsPerDay: Double
  /// Delay scales as (reference / sessions per day)^elasticity.
  public var usageElasticity: Double
  /// Runs due while the user sleeps move to the wake-up hour.
  public var followUsage: Bool

  public init(
    medianDelay: SimDuration = .minutes(45), sigma: Double = 0.8, referenceSessionsPerDay: Double = 5,
    usageElasticity: Double = 0.7, followUsage: Bool = true
  ) {
    self.medianDelay = medianDelay
    self.sigma = sigma
    self.referenceSessionsPerDay = referenceSessionsPerDay
    self.usageElasticity = usageElasticity
    self.followUsage = followUsage
  }

  public static let standard = BackgroundRefreshParameters()

  /// The median delay for a device with `sessionsPerDay` app sessions.
  public func medianDelay(sessionsPerDay: Double) -> SimDuration {
    let factor = _pow(referenceSessionsPerDay / Swift.max(sessionsPerDay, 0.05), usageElasticity)
    return .saturating(Double(medianDelay.milliseconds) * factor)
  }
}

/// WidgetKit push budget (iOS 26; size unpublished, docs/model.md#widget-push).
public struct WidgetPushParameters: Sendable, Equatable {
  /// Pushes per hour per widget kind on a device (F: ~5/h).
  public var ratePerHour: Double
  public var burst: Double
  /// Whether a WidgetKit-push reload also spends the timeline budget.
  public var sharesTimelineBudget: Bool

  public init(ratePerHour: Double = 5, burst: Double = 5, sharesTimelineBudget: Bool = false) {
    self.ratePerHour = ratePerHour
    self.burst = burst
    self.sharesTimelineBudget = sharesTimelineBudget
  }

  public static let standard = WidgetPushParameters()
}

/// What WidgetKit does with the app's own `reloadTimelines` calls where
/// Apple documents nothing (docs/model.md#app-triggers).
public struct AppReloadParameters: Sendable, Equatable {
  public enum EnterBackground: String, Sendable, CaseIterable {
    /// A call made in `didEnterBackground` is budgeted: the app is no longer active.
    case budgeted
    /// It is still free, as if the app were in the foreground.
    case free
  }
  public enum Burst: String, Sendable, CaseIterable {
    /// Every call is a reload request (the minimum interval still applies).
    case each
    /// Calls for a kind within `burstWindow` of an earlier one ride on it.
    case one
  }
  /// A budgeted (background) call made while the user sleeps
  /// (docs/model.md#background-while-asleep).
  public enum WhileAsleep: String, Sendable, CaseIterable {
    /// It reloads (and spends budget) at once, night or day.
    case spend
    /// It waits for the user's wake-up hour, like policy reloads under `reload.while_asleep: defer_to_wake`.
    case deferToWake = "defer_to_wake"
  }
  public var enterBackground: EnterBackground
  public var burst: Burst
  public var burstWindow: SimDuration
  /// From a budgeted (background) call to the reload (docs/model.md#background-latency).
  public var backgroundLatency: DurationDistribution
  public var whileAsleep: WhileAsleep

  public init(
    enterBackground: EnterBackground = .budgeted, burst: Burst = .each, burstWindow: SimDuration = .seconds(5),
    backgroundLatency: DurationDistribution = .logNormal(median: .seconds(20), sigma: 1),
    whileAsleep: WhileAsleep = .deferToWake
  ) {
    self.enterBackground = enterBackground
    self.burst = burst
    self.burstWindow = burstWindow
    self.backgroundLatency = backgroundLatency
    self.whileAsleep = whileAsleep
  }

  /// Some budgeted call may not reload at once (a latency, or the night).
  public var delaysBackgroundCalls: Bool { !backgroundLatency.isZero || whileAsleep == .deferToWake }

  public static let standard = AppReloadParameters()
}

/// What stops each type of wake source (docs/model.md#wake-sources).
public struct WakeSourceRules: Sendable, Equatable {
  public struct Rule: Sendable, Equatable {
    /// No wakes after the user force-quits the app, until its next launch.
    public var stoppedByForceQuit: Bool
    /// No wakes while Low Power Mode is on.
    public var stoppedByLowPowerMode: Bool
    /// No wakes with Background App Refresh off.
    public var stoppedByBackgroundRefreshOff: Bool

    public init(stoppedByForceQuit: Bool, stoppedByLowPowerMode: Bool, stoppedByBackgroundRefreshOff: Bool) {
      self.stoppedByForceQuit = stoppedByForceQuit
      self.stoppedByLowPowerMode = stoppedByLowPowerMode
      self.stoppedByBackgroundRefreshOff = stoppedByBackgroundRefreshOff
    }
  }
  public var location: Rule
  public var accessory: Rule
  public var networkExtension: Rule
  public var audio: Rule

  public init(
    location: Rule = Rule(stoppedByForceQuit: true, stoppedByLowPowerMode: false, stoppedByBackgroundRefreshOff: true),
    accessory: Rule = Rule(
      stoppedByForceQuit: true, stoppedByLowPowerMode: false, stoppedByBackgroundRefreshOff: false),
    networkExtension: Rule = Rule(
      stoppedByForceQuit: false, stoppedByLowPowerMode: false, stoppedByBackgroundRefreshOff: false),
    audio: Rule = Rule(stoppedByForceQuit: true, stoppedByLowPowerMode: false, stoppedByBackgroundRefreshOff: false)
  ) {
    self.location = location
    self.accessory = accessory
    self.networkExtension = networkExtension
    self.audio = audio
  }

  public func rule(_ type: WakeSource.SourceType) -> Rule {
    switch type {
    case .location: return location
    case .accessory: return accessory
    case .networkExtension: return networkExtension
    case .audio: return audio
    }
  }

  public static let standard = WakeSourceRules()
}

/// How ActivityKit treats a Live Activity's updates where Apple publishes
/// no figure (docs/model.md#activity-push-budget, #activity-updates).
public struct ActivityParameters: Sendable, Equatable {
  /// What happens to a priority-10 push beyond the budget.
  public enum OverBudget: String, Sendable, CaseIterable {
    /// It is not delivered.
    case drop
    /// It is held, a newer one for the same activity replacing it, and
    /// delivered when the budget has room.
    case holdNewest = "hold_newest"

  }
  /// Priority-10 update pushes per hour an app's activities get on a device.
  public var pushBudgetPerHour: Double
  /// Priority-10 pushes accepted back to back.
  public var pushBurst: Double
  /// The budget per hour with `NSSupportsLiveActivitiesFrequentUpdates`.
  public var frequentPushBudgetPerHour: Double
  public var overBudget: OverBudget
  /// How late a priority-5 push arrives.
  public var lowPriorityDelay: DurationDistribution
  /// Updates shown closer together than this are merged: the later one
  /// shows at the end of the interval.
  public var minUpdateInterval: SimDuration
  /// Share of the Home Screen's views (the phone in use) that look at the
  /// Dynamic Island while an activity is active.
  public var dynamicIslandViewsShare: Double
  /// Activities one app may have active at once on a device.
  public var maxConcurrent: Int
  /// Push-to-start pushes a device accepts back to back (Apple DTS: about 10).
  public var pushToStartBurst: Double
  /// Push-to-start pushes per hour the device's push-to-start budget regains.
  public var pushToStartPerHour: Double
  /// What Low Power Mode does to a priority-5 push.
  public enum LowPowerLowPriority: String, Sendable, CaseIterable {
    /// Held until Low Power Mode ends ("based on power considerations").
    case held
    /// Delivered as at any other time (after `lowPriorityDelay`).
    case delivered
  }
  public var lowPowerLowPriority: LowPowerLowPriority
  /// An alert update shown lights the screen: counted as a glance at the activity.
  public var alertCountsAsGlance: Bool
  /// A broadcast (channel) update spends the device's priority-10 budget as a token push does.
  public var channelBudgeted: Bool

  public init(
    pushBudgetPerHour: Double = 10, pushBurst: Double = 3, frequentPushBudgetPerHour: Double = 60,
    overBudget: OverBudget = .drop, lowPriorityDelay: DurationDistribution = .logNormal(median: .seconds(60), sigma: 1),
    minUpdateInterval: SimDuration = .seconds(1), dynamicIslandViewsShare: Double = 0.5, maxConcurrent: Int = 5,
    pushToStartBurst: Double = 10, pushToStartPerHour: Double = 10, lowPowerLowPriority: LowPowerLowPriority = .held,
    alertCountsAsGlance: Bool = true, channelBudgeted: Bool = true
  ) {
    self.channelBudgeted = channelBudgeted
    self.alertCountsAsGlance = alertCountsAsGlance
    self.pushToStartBurst = pushToStartBurst
    self.pushToStartPerHour = pushToStartPerHour
    self.lowPowerLowPriority = lowPowerLowPriority
    self.pushBudgetPerHour = pushBudgetPerHour
    self.pushBurst = pushBurst
    self.frequentPushBudgetPerHour = frequentPushBudgetPerHour
    self.overBudget = overBudget
    self.lowPriorityDelay = lowPriorityDelay
    self.minUpdateInterval = minUpdateInterval
    self.dynamicIslandViewsShare = dynamicIslandViewsShare
    self.maxConcurrent = maxConcurrent
  }

  public static let standard = ActivityParameters()
}
