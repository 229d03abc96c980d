/// What a real app's users or maintainers reported about one of its
/// strategies, and the one rule that says whether a run agrees with it.
///
///     // Loop: "the widget glucose reading goes gray. It does not update." (#2376)
///     EvidenceClaim(strategy: "shipped", reported: .stale, strength: .reported,
///                   source: "LoopKit/Loop#2376")
///
/// The scoring rule (`EvidenceScoring`) is the same for every app and is
/// documented in `Scenarios/README.md` ("Evidence"); a claim never tunes it.
public struct EvidenceClaim: Sendable, Equatable, Codable {
  /// What people saw, in the words of `shared/evidence/real-apps.md`.
  public enum Outcome: String, Sendable, Codable, CaseIterable {
    /// The budget ran out (a maintainer's diagnosis): requests withheld.
    case exhausted
    /// People saw old data or placeholders (for whatever reason).
    case stale
    /// No complaint: the widget kept up.
    case fine
  }

  /// How the outcome is known.
  public enum Strength: String, Sendable, Codable, CaseIterable {
    /// An issue, a pull request or a maintainer said so.
    case reported
    /// Only the absence of complaints is known (or, for `stale` and
    /// `exhausted`, only a pull request's or commit's title).
    case weak
  }

  /// A strategy of the scenario.
  public var strategy: String
  /// A segment name, or `all`.
  public var segment: String
  /// The widget kind the report is about; nil means every kind together
  /// (`all`: what the app's widgets did as a whole).
  public var kind: String?
  public var reported: Outcome
  public var strength: Strength
  /// Where it was reported (an issue or PR, with the repository).
  public var source: String

  private enum CodingKeys: String, CodingKey {
    case strategy = "policy"
    case segment, kind, reported, strength, source
  }

  public init(
    strategy: String, segment: String = "all", kind: String? = nil, reported: Outcome, strength: Strength,
    source: String
  ) {
    self.strategy = strategy
    self.segment = segment
    self.kind = kind
    self.reported = reported
    self.strength = strength
    self.source = source
  }

  /// What the claim is about, as reports print it: the segment, and the
  /// widget kind when it names one (`all`, `all / lock-screen`).
  public var place: String { kind.map { "\(segment) / \($0)" } ?? segment }

  /// Scores the claim on a run's table.
  public func evaluate(on table: ResultTable) -> EvidenceResult {
    let row = table.row(strategy: strategy, segment: segment, kind: kind)
    let frozen = row.flatMap { table.value(.frozenWidgetDayPct, in: $0) }
    let acceptable = row.flatMap { table.value(.acceptableGlancePct, in: $0) }
    return EvidenceResult(claim: self, frozenWidgetDayPct: frozen, acceptableGlancePct: acceptable)
  }
}

/// The scoring rule, in metric terms: which outcomes a run has.
///
/// Each reported word names one condition on the run's results:
/// - **exhausted** (a statement about the budget, as maintainers make it):
///   the budget froze the widget (a refused request while its last reload
///   was older than its tolerance, docs/model.md#frozen-widgets) on at
///   least `frozenPct` % of widget-days (`frozen_widget_day_pct`);
/// - **stale** (what people see): fewer than `acceptablePct` % of glances
///   were within the kind's tolerance (`acceptable_glance_pct`);
/// - **fine**: at least `acceptablePct` % of glances were.
///
/// A run can be exhausted and stale, or exhausted and fine (a budget spent
/// where nobody sees it: no one complains). A claim agrees when the run
/// has the outcome it reports.
public enum EvidenceScoring {
  /// A widget people call fine shows acceptable data at 9 glances in 10.
  public static let acceptablePct = 90.0
  /// Frozen by the budget on 1 widget-day in 10 is "runs out" as people report it.
  public static let frozenPct = 10.0

  /// Whether a run with these figures has `outcome`; nil when a figure
  /// the condition reads has no value.
  public static func has(
    _ outcome: EvidenceClaim.Outcome, frozenWidgetDayPct frozen: Double?, acceptableGlancePct acceptable: Double?
  ) -> Bool? {
    switch outcome {
    case .exhausted:
      guard let frozen, !frozen.isNaN else { return nil }
      return frozen >= frozenPct
    case .stale, .fine:
      guard let acceptable, !acceptable.isNaN else { return nil }
      return (acceptable >= acceptablePct) == (outcome == .fine)
    }
  }

  /// The outcomes a run has, as a report prints them: `exhausted, stale`,
  /// `exhausted, fine`, `stale`, `fine`.
  public static func outcomes(frozenWidgetDayPct frozen: Double?, acceptableGlancePct acceptable: Double?)
    -> [EvidenceClaim
    .Outcome]
  {
    [.exhausted, .stale, .fine].filter { has($0, frozenWidgetDayPct: frozen, acceptableGlancePct: acceptable) == true }
  }

  /// The rule in one line, for reports.
  public static var ruleText: String {
    "exhausted: frozen_widget_day_pct at least \(Expectation.format(frozenPct)); stale: acceptable_glance_pct below "
      + "\(Expectation.format(acceptablePct)); fine: acceptable_glance_pct at least "
      + "\(Expectation.format(acceptablePct)). "
      + "A claim agrees when the run has the outcome it reports."
  }
}

/// One claim scored on one run.
public struct EvidenceResult: Sendable, Equatable, Codable {
  public var claim: EvidenceClaim
  public var frozenWidgetDayPct: Double?
  public var acceptableGlancePct: Double?
  /// The outcomes the run has (`EvidenceScoring.outcomes`).
  public var predicted: [EvidenceClaim.Outcome]
  /// The run has the reported outcome (false when a figure is missing).
  public var agrees: Bool

  private enum CodingKeys: String, CodingKey {
    case claim
    case frozenWidgetDayPct = "frozen_widget_day_pct"
    case acceptableGlancePct = "acceptable_glance_pct"
    case predicted,
      agrees
  }

  public init(claim: EvidenceClaim, frozenWidgetDayPct: Double?, acceptableGlancePct: Double?) {
    self.claim = claim
    self.frozenWidgetDayPct = frozenWidgetDayPct
    self.acceptableGlancePct = acceptableGlancePct
    predicted = EvidenceScoring.outcomes(
      frozenWidgetDayPct: frozenWidgetDayPct, acceptableGlancePct: acceptableGlancePct)
    agrees =
      EvidenceScoring.has(
        claim.reported, frozenWidgetDayPct: frozenWidgetDayPct, acceptableGlancePct: acceptableGlancePct)
      ?? false
  }
}
