/// A scenario's Live Activities under every reading of the model
/// (`reloadbench robustness` on a scenario with `live_activities`): the
/// activity strategies' figures under the base and each reading, on the
/// same devices and streams, and whether the best activity strategy stays
/// the best. What moves them is chiefly assumption 20 (`model.activity`:
/// the push budget, what happens beyond it, how late priority 5 arrives;
/// docs/model.md#activity-push-budget), but the users' sessions and views
/// matter too, so every reading runs.
///
///     let a = results.activities!
///     a.best                          // "activity-priority-mix"
///     a.ranges()                      // per metric and strategy: low, high, which reading
///     a.changes                       // the readings under which another strategy is best
public struct ActivityRobustness: Sendable, Equatable {
  /// One reading's figures.
  public struct Reading: Sendable, Equatable {
    /// The widget robustness's variant name (`activity.push_budget = twelve_an_hour`, a profile).
    public var name: String
    public var assumption: String?
    /// Per strategy (in `strategies` order), per metric (in `metrics` order).
    public var values: [[Double?]]
    /// The best activity strategy under it (`ActivityRobustness.best`).
    public var best: String?
    /// Simulated again (false: the reading leaves the model as it is, so
    /// these are the base's figures).
    public var simulated: Bool

    public init(name: String, assumption: String?, values: [[Double?]], best: String?, simulated: Bool) {
      self.name = name
      self.assumption = assumption
      self.values = values
      self.best = best
      self.simulated = simulated
    }
  }

  /// The figures compared: what a glance sees, what the budget does, what
  /// the backend sends and its busiest second.
  public static let metrics: [ActivityMetric] = [
    .acceptableGlancePct, .budgetExhaustedActivityPct, .pushesPerDeviceDay, .fleetPushPeakPerSecond,
  ]

  public var strategies: [String]
  /// The base's values, per strategy, per metric.
  public var base: [[Double?]]
  public var readings: [Reading]
  /// A 95 % interval.
  public struct Interval: Sendable, Equatable {
    public var low: Double
    public var high: Double
  }
  /// Per strategy, the base's fleet push peak's 95 % interval (the
  /// sample's count is Poisson: docs/model.md#activity-fleet-push).
  public var basePeakInterval: [Interval?]

  public init(strategies: [String], base: [[Double?]], readings: [Reading], basePeakInterval: [Interval?] = []) {
    self.strategies = strategies
    self.base = base
    self.readings = readings
    self.basePeakInterval = basePeakInterval
  }

  /// The `all` row's fleet push peak interval, per strategy of `strategies`.
  public static func peakIntervals(_ table: ActivityTable, strategies: [String]) -> [Interval?] {
    strategies.map { s in
      guard let row = table.row(strategy: s) else { return nil }
      let (lo, hi) = (row.value(.fleetPushPeakLow), row.value(.fleetPushPeakHigh))
      return lo.isNaN || hi.isNaN ? nil : Interval(low: lo, high: hi)
    }
  }

  /// The `all` row's values of `metrics`, per strategy of `strategies`.
  public static func values(_ table: ActivityTable, strategies: [String]) -> [[Double?]] {
    strategies.map { s in
      metrics.map { m in table.row(strategy: s)?.values[m.index].flatMap { $0.isNaN ? nil : $0 } }
    }
  }

  /// The best activity strategy by the rule the report states
  /// (`bestRule`): the most glances within tolerance; within 0.5 points of
  /// it, the fewest pushes per device-day; then the first listed.
  public static func best(strategies: [String], values: [[Double?]]) -> String? {
    let glances = metrics.firstIndex(of: .acceptableGlancePct)!
    let pushes = metrics.firstIndex(of: .pushesPerDeviceDay)!
    guard let top = values.compactMap({ $0[glances] }).max() else { return nil }
    var pick: Int? = nil
    for (s, v) in values.enumerated() {
      guard let g = v[glances], g >= top - bestTiePoints else { continue }
      if let p = pick, (values[p][pushes] ?? .infinity) <= (v[pushes] ?? .infinity) { continue }
      pick = s
    }
    return pick.map { strategies[$0] }
  }

  /// Points of glances within tolerance under which two strategies count as tied.
  public static let bestTiePoints = 0.5
  public static let bestRule =
    "the most glances within tolerance; within 0.5 points of it, the fewest pushes per device-day"

  /// The best activity strategy under the base.
  public var best: String? { Self.best(strategies: strategies, values: base) }

  /// The readings under which another strategy is best.
  public var changes: [Reading] { readings.filter { $0.best != best } }

  public var robust: Bool { changes.isEmpty }

  /// One metric of one strategy across the base and every reading.
  public struct Range: Sendable, Equatable {
    public var metric: ActivityMetric
    public var strategy: String
    public var base: Double?
    public var low: Double?
    public var high: Double?
    /// The readings at the ends (nil: the base is the end).
    public var lowReading: String?
    public var highReading: String?
  }

  /// Per metric (in `metrics` order), per strategy: the range over the base
  /// and every reading.
  public func ranges() -> [Range] {
    var out: [Range] = []
    for (m, metric) in Self.metrics.enumerated() {
      for (s, strategy) in strategies.enumerated() {
        let b = base[s][m]
        var r = Range(metric: metric, strategy: strategy, base: b, low: b, high: b)
        for reading in readings {
          guard let x = reading.values[s][m] else { continue }
          if r.low.map({ x < $0 }) ?? true {
            r.low = x
            r.lowReading = reading.name
          }
          if r.high.map({ x > $0 }) ?? true {
            r.high = x
            r.highReading = reading.name
          }
        }
        out.append(r)
      }
    }
    return out
  }

  /// The sentence to quote.
  public var sentence: String {
    guard let best else { return "No activity strategy had glances to judge." }
    let n = readings.count
    if robust {
      return "\(best) is the best Live Activity strategy (\(Self.bestRule)) under the model's own reading and "
        + "every one of its \(n) other readings."
    }
    let others = Set(changes.compactMap(\.best)).sorted()
    return "\(best) is the best Live Activity strategy (\(Self.bestRule)) under the model's own reading, but not "
      + "under \(changes.count) of its \(n) other readings (" + changes.prefix(3).map(\.name).joined(separator: "; ")
      + (changes.count > 3 ? "; …" : "") + "), where "
      + (others.isEmpty ? "none can be judged" : others.joined(separator: " or ") + " is") + "."
  }
}
