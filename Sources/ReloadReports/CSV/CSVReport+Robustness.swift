import ReloadMetrics

extension CSVReport {
  /// The columns of `robustness.csv`, in order.
  public static let robustnessColumns = [
    "scenario", "assumption", "alternative", "policy", "metric", "value", "base", "difference",
    "difference_ci95", "simulated", "recommended",
  ]

  /// `robustness.csv`: one row per variant x strategy x headline metric, in
  /// the variants' order (assumptions in docs/model.md's order, each
  /// alternative in its order, then the whole-model profiles), then the
  /// scenario's strategies, then the metrics in `summary.csv`'s order.
  /// A profile's `assumption` is `profile`. Values at the metric's
  /// `summary.csv` precision; `difference_ci95` is the 95 % half-width of
  /// the difference due to a device sample (empty when every device ran or
  /// it cannot be estimated); `simulated` is 0 when the variant changes
  /// nothing the strategy reads (its base results stand); `recommended` is
  /// what the variant recommends. A scenario with Live Activities adds,
  /// after these, the same rows for each activity strategy and
  /// `ActivityRobustness.metrics` (`live_activities.csv` columns), with the
  /// best activity strategy as `recommended` and no `difference_ci95`.
  ///
  ///     scenario,assumption,alternative,policy,metric,value,base,difference,difference_ci95,simulated,recommended
  ///     default,budget_accrual,sliding_window,poll-15m,fresh_glance_pct,79.12,84.03,-4.91,0.35,1,hybrid
  public static func robustness(_ r: RobustnessResults) -> String {
    var out = line(robustnessColumns)
    for v in r.variants {
      for (s, policy) in r.strategies.enumerated() {
        for (m, metric) in r.metrics.enumerated() {
          let d = metric.metric.decimals
          func cell(_ x: Double?) -> String { x.map { NumberFormat.fixed($0, decimals: d) } ?? "" }
          out += line([
            r.scenario, v.assumption ?? "profile", v.alternative, policy, metric.name, cell(v.values[s][m]),
            cell(r.base[s][m]), cell(r.difference(v, strategy: s, metric: m)), cell(v.halfWidth95?[s][m] ?? nil),
            v.simulated[s] ? "1" : "0",
            v.recommended ?? "",
          ])
        }
      }
    }
    // The Live Activities' figures, in the same columns (the metric a
    // live_activities.csv column, `recommended` the best activity strategy).
    if let a = r.activities {
      for (v, reading) in zip(r.variants, a.readings) {
        for (s, policy) in a.strategies.enumerated() {
          for (m, metric) in ActivityRobustness.metrics.enumerated() {
            func cell(_ x: Double?) -> String { x.map { NumberFormat.fixed($0, decimals: metric.decimals) } ?? "" }
            let value = reading.values[s][m]
            let base = a.base[s][m]
            out += line([
              r.scenario, v.assumption ?? "profile", v.alternative, policy, metric.name, cell(value), cell(base),
              cell(value.flatMap { x in base.map { x - $0 } }), "", reading.simulated ? "1" : "0", reading.best ?? "",
            ])
          }
        }
      }
    }
    return out
  }
}
