/// The strategy a run's results recommend, and why: what the report, the
/// terminal and results.json say first. `ReloadReports` makes it
/// (`Recommendation.compute` for the default rule, `Recommendation.from`
/// for a scenario's objective).
public struct Recommendation: Sendable, Codable, Equatable {
  public var strategy: String
  public var reason: String
  /// Whether it meets the objective (the default rule's freshness target,
  /// or the scenario's constraints); else it is the one that misses least.
  public var meetsTarget: Bool
  /// The next strategy by the same rule, if any.
  public var runnerUp: String?
  /// What "best" means: the scenario's objective, or the default rule, in words.
  public var objective: String

  public init(strategy: String, reason: String, meetsTarget: Bool, runnerUp: String? = nil, objective: String) {
    self.strategy = strategy
    self.reason = reason
    self.meetsTarget = meetsTarget
    self.runnerUp = runnerUp
    self.objective = objective
  }

  private enum CodingKeys: String, CodingKey {
    case strategy, reason
    case meetsTarget = "meetsObjective"
    case runnerUp, objective
  }

  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(strategy, forKey: .strategy)
    try c.encode(reason, forKey: .reason)
    try c.encode(meetsTarget, forKey: .meetsTarget)
    // Written even when there is none (null), so readers see a stable shape.
    try c.encode(runnerUp, forKey: .runnerUp)
    try c.encode(objective, forKey: .objective)
  }
}

/// What a run concludes: the findings and the recommendation, as the
/// report, the terminal and results.json give them.
///
/// In results.json they are one object, `"recommendation"` (the findings
/// beside the recommendation's members, which are left out when there is
/// none), so a program reads the answer the page gives without parsing it:
///
///     jq '.recommendation | [.strategy, .meetsObjective, .runnerUp]' results.json
public struct Conclusions: Sendable, Codable, Equatable {
  /// Sentences about the results (`Findings.compute`).
  public var findings: [String]
  /// Nil when no strategy has glances to judge its freshness by.
  public var recommendation: Recommendation?
  /// Whether the recommendation holds under every assumption's
  /// alternatives, when the scenario asks (`"robustness"`; absent otherwise).
  public var robustness: RobustnessVerdict?

  public init(findings: [String], recommendation: Recommendation?, robustness: RobustnessVerdict? = nil) {
    self.findings = findings
    self.recommendation = recommendation
    self.robustness = robustness
  }

  private enum CodingKeys: String, CodingKey { case findings, strategy, robustness }

  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(findings, forKey: .findings)
    try c.encodeIfPresent(robustness, forKey: .robustness)
    try recommendation?.encode(to: encoder)
  }

  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    findings = try c.decode([String].self, forKey: .findings)
    robustness = try c.decodeIfPresent(RobustnessVerdict.self, forKey: .robustness)
    recommendation = c.contains(.strategy) ? try Recommendation(from: decoder) : nil
  }
}

/// What a sweep recommends (sweep.json's `"recommendation"`): the choice
/// that best meets the scenario's objective (the strategy, and where in the
/// grid), its margins, the runner-up, each strategy's own best choice and
/// the findings stdout and sweep.html print.
///
///     // jq '.recommendation.bestPerStrategy[] | [.strategy, .values.interval_min]' sweep.json
public struct SweepRecommendation: Sendable, Codable, Equatable {
  /// One choice: the strategy, where (the swept values, or
  /// `sameAtEveryPoint`), the objective's value and each bound's margin or
  /// miss.
  public struct Choice: Sendable, Codable, Equatable {
    public var strategy: String
    /// The 1-based point (as sweep.html numbers them); absent when the choice
    /// is the same at every point or spans an assumption's values.
    public var point: Int?
    /// Swept parameter -> value at the choice ("any": the same at every point).
    public var values: [String: String]
    public var sameAtEveryPoint: Bool
    public var meetsObjective: Bool
    public var objectiveValue: Double
    /// `acceptable_glance_pct 92.09, 2.09 inside >= 90` per bound.
    public var margins: [String]
    /// The verdict in words (the objective's value, or what it misses).
    public var verdict: String

    public init(
      strategy: String, point: Int?, values: [String: String], sameAtEveryPoint: Bool, meetsObjective: Bool,
      objectiveValue: Double, margins: [String], verdict: String
    ) {
      self.strategy = strategy
      self.point = point
      self.values = values
      self.sameAtEveryPoint = sameAtEveryPoint
      self.meetsObjective = meetsObjective
      self.objectiveValue = objectiveValue
      self.margins = margins
      self.verdict = verdict
    }
  }

  /// The choice shown (the best, else the closest miss): absent when no
  /// choice has a value for the objective.
  public var strategy: String?
  public var point: Int?
  public var values: [String: String]?
  public var sameAtEveryPoint: Bool?
  public var meetsObjective: Bool
  /// The objective in words.
  public var objective: String
  public var reason: String
  public var margins: [String]
  public var runnerUp: Choice?
  /// Each strategy's own best choice (its closest miss when none meets the objective).
  public var bestPerStrategy: [Choice]
  /// The lines stdout and sweep.html print.
  public var findings: [String]

  public init(
    shown: Choice?, meetsObjective: Bool, objective: String, reason: String, margins: [String], runnerUp: Choice?,
    bestPerStrategy: [Choice], findings: [String]
  ) {
    strategy = shown?.strategy
    point = shown?.point
    values = shown?.values
    sameAtEveryPoint = shown?.sameAtEveryPoint
    self.meetsObjective = meetsObjective
    self.objective = objective
    self.reason = reason
    self.margins = margins
    self.runnerUp = runnerUp
    self.bestPerStrategy = bestPerStrategy
    self.findings = findings
  }
}
