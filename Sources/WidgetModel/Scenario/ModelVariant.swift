/// One way to read the model that a robustness run sets beside the
/// scenario's own (docs/model.md#assumptions): a named alternative of an
/// assumption, or a whole-model profile, each a `ModelPatch` laid over the
/// scenario's model.
///
///     for v in ModelVariant.all() {
///       let model = v.patch.applied(to: scenario.model)
///       // run the scenario with `model`, same seed, same users
///     }
///
/// The list is data: a profile is one more entry of `profiles`.
public struct ModelVariant: Sendable, Equatable {
  /// `budget_accrual = sliding_window`, or a profile's name.
  public let name: String
  /// The assumption it reads otherwise; nil for a whole-model profile.
  public let assumption: Assumption?
  /// The alternative's name within its assumption, or the profile's name.
  public let alternative: String
  /// What the reading says.
  public let summary: String
  /// The parameters it changes.
  public let patch: ModelPatch

  public init(name: String, assumption: Assumption?, alternative: String, summary: String, patch: ModelPatch) {
    self.name = name
    self.assumption = assumption
    self.alternative = alternative
    self.summary = summary
    self.patch = patch
  }

  /// Every named alternative of `assumptions` (all by default), one at a
  /// time, in the assumptions' order, then the whole-model profiles
  /// (`profiles`, unless `includeProfiles` is false).
  public static func all(
    assumptions: [Assumption] = Assumption.allCases, includeProfiles: Bool = true
  ) -> [ModelVariant] {
    var out: [ModelVariant] = []
    for a in assumptions {
      for alt in a.alternatives {
        out.append(
          ModelVariant(
            name: "\(a.key) = \(alt.name)", assumption: a, alternative: alt.name, summary: alt.summary,
            patch: alt.patch))
      }
    }
    return out + (includeProfiles ? profiles : [])
  }

  /// The whole-model profiles (docs/model.md#model-profiles): the sources'
  /// readings (`ModelProfile`: the evidence-fitted one and the seeds'), each
  /// as its values of every parameter any reading sets, so that laid over a
  /// scenario's model it gives that reading of the rules the readings
  /// disagree on and keeps the scenario's other fields. (A version's profile,
  /// `model_1`, pins old defaults rather than reading the sources: not one.)
  public static let profiles: [ModelVariant] = {
    let readings = ModelProfile.readings
    var disputed: [ModelParameter] = []
    for r in readings {
      for s in r.patch.settings where !disputed.contains(s.parameter) { disputed.append(s.parameter) }
    }
    return readings.map { r in
      let model = r.model
      return ModelVariant(
        name: r.name, assumption: nil, alternative: r.name, summary: r.summary,
        patch: ModelPatch(disputed.map { ($0, $0.value(in: model)) }))
    }
  }()

  /// Whether the variant can change what `strategy` produces under
  /// `model`: it changes a parameter the strategy's simulation reads
  /// (`ModelParameterGroup.isRead(by:)`). A strategy it cannot change keeps
  /// the results it has under `model`.
  /// A parameter of a construct of the strategy language
  /// (`ModelParameterDeclaration.construct`) is read only by a strategy that uses it.
  public func changes(_ strategy: Strategy, under model: ModelParameters) -> Bool {
    patch.settings.contains { s in
      let d = s.parameter.declaration
      return s.parameter.value(in: model) != s.value && d.group.isRead(by: strategy)
        && (d.construct?.isUsed(by: strategy) ?? true)
    }
  }

  /// Whether the variant is a reading of `scenario` at all: not when every
  /// parameter it sets belongs to a construct of the strategy language no
  /// strategy of the scenario uses (such a reading is not listed, so adding
  /// a construct leaves the robustness runs of scenarios without it as
  /// they were).
  public func applies(to scenario: Scenario) -> Bool {
    patch.settings.isEmpty
      || patch.settings.contains { $0.parameter.declaration.construct?.isUsed(in: scenario) ?? true }
  }
}

extension ModelParameterGroup {
  /// Whether a simulation of `strategy` ever reads the group's parameters.
  /// The one declaration of that dependence: a robustness run reuses a
  /// strategy's results under every variant that changes only groups it
  /// does not read (`ModelVariant.changes`), and `RobustnessReuseTests`
  /// run such pairs in full and require identical tallies.
  public func isRead(by strategy: Strategy) -> Bool {
    switch self {
    case .budget, .reload, .visibility:
      return true
    case .silentPush:
      return strategy.backend.silentPush != nil
    case .widgetPush:
      return strategy.backend.widgetPush != nil
    case .backgroundRefresh:
      return strategy.app.backgroundRefreshInterval != nil
    case .appReload:
      // Any call the app makes could be made in the background.
      let app = strategy.app
      return !strategy.triggers.isEmpty || strategy.code != nil || !strategy.wakes.isEmpty
        || app.reloadOnSilentPush || app.backgroundRefreshInterval != nil || app.reloadOnForeground
        || app.reloadKindOnTap || app.reloadOnChangeWhileRunning
    case .locationWakes, .accessoryWakes, .networkExtensionWakes, .audioWakes:
      return strategy.wakes.contains { $0.type == wakeSource }
    case .activity:
      return false  // no widget strategy reads it: the Live Activities of a scenario do
    }
  }
}

extension Assumption {
  /// Its name in scenario files and reports: `budget_accrual`.
  public var key: String {
    switch self {
    case .budgetAccrual: return "budget_accrual"
    case .budgetSize: return "budget_size"
    case .minInterval: return "min_interval"
    case .whenEmpty: return "when_empty"
    case .lateness: return "lateness"
    case .backgroundRefreshDelay: return "background_refresh_delay"
    case .silentPushThrottle: return "silent_push_throttle"
    case .widgetPushBudget: return "widget_push_budget"
    case .learningPeriod: return "learning_period"
    case .appReloadCalls: return "app_reload_calls"
    case .wakeSources: return "wake_sources"
    case .frozenWidgets: return "frozen_widgets"
    case .asapReloads: return "asap_reloads"
    case .latenessPressure: return "lateness_pressure"
    case .backgroundLatency: return "background_latency"
    case .backgroundWhileAsleep: return "background_while_asleep"
    case .noCompletion: return "no_completion"
    case .futureFirstEntry: return "future_first_entry"
    case .deviceRestart: return "device_restart"
    case .activityPushBudget: return "activity_push_budget"
    }
  }

  /// The assumption named `key`, if any.
  public init?(key: String) {
    guard let a = Self.allCases.first(where: { $0.key == key }) else { return nil }
    self = a
  }
}
