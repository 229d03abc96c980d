import ReloadEngine

extension ModelParameter {
  /// The declarations, one per case (read through `declaration`).
  var declared: ModelParameterDeclaration {
    typealias D = ModelParameterDeclaration
    switch self {
    // MARK: budget
    case .budgetAccrual:
      return D.choice(
        \.budget.accrual, .budget, "accrual",
        doc: "`sliding_window`: at most B budgeted reloads in any 24 h (a ring of reload times); `token_bucket`: "
          + "tokens refill continuously at B per 24 h up to a burst capacity.",
        source: "assumed", anchor: "budget-accrual", .budgetAccrual)
    case .budgetMaxPerDay:
      return D.integer(
        \.budget.maxPerDay, .budget, "max_per_day", min: 1, max: 1440, unit: "reloads per 24 h",
        doc: "B for a frequently seen widget (Apple: 40-70 a day; Apple staff: about 72).",
        source: "A, S", anchor: "budget-size", .budgetSize)
    case .budgetMinPerDay:
      return D.integer(
        \.budget.minPerDay, .budget, "min_per_day", min: 1, max: 1440, unit: "reloads per 24 h",
        doc: "Floor of B for a widget that is almost never seen.",
        source: "assumed", anchor: "budget-size", .budgetSize)
    case .budgetFullBudgetViewsPerDay:
      return D.number(
        \.budget.fullBudgetViewsPerDay, .budget, "full_budget_views_per_day", min: 0, unit: "views per day",
        doc: "Views per day that earn the full budget; 0 gives every widget the full budget.",
        source: "A (depends on views), value assumed", anchor: "budget-size", .budgetSize)
    case .budgetViewsExponent:
      return D.number(
        \.budget.viewsExponent, .budget, "views_exponent", min: 0, max: 4,
        doc: "B = max_per_day x (views / full)^exponent, clamped to [min, max].",
        source: "assumed", anchor: "budget-size", .budgetSize)
    case .budgetTokenBucketBurstFraction:
      return D.number(
        \.budget.tokenBucketBurstFraction, .budget, "token_bucket_burst_fraction", min: 0, max: 1, exclusiveMin: true,
        doc: "Token bucket capacity as a share of B.",
        source: "assumed", anchor: "budget-accrual", .budgetAccrual)
    case .budgetLowPowerMultiplier:
      return D.number(
        \.budget.lowPowerMultiplier, .budget, "low_power_multiplier", min: 0, max: 1,
        doc: "B is multiplied by this while Low Power Mode is on (developers report fewer reloads).",
        source: "M (direction), value assumed", anchor: "low-power-budget", .budgetSize)
    case .budgetMinInterval:
      return D.duration(
        \.budget.minInterval, .budget, "min_interval_s", in: .seconds, min: 0, max: 86_400,
        doc: "Minimum time from a reload to the next budgeted one (.after(+15 s) is never honoured; +15 min is).",
        source: "A, M", anchor: "min-interval", .minInterval)
    case .budgetWhenEmpty:
      return D.choice(
        \.budget.whenEmpty, .budget, "when_empty",
        doc: "A request with no budget left is `withhold`-en until budget returns (Apple's wording) or `drop`-ped.",
        source: "A", anchor: "when-empty", .whenEmpty)
    case .budgetFrozenAfter:
      return D.optionalDuration(
        \.budget.frozenAfter, .budget, "frozen_after_min", in: .minutes, min: 0,
        doc: "A widget that asked for a reload and was refused for lack of budget counts as frozen "
          + "(frozen_widget_day_pct, frozen_hours_per_widget_day, first_frozen_hour_median, the hourly frozen "
          + "share) from the refusal or from when its last reload became older than this, whichever is later, "
          + "until it reloads; null uses each widget kind's tolerance_min (docs/model.md#frozen-widgets).",
        source: "reasoned (what users see)", anchor: "frozen-widgets", .frozenWidgets)
    case .budgetLearningDays:
      return D.number(
        \.budget.learningDays, .budget, "learning_days", min: 0, max: 60, unit: "days",
        doc: "Days after install with a larger budget (learning period); 0 = off.",
        source: "F", anchor: "learning-period", .learningPeriod)
    case .budgetLearningMultiplier:
      return D.number(
        \.budget.learningMultiplier, .budget, "learning_multiplier", min: 1, max: 10,
        doc: "B is multiplied by this during the learning period.",
        source: "F", anchor: "learning-period", .learningPeriod)
    case .budgetWatchComplicationPerDay:
      return D.optionalInteger(
        \.budget.watchComplicationPerDay, .budget, "watch_complication_per_day", min: 1, max: 1440,
        unit: "reloads per 24 h",
        doc: "B of a watch complication, whatever its views (complications are \"always considered viewed\"); "
          + "null = from its views like other placements (docs/model.md#watch-complications).",
        source: "M (Home Assistant iOS #1046: limited to 50 a day)", anchor: "watch-complications", .budgetSize,
        placement: .watchComplication)
    case .budgetStandbyPerDay:
      return D.optionalInteger(
        \.budget.standbyPerDay, .budget, "standby_per_day", min: 1, max: 1440, unit: "reloads per 24 h",
        doc: "B of a StandBy widget; null = from its StandBy views like other placements (docs/model.md#standby).",
        source: "assumed", anchor: "standby", .budgetSize, placement: .standby)

    // MARK: reload
    case .reloadLateness:
      return D.distribution(
        \.reload.lateness, .reload, "lateness",
        named: [
          NamedDistribution("small", ReloadTiming.smallLateness),
          NamedDistribution("realistic", ReloadTiming.realisticLateness),
        ],
        doc: "Lateness of `.atEnd` / `.after` reloads: `small` (uniform 0-10 s), `realistic` (usually 1-2 h late, "
          + "sometimes up to 15 min early, as developers measured), or a distribution.",
        source: "A (a request, not a schedule), M (realistic)", anchor: "lateness", .lateness)
    case .reloadWhileAsleep:
      return D.choice(
        \.reload.whileAsleep, .reload, "while_asleep",
        doc: "`defer_to_wake`: policy reloads due while the user sleeps wait for the wake-up hour (the budget "
          + "follows when the widget is seen); `run`: the night is like the day.",
        source: "A (depends on when seen), rule assumed", anchor: "while-asleep", .lateness)
    case .reloadFirstRequestSpread:
      return D.optionalDuration(
        \.reload.firstRequestSpread, .reload, "first_request_spread_min", in: .minutes, min: 0,
        doc: "The first policy request of each widget is spread uniformly over this many minutes; null spreads it "
          + "over the policy's own interval.",
        source: "assumed", anchor: "first-request", .lateness)
    case .reloadAsap:
      return D.choice(
        \.reload.asap, .reload, "asap",
        doc: "A policy request due at once (`.atEnd` past the last entry, `.after(now)` or a past date): "
          + "`immediate` asks again at once (only `min_interval_s` and the budget hold it back); `paced` makes the "
          + "widget only eligible and the system reloads it max(min_interval_s, awake hours / B) later "
          + "(docs/model.md#asap-reloads).",
        source: "T (.atEnd makes a widget eligible; the system picks the time), S (about one per 20 min), "
          + "formula assumed",
        anchor: "asap-reloads", .asapReloads)
    case .reloadLatenessPressure:
      return D.choice(
        \.reload.latenessPressure, .reload, "lateness_pressure",
        doc: "`none`: every policy reload draws the full `lateness`; `budget`: a draw is multiplied by "
          + "used^`lateness_pressure_exponent`, used the share of the widget's budget spent at the request "
          + "(docs/model.md#lateness-pressure).",
        source: "M (late policies; polling limited), rule assumed", anchor: "lateness-pressure", .latenessPressure)
    case .reloadLatenessPressureExponent:
      return D.number(
        \.reload.latenessPressureExponent, .reload, "lateness_pressure_exponent", min: 0, max: 10,
        doc: "For `lateness_pressure: budget`: lateness x used^exponent (1 = in proportion to the budget spent; "
          + "larger = late only when nearly empty).",
        source: "assumed", anchor: "lateness-pressure", .latenessPressure)
    case .reloadNoCompletion:
      return D.choice(
        \.reload.noCompletion, .reload, "no_completion",
        doc: "After a reload whose provider never called its completion handler (`on_failure.calls_completion: "
          + "false`): `old_policy` keeps the old timeline and its reload policy (a date already passed is due at "
          + "once, as `asap` says); `never` asks nothing until the app or the system reloads the widget "
          + "(docs/model.md#no-completion).",
        source: "seed 000 (the extension is ended, as in a crash), rule assumed", anchor: "no-completion",
        .noCompletion, construct: .completionNeverCalled)
    case .reloadFutureFirstEntry:
      return D.choice(
        \.reload.futureFirstEntry, .reload, "future_first_entry",
        doc: "A timeline whose first entry is dated after the reload (`dating: offset`, one entry at now + 15 "
          + "min): `keeps_shown` keeps the entry shown at the reload until that date (WidgetKit renders an entry "
          + "at its date); `shown_at_once` shows the new data from the reload on "
          + "(docs/model.md#future-first-entry).",
        source: "A (an entry's date is when WidgetKit renders it), what shows before it assumed",
        anchor: "future-first-entry", .futureFirstEntry, construct: .futureFirstEntry)
    case .reloadAtRestart:
      return D.choice(
        \.reload.atRestart, .reload, "at_restart",
        doc: "When the device restarts (a segment's `restarts_per_30_days`), WidgetKit asks every widget for a "
          + "timeline, for free: `before_first_unlock` at boot, when a provider reading data protected until the "
          + "first unlock fails (a kind's `reads_before_first_unlock`); `after_first_unlock` with its data "
          + "readable; `none`: no reload, the old timelines stay (docs/model.md#device-restart).",
        source: "seed 004 (a restart's reloads are free); M (SideStore #451: zero after a restart); "
          + "when it asks assumed",
        anchor: "device-restart", .deviceRestart, construct: .deviceRestart)

    // MARK: visibility
    case .visibilityHomeFirstPage:
      return D.share(
        \.visibility.homeFirstPage, "home_first_page", doc: "Share of Home Screen views.", source: "assumed")
    case .visibilityHomeOtherPage:
      return D.share(
        \.visibility.homeOtherPage, "home_other_page", doc: "Share of Home Screen views.",
        source: "A (rarely seen), value assumed")
    case .visibilitySmartStack:
      return D.share(
        \.visibility.smartStack, "smart_stack", doc: "Share of Home Screen views (the widget is on top of its stack).",
        source: "assumed")
    case .visibilityLockScreen:
      return D.share(\.visibility.lockScreen, "lock_screen", doc: "Share of Lock Screen views.", source: "assumed")
    case .visibilityWatchComplication:
      return D.share(
        \.visibility.watchComplication, "watch_complication",
        doc: "Share of the watch face's views (a complication on the active face is seen at every wrist raise) "
          + "(docs/model.md#watch-complications).",
        source: "F (Solstice: \"always considered viewed\"), value assumed", anchor: "watch-complications",
        placement: .watchComplication)
    case .visibilityStandby:
      return D.share(
        \.visibility.standby, "standby", doc: "Share of the StandBy views (docs/model.md#standby).",
        source: "assumed", anchor: "standby", placement: .standby)

    // MARK: silent_push
    case .silentPushRatePerHour:
      return D.number(
        \.silentPush.ratePerHour, .silentPush, "rate_per_hour", min: 0, max: 3600, exclusiveMin: true,
        unit: "per hour",
        doc: "Sustained deliveries per hour per device (Apple: \"no more than two or three per hour\").",
        source: "A, T", anchor: "silent-push-throttle", .silentPushThrottle)
    case .silentPushBurst:
      return D.number(
        \.silentPush.burst, .silentPush, "burst", min: 1, max: 100,
        doc: "Deliveries possible back to back before throttling.",
        source: "assumed", anchor: "silent-push-throttle", .silentPushThrottle)
    case .silentPushHoldNewestOnly:
      return D.flag(
        \.silentPush.holdNewestOnly, .silentPush, "hold_newest_only",
        doc: "Pushes over the limit are held and only the newest held push survives.",
        source: "A", anchor: "silent-push-throttle", .silentPushThrottle)
    case .silentPushDeliveryDelay:
      return D.distribution(
        \.silentPush.deliveryDelay, .silentPush, "delivery_delay", named: [],
        doc: "Delay between send and delivery.",
        source: "assumed", anchor: "silent-push-delivery", .silentPushThrottle)
    case .silentPushLowPower:
      return D.choice(
        \.silentPush.lowPower, .silentPush, "low_power",
        doc: "In Low Power Mode pushes are `hold`-en until it ends, or `drop`-ped.",
        source: "T (suppressed), rule assumed", anchor: "silent-push-low-power", .silentPushThrottle)

    // MARK: background_refresh
    case .backgroundRefreshMedianDelay:
      return D.duration(
        \.backgroundRefresh.medianDelay, .backgroundRefresh, "median_delay_min", in: .minutes, min: 0,
        exclusiveMin: true,
        doc: "Median delay after the earliest-begin date, for an app used `reference_sessions_per_day` times a day "
          + "(\"can be many hours\").",
        source: "A, M", anchor: "background-refresh-delay", .backgroundRefreshDelay)
    case .backgroundRefreshSigma:
      return D.number(
        \.backgroundRefresh.sigma, .backgroundRefresh, "sigma", min: 0, max: 5,
        doc: "Log-standard-deviation of the delay.",
        source: "assumed", anchor: "background-refresh-delay", .backgroundRefreshDelay)
    case .backgroundRefreshReferenceSessionsPerDay:
      return D.number(
        \.backgroundRefresh.referenceSessionsPerDay, .backgroundRefresh, "reference_sessions_per_day", min: 0,
        exclusiveMin: true, unit: "per day", doc: "App sessions per day at which the median applies.",
        source: "assumed", anchor: "background-refresh-delay", .backgroundRefreshDelay)
    case .backgroundRefreshUsageElasticity:
      return D.number(
        \.backgroundRefresh.usageElasticity, .backgroundRefresh, "usage_elasticity", min: 0, max: 5,
        doc: "The delay scales as (reference / sessions per day)^elasticity: rarely used apps wait longer.",
        source: "T (follows usage), value assumed", anchor: "background-refresh-delay", .backgroundRefreshDelay)
    case .backgroundRefreshFollowUsage:
      return D.flag(
        \.backgroundRefresh.followUsage, .backgroundRefresh, "follow_usage",
        doc: "Runs due while the user sleeps move to the wake-up hour.",
        source: "T", anchor: "background-refresh-delay", .backgroundRefreshDelay)

    // MARK: widget_push
    case .widgetPushRatePerHour:
      return D.number(
        \.widgetPush.ratePerHour, .widgetPush, "rate_per_hour", min: 0, max: 3600, exclusiveMin: true,
        unit: "per hour", doc: "Accepted pushes per hour per widget kind on a device (folklore: about 5).",
        source: "F", anchor: "widget-push", .widgetPushBudget)
    case .widgetPushBurst:
      return D.number(
        \.widgetPush.burst, .widgetPush, "burst", min: 1, max: 100, doc: "Pushes accepted back to back.",
        source: "F", anchor: "widget-push", .widgetPushBudget)
    case .widgetPushSharesTimelineBudget:
      return D.flag(
        \.widgetPush.sharesTimelineBudget, .widgetPush, "shares_timeline_budget",
        doc: "A WidgetKit-push reload also spends the timeline budget.",
        source: "A (budgeted), rule assumed", anchor: "widget-push", .widgetPushBudget)

    // MARK: app_reload
    case .appReloadEnterBackground:
      return D.choice(
        \.appReload.enterBackground, .appReload, "enter_background",
        doc: "A call made in `didEnterBackground`: `budgeted` (the app is no longer active) or `free` (as in the "
          + "foreground).",
        source: "assumed", anchor: "app-triggers", .appReloadCalls)
    case .appReloadBurst:
      return D.choice(
        \.appReload.burst, .appReload, "burst",
        doc: "Several calls for one kind in a row: `each` is a reload request (the minimum interval still applies), "
          + "or they ride on the `one` made first within `burst_window_s`.",
        source: "M (each call runs getTimeline), rule assumed", anchor: "app-triggers", .appReloadCalls)
    case .appReloadBurstWindow:
      return D.duration(
        \.appReload.burstWindow, .appReload, "burst_window_s", in: .seconds, min: 0,
        doc: "For `burst: one`: calls within this long of the first ride on it.",
        source: nil, anchor: "app-triggers", .appReloadCalls)
    case .appReloadBackgroundLatency:
      return D.distribution(
        \.appReload.backgroundLatency, .appReload, "background_latency", named: [],
        doc: "From a budgeted (background) `reloadTimelines` call to the reload; the budget is checked when it "
          + "runs. Measured: seconds to a minute or two (docs/model.md#background-latency).",
        source: "M (WordPress-iOS PR #21535: 27 s, 26 s, 2 s; Home Assistant #3520: 1-2 min)",
        anchor: "background-latency", .backgroundLatency)
    case .appReloadWhileAsleep:
      return D.choice(
        \.appReload.whileAsleep, .appReload, "while_asleep",
        doc: "A budgeted (background) call while the user sleeps: `spend` reloads at once; `defer_to_wake` waits for "
          + "the wake-up hour like policy reloads (docs/model.md#background-while-asleep).",
        source: "A (the budget follows when the widget is seen), rule assumed", anchor: "background-while-asleep",
        .backgroundWhileAsleep)

    // MARK: wake_sources
    case .locationWakeStoppedByForceQuit:
      return D.wakeStop(\.wakeSources.location.stoppedByForceQuit, .location, .forceQuit)
    case .locationWakeStoppedByLowPowerMode:
      return D.wakeStop(\.wakeSources.location.stoppedByLowPowerMode, .location, .lowPowerMode)
    case .locationWakeStoppedByBackgroundRefreshOff:
      return D.wakeStop(\.wakeSources.location.stoppedByBackgroundRefreshOff, .location, .backgroundRefreshOff)
    case .accessoryWakeStoppedByForceQuit:
      return D.wakeStop(\.wakeSources.accessory.stoppedByForceQuit, .accessory, .forceQuit)
    case .accessoryWakeStoppedByLowPowerMode:
      return D.wakeStop(\.wakeSources.accessory.stoppedByLowPowerMode, .accessory, .lowPowerMode)
    case .accessoryWakeStoppedByBackgroundRefreshOff:
      return D.wakeStop(\.wakeSources.accessory.stoppedByBackgroundRefreshOff, .accessory, .backgroundRefreshOff)
    case .networkExtensionWakeStoppedByForceQuit:
      return D.wakeStop(\.wakeSources.networkExtension.stoppedByForceQuit, .networkExtension, .forceQuit)
    case .networkExtensionWakeStoppedByLowPowerMode:
      return D.wakeStop(\.wakeSources.networkExtension.stoppedByLowPowerMode, .networkExtension, .lowPowerMode)
    case .networkExtensionWakeStoppedByBackgroundRefreshOff:
      return D.wakeStop(
        \.wakeSources.networkExtension.stoppedByBackgroundRefreshOff, .networkExtension, .backgroundRefreshOff)
    case .audioWakeStoppedByForceQuit:
      return D.wakeStop(\.wakeSources.audio.stoppedByForceQuit, .audio, .forceQuit)
    case .audioWakeStoppedByLowPowerMode:
      return D.wakeStop(\.wakeSources.audio.stoppedByLowPowerMode, .audio, .lowPowerMode)
    case .audioWakeStoppedByBackgroundRefreshOff:
      return D.wakeStop(\.wakeSources.audio.stoppedByBackgroundRefreshOff, .audio, .backgroundRefreshOff)

    // MARK: activity
    case .activityPushBudgetPerHour:
      return D.number(
        \.activity.pushBudgetPerHour, .activity, "push_budget_per_hour", min: 0, max: 3600, exclusiveMin: true,
        unit: "per hour",
        doc: "Priority-10 Live Activity update pushes per hour that an app's activities get on a device (the seeds: "
          + "about 10-12 an hour) (docs/model.md#activity-push-budget).",
        source: "S, F", anchor: "activity-push-budget", .activityPushBudget
      ).scoped(to: .liveActivities)
    case .activityPushBurst:
      return D.number(
        \.activity.pushBurst, .activity, "push_burst", min: 1, max: 1000,
        doc: "Priority-10 pushes accepted back to back before the hourly rate holds them back.", source: "assumed",
        anchor: "activity-push-budget", .activityPushBudget
      ).scoped(to: .liveActivities)
    case .activityFrequentPushBudgetPerHour:
      return D.number(
        \.activity.frequentPushBudgetPerHour, .activity, "frequent_push_budget_per_hour", min: 0, max: 3600,
        exclusiveMin: true, unit: "per hour",
        doc: "The budget of an app with `NSSupportsLiveActivitiesFrequentUpdates` (Apple: a higher budget, no figure).",
        source: "A (higher), figure assumed", anchor: "activity-push-budget", .activityPushBudget
      ).scoped(to: .liveActivities)
    case .activityOverBudget:
      return D.choice(
        \.activity.overBudget, .activity, "over_budget",
        doc: "A priority-10 push beyond the budget: `drop` (not delivered) or `hold_newest` (held, a newer one for "
          + "the same activity replacing it, and delivered when the budget has room).",
        source: "assumed", anchor: "activity-push-budget", .activityPushBudget, construct: .liveActivities)
    case .activityLowPriorityDelay:
      return D.distribution(
        \.activity.lowPriorityDelay, .activity, "low_priority_delay", named: [],
        doc: "How late a priority-5 push (not budgeted) arrives (Apple: delivered opportunistically).",
        source: "A (may be delayed), figure assumed", anchor: "activity-push-budget", .activityPushBudget
      ).scoped(to: .liveActivities)
    case .activityMinUpdateInterval:
      return D.duration(
        \.activity.minUpdateInterval, .activity, "min_update_interval_s", in: .seconds, min: 0, max: 3600,
        doc: "Updates shown closer together than this are merged: the later one shows at the end of the interval "
          + "(the seeds: too-frequent updates are dropped or merged) (docs/model.md#activity-updates).",
        source: "S (merged), figure assumed", anchor: "activity-updates", .activityPushBudget
      ).scoped(to: .liveActivities)
    case .activityDynamicIslandViewsShare:
      return D.number(
        \.activity.dynamicIslandViewsShare, .activity, "dynamic_island_views_share", min: 0, max: 1,
        doc: "Share of the Home Screen's views (the phone in use) that look at the Dynamic Island while an activity "
          + "is active; the Lock Screen's views all see it (docs/model.md#activity-glances).",
        source: "assumed", anchor: "activity-glances", .activityPushBudget
      ).scoped(to: .liveActivities)
    case .activityMaxConcurrent:
      return D.integer(
        \.activity.maxConcurrent, .activity, "max_concurrent", min: 1, max: 100, unit: nil,
        doc: "Activities one app may have active at once on a device; a start beyond it fails.",
        source: "A (a limit exists), figure assumed", anchor: "activity-lifecycle", .activityPushBudget
      ).scoped(to: .liveActivities)
    case .activityPushToStartBurst:
      return D.number(
        \.activity.pushToStartBurst, .activity, "push_to_start_burst", min: 1, max: 1000,
        doc: "Push-to-start pushes a device accepts back to back; one beyond its push-to-start budget starts no "
          + "activity (Apple DTS: about 10, fixed) (docs/model.md#activity-lifecycle).",
        source: "F (Apple DTS)", anchor: "activity-lifecycle", .activityPushBudget
      ).scoped(to: .liveActivities)
    case .activityPushToStartPerHour:
      return D.number(
        \.activity.pushToStartPerHour, .activity, "push_to_start_per_hour", min: 0, max: 3600, exclusiveMin: true,
        unit: "per hour",
        doc: "Push-to-start pushes per hour the push-to-start budget regains (Apple DTS: not in a short time frame; "
          + "no figure).",
        source: "assumed", anchor: "activity-lifecycle", .activityPushBudget
      ).scoped(to: .liveActivities)
    case .activityLowPowerLowPriority:
      return D.choice(
        \.activity.lowPowerLowPriority, .activity, "low_power_low_priority",
        doc: "A priority-5 push in Low Power Mode: `held` until Low Power Mode ends (APNs: priority 5 is sent "
          + "\"based on power considerations\"), or `delivered` as at any other time.",
        source: "A (power considerations), the rule assumed", anchor: "activity-push-budget", .activityPushBudget,
        construct: .liveActivities)
    case .activityAlertCountsAsGlance:
      return D.flag(
        \.activity.alertCountsAsGlance, .activity, "alert_counts_as_glance",
        doc: "An alert update shown lights the screen with the expanded presentation: a glance at the activity "
          + "(Apple: it lights the screen, not that the user looks) (docs/model.md#activity-alerts).",
        source: "A (lights the screen), the glance assumed", anchor: "activity-alerts", .activityPushBudget
      ).scoped(to: .liveActivities)
    case .activityChannelBudgeted:
      return D.flag(
        \.activity.channelBudgeted, .activity, "channel_budgeted",
        doc: "A broadcast (channel) update spends the device's priority-10 budget as a token push does (Apple does "
          + "not say) (docs/model.md#activity-fleet-push).",
        source: "assumed", anchor: "activity-fleet-push", .activityPushBudget
      ).scoped(to: .liveActivities)
    }
  }
}

extension ModelParameterDeclaration {
  /// The declaration, listed in reports only when a scenario uses `construct`.
  func scoped(to construct: StrategyConstruct) -> Self {
    var d = self
    d.construct = construct
    return d
  }
}

// MARK: - The shapes of declaration

extension ModelParameterDeclaration {
  typealias Path<Value> = WritableKeyPath<ModelParameters, Value> & Sendable

  /// The unit a duration is written in.
  enum DurationUnit {
    case seconds, minutes

    var name: String { self == .seconds ? "seconds" : "minutes" }
    func number(_ d: SimDuration) -> Double { self == .seconds ? d.seconds : d.minutes }
    func duration(_ x: Double) -> SimDuration { self == .seconds ? .seconds(x) : .minutes(x) }
  }

  static func choice<E: RawRepresentable & CaseIterable & Sendable>(
    _ path: Path<E>, _ group: ModelParameterGroup, _ key: String, doc: String, source: String?, anchor: String,
    _ assumption: Assumption, construct: StrategyConstruct? = nil
  ) -> Self where E.RawValue == String {
    Self(
      group: group, key: key, kind: .choice(E.allCases.map(\.rawValue)), unit: nil, doc: doc, source: source,
      anchor: anchor, placement: nil, construct: construct, assumption: assumption,
      read: { .choice($0[keyPath: path].rawValue) },
      write: { model, value in
        guard case .choice(let s) = value, let e = E(rawValue: s) else { return false }
        model[keyPath: path] = e
        return true
      })
  }

  static func integer(
    _ path: Path<Int>, _ group: ModelParameterGroup, _ key: String, min: Double, max: Double, unit: String?,
    doc: String, source: String?, anchor: String, _ assumption: Assumption
  ) -> Self {
    Self(
      group: group, key: key, kind: .integer(min: min, max: max), unit: unit, doc: doc, source: source,
      anchor: anchor, placement: nil, construct: nil, assumption: assumption,
      read: { .number(Double($0[keyPath: path])) },
      write: { model, value in
        guard case .number(let x) = value else { return false }
        model[keyPath: path] = Int(x)
        return true
      })
  }

  static func optionalInteger(
    _ path: Path<Int?>, _ group: ModelParameterGroup, _ key: String, min: Double, max: Double, unit: String?,
    doc: String, source: String?, anchor: String, _ assumption: Assumption, placement: Placement?
  ) -> Self {
    Self(
      group: group, key: key, kind: .optionalInteger(min: min, max: max), unit: unit, doc: doc, source: source,
      anchor: anchor, placement: placement, construct: nil, assumption: assumption,
      read: { model in model[keyPath: path].map { .number(Double($0)) } ?? .null },
      write: { model, value in
        switch value {
        case .number(let x): model[keyPath: path] = Int(x)
        case .null: model[keyPath: path] = nil
        default: return false
        }
        return true
      })
  }

  static func number(
    _ path: Path<Double>, _ group: ModelParameterGroup, _ key: String, min: Double, max: Double? = nil,
    exclusiveMin: Bool = false, unit: String? = nil, doc: String, source: String?, anchor: String,
    _ assumption: Assumption, placement: Placement? = nil
  ) -> Self {
    Self(
      group: group, key: key, kind: .number(min: min, max: max, exclusiveMin: exclusiveMin), unit: unit, doc: doc,
      source: source, anchor: anchor, placement: placement, construct: nil, assumption: assumption,
      read: { .number($0[keyPath: path]) },
      write: { model, value in
        guard case .number(let x) = value else { return false }
        model[keyPath: path] = x
        return true
      })
  }

  /// A share of a surface's views (`model.visibility`, docs/model.md#visibility).
  static func share(
    _ path: Path<Double>, _ key: String, doc: String, source: String, anchor: String = "visibility",
    placement: Placement? = nil
  ) -> Self {
    number(
      path, .visibility, key, min: 0, max: 1, doc: doc, source: source, anchor: anchor, .budgetSize,
      placement: placement)
  }

  static func duration(
    _ path: Path<SimDuration>, _ group: ModelParameterGroup, _ key: String, in unit: DurationUnit, min: Double,
    max: Double? = nil, exclusiveMin: Bool = false, doc: String, source: String?, anchor: String,
    _ assumption: Assumption
  ) -> Self {
    Self(
      group: group, key: key, kind: .number(min: min, max: max, exclusiveMin: exclusiveMin), unit: unit.name,
      doc: doc, source: source, anchor: anchor, placement: nil, construct: nil, assumption: assumption,
      read: { .number(unit.number($0[keyPath: path])) },
      write: { model, value in
        guard case .number(let x) = value else { return false }
        model[keyPath: path] = unit.duration(x)
        return true
      })
  }

  static func optionalDuration(
    _ path: Path<SimDuration?>, _ group: ModelParameterGroup, _ key: String, in unit: DurationUnit, min: Double,
    doc: String, source: String?, anchor: String, _ assumption: Assumption
  ) -> Self {
    Self(
      group: group, key: key, kind: .optionalNumber(min: min, max: nil), unit: unit.name, doc: doc, source: source,
      anchor: anchor, placement: nil, construct: nil, assumption: assumption,
      read: { model in model[keyPath: path].map { .number(unit.number($0)) } ?? .null },
      write: { model, value in
        switch value {
        case .number(let x): model[keyPath: path] = unit.duration(x)
        case .null: model[keyPath: path] = nil
        default: return false
        }
        return true
      })
  }

  static func flag(
    _ path: Path<Bool>, _ group: ModelParameterGroup, _ key: String, doc: String, source: String?,
    anchor: String, _ assumption: Assumption
  ) -> Self {
    Self(
      group: group, key: key, kind: .flag, unit: nil, doc: doc, source: source, anchor: anchor, placement: nil,
      construct: nil, assumption: assumption,
      read: { .flag($0[keyPath: path]) },
      write: { model, value in
        guard case .flag(let b) = value else { return false }
        model[keyPath: path] = b
        return true
      })
  }

  static func distribution(
    _ path: Path<DurationDistribution>, _ group: ModelParameterGroup, _ key: String, named: [NamedDistribution],
    doc: String, source: String?, anchor: String, _ assumption: Assumption
  ) -> Self {
    Self(
      group: group, key: key, kind: .distribution(named: named), unit: nil, doc: doc, source: source,
      anchor: anchor, placement: nil, construct: nil, assumption: assumption,
      read: { .distribution($0[keyPath: path]) },
      write: { model, value in
        guard case .distribution(let d) = value else { return false }
        model[keyPath: path] = d
        return true
      })
  }

  /// What stops a wake source (docs/model.md#wake-sources).
  public enum WakeStop: CaseIterable, Sendable {
    case forceQuit, lowPowerMode, backgroundRefreshOff
  }

  static func wakeStop(_ path: Path<Bool>, _ type: WakeSource.SourceType, _ stop: WakeStop) -> Self {
    let group: ModelParameterGroup
    switch type {
    case .location: group = .locationWakes
    case .accessory: group = .accessoryWakes
    case .networkExtension: group = .networkExtensionWakes
    case .audio: group = .audioWakes
    }
    let key: String
    let doc: String
    switch stop {
    case .forceQuit: (key, doc) = ("stopped_by_force_quit", "No wakes after a force-quit until the next launch.")
    case .lowPowerMode: (key, doc) = ("stopped_by_low_power_mode", "No wakes while Low Power Mode is on.")
    case .backgroundRefreshOff:
      (key, doc) = ("stopped_by_background_refresh_off", "No wakes with Background App Refresh off.")
    }
    return flag(path, group, key, doc: doc, source: "assumed", anchor: "wake-sources", .wakeSources)
  }
}
