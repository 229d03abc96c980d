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
  /// How the summary names metrics and prints numbers.
  public enum Wording: Sendable {
    /// Column names at `summary.csv` precision, for stdout and sweep.json:
    /// `acceptable_glance_pct 92.09, 2.09 inside >= 90`.
    case columns
    /// The catalogue's labels with their units, numbers as the pages print
    /// them, for sweep.html: `glances within tolerance 92.1 %, 2.1 pts inside ≥ 90 %`.
    case labels
  }

  public let outcome: ObjectiveOutcome
  public let columns: [Metric]
  /// Points the candidates come from (1 for a plain run).
  public let points: Int
  /// Where a choice sits, after its strategy's name (` at interval_min = 30`;
  /// empty for a plain run).
  public let describe: (ObjectiveOutcome.Scored) -> String
  public var wording: Wording
  /// The 95 % interval of a candidate's (an index into `outcome.candidates`)
  /// value of a metric, where it has one: what a margin must beat to be more
  /// than noise.
  var interval: (Int, SummaryMetric) -> MetricInterval? = { _, _ in nil }

  public init(
    _ outcome: ObjectiveOutcome, columns: [Metric] = SummaryMetrics.all, points: Int, wording: Wording = .columns,
    describe: @escaping (ObjectiveOutcome.Scored) -> String
  ) {
    self.outcome = outcome
    self.columns = columns
    self.points = points
    self.wording = wording
    self.describe = describe
  }

  /// A sweep's summary, with its points' 95 % intervals (`_ci95` columns
  /// with replications, the fleet peak's own interval), so a margin inside
  /// them is called noise.
  public init(sweep results: SweepResults, outcome: ObjectiveOutcome, wording: Wording = .columns) {
    self.init(outcome, columns: results.columns, points: results.points.count, wording: wording) {
      results.describe($0, in: outcome)
    }
    interval = { c, m in
      guard outcome.candidates.indices.contains(c), let metric = results.columns.first(where: { $0.name == m.name })
      else { return nil }
      return results.interval(metric, policy: outcome.candidates[c].strategy, point: outcome.candidates[c].point)
    }
  }

  var objective: Objective { outcome.objective }

  /// `poll at interval_min = 30`, or just `poll` for a plain run.
  public func label(_ s: ObjectiveOutcome.Scored) -> String {
    outcome.candidates[s.candidate].strategy + describe(s)
  }

  /// `x` at the metric's CSV precision (`82.15`, `0.600`), or as the pages
  /// print it with its unit (`82.2 %`, `0.6`, `296 req/s`).
  public func value(_ metric: SummaryMetric, _ x: Double) -> String {
    switch wording {
    case .columns:
      let decimals = columns.first { $0.name == metric.name }?.decimals ?? 3
      return NumberFormat.fixed(x, decimals: decimals)
    case .labels: return Self.labelledValue(metric, x)
    }
  }

  /// `x` as the pages print it with its unit (`82.2 %`, `0.6`, `296 req/s`).
  static func labelledValue(_ metric: SummaryMetric, _ x: Double) -> String {
    // NumberFormat.metric prints %, min, h and s; the name carries "per widget-day".
    let unit = metric.metric.unit
    let printed: Set<MetricUnit> = [.percent, .minutes, .hours, .hourOfDay, .seconds, .count]
    return NumberFormat.metric(x, unit: unit)
      + (printed.contains(unit) || Self.unitInName(unit) ? "" : " " + unit.symbol)
  }

  /// A difference of the metric's values: `2.09`, or `2.1 pts` for a
  /// percentage on the pages.
  public func amount(_ metric: SummaryMetric, _ d: Double) -> String {
    guard wording == .labels, metric.metric.unit == .percent else { return value(metric, d) }
    var text = NumberFormat.trim(NumberFormat.fixed(d, decimals: 1))
    // A difference that is not 0 does not print as 0.
    if d != 0 && Double(text) == 0 {
      text = NumberFormat.fixed(d, decimals: columns.first { $0.name == metric.name }?.decimals ?? 2)
    }
    return text + (text == "1" ? " pt" : " pts")
  }

  /// The units a metric's name carries ("budgeted reloads per widget-day")
  /// rather than its values.
  static func unitInName(_ unit: MetricUnit) -> Bool { unit == .perWidgetDay || unit == .perDeviceDay }

  /// The metric inside a sentence: `acceptable_glance_pct`, or `glances
  /// within tolerance`, `budgeted reloads per widget-day`.
  public func name(_ metric: SummaryMetric) -> String {
    switch wording {
    case .columns: return metric.name
    case .labels: return Self.labelledName(metric)
    }
  }

  /// The metric inside a sentence on a page: `glances within tolerance`,
  /// `budgeted reloads per widget-day`.
  static func labelledName(_ metric: SummaryMetric) -> String {
    let m = metric.metric
    return m.labelInSentence + (Self.unitInName(m.unit) ? ReportLabels.unitSuffix(m.unit) : "")
  }

  /// The metric as a table heading: `acceptable_glance_pct`, or `Glances
  /// within tolerance`, `Budgeted reloads per widget-day`.
  public func heading(_ metric: SummaryMetric) -> String {
    switch wording {
    case .columns: return metric.name
    case .labels:
      let m = metric.metric
      return m.label + (Self.unitInName(m.unit) ? ReportLabels.unitSuffix(m.unit) : "")
    }
  }

  /// A bound: `acceptable_glance_pct >= 90`, or `glances within tolerance ≥ 90 %`.
  public func text(_ b: Objective.Bound) -> String {
    switch wording {
    case .columns: return b.text
    case .labels: return Self.labelled(b)
    }
  }

  /// A bound as the pages say it: `glances within tolerance ≥ 90 %`.
  static func labelled(_ b: Objective.Bound) -> String {
    labelledName(b.metric) + (b.kind == .atLeast ? " ≥ " : " ≤ ") + labelledValue(b.metric, b.value)
  }

  /// The objective: `minimize budgeted_reloads_per_widget_day subject to ...`,
  /// or `minimise budgeted reloads per widget-day subject to glances within
  /// tolerance ≥ 90 % and ...`.
  public var objectiveText: String {
    switch wording {
    case .columns: return objective.text
    case .labels:
      let bounds = objective.bounds.map(text)
      return (objective.goal == .maximize ? "maximise " : "minimise ") + name(objective.metric)
        + (bounds.isEmpty
          ? ""
          : " subject to " + (bounds.count > 1 ? bounds.dropLast().joined(separator: ", ") + " and " : "")
            + (bounds.last ?? ""))
    }
  }

  // MARK: - Noise

  /// An interval as the summary prints it: `± 2.50` or `267.4–323.7`
  /// (CSV precision), `± 2.5 %` or `267–324` (the pages).
  func text(_ i: MetricInterval, _ metric: SummaryMetric) -> String {
    switch wording {
    case .columns:
      return i.symmetric ? "± " + value(metric, (i.hi - i.lo) / 2) : value(metric, i.lo) + "–" + value(metric, i.hi)
    case .labels: return i.text(unit: metric.metric.unit)
    }
  }

  /// The member of a choice whose value sets its margin on bound `b` (its
  /// worst on that bound).
  func binding(_ s: ObjectiveOutcome.Scored, bound b: Int) -> Int {
    guard let slack = s.slacks[b] else { return s.candidate }
    return s.members.first { outcome.perCandidate[$0]?.slacks[b] == slack } ?? s.candidate
  }

  /// The 95 % interval of a choice's objective value (its worst member's),
  /// or of the value that sets its margin on bound `b`, as the summary prints it.
  public func intervalText(_ s: ObjectiveOutcome.Scored, bound b: Int? = nil) -> String? {
    let metric = b.map { objective.bounds[$0].metric } ?? objective.metric
    return interval(b.map { binding(s, bound: $0) } ?? s.worst, metric).map { text($0, metric) }
  }

  /// The 95 % interval of the value that sets a choice's margin on bound
  /// `b`, when that interval holds the bound: the margin is within the noise.
  public func noisyInterval(_ s: ObjectiveOutcome.Scored, bound b: Int) -> String? {
    guard s.slacks[b] != nil, let i = interval(binding(s, bound: b), objective.bounds[b].metric),
      i.contains(objective.bounds[b].value)
    else { return nil }
    return text(i, objective.bounds[b].metric)
  }

  /// The bounds whose margin at a choice is within the noise.
  public func noisyBounds(_ s: ObjectiveOutcome.Scored) -> [Int] {
    objective.bounds.indices.filter { noisyInterval(s, bound: $0) != nil }
  }

  /// The noise the best's lead on the objective must beat (the combined
  /// 95 % half-widths of the two values), when both have an interval.
  public var advantageNoise: Double? {
    guard let best = outcome.best, let runnerUp = outcome.runnerUp else { return nil }
    return MetricInterval.combined(interval(best.worst, objective.metric), interval(runnerUp.worst, objective.metric))
  }

  /// Whether the best's lead on the runner-up is within the noise (nil: unknown).
  public var advantageIsNoise: Bool? {
    guard let d = outcome.advantage, let noise = advantageNoise else { return nil }
    return d <= noise
  }

  // MARK: - Lines

  /// The first line: the objective, and how many candidates meet it.
  public var headline: String { "Objective: \(objectiveText), " + headlineCount }

  /// The headline after the objective: `judged on all segments: 12 of 27 ... meet every constraint.`
  public var headlineCount: String {
    let n = outcome.choices
    let grouped = n < outcome.candidates.count
    let what =
      points == 1
      ? "strategies"
      : grouped
        ? "choices (each judged on its worst case over the assumptions)" : "choices (\(points) points x strategies)"
    return "judged on all segments: "
      + (objective.bounds.isEmpty
        ? "\(n) \(what)."
        : "\(outcome.feasibleChoices) of \(n) \(what) meet every constraint.")
  }

  /// How far inside each bound the best choice is (its worst member, for a
  /// group), and whether that is within the noise.
  public func margins(_ s: ObjectiveOutcome.Scored) -> [String] {
    zip(objective.bounds, s.slacks).enumerated().map { b, pair in
      let (bound, slack) = pair
      guard let slack else { return "\(name(bound.metric)) has no value" }
      let x = bound.kind == .atLeast ? bound.value + slack : bound.value - slack
      let limit =
        wording == .columns
        ? (bound.kind == .atLeast ? ">= " : "<= ") + Objective.format(bound.value)
        : (bound.kind == .atLeast ? "≥ " : "≤ ") + value(bound.metric, bound.value)
      return "\(name(bound.metric)) \(value(bound.metric, x))\(s.members.count > 1 ? " at worst" : ""), "
        + "\(amount(bound.metric, abs(slack))) \(slack >= 0 ? "inside" : "outside") \(limit)"
        + (noisyInterval(s, bound: b).map { ", within the noise (95 % interval \($0))" } ?? "")
    }
  }

  /// The difference to the runner-up, in words: `0.25 higher (0.3 %)`,
  /// with `, within the noise (± 0.40)` when the two values' intervals
  /// cover it.
  public var advantageText: String? {
    guard let best = outcome.best, let runnerUp = outcome.runnerUp, let d = outcome.advantage else { return nil }
    if d == 0 { return "a tie, broken by order (earlier point, then the strategy listed first)" }
    let word = best.objective > runnerUp.objective ? "higher" : "lower"
    var s = amount(objective.metric, d) + " " + word
    if runnerUp.objective != 0 {
      s += " (" + NumberFormat.trim(NumberFormat.fixed(100 * d / abs(runnerUp.objective), decimals: 1)) + " %)"
    }
    return s + (advantageNoiseText ?? "")
  }

  /// `, within the noise (combined 95 % interval ± 0.40)` when the best's
  /// lead on the runner-up is no larger than the noise; else nil.
  public var advantageNoiseText: String? {
    guard advantageIsNoise == true, let noise = advantageNoise else { return nil }
    return ", within the noise (combined 95 % interval ± " + amount(objective.metric, noise) + ")"
  }

  /// Every line, in reading order.
  public var lines: [String] {
    var out = [headline]
    let metric = objective.metric
    let m = name(metric)
    if outcome.unscored > 0 {
      out.append(
        "\(NumberFormat.count(outcome.unscored, "candidate")) \(outcome.unscored == 1 ? "has" : "have") no value for "
          + "\(m) and \(outcome.unscored == 1 ? "was" : "were") left out.")
    }
    if let best = outcome.best {
      out.append("Best: \(label(best)): \(m) \(value(metric, best.objective)).")
      let marginLines = margins(best)
      if !marginLines.isEmpty { out.append("  Margins: " + marginLines.joined(separator: "; ") + ".") }
      if let r = outcome.runnerUp, let adv = advantageText {
        out.append("Runner-up: \(label(r)): \(m) \(value(metric, r.objective)); the best is \(adv).")
      } else {
        out.append("Runner-up: none; only one candidate meets every constraint.")
      }
      if let other = outcome.bestOtherStrategy {
        out.append("Best other strategy: \(label(other)): \(m) \(value(metric, other.objective)).")
      }
      out += perStrategyLines
      return out
    }
    if let closest = outcome.closest {
      out.append(
        "No candidate meets every constraint. Closest: \(label(closest)) (\(m) "
          + "\(value(metric, closest.objective))), which misses " + misses(closest).joined(separator: " and ") + ".")
    } else {
      out.append("No candidate has a value for \(m).")
    }
    out.append("By constraint, the least failing first: " + constraintLines.joined(separator: "; ") + ".")
    out += perStrategyLines
    return out
  }

  /// The bounds a choice misses and by how much: `acceptable_glance_pct >= 90 by 3.10`,
  /// with `, within the noise (95 % interval ± 4.00)` when the bound is inside its value's interval.
  func misses(_ s: ObjectiveOutcome.Scored) -> [String] {
    zip(objective.bounds, s.slacks).enumerated().compactMap { b, pair -> String? in
      let (bound, slack) = pair
      guard let slack else { return "\(text(bound)) (no value)" }
      guard slack < 0 else { return nil }
      return "\(text(bound)) by \(amount(bound.metric, -slack))"
        + (noisyInterval(s, bound: b).map { ", within the noise (95 % interval \($0))" } ?? "")
    }
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
    if s.isFeasible { return "\(name(metric)) \(value(metric, s.objective))" }
    return "misses " + misses(s).joined(separator: " and ")
      + (withValue ? " (\(name(metric)) \(value(metric, s.objective)))" : "")
  }

  /// "Best per strategy:" and a line per strategy (none for a plain run).
  public var perStrategyLines: [String] {
    let per = byStrategy
    guard !per.isEmpty else { return [] }
    return ["Best per strategy:"]
      + per.map { strategy, o in
        guard let s = o.best ?? o.closest else { return "  \(strategy): no value for \(name(objective.metric))." }
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
      return "\(text(b)): met by \(st.met) of \(outcome.candidates.count) rows\(best)"
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
