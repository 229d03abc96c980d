import ReloadMetrics

/// The default rule: the cheapest strategy (fewest budgeted reloads, then
/// fewest backend requests) among those that keep at least 90 % of glances
/// within the freshness tolerance; if none does, the freshest one. A
/// scenario's objective replaces it (`Recommendation.from`).
extension Recommendation {
  /// The default rule's target: `acceptable_glance_pct >= defaultTargetPct`.
  public static func defaultTarget() -> Objective.Bound {
    .init(metric: .acceptableGlancePct, kind: .atLeast, value: defaultTargetPct)
  }

  /// The targets a recommendation judged by `objective` (nil: the default
  /// rule) had to meet, for the charts to draw.
  public static func targets(_ objective: Objective?) -> [Objective.Bound] {
    objective?.bounds ?? [defaultTarget()]
  }

  /// The summary metrics that measure freshness, most direct first.
  public static let freshnessMetrics: [SummaryMetric] = [
    .acceptableGlancePct, .freshGlancePct, .stalenessMeanMin, .stalenessP50Min, .stalenessP95Min,
    .stalenessP99Min, .staleGlanceStalenessMeanMin,
  ]

  /// The freshness metric an objective judges by: its goal's metric or
  /// its first constrained one that measures freshness, else the default
  /// rule's (`acceptable_glance_pct`), which nil (the default rule) judges by.
  public static func freshnessMetric(of o: Objective?) -> SummaryMetric {
    guard let o else { return .acceptableGlancePct }
    return ([o.metric] + o.bounds.map(\.metric)).first(where: freshnessMetrics.contains) ?? .acceptableGlancePct
  }

  public static let defaultTargetPct = 90.0
  /// The default rule, in words (the cost named in the reason follows it).
  public static let defaultObjective =
    "at least 90 % of glances within tolerance; among those, the fewest budgeted reloads per widget-day, "
    + "then the fewest backend requests per widget-day"

  /// The default rule's recommendation among `table`'s strategies (all
  /// segments); nil when no strategy has glances to judge.
  public static func compute(_ table: ResultTable) -> Recommendation? {
    let targetPct = defaultTargetPct
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
        + "a backend peak of \(NumberFormat.short(v(.backendFleetPeakRps, best))) requests/s (the fleet's p99.9 "
        + "second) and "
        + "\(NumberFormat.short(pushes(best))) pushes a day, "
        + (others == 0
          ? "the only strategy that meets the target"
          : "the cheapest of the \(qualifying.count) that meet it (cheapest: fewest budgeted reloads, then fewest "
            + "backend requests)")
      let runnerUp = qualifying.filter { $0.strategy != best.strategy }.min {
        (v(.budgetedReloadsPerWidgetDay, $0), v(.backendRequestsPerWidgetDay, $0), v(.stalenessMeanMin, $0))
          < (v(.budgetedReloadsPerWidgetDay, $1), v(.backendRequestsPerWidgetDay, $1), v(.stalenessMeanMin, $1))
      }?.strategy
      return Recommendation(
        strategy: best.strategy, reason: reason, meetsTarget: true, runnerUp: runnerUp, objective: defaultObjective)
    }
    let best = rows.max { v(acceptable, $0) < v(acceptable, $1) }!
    return Recommendation(
      strategy: best.strategy,
      reason:
        "no strategy keeps \(NumberFormat.short(targetPct)) % of glances within tolerance; this one comes closest "
        + "(\(NumberFormat.trim(NumberFormat.fixed(v(acceptable, best), decimals: 1))) %)",
      meetsTarget: false, objective: defaultObjective)
  }
}

/// What the charts mark of a recommendation: the strategy (ringed), the
/// targets it had to meet (dashed lines) and the freshness metric it was
/// judged by (the freshness axis).
struct RecommendationMarks {
  var strategy: String
  var targets: [Objective.Bound]
  var freshnessMetric: SummaryMetric

  /// The marks of `recommendation`, judged by `objective` (nil: the default
  /// rule); nil without a recommendation.
  init?(_ recommendation: Recommendation?, objective: Objective?) {
    guard let recommendation else { return nil }
    strategy = recommendation.strategy
    targets = Recommendation.targets(objective)
    freshnessMetric = Recommendation.freshnessMetric(of: objective)
  }
}
