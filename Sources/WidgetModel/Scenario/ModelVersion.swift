/// The model's version history (docs/model.md#model-versions): which rules'
/// defaults each version changed, declared once. The current version is the
/// last entry's; the `model_N` profiles (`ModelProfile`), the warning a
/// scenario written for an older version gets, and `docs/model.md`'s version
/// table all come from here.
///
/// Only the values before each change are written: the value after it is
/// the next version's old value, or today's default (`ModelParameters.standard`),
/// so the history cannot disagree with the code's defaults.
///
/// Adding a version (a change to a default, a rule or a metric that changes
/// an unchanged scenario's results on purpose): change the default in
/// `ModelParameters`, then append one entry to `history` with the parameters'
/// old values; `reloadbench schema` regenerates the tables (see
/// `Sources/WidgetModel/README.md`).
public struct ModelVersion: Sendable {
  /// 1, 2, ...
  public let number: Int
  /// What changed, in a line.
  public let summary: String
  /// The defaults this version changed, at their values before it.
  public let previousDefaults: ModelPatch
  /// What this version changed in the reported figures beyond its defaults
  /// (a figure redefined, renamed or added), for the warning an older
  /// file gets; nil when nothing.
  public let figures: String?

  init(
    _ number: Int, _ summary: String, previousDefaults: [(ModelParameter, ParameterValue)], figures: String? = nil
  ) {
    self.number = number
    self.summary = summary
    self.previousDefaults = ModelPatch(previousDefaults)
    self.figures = figures
  }

  /// Every version, oldest first.
  public static let history: [ModelVersion] = [
    ModelVersion(
      1, "the first model: the seeds' sliding budget and \"ask immediately\"", previousDefaults: []),
    ModelVersion(
      2, "the structural rules' defaults chosen by the evidence scenarios (10 of 11 agree)",
      previousDefaults: [
        (.budgetAccrual, .choice(BudgetParameters.Accrual.slidingWindow.rawValue)),
        (.reloadAsap, .choice(ReloadTiming.Asap.immediate.rawValue)),
        (.reloadLatenessPressure, .choice(ReloadTiming.LatenessPressure.none.rawValue)),
        (.appReloadBackgroundLatency, .distribution(.constant(.zero))),
        (.appReloadWhileAsleep, .choice(AppReloadParameters.WhileAsleep.spend.rawValue)),
      ]),
    ModelVersion(
      3, "budget figures with one meaning under every rule: frozen and budget-limited replace dry",
      previousDefaults: [],
      figures: "the dry figures became frozen_* (refused while the last reload is older than the tolerance) and "
        + "budget_limited_* (docs/model.md#frozen-widgets), and budget.dry_after_min became "
        + "budget.frozen_after_min; budget left is what a widget can spend within the hour"),
    ModelVersion(
      4, "a timeline's first entry dated after the reload shows at its date, as WidgetKit renders entries",
      previousDefaults: [
        (.reloadFutureFirstEntry, .choice(ReloadTiming.FutureFirstEntry.shownAtOnce.rawValue))
      ]),
  ]

  /// The version this code simulates: the last of `history`.
  public static var current: Int { history.last?.number ?? 1 }

  /// The patch that takes today's defaults back to version `number`'s
  /// (empty for the current version): each parameter changed since, at its
  /// value in that version.
  public static func defaults(at number: Int) -> ModelPatch {
    var patch = ModelPatch()
    // Newest first, so an older version's value replaces a newer one's.
    for v in history.reversed() where v.number > number { patch = patch.merging(v.previousDefaults) }
    return patch
  }

  /// One default that changed: its value before and after.
  public struct Change: Sendable, Equatable {
    public let parameter: ModelParameter
    public let old: ParameterValue
    public let new: ParameterValue
  }

  /// What this version changed, old value to new (in the catalogue's order).
  public var changes: [Change] {
    let after = Self.defaults(at: number)
    return previousDefaults.settings.map { s in
      Change(parameter: s.parameter, old: s.value, new: after[s.parameter] ?? s.parameter.defaultValue)
    }
  }

  /// What the versions after `number` changed in the figures, oldest first.
  public static func figureChanges(since number: Int) -> [String] {
    history.filter { $0.number > number }.compactMap(\.figures)
  }

  /// Every default that differs between version `number` and the current
  /// one, from its value then to today's (a parameter changed and changed
  /// back is not listed).
  public static func changes(since number: Int) -> [Change] {
    defaults(at: number).settings.compactMap { s in
      let now = s.parameter.defaultValue
      return s.value == now ? nil : Change(parameter: s.parameter, old: s.value, new: now)
    }
  }
}
