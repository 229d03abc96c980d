import ReloadEngine

/// The model's parameters: the catalogue, one declaration per parameter
/// (docs/model.md#assumptions).
///
/// Each case is a field of a scenario's `model` block, in the order the
/// format lists them; `declaration` gives its JSON key and group, type and
/// range, unit, documentation, source tag (docs/model.md#source-tags), the
/// `docs/model.md` anchor of its rule and the assumption it belongs to, and
/// reads and writes it in `ModelParameters`, in a `switch` the compiler
/// checks for completeness. The defaults are `ModelParameters.standard`'s
/// and exist nowhere else. The scenario decoder, the JSON Schema, the field
/// reference of `Scenarios/README.md`, the assumption table of
/// `docs/model.md`, sweeps and calibration all read this catalogue.
///
/// Adding a parameter: a field in `ModelParameters` (with its default), a
/// case here in the place the format should list it, its declaration in
/// `ModelParameter+Declarations.swift`, and its rule in `docs/model.md`;
/// then `reloadbench schema` regenerates the schema, the field reference
/// and the assumption table (a test fails until it does).
public enum ModelParameter: Int, CaseIterable, Sendable, Hashable {
  // budget
  case budgetAccrual
  case budgetMaxPerDay
  case budgetMinPerDay
  case budgetFullBudgetViewsPerDay
  case budgetViewsExponent
  case budgetTokenBucketBurstFraction
  case budgetLowPowerMultiplier
  case budgetMinInterval
  case budgetWhenEmpty
  case budgetFrozenAfter
  case budgetLearningDays
  case budgetLearningMultiplier
  case budgetWatchComplicationPerDay
  case budgetStandbyPerDay
  // reload
  case reloadLateness
  case reloadWhileAsleep
  case reloadFirstRequestSpread
  case reloadAsap
  case reloadLatenessPressure
  case reloadLatenessPressureExponent
  case reloadNoCompletion
  case reloadFutureFirstEntry
  case reloadAtRestart
  // visibility
  case visibilityHomeFirstPage
  case visibilityHomeOtherPage
  case visibilitySmartStack
  case visibilityLockScreen
  case visibilityWatchComplication
  case visibilityStandby
  // silent_push
  case silentPushRatePerHour
  case silentPushBurst
  case silentPushHoldNewestOnly
  case silentPushDeliveryDelay
  case silentPushLowPower
  // background_refresh
  case backgroundRefreshMedianDelay
  case backgroundRefreshSigma
  case backgroundRefreshReferenceSessionsPerDay
  case backgroundRefreshUsageElasticity
  case backgroundRefreshFollowUsage
  // widget_push
  case widgetPushRatePerHour
  case widgetPushBurst
  case widgetPushSharesTimelineBudget
  // app_reload
  case appReloadEnterBackground
  case appReloadBurst
  case appReloadBurstWindow
  case appReloadBackgroundLatency
  case appReloadWhileAsleep
  // wake_sources
  case locationWakeStoppedByForceQuit
  case locationWakeStoppedByLowPowerMode
  case locationWakeStoppedByBackgroundRefreshOff
  case accessoryWakeStoppedByForceQuit
  case accessoryWakeStoppedByLowPowerMode
  case accessoryWakeStoppedByBackgroundRefreshOff
  case networkExtensionWakeStoppedByForceQuit
  case networkExtensionWakeStoppedByLowPowerMode
  case networkExtensionWakeStoppedByBackgroundRefreshOff
  case audioWakeStoppedByForceQuit
  case audioWakeStoppedByLowPowerMode
  case audioWakeStoppedByBackgroundRefreshOff
  // activity
  case activityPushBudgetPerHour
  case activityPushBurst
  case activityFrequentPushBudgetPerHour
  case activityOverBudget
  case activityLowPriorityDelay
  case activityMinUpdateInterval
  case activityDynamicIslandViewsShare
  case activityMaxConcurrent
  case activityPushToStartBurst
  case activityPushToStartPerHour
  case activityLowPowerLowPriority
  case activityAlertCountsAsGlance
  case activityChannelBudgeted

  /// The parameter's declaration.
  public var declaration: ModelParameterDeclaration { Self.declarations[rawValue] }

  private static let declarations: [ModelParameterDeclaration] = allCases.map(\.declared)

  /// Its path in a scenario's `model` block: `budget.max_per_day`,
  /// `wake_sources.location.stopped_by_force_quit`.
  public var path: String { declaration.group.path + "." + declaration.key }

  /// Keys of earlier model versions and the parameter that replaced each
  /// (`budget.dry_after_min`, a wait before a widget counted as dry, became
  /// `budget.frozen_after_min` in model version 3; docs/model.md#frozen-widgets):
  /// an old file's key is answered with its replacement, not just refused.
  public static let retiredKeys: [String: ModelParameter] = ["dry_after_min": .budgetFrozenAfter]

  /// Its default: the value in `ModelParameters.standard`.
  public var defaultValue: ParameterValue { declaration.read(.standard) }

  /// The parameter at `path` (as `path` spells it), if any.
  public init?(path: String) {
    guard let p = Self.byPath[path] else { return nil }
    self = p
  }

  private static let byPath: [String: ModelParameter] = Dictionary(
    uniqueKeysWithValues: allCases.map { ($0.path, $0) })

  /// The parameters of `group`, in the format's order.
  public static func parameters(of group: ModelParameterGroup) -> [ModelParameter] {
    allCases.filter { $0.declaration.group == group }
  }

  /// Its value in `model`.
  public func value(in model: ModelParameters) -> ParameterValue { declaration.read(model) }

  /// Sets it to `value` in `model`; `false` (and `model` unchanged) when
  /// `value` is not of the parameter's kind or outside its range.
  @discardableResult
  public func set(_ value: ParameterValue, in model: inout ModelParameters) -> Bool {
    guard declaration.kind.clamped(value) == value else { return false }
    return declaration.write(&model, value)
  }
}

extension ModelParameter {
  /// A value of the parameter's kind other than its default, for the tests
  /// that check each declaration reads and writes its own field.
  package var otherValueForTesting: ParameterValue {
    let d = defaultValue
    switch declaration.kind {
    case .choice(let values): return values.first { .choice($0) != d }.map(ParameterValue.choice) ?? d
    case .flag:
      if case .flag(let b) = d { return .flag(!b) }
      return d
    case .integer(let lo, let hi), .optionalInteger(let lo, let hi):
      // A step from the default keeps cross-field rules (min_per_day <= max_per_day).
      guard case .number(let x) = d else { return .number(lo) }
      return .number(x + 1 <= hi ? x + 1 : x - 1)
    case .number(let lo, let hi, let exclusive):
      let top = hi ?? lo + 1000
      let candidate = exclusive ? (lo + top) / 2 : lo
      return d == .number(candidate) ? .number(top) : .number(candidate)
    case .optionalNumber(let lo, _): return d == .null ? .number(lo + 7) : .null
    case .distribution: return .distribution(.constant(.seconds(7)))
    }
  }
}

/// One declaration of the catalogue (see `ModelParameter`).
public struct ModelParameterDeclaration: Sendable {
  public let group: ModelParameterGroup
  /// The JSON key inside the group's object.
  public let key: String
  public let kind: ParameterKind
  /// The unit, spelled out ("seconds", "reloads per 24 h"), or nil for a
  /// plain number, a share or a multiplier.
  public let unit: String?
  /// What it means, for the field reference and the reports.
  public let doc: String
  /// Source tag (docs/model.md#source-tags) with what it rests on; nil
  /// for a detail of another parameter's rule.
  public let source: String?
  /// The anchor of its rule in docs/model.md (`budget-accrual`).
  public let anchor: String
  /// The placement it only matters to, if any (reports list it only when
  /// the scenario has such a widget or sets it).
  public let placement: Placement?
  /// The construct of the strategy language it only matters to, if any
  /// (reports list it only when a strategy uses it or the file sets it).
  public internal(set) var construct: StrategyConstruct?
  /// The assumption (docs/model.md#assumptions) it belongs to.
  public let assumption: Assumption
  let read: @Sendable (ModelParameters) -> ParameterValue
  let write: @Sendable (inout ModelParameters, ParameterValue) -> Bool
}

/// The objects of a scenario's `model` block, in the format's order.
public enum ModelParameterGroup: Int, CaseIterable, Sendable {
  case budget
  case reload
  case visibility
  case silentPush
  case backgroundRefresh
  case widgetPush
  case appReload
  case locationWakes
  case accessoryWakes
  case networkExtensionWakes
  case audioWakes
  case activity

  /// The key of the group's object in its parent.
  public var key: String {
    switch self {
    case .budget: return "budget"
    case .reload: return "reload"
    case .visibility: return "visibility"
    case .silentPush: return "silent_push"
    case .backgroundRefresh: return "background_refresh"
    case .widgetPush: return "widget_push"
    case .appReload: return "app_reload"
    case .locationWakes: return WakeSource.SourceType.location.rawValue
    case .accessoryWakes: return WakeSource.SourceType.accessory.rawValue
    case .networkExtensionWakes: return WakeSource.SourceType.networkExtension.rawValue
    case .audioWakes: return WakeSource.SourceType.audio.rawValue
    case .activity: return "activity"
    }
  }

  /// The object the group sits in inside `model`, if not `model` itself.
  public var parent: String? { wakeSource == nil ? nil : Self.wakeSourcesKey }

  /// `wake_sources`: the object of the four wake source rules.
  public static let wakeSourcesKey = "wake_sources"

  /// The wake source type whose rule the group holds, if it is one.
  public var wakeSource: WakeSource.SourceType? {
    switch self {
    case .locationWakes: return .location
    case .accessoryWakes: return .accessory
    case .networkExtensionWakes: return .networkExtension
    case .audioWakes: return .audio
    default: return nil
    }
  }

  /// Its path under `model`: `budget`, `wake_sources.location`.
  public var path: String { parent.map { "\($0).\(key)" } ?? key }

  /// The title of its object in the field reference.
  public var title: String {
    switch self {
    case .budget: return "Budget"
    case .reload: return "Reload timing"
    case .visibility: return "Visibility"
    case .silentPush: return "Silent push"
    case .backgroundRefresh: return "Background refresh"
    case .widgetPush: return "Widget push"
    case .appReload: return "App reload calls"
    case .locationWakes: return "Location wakes"
    case .accessoryWakes: return "Accessory wakes"
    case .networkExtensionWakes: return "Network Extension wakes"
    case .audioWakes: return "Audio wakes"
    case .activity: return "Live Activities"
    }
  }

  /// What the object holds.
  public var doc: String {
    switch self {
    case .budget: return "How the reload budget works (docs/model.md#budget-size to #learning-period)."
    case .reload: return "When policy reloads happen relative to when they are due (docs/model.md#lateness)."
    case .visibility:
      return "Share of the device's views each placement gets: a widget on another Home Screen page or deep in a "
        + "Smart Stack is rarely seen (Apple: rarely seen widgets get fewer reloads)."
    case .silentPush:
      return "How the system treats silent (background, priority 5) pushes (docs/model.md#silent-push-throttle)."
    case .backgroundRefresh:
      return "When the system runs a BGAppRefresh task (docs/model.md#background-refresh-delay). Never in Low Power "
        + "Mode, with Background App Refresh off, or after a force-quit until the next launch."
    case .widgetPush: return "The WidgetKit push budget (iOS 26; Apple publishes no size) (docs/model.md#widget-push)."
    case .appReload:
      return "What WidgetKit does with the app's own reload calls where Apple documents nothing "
        + "(docs/model.md#app-triggers)."
    case .locationWakes: return "Region monitoring and significant location changes."
    case .accessoryWakes: return "Bluetooth accessories, CGMs, HealthKit background delivery."
    case .networkExtensionWakes: return "A Network Extension runs in its own process."
    case .audioWakes: return "Audio and navigation sessions."
    case .activity:
      return "How ActivityKit treats a Live Activity's updates where Apple publishes no figure "
        + "(docs/model.md#live-activities); read only by a scenario's `live_activities`."
    }
  }

  /// One line for the group's key in its parent object.
  public var summary: String {
    switch self {
    case .budget: return "The reload budget."
    case .reload: return "Reload timing."
    case .visibility: return "Views per placement."
    case .silentPush: return "Silent push throttling."
    case .backgroundRefresh: return "BGAppRefresh scheduling."
    case .widgetPush: return "WidgetKit push budget."
    case .appReload: return "The app's own reload calls."
    case .locationWakes: return "Location wakes."
    case .accessoryWakes: return "Accessory and health readings."
    case .networkExtensionWakes: return "Network Extension status changes."
    case .audioWakes: return "Audio sessions."
    case .activity: return "Live Activity updates (ActivityKit)."
    }
  }
}
