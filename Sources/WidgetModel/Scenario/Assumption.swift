import ReloadEngine

/// The twenty rules the simulator must assume where Apple documents
/// nothing or the sources disagree (docs/model.md#assumptions), each with
/// its parameters (from the catalogue: a parameter names its assumption)
/// and its named alternatives: the other readings the sources allow, each a
/// `ModelPatch` to run beside the default.
///
///     for a in Assumption.allCases {
///       for alt in a.alternatives { run(alt.patch.applied(to: scenario.model)) }
///     }
///
/// Adding an alternative: its entry in `alternatives` below, the code that
/// implements it if it is a new choice (an enum case in `ModelParameters`
/// and its owner in `Simulation/`), and its reading in `docs/model.md`;
/// `reloadbench schema` then regenerates the assumption table.
public enum Assumption: Int, CaseIterable, Sendable, Hashable {
  case budgetAccrual = 1
  case budgetSize
  case minInterval
  case whenEmpty
  case lateness
  case backgroundRefreshDelay
  case silentPushThrottle
  case widgetPushBudget
  case learningPeriod
  case appReloadCalls
  case wakeSources
  case frozenWidgets
  case asapReloads
  case latenessPressure
  case backgroundLatency
  case backgroundWhileAsleep
  case noCompletion
  case futureFirstEntry
  case deviceRestart
  case activityPushBudget

  /// Its number in docs/model.md (1-20).
  public var number: Int { rawValue }

  /// The parameters that state it, in the catalogue's order.
  public var parameters: [ModelParameter] { ModelParameter.allCases.filter { $0.declaration.assumption == self } }

  /// The docs/model.md anchors of its rules, in the order its parameters
  /// cite them.
  public var anchors: [String] {
    var out: [String] = []
    for p in parameters where !out.contains(p.declaration.anchor) { out.append(p.declaration.anchor) }
    return out
  }

  /// What is assumed, in a line.
  public var summary: String {
    switch self {
    case .budgetAccrual: return "how the budget accrues: sliding 24 h window or token bucket"
    case .budgetSize:
      return "budget as a function of daily views and placement (a watch complication's own budget); "
        + "Low Power Mode multiplier"
    case .minInterval: return "the minimum interval between two reloads of one widget"
    case .whenEmpty: return "a request with no budget: withheld until budget returns, or dropped"
    case .lateness: return "lateness of policy reloads"
    case .backgroundRefreshDelay: return "BGAppRefresh launch delay as a function of app usage"
    case .silentPushThrottle: return "silent-push throttle: rate, burst, hold newest only"
    case .widgetPushBudget: return "WidgetKit push budget, and whether it shares the timeline budget"
    case .learningPeriod: return "a learning period with extra reloads (off by default)"
    case .appReloadCalls: return "a reload call inside `didEnterBackground`; what a burst of calls costs"
    case .wakeSources: return "what stops each wake source (force-quit, Low Power Mode, Background App Refresh off)"
    case .frozenWidgets: return "how old a refused widget's last reload must be before it counts as frozen"
    case .asapReloads: return "a policy request due at once: made at once, or paced by the budget"
    case .latenessPressure: return "whether lateness grows with the budget spent"
    case .backgroundLatency: return "the latency of a background `reloadTimelines` call"
    case .backgroundWhileAsleep: return "budgeted app calls while the user sleeps: spent, or deferred to waking"
    case .noCompletion:
      return "what WidgetKit asks next after a provider never called its completion handler"
    case .futureFirstEntry:
      return "what a widget shows before its new timeline's first entry, dated after the reload"
    case .deviceRestart:
      return "when WidgetKit asks for timelines after a device restart, and whether data can be read then"
    case .activityPushBudget:
      return "how ActivityKit treats a Live Activity's pushes and updates: the priority-10 budget, priority 5's "
        + "delay and Low Power Mode, merged updates, the push-to-start budget, whether an alert is seen, whether "
        + "broadcasts are budgeted"
    }
  }

  /// The readings the sources allow besides the default, each as the
  /// parameters it changes (the default itself is `ModelParameters.standard`).
  public var alternatives: [ModelAlternative] {
    typealias A = ModelAlternative
    switch self {
    case .budgetAccrual:
      return [
        A(
          "sliding_window",
          "at most B budgeted reloads in any 24 h; a spent budget freezes the widget until the "
            + "oldest reload is 24 h old", source: "seeds 000, 004 (a sliding budget)",
          [
            (.budgetAccrual, .choice(BudgetParameters.Accrual.slidingWindow.rawValue))
          ]),
        A(
          "small_bucket", "a token bucket that holds a tenth of B", source: "assumed",
          [(.budgetTokenBucketBurstFraction, .number(0.1))]),
        A(
          "large_bucket", "a token bucket that holds half of B", source: "assumed",
          [(.budgetTokenBucketBurstFraction, .number(0.5))]),
      ]
    case .budgetSize:
      return [
        A(
          "budget_40", "B = 40, the low end of Apple's range", source: "A (40-70 a day)",
          [(.budgetMaxPerDay, .number(40))]),
        A(
          "budget_72", "B = 72, as an Apple engineer put it", source: "S (about 72 a day)",
          [(.budgetMaxPerDay, .number(72))]),
        A(
          "views_ignored", "every widget gets the full budget whatever its views",
          source: "seeds 000, 004 (40-70 a day, no curve)", [(.budgetFullBudgetViewsPerDay, .number(0))]),
        A(
          "low_power_ignored", "Low Power Mode does not shrink the budget", source: "assumed (not documented)",
          [(.budgetLowPowerMultiplier, .number(1))]),
      ]
    case .minInterval:
      return [
        A(
          "none", "no minimum between reloads; only the budget holds them back", source: "assumed",
          [(.budgetMinInterval, .number(0))]),
        A(
          "five_minutes", "at least 5 minutes between reloads, as Apple asks of timeline entries",
          source: "A (entries about 5 minutes apart)", [(.budgetMinInterval, .number(300))]),
      ]
    case .whenEmpty:
      return [
        A(
          "drop", "a request with no budget left is discarded", source: "assumed",
          [(.budgetWhenEmpty, .choice(BudgetParameters.WhenEmpty.drop.rawValue))])
      ]
    case .lateness:
      return [
        A(
          "realistic", "policy reloads usually 1-2 h late, sometimes up to 15 min early",
          source: "M (developers' measurements)",
          [(.reloadLateness, .distribution(ReloadTiming.realisticLateness))]),
        A(
          "night_like_day", "policy reloads due at night run at night", source: "assumed",
          [(.reloadWhileAsleep, .choice(ReloadTiming.WhileAsleep.run.rawValue))]),
      ]
    case .backgroundRefreshDelay:
      return [
        A(
          "prompt", "a median delay of 10 minutes", source: "assumed",
          [(.backgroundRefreshMedianDelay, .number(10))]),
        A(
          "hours", "a median delay of 4 hours", source: "A (\"can be many hours\"), M",
          [(.backgroundRefreshMedianDelay, .number(240))]),
        A(
          "usage_blind", "the delay does not depend on how often the app is used", source: "assumed",
          [(.backgroundRefreshUsageElasticity, .number(0))]),
      ]
    case .silentPushThrottle:
      return [
        A(
          "two_per_hour", "two deliveries an hour", source: "A (\"two or three per hour\")",
          [(.silentPushRatePerHour, .number(2))]),
        A(
          "dropped_in_low_power", "pushes in Low Power Mode are discarded", source: "T (suppressed), assumed",
          [(.silentPushLowPower, .choice(SilentPushParameters.LowPower.drop.rawValue))]),
      ]
    case .widgetPushBudget:
      return [
        A(
          "shares_timeline_budget", "a WidgetKit-push reload also spends the timeline budget",
          source: "A (budgeted)", [(.widgetPushSharesTimelineBudget, .flag(true))]),
        A(
          "rate_halved", "half the folklore's rate: 2.5 pushes an hour", source: "assumed (unpublished size)",
          [(.widgetPushRatePerHour, .number(2.5))]),
        A(
          "rate_doubled", "twice the folklore's rate: 10 pushes an hour", source: "assumed (unpublished size)",
          [(.widgetPushRatePerHour, .number(10))]),
      ]
    case .learningPeriod:
      return [
        A(
          "three_days", "1.5 times the budget for the first 3 days after install", source: "F",
          [(.budgetLearningDays, .number(3))])
      ]
    case .appReloadCalls:
      return [
        A(
          "enter_background_free", "a call in `didEnterBackground` is free, as in the foreground",
          source: "assumed", [(.appReloadEnterBackground, .choice(AppReloadParameters.EnterBackground.free.rawValue))]),
        A(
          "burst_one", "calls for a kind within 5 s of an earlier one ride on it", source: "assumed",
          [(.appReloadBurst, .choice(AppReloadParameters.Burst.one.rawValue))]),
      ]
    case .wakeSources:
      return [
        A(
          "low_power_stops_all", "Low Power Mode stops every wake source",
          source: "T (Low Power Mode suppresses discretionary background work)",
          Self.stopsAll(.lowPowerMode)),
        A(
          "refresh_off_stops_all", "Background App Refresh off stops every wake source", source: "assumed",
          Self.stopsAll(.backgroundRefreshOff)),
      ]
    case .frozenWidgets:
      return [
        A(
          "fifteen_minutes", "frozen 15 minutes after the last reload, whatever the content's tolerance",
          source: "A (15-60 min between reloads)", [(.budgetFrozenAfter, .number(15))]),
        A(
          "an_hour", "frozen an hour after the last reload, whatever the content's tolerance",
          source: "A (15-60 min between reloads)", [(.budgetFrozenAfter, .number(60))]),
      ]
    case .asapReloads:
      return [
        A(
          "immediate", "a request due at once is made at once; only the minimum interval and the budget hold it",
          source: "seed 000 (\"ask immediately\")",
          [(.reloadAsap, .choice(ReloadTiming.Asap.immediate.rawValue))])
      ]
    case .latenessPressure:
      return [
        A(
          "none", "every policy reload draws the full lateness", source: "assumed",
          [(.reloadLatenessPressure, .choice(ReloadTiming.LatenessPressure.none.rawValue))])
      ]
    case .backgroundLatency:
      return [
        A(
          "at_once", "a background call reloads at once", source: "assumed",
          [(.appReloadBackgroundLatency, .distribution(.constant(.zero)))]),
        A(
          "two_minutes", "every background call takes 2 minutes", source: "M (Home Assistant #3520: 1-2 min)",
          [(.appReloadBackgroundLatency, .distribution(.constant(.seconds(120))))]),
      ]
    case .backgroundWhileAsleep:
      return [
        A(
          "spend", "a background call at night reloads and spends budget at once", source: "assumed",
          [(.appReloadWhileAsleep, .choice(AppReloadParameters.WhileAsleep.spend.rawValue))])
      ]
    case .noCompletion:
      return [
        A(
          "never", "nothing is asked again until the app or the system reloads the widget", source: "assumed",
          [(.reloadNoCompletion, .choice(ReloadTiming.NoCompletion.never.rawValue))])
      ]
    case .futureFirstEntry:
      return [
        A(
          "shown_at_once", "the new data shows from the reload on, before its entry's date", source: "assumed",
          [(.reloadFutureFirstEntry, .choice(ReloadTiming.FutureFirstEntry.shownAtOnce.rawValue))])
      ]
    case .deviceRestart:
      return [
        A(
          "after_first_unlock", "the timelines asked for at a restart can read their data", source: "assumed",
          [(.reloadAtRestart, .choice(ReloadTiming.AtRestart.afterFirstUnlock.rawValue))]),
        A(
          "no_restart_reload", "a restart reloads nothing; the old timelines stay", source: "assumed",
          [(.reloadAtRestart, .choice(ReloadTiming.AtRestart.none.rawValue))]),
      ]
    case .activityPushBudget:
      return [
        A(
          "twelve_an_hour", "12 priority-10 pushes an hour, the top of the seeds' range", source: "S",
          [(.activityPushBudgetPerHour, .number(12))]),
        A(
          "over_budget_held", "a priority-10 push beyond the budget is held (the newest) until the budget has room",
          source: "F (a forum report: refreshes every 30-60 s)",
          [(.activityOverBudget, .choice(ActivityParameters.OverBudget.holdNewest.rawValue))]),
        A(
          "slow_low_priority", "a priority-5 push arrives about 10 minutes late", source: "assumed",
          [(.activityLowPriorityDelay, .distribution(.logNormal(median: .minutes(10), sigma: 1)))]),
        A(
          "push_to_start_slow", "the push-to-start budget regains 2 starts an hour, not 10", source: "assumed",
          [(.activityPushToStartPerHour, .number(2))]),
        A(
          "low_power_delivers_low_priority", "Low Power Mode does not hold priority-5 pushes back",
          source: "assumed",
          [(.activityLowPowerLowPriority, .choice(ActivityParameters.LowPowerLowPriority.delivered.rawValue))]),
        A(
          "alerts_unseen", "an alert update lights the screen but nobody looks", source: "assumed",
          [(.activityAlertCountsAsGlance, .flag(false))]),
        A(
          "channel_not_budgeted", "a broadcast update does not spend the device's push budget", source: "assumed",
          [(.activityChannelBudgeted, .flag(false))]),
      ]
    }
  }
}

extension Assumption {
  /// The settings that make `stop` stop every wake source type it does not
  /// stop by default.
  static func stopsAll(_ stop: ModelParameterDeclaration.WakeStop) -> [(ModelParameter, ParameterValue)] {
    WakeSource.SourceType.allCases.map { ModelParameter.wakeStop($0, stop) }
      .filter { $0.defaultValue != .flag(true) }.map { ($0, .flag(true)) }
  }
}

/// One reading of an assumption the sources allow (docs/model.md#assumptions).
public struct ModelAlternative: Sendable, Equatable {
  /// Unique within its assumption (`sliding_window`).
  public let name: String
  /// What the reading says.
  public let summary: String
  /// What it rests on: a source tag (docs/model.md#source-tags) and which source.
  public let source: String
  /// The parameters it changes.
  public let patch: ModelPatch

  init(_ name: String, _ summary: String, source: String, _ settings: [(ModelParameter, ParameterValue)]) {
    self.name = name
    self.summary = summary
    self.source = source
    self.patch = ModelPatch(settings)
  }
}

extension ModelParameter {
  /// The flag that says whether `stop` stops wake sources of `type`.
  public static func wakeStop(
    _ type: WakeSource.SourceType, _ stop: ModelParameterDeclaration.WakeStop
  ) -> ModelParameter {
    switch (type, stop) {
    case (.location, .forceQuit): return .locationWakeStoppedByForceQuit
    case (.location, .lowPowerMode): return .locationWakeStoppedByLowPowerMode
    case (.location, .backgroundRefreshOff): return .locationWakeStoppedByBackgroundRefreshOff
    case (.accessory, .forceQuit): return .accessoryWakeStoppedByForceQuit
    case (.accessory, .lowPowerMode): return .accessoryWakeStoppedByLowPowerMode
    case (.accessory, .backgroundRefreshOff): return .accessoryWakeStoppedByBackgroundRefreshOff
    case (.networkExtension, .forceQuit): return .networkExtensionWakeStoppedByForceQuit
    case (.networkExtension, .lowPowerMode): return .networkExtensionWakeStoppedByLowPowerMode
    case (.networkExtension, .backgroundRefreshOff): return .networkExtensionWakeStoppedByBackgroundRefreshOff
    case (.audio, .forceQuit): return .audioWakeStoppedByForceQuit
    case (.audio, .lowPowerMode): return .audioWakeStoppedByLowPowerMode
    case (.audio, .backgroundRefreshOff): return .audioWakeStoppedByBackgroundRefreshOff
    }
  }
}
