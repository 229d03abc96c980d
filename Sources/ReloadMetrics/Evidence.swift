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
    /// Only the absence of complaints is known.
    case weak
  }

  /// A strategy of the scenario.
  public var strategy: String
  /// A segment name, or `all`.
  public var segment: String
  public var reported: Outcome
  public var strength: Strength
  /// Where it was reported (an issue or PR, with the repository).
  public var source: String

  private enum CodingKeys: String, CodingKey {
    case strategy = "policy"
    case segment, reported, strength, source
  }

  public init(strategy: String, segment: String = "all", reported: Outcome, strength: Strength, source: String) {
    self.strategy = strategy
    self.segment = segment
    self.reported = reported
    self.strength = strength
    self.source = source
  }

  /// Scores the claim on a run's table.
  public func evaluate(on table: ResultTable) -> EvidenceResult {
    let row = table.row(strategy: strategy, segment: segment)
    let dry = row.flatMap { table.value(.dryWidgetDayPct, in: $0) }
    let acceptable = row.flatMap { table.value(.acceptableGlancePct, in: $0) }
    return EvidenceResult(claim: self, dryWidgetDayPct: dry, acceptableGlancePct: acceptable)
  }
}

/// The scoring rule, in metric terms: which outcomes a run has.
///
/// Each reported word names one condition on the run's results:
/// - **exhausted** (a statement about the budget, as maintainers make it):
///   the widget ran dry (a request withheld longer than
///   `model.budget.dry_after_min`) on at least `dryPct` % of widget-days
///   (`dry_widget_day_pct`);
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
  /// Running dry on 1 widget-day in 10 is "runs out" as people report it.
  public static let dryPct = 10.0

  /// Whether a run with these figures has `outcome`; nil when a figure
  /// the condition reads has no value.
  public static func has(
    _ outcome: EvidenceClaim.Outcome, dryWidgetDayPct dry: Double?, acceptableGlancePct acceptable: Double?
  ) -> Bool? {
    switch outcome {
    case .exhausted:
      guard let dry, !dry.isNaN else { return nil }
      return dry >= dryPct
    case .stale, .fine:
      guard let acceptable, !acceptable.isNaN else { return nil }
      return (acceptable >= acceptablePct) == (outcome == .fine)
    }
  }

  /// The outcomes a run has, as a report prints them: `exhausted, stale`,
  /// `exhausted, fine`, `stale`, `fine`.
  public static func outcomes(dryWidgetDayPct dry: Double?, acceptableGlancePct acceptable: Double?) -> [EvidenceClaim
    .Outcome]
  {
    [.exhausted, .stale, .fine].filter { has($0, dryWidgetDayPct: dry, acceptableGlancePct: acceptable) == true }
  }

  /// The rule in one line, for reports.
  public static var ruleText: String {
    "exhausted: dry_widget_day_pct at least \(Expectation.format(dryPct)); stale: acceptable_glance_pct below "
      + "\(Expectation.format(acceptablePct)); fine: acceptable_glance_pct at least "
      + "\(Expectation.format(acceptablePct)). "
      + "A claim agrees when the run has the outcome it reports."
  }
}

/// One claim scored on one run.
public struct EvidenceResult: Sendable, Equatable, Codable {
  public var claim: EvidenceClaim
  public var dryWidgetDayPct: Double?
  public var acceptableGlancePct: Double?
  /// The outcomes the run has (`EvidenceScoring.outcomes`).
  public var predicted: [EvidenceClaim.Outcome]
  /// The run has the reported outcome (false when a figure is missing).
  public var agrees: Bool

  private enum CodingKeys: String, CodingKey {
    case claim
    case dryWidgetDayPct = "dry_widget_day_pct"
    case acceptableGlancePct = "acceptable_glance_pct"
    case predicted,
      agrees
  }

  public init(claim: EvidenceClaim, dryWidgetDayPct: Double?, acceptableGlancePct: Double?) {
    self.claim = claim
    self.dryWidgetDayPct = dryWidgetDayPct
    self.acceptableGlancePct = acceptableGlancePct
    predicted = EvidenceScoring.outcomes(dryWidgetDayPct: dryWidgetDayPct, acceptableGlancePct: acceptableGlancePct)
    agrees =
      EvidenceScoring.has(claim.reported, dryWidgetDayPct: dryWidgetDayPct, acceptableGlancePct: acceptableGlancePct)
      ?? false
  }
}
