/// A robustness run (`reloadbench robustness`): the scenario under its own
/// model (the base) and under each variant of the model (every named
/// alternative of every assumption, one at a time, and whole-model
/// profiles), on the same users and random streams, with what each
/// recommends. Plain values: robustness.csv, robustness.json and
/// robustness.html are rendered from it, and its `verdict` goes next to
/// a run's recommendation.
///
///     let r = RobustnessResults(...)
///     r.ranges()            // per metric and strategy: low, high, what moves it most
///     r.swings(metric: .acceptableGlancePct, strategy: "hybrid")   // the tornado's bars
///     r.verdict.robust      // the same strategy recommended under every variant
public struct RobustnessResults: Sendable, Equatable {
  /// One variant's results.
  public struct Variant: Sendable, Equatable {
    /// `budget_accrual = sliding_window`, or a profile's name.
    public var name: String
    /// The assumption's key; nil for a whole-model profile.
    public var assumption: String?
    public var alternative: String
    public var summary: String
    /// Per strategy (in `strategies` order), per metric (in `metrics` order).
    public var values: [[Double?]]
    /// What the variant recommends (nil: no strategy had glances to judge).
    public var recommended: String?
    /// Per strategy: simulated under the variant (false: the variant changes
    /// nothing the strategy reads, so its base results stand).
    public var simulated: [Bool]
    /// For a run on a sample of the devices: per strategy, per metric, the
    /// 95 % half-width of the difference to the base due to the sample
    /// (0 for a strategy not simulated again; nil where it cannot be
    /// estimated). Nil when every device ran: the differences are exact.
    public var halfWidth95: [[Double?]]?

    public init(
      name: String, assumption: String?, alternative: String, summary: String, values: [[Double?]],
      recommended: String?, simulated: [Bool], halfWidth95: [[Double?]]? = nil
    ) {
      self.halfWidth95 = halfWidth95
      self.name = name
      self.assumption = assumption
      self.alternative = alternative
      self.summary = summary
      self.values = values
      self.recommended = recommended
      self.simulated = simulated
    }

    /// The tornado's row it belongs to: its assumption, or itself for a profile.
    public var group: String { assumption ?? name }
  }

  public var scenario: String
  public var seed: UInt64
  /// Devices each variant (and the base they are compared with) simulated.
  public var devices: Int
  /// The scenario's own devices (more than `devices` when sampled).
  public var scenarioDevices: Int
  /// The metrics compared: the headline summary metrics.
  public var metrics: [SummaryMetric]
  public var strategies: [String]
  /// The base's values, per strategy, per metric.
  public var base: [[Double?]]
  /// What the base recommends, and by what rule.
  public var baseRecommendation: Recommendation?
  public var variants: [Variant]
  /// The Live Activities under the same readings, for a scenario with
  /// `live_activities` (nil without).
  public var activities: ActivityRobustness? = nil

  public init(
    scenario: String, seed: UInt64, devices: Int, scenarioDevices: Int, metrics: [SummaryMetric],
    strategies: [String], base: [[Double?]], baseRecommendation: Recommendation?, variants: [Variant]
  ) {
    self.scenario = scenario
    self.seed = seed
    self.devices = devices
    self.scenarioDevices = scenarioDevices
    self.metrics = metrics
    self.strategies = strategies
    self.base = base
    self.baseRecommendation = baseRecommendation
    self.variants = variants
  }

  /// The metrics a robustness run compares: the headline summary metrics,
  /// as `SummaryMetric` declares them.
  public static var headlineMetrics: [SummaryMetric] { SummaryMetric.allCases.filter { $0.metric.headline } }

  /// Every variant's value minus the base's (nil where either is missing).
  public func difference(_ v: Variant, strategy s: Int, metric m: Int) -> Double? {
    guard let x = v.values[s][m], let b = base[s][m] else { return nil }
    return x - b
  }

  /// The groups of variants in order: each assumption with alternatives
  /// here, then each profile.
  public var groups: [String] {
    var out: [String] = []
    for v in variants where !out.contains(v.group) { out.append(v.group) }
    return out
  }

  /// How far one group of variants moves a metric from the base: the
  /// lowest and highest difference over its variants, 0 included (the base
  /// is one reading of the assumption).
  public struct Swing: Sendable, Equatable {
    public var group: String
    /// Whether the group is an assumption (false: a whole-model profile).
    public var isAssumption: Bool
    public var low: Double
    public var high: Double
    /// The variants at `low` and `high` (nil: the base's own reading).
    public var lowVariant: String?
    public var highVariant: String?
    /// For a sample, the largest 95 % half-width of its variants'
    /// differences (nil when every device ran or it cannot be estimated).
    public var halfWidth95: Double?
    public var width: Double { high - low }
  }

  /// Per group, how far its variants move `metric` of `strategy`, widest
  /// first (ties in the groups' order); groups with no value left out.
  public func swings(metric m: Int, strategy s: Int) -> [Swing] {
    var out: [Swing] = []
    for g in groups {
      var swing: Swing?
      for v in variants where v.group == g {
        guard let d = difference(v, strategy: s, metric: m) else { continue }
        var w = swing ?? Swing(group: g, isAssumption: v.assumption != nil, low: 0, high: 0)
        if d < w.low { (w.low, w.lowVariant) = (d, v.name) }
        if d > w.high { (w.high, w.highVariant) = (d, v.name) }
        if let h = v.halfWidth95?[s][m] { w.halfWidth95 = max(w.halfWidth95 ?? 0, h) }
        swing = w
      }
      if let swing { out.append(swing) }
    }
    // A stable sort: widest first, ties in the groups' order.
    return out.enumerated().sorted { a, b in
      a.element.width != b.element.width ? a.element.width > b.element.width : a.offset < b.offset
    }.map(\.element)
  }

  /// One metric of one strategy across the variants.
  public struct Range: Sendable, Equatable {
    public var metric: SummaryMetric
    public var strategy: String
    public var base: Double?
    /// The lowest and highest value over the base and every variant.
    public var low: Double?
    public var high: Double?
    public var lowVariant: String?
    public var highVariant: String?
    /// The assumption (or profile) that moves it most, with its swing
    /// (`Swing.width`); nil when no variant moves it.
    public var movesMost: String?
    public var movesMostSwing: Double
  }

  /// Per headline metric and strategy (metrics outer), the range across
  /// the variants and what moves it most.
  public func ranges() -> [Range] {
    var out: [Range] = []
    for (m, metric) in metrics.enumerated() {
      for (s, strategy) in strategies.enumerated() {
        var r = Range(
          metric: metric, strategy: strategy, base: base[s][m], low: base[s][m], high: base[s][m], movesMost: nil,
          movesMostSwing: 0)
        for v in variants {
          guard let x = v.values[s][m] else { continue }
          if r.low.map({ x < $0 }) ?? true { (r.low, r.lowVariant) = (x, v.name) }
          if r.high.map({ x > $0 }) ?? true { (r.high, r.highVariant) = (x, v.name) }
        }
        if let top = swings(metric: m, strategy: s).first, top.width > 0 {
          r.movesMost = top.group
          r.movesMostSwing = top.width
        }
        out.append(r)
      }
    }
    return out
  }

  /// Whether the base's recommendation holds under every variant.
  public var verdict: RobustnessVerdict {
    let recommended = baseRecommendation?.strategy
    let changes = variants.filter { $0.recommended != recommended }.map {
      RobustnessVerdict.Change(variant: $0.name, assumption: $0.assumption, strategy: $0.recommended)
    }
    let assumptions = groups.filter { g in variants.contains { $0.group == g && $0.assumption != nil } }.count
    let profiles = groups.count - assumptions
    return RobustnessVerdict(
      strategy: recommended, robust: changes.isEmpty, variants: variants.count, assumptions: assumptions,
      profiles: profiles, changes: changes, devices: devices, scenarioDevices: scenarioDevices)
  }
}

/// Whether a recommendation is robust: the same strategy recommended under
/// every variant of the model, else where it changes and to what.
/// results.json writes it in `"recommendation"` (`"robustness"`), beside
/// the strategy it judges, when the scenario asks for it.
public struct RobustnessVerdict: Sendable, Codable, Equatable {
  /// A variant under which another strategy is recommended.
  public struct Change: Sendable, Codable, Equatable {
    public var variant: String
    public var assumption: String?
    /// What it recommends instead (nil: nothing could be judged).
    public var strategy: String?

    public init(variant: String, assumption: String?, strategy: String?) {
      self.variant = variant
      self.assumption = assumption
      self.strategy = strategy
    }

    public func encode(to encoder: any Encoder) throws {
      var c = encoder.container(keyedBy: CodingKeys.self)
      try c.encode(variant, forKey: .variant)
      try c.encode(assumption, forKey: .assumption)
      try c.encode(strategy, forKey: .strategy)
    }
  }

  /// The strategy the base recommends.
  public var strategy: String?
  public var robust: Bool
  /// The variants compared, the assumptions they read otherwise and the
  /// whole-model profiles among them.
  public var variants: Int
  public var assumptions: Int
  public var profiles: Int
  /// Where the recommendation changes (empty when robust).
  public var changes: [Change]
  /// Devices each variant simulated, of the scenario's.
  public var devices: Int
  public var scenarioDevices: Int
  /// For a sample: the strategy the full run recommends when the base on
  /// the sample recommends another (then the verdict is not robust).
  public var fullRunStrategy: String? = nil
  /// The sentence the reports quote (`RobustnessReport.sentence`).
  public var sentence: String = ""

  public init(
    strategy: String?, robust: Bool, variants: Int, assumptions: Int, profiles: Int, changes: [Change], devices: Int,
    scenarioDevices: Int
  ) {
    self.strategy = strategy
    self.robust = robust
    self.variants = variants
    self.assumptions = assumptions
    self.profiles = profiles
    self.changes = changes
    self.devices = devices
    self.scenarioDevices = scenarioDevices
  }
}
