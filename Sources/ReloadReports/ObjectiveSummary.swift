import ReloadMetrics

/// An objective's outcome in words, for stdout and the top of `sweep.html`:
/// the best candidate and its margins, the runner-up, or (when nothing is
/// feasible) the closest miss and how each constraint fared.
///
/// Values are printed at their `summary.csv` precision, the precision the
/// objective was judged at.
///
///     let s = ObjectiveSummary(outcome, columns: SummaryMetrics.all, points: 20) {
///       sweep.describe($0, in: outcome)
///     }
///     s.lines   // ["Objective: maximize fresh_glance_pct subject to ...", "Best: poll at ...", ...]
public struct ObjectiveSummary {
  public let outcome: ObjectiveOutcome
  public let columns: [Metric]
  /// Points the candidates come from (1 for a plain run).
  public let points: Int
  /// Where a choice sits, after its strategy's name (` at interval_min = 30`;
  /// empty for a plain run).
  public let describe: (ObjectiveOutcome.Scored) -> String

  public init(
    _ outcome: ObjectiveOutcome, columns: [Metric] = SummaryMetrics.all, points: Int,
    describe: @escaping (ObjectiveOutcome.Scored) -> String
  ) {
    self.outcome = outcome
    self.columns = columns
    self.points = points
    self.describe = describe
  }

  var objective: Objective { outcome.objective }

  /// `poll at interval_min = 30`, or just `poll` for a plain run.
  public func label(_ s: ObjectiveOutcome.Scored) -> String {
    outcome.candidates[s.candidate].strategy + describe(s)
  }

  /// `x` at the metric's CSV precision: `82.15`, `0.600`.
  public func value(_ metric: SummaryMetric, _ x: Double) -> String {
    let decimals = columns.first { $0.name == metric.name }?.decimals ?? 3
    return NumberFormat.fixed(x, decimals: decimals)
  }

  /// The first line: the objective, and how many candidates meet it.
  public var headline: String {
    let n = outcome.choices
    let grouped = n < outcome.candidates.count
    let what =
      points == 1
      ? "strategies"
      : grouped
        ? "choices (each judged on its worst case over the assumptions)" : "choices (\(points) points x strategies)"
    var s = "Objective: \(objective.text), judged on all segments: "
    s +=
      objective.bounds.isEmpty
      ? "\(n) \(what)."
      : "\(outcome.feasibleChoices) of \(n) \(what) meet every constraint."
    return s
  }

  /// How far inside each bound the best choice is (its worst member, for a group).
  public func margins(_ s: ObjectiveOutcome.Scored) -> [String] {
    zip(objective.bounds, s.slacks).map { b, slack in
      guard let slack else { return "\(b.metric) has no value" }
      let x = b.kind == .atLeast ? b.value + slack : b.value - slack
      return "\(b.metric) \(value(b.metric, x))\(s.members.count > 1 ? " at worst" : ""), "
        + "\(value(b.metric, abs(slack))) \(slack >= 0 ? "inside" : "outside") \(b.kind == .atLeast ? ">=" : "<=") "
        + Objective.format(b.value)
    }
  }

  /// The difference to the runner-up, in words: `0.25 higher (0.3 %)`.
  public var advantageText: String? {
    guard let best = outcome.best, let runnerUp = outcome.runnerUp, let d = outcome.advantage else { return nil }
    if d == 0 { return "a tie, broken by order (earlier point, then the strategy listed first)" }
    let word = best.objective > runnerUp.objective ? "higher" : "lower"
    var s = value(objective.metric, d) + " " + word
    if runnerUp.objective != 0 {
      s += " (" + NumberFormat.trim(NumberFormat.fixed(100 * d / abs(runnerUp.objective), decimals: 1)) + " %)"
    }
    return s
  }

  /// Every line, in reading order.
  public var lines: [String] {
    var out = [headline]
    let metric = objective.metric
    if outcome.unscored > 0 {
      out.append(
        "\(NumberFormat.count(outcome.unscored, "candidate")) \(outcome.unscored == 1 ? "has" : "have") no value for "
          + "\(metric) and \(outcome.unscored == 1 ? "was" : "were") left out.")
    }
    if let best = outcome.best {
      out.append("Best: \(label(best)): \(metric) \(value(metric, best.objective)).")
      let m = margins(best)
      if !m.isEmpty { out.append("  Margins: " + m.joined(separator: "; ") + ".") }
      if let r = outcome.runnerUp, let adv = advantageText {
        out.append("Runner-up: \(label(r)): \(metric) \(value(metric, r.objective)); the best is \(adv).")
      } else {
        out.append("Runner-up: none; only one candidate meets every constraint.")
      }
      if let other = outcome.bestOtherStrategy {
        out.append("Best other strategy: \(label(other)): \(metric) \(value(metric, other.objective)).")
      }
      out += perStrategyLines
      return out
    }
    if let closest = outcome.closest {
      let misses = zip(objective.bounds, closest.slacks).compactMap { b, slack -> String? in
        guard let slack else { return "\(b.text) (no value)" }
        return slack < 0 ? "\(b.text) by \(value(b.metric, -slack))" : nil
      }
      out.append(
        "No candidate meets every constraint. Closest: \(label(closest)) (\(metric) "
          + "\(value(metric, closest.objective))), which misses " + misses.joined(separator: " and ") + ".")
    } else {
      out.append("No candidate has a value for \(metric).")
    }
    out.append("By constraint, the least failing first: " + constraintLines.joined(separator: "; ") + ".")
    out += perStrategyLines
    return out
  }

  /// Each strategy's own best choice (`ObjectiveOutcome.byStrategy`), for a
  /// sweep: the best polling interval, the best budget setting, ...
  public var byStrategy: [(strategy: String, outcome: ObjectiveOutcome)] {
    points > 1 ? outcome.byStrategy(columns: columns) : []
  }

  /// The objective's value, or what a choice misses: `budgeted_reloads_per_widget_day 21.443`,
  /// `misses acceptable_glance_pct >= 90 by 3.10 (budgeted_reloads_per_widget_day 0.500)`.
  public func verdict(_ s: ObjectiveOutcome.Scored, withValue: Bool = true) -> String {
    let metric = objective.metric
    if s.isFeasible { return "\(metric) \(value(metric, s.objective))" }
    let misses = zip(objective.bounds, s.slacks).compactMap { b, slack -> String? in
      guard let slack else { return "\(b.text) (no value)" }
      return slack < 0 ? "\(b.text) by \(value(b.metric, -slack))" : nil
    }
    return "misses " + misses.joined(separator: " and ")
      + (withValue ? " (\(metric) \(value(metric, s.objective)))" : "")
  }

  /// "Best per strategy:" and a line per strategy (none for a plain run).
  public var perStrategyLines: [String] {
    let per = byStrategy
    guard !per.isEmpty else { return [] }
    return ["Best per strategy:"]
      + per.map { name, o in
        guard let s = o.best ?? o.closest else { return "  \(name): no value for \(objective.metric)." }
        let overall = outcome.best.map { $0.candidate == s.candidate } ?? false
        return "  \(label(s)): " + verdict(s) + (overall ? " (best overall)" : "") + "."
      }
  }

  /// Each bound with how many candidates meet it, most met first.
  public var constraintLines: [String] {
    let order = objective.bounds.indices.sorted {
      (-outcome.boundStats[$0].met, $0) < (-outcome.boundStats[$1].met, $1)
    }
    return order.map { i in
      let b = objective.bounds[i]
      let st = outcome.boundStats[i]
      let best = st.bestValue.map { ", best value " + value(b.metric, $0) } ?? ""
      return "\(b.text): met by \(st.met) of \(outcome.candidates.count) rows\(best)"
    }
  }
}

extension Recommendation {
  /// The recommendation an objective makes among a plain run's strategies
  /// (candidates of one point): the best feasible strategy, or the one that
  /// misses least.
  ///
  ///     let outcome = objective.evaluate(candidates, columns: table.columns)
  ///     let rec = Recommendation.from(outcome, columns: table.columns)
  public static func from(_ outcome: ObjectiveOutcome, columns: [Metric]) -> Recommendation? {
    let summary = ObjectiveSummary(outcome, columns: columns, points: 1) { _ in "" }
    let o = outcome.objective
    if let best = outcome.best {
      var reason =
        "\(o.goal == .maximize ? "maximises" : "minimises") \(o.metric) (\(summary.value(o.metric, best.objective)))"
      let margins = summary.margins(best)
      if !margins.isEmpty { reason += " with " + margins.joined(separator: ", ") }
      let others = outcome.ranking.count - 1
      reason +=
        others == 0
        ? (o.bounds.isEmpty ? "" : ", the only strategy that meets every constraint")
        : ", ahead of \(outcome.candidates[outcome.ranking[1].candidate].strategy): \(summary.advantageText ?? "–")"
      return Recommendation(
        strategy: outcome.candidates[best.candidate].strategy, reason: reason, meetsTarget: true,
        runnerUp: others > 0 ? outcome.candidates[outcome.ranking[1].candidate].strategy : nil, objective: o.text)
    }
    guard let closest = outcome.closest else { return nil }
    let misses = zip(o.bounds, closest.slacks).compactMap { b, slack -> String? in
      guard let slack else { return "\(b.text) (no value)" }
      return slack < 0 ? "\(b.text) by \(summary.value(b.metric, -slack))" : nil
    }
    return Recommendation(
      strategy: outcome.candidates[closest.candidate].strategy,
      reason: "no strategy meets every constraint of the objective (\(o.text)); this one misses least: "
        + misses.joined(separator: " and "),
      meetsTarget: false, objective: o.text)
  }
}
