import ReloadMetrics

/// The strategy a scenario's results recommend, and why: the cheapest
/// strategy (fewest budgeted reloads, then fewest backend requests) among
/// those that keep at least `target` % of glances within the freshness
/// tolerance; if none does, the freshest one.
public struct Recommendation: Sendable, Equatable {
  public let strategy: String
  public let reason: String
  public let meetsTarget: Bool
  /// The next strategy by the same rule, if any.
  public var runnerUp: String? = nil
  /// What "best" means: the scenario's objective, or the default rule.
  public var objective: String = Recommendation.defaultObjective
  /// The targets the choice had to meet (the default rule's freshness
  /// target, or the objective's constraints), for the charts to draw.
  public var targets: [Objective.Bound] = [Recommendation.defaultTarget()]
  /// The freshness metric the choice was judged by, for the
  /// freshness-against-cost chart.
  public var freshnessMetric: SummaryMetric = .acceptableGlancePct

  /// The default rule's target: `acceptable_glance_pct >= targetPct`.
  public static func defaultTarget(_ targetPct: Double = defaultTargetPct) -> Objective.Bound {
    .init(metric: SummaryMetric.acceptableGlancePct.name, kind: .atLeast, value: targetPct)
  }

  /// The summary metrics that measure freshness, most direct first.
  public static let freshnessMetrics: [SummaryMetric] = [
    .acceptableGlancePct, .freshGlancePct, .stalenessMeanMin, .stalenessP50Min, .stalenessP95Min,
    .stalenessP99Min, .staleGlanceStalenessMeanMin,
  ]

  /// The freshness metric an objective judges by: its goal's metric or
  /// its first constrained one that measures freshness, else the default
  /// rule's (`acceptable_glance_pct`).
  public static func freshnessMetric(of o: Objective) -> SummaryMetric {
    for name in [o.metric] + o.bounds.map(\.metric) {
      if let m = SummaryMetric(columnName: name), freshnessMetrics.contains(m) { return m }
    }
    return .acceptableGlancePct
  }

  public static let defaultTargetPct = 90.0
  /// The default rule, in words (the cost named in the reason follows it).
  public static let defaultObjective =
    "at least 90 % of glances within tolerance; among those, the fewest budgeted reloads per widget-day, "
    + "then the fewest backend requests per widget-day"

  public static func compute(_ table: ResultTable, targetPct: Double = defaultTargetPct) -> Recommendation? {
    func v(_ metric: SummaryMetric, _ row: ResultRow) -> Double { table.value(metric, in: row) ?? .nan }
    let acceptable = SummaryMetric.acceptableGlancePct
    // Only strategies whose widgets were glanced at have a freshness to judge.
    let rows = table.overallRows.filter { v(acceptable, $0).isFinite }
    guard !rows.isEmpty else { return nil }
    let qualifying = rows.filter { v(acceptable, $0) >= targetPct }
    // Silent and WidgetKit pushes the backend sends to the fleet per day.
    func pushes(_ row: ResultRow) -> Double {
      (table.value(.silentPushesPerFleetDay, in: row) ?? 0) + (table.value(.widgetPushesPerFleetDay, in: row) ?? 0)
    }
    if !qualifying.isEmpty {
      let best = qualifying.min {
        (v(.budgetedReloadsPerWidgetDay, $0), v(.backendRequestsPerWidgetDay, $0), v(.stalenessMeanMin, $0))
          < (v(.budgetedReloadsPerWidgetDay, $1), v(.backendRequestsPerWidgetDay, $1), v(.stalenessMeanMin, $1))
      }!
      let others = qualifying.count - 1
      let reason =
        "keeps \(NumberFormat.trim(NumberFormat.fixed(v(acceptable, best), decimals: 1))) % of glances within "
        + "tolerance (target \(NumberFormat.short(targetPct)) %) at "
        + "\(NumberFormat.short(v(.budgetedReloadsPerWidgetDay, best))) budgeted reloads and "
        + "\(NumberFormat.short(v(.backendRequestsPerWidgetDay, best))) backend requests per widget-day, "
        + "a backend peak of \(NumberFormat.short(v(.backendFleetPeakRps, best))) requests/s (the fleet's p99.9 second) and "
        + "\(NumberFormat.short(pushes(best))) pushes a day, "
        + (others == 0
          ? "the only strategy that meets the target"
          : "the cheapest of the \(qualifying.count) that meet it (cheapest: fewest budgeted reloads, then fewest backend requests)")
      var out = Recommendation(strategy: best.strategy, reason: reason, meetsTarget: true)
      out.targets = [defaultTarget(targetPct)]
      out.runnerUp = qualifying.filter { $0.strategy != best.strategy }.min {
        (v(.budgetedReloadsPerWidgetDay, $0), v(.backendRequestsPerWidgetDay, $0), v(.stalenessMeanMin, $0))
          < (v(.budgetedReloadsPerWidgetDay, $1), v(.backendRequestsPerWidgetDay, $1), v(.stalenessMeanMin, $1))
      }?.strategy
      return out
    }
    let best = rows.max { v(acceptable, $0) < v(acceptable, $1) }!
    var out = Recommendation(
      strategy: best.strategy,
      reason: "no strategy keeps \(NumberFormat.short(targetPct)) % of glances within tolerance; this one comes closest "
        + "(\(NumberFormat.trim(NumberFormat.fixed(v(acceptable, best), decimals: 1))) %)",
      meetsTarget: false)
    out.targets = [defaultTarget(targetPct)]
    return out
  }
}
