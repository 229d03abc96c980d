/// What a sweep (or a run) should optimise: one summary metric to maximise
/// or minimise, subject to bounds on others.
///
///     // "maximise fresh glances, with at most 1 % frozen widget-days
///     //  and at most 500 requests/s at the backend's peak"
///     let o = Objective(goal: .maximize, metric: .freshGlancePct, bounds: [
///       .init(metric: .frozenWidgetDayPct, kind: .atMost, value: 1),
///       .init(metric: .backendPeakRps, kind: .atMost, value: 500),
///     ])
///     let outcome = o.evaluate(candidates, columns: SummaryMetrics.all)
///
/// The metrics are summary metrics (the scenario decoder reads their
/// column names). The direction is explicit (`goal`), so even a neutral
/// metric can be optimised; the metrics' polarity is not consulted.
public struct Objective: Sendable, Codable, Equatable {
  public enum Goal: String, Sendable, Codable {
    case maximize
    case minimize
  }

  /// One side of a constraint: `metric >= value` or `metric <= value`.
  public struct Bound: Sendable, Codable, Equatable {
    public enum Kind: String, Sendable, Codable {
      case atLeast
      case atMost
    }

    public var metric: SummaryMetric
    public var kind: Kind
    public var value: Double

    public init(metric: SummaryMetric, kind: Kind, value: Double) {
      self.metric = metric
      self.kind = kind
      self.value = value
    }

    /// How far `x` is inside the bound (positive) or outside it (negative).
    public func slack(_ x: Double) -> Double {
      kind == .atLeast ? x - value : value - x
    }

    /// `frozen_widget_day_pct <= 1`.
    public var text: String { metric.name + (kind == .atLeast ? " >= " : " <= ") + Objective.format(value) }
  }

  public var goal: Goal
  public var metric: SummaryMetric
  public var bounds: [Bound]

  public init(goal: Goal, metric: SummaryMetric, bounds: [Bound] = []) {
    self.goal = goal
    self.metric = metric
    self.bounds = bounds
  }

  /// `maximize fresh_glance_pct subject to frozen_widget_day_pct <= 1, ...`.
  public var text: String {
    goal.rawValue + " " + metric.name
      + (bounds.isEmpty ? "" : " subject to " + bounds.map(\.text).joined(separator: ", "))
  }

  /// `true` when `a` is a better objective value than `b`.
  public func isBetter(_ a: Double, than b: Double) -> Bool {
    goal == .maximize ? a > b : a < b
  }

  /// A bound as people write it: `1`, `0.5`, `95`.
  public static func format(_ x: Double) -> String {
    x == x.rounded() && abs(x) < 1e15 ? String(Int64(x)) : "\(x)"
  }
}

/// One row the objective reads: a strategy at a sweep point (a plain run
/// has one point, 0), with its `all`-segment summary values.
public struct ObjectiveCandidate: Sendable, Codable, Equatable {
  /// The sweep point, 0-based.
  public var point: Int
  public var strategy: String
  /// One value per column of the table the candidates come from.
  public var values: [Double?]
  /// Candidates with the same `group` are one choice, judged on their
  /// worst case: the same strategy and decision values at every value of
  /// the sweep's assumptions. `nil`: a choice of its own.
  public var group: Int?

  /// `strategy` is written `policy`, as in `summary.csv`.
  private enum CodingKeys: String, CodingKey {
    case point
    case strategy = "policy"
    case values, group
  }

  public init(point: Int, strategy: String, values: [Double?], group: Int? = nil) {
    self.point = point
    self.strategy = strategy
    self.values = values
    self.group = group
  }
}

extension ObjectiveCandidate {
  /// For each candidate, the first candidate of the same strategy with
  /// exactly the same values (itself when there is none): a strategy the
  /// swept parameters do not change has identical results at every point.
  ///
  ///     // hybrid is the same at both points; poll is not:
  ///     representatives([poll@0, hybrid@0, poll@1, hybrid@1])   // [0, 1, 2, 1]
  ///
  /// - Complexity: O(n x d x v): d distinct results per strategy, v values each.
  public static func representatives(_ candidates: [ObjectiveCandidate]) -> [Int] {
    var firsts: [String: [Int]] = [:]
    return candidates.enumerated().map { i, c in
      if let first = firsts[c.strategy]?.first(where: { candidates[$0].values == c.values }) { return first }
      firsts[c.strategy, default: []].append(i)
      return i
    }
  }
}

/// The result of evaluating an objective over candidates.
public struct ObjectiveOutcome: Sendable, Codable, Equatable {
  /// One choice (a candidate, or a group of them judged on their worst
  /// case) with its objective value and its slack on every bound.
  public struct Scored: Sendable, Codable, Equatable {
    /// The choice's first candidate (index into `candidates`).
    public var candidate: Int
    /// Every candidate of the choice, `candidate` first.
    public var members: [Int]
    /// The member with the worst objective value.
    public var worst: Int
    /// The objective metric's value (the worst over members), as the CSV shows it.
    public var objective: Double
    /// Per bound (in `objective.bounds` order), the smallest over members:
    /// positive inside, negative outside, `nil` when a member has no value.
    public var slacks: [Double?]
    /// The sum over violated bounds of violation / scale (0 when feasible).
    public var violation: Double
    /// The candidates of other choices of the same strategy with exactly
    /// the same values (the swept parameters do not change that strategy):
    /// ranked once, as this choice.
    public var twins: [Int] = []
    /// How many choices `twins` make up.
    public var twinChoices: Int = 0

    /// Every point this choice stands for, twins included.
    public func points(in candidates: [ObjectiveCandidate]) -> [Int] {
      (members + twins).map { candidates[$0].point }
    }

    public var isFeasible: Bool { slacks.allSatisfy { ($0 ?? -1) >= 0 } }
  }

  /// How one bound fared over all candidates.
  public struct BoundStat: Sendable, Codable, Equatable {
    /// Candidates that meet it.
    public var met: Int
    /// Candidates that have a value for its metric.
    public var measured: Int
    /// The most favourable value any candidate has (largest for `atLeast`).
    public var bestValue: Double?
  }

  public var objective: Objective
  public var candidates: [ObjectiveCandidate]
  /// Choices: distinct groups (or single candidates).
  public var choices: Int
  /// Feasible choices, best first (ties: earlier point, then earlier strategy).
  public var ranking: [Scored]
  /// When nothing is feasible: the choice that misses least.
  public var closest: Scored?
  public var boundStats: [BoundStat]
  /// Choices without a value for the objective metric (left out), twins not counted.
  public var unscored: Int
  /// Per candidate, judged alone (nil without an objective value).
  public var perCandidate: [Scored?]

  public var best: Scored? { ranking.first }
  public var runnerUp: Scored? { ranking.count > 1 ? ranking[1] : nil }
  /// Choices that meet every constraint, twins included.
  public var feasibleChoices: Int { ranking.reduce(0) { $0 + 1 + $1.twinChoices } }

  /// The best feasible choice of another strategy than the best's, if the
  /// runner-up is the same strategy at other decision values.
  public var bestOtherStrategy: Scored? {
    guard let best, let runnerUp else { return nil }
    let policy = candidates[best.candidate].strategy
    if candidates[runnerUp.candidate].strategy != policy { return nil }
    return ranking.first { candidates[$0.candidate].strategy != policy }
  }

  /// How much better the best is than the runner-up on the objective (>= 0).
  public var advantage: Double? {
    guard let best, let runnerUp else { return nil }
    return abs(best.objective - runnerUp.objective)
  }
}

extension Objective {
  /// Scores `candidates`, whose `values` follow `columns`.
  ///
  /// Every value is first rounded to its column's CSV decimals, so the
  /// outcome can be checked by hand against `sweep.csv` and a bound of 1 is
  /// met by a value the CSV shows as 1.00. A candidate without a value for
  /// a bound's metric fails that bound.
  ///
  /// Candidates that share a `group` are one choice, judged on its worst
  /// case (maximin): its objective value is the worst over its members and
  /// it meets a bound only if every member does. Choices of one strategy
  /// whose members have identical values (a strategy the swept parameters do
  /// not change) count once, as the first, with the others as its `twins`.
  /// A choice without an objective value is left out. Ties on the objective
  /// go to the earlier point, then to the strategy listed first.
  ///
  /// When nothing is feasible, `closest` is the choice with the smallest
  /// total normalised violation: the sum over violated bounds of the
  /// shortfall divided by the larger of |bound| and the metric's spread over
  /// all candidates (1 when both are 0).
  ///
  /// - Complexity: O(n log n) in the number of candidates, plus the twin search.
  public func evaluate(_ candidates: [ObjectiveCandidate], columns: [Metric]) -> ObjectiveOutcome {
    typealias Scored = ObjectiveOutcome.Scored
    func column(_ metric: SummaryMetric) -> (index: Int, decimals: Int)? {
      columns.firstIndex { $0.name == metric.name }.map { ($0, columns[$0].decimals) }
    }
    func value(_ c: ObjectiveCandidate, _ col: (index: Int, decimals: Int)?) -> Double? {
      guard let col, col.index < c.values.count, let v = c.values[col.index], v.isFinite else { return nil }
      return Self.rounded(v, decimals: col.decimals)
    }
    let objectiveColumn = column(metric)
    let boundColumns = bounds.map { column($0.metric) }
    // Scales for normalising violations.
    let scales = bounds.indices.map { b -> Double in
      let xs = candidates.compactMap { value($0, boundColumns[b]) }
      let spread = (xs.max() ?? 0) - (xs.min() ?? 0)
      let s = max(abs(bounds[b].value), spread)
      return s > 0 ? s : 1
    }
    func violation(_ slacks: [Double?]) -> Double {
      zip(slacks, scales).reduce(0) { sum, p in
        guard let s = p.0 else { return sum + 1 }
        return s < 0 ? sum - s / p.1 : sum
      }
    }
    // Each candidate alone.
    let alone: [Scored?] = candidates.enumerated().map { i, c in
      guard let obj = value(c, objectiveColumn) else { return nil }
      let slacks = bounds.enumerated().map { b, bound -> Double? in
        value(c, boundColumns[b]).map { Self.rounded(bound.slack($0), decimals: boundColumns[b]?.decimals ?? 6) }
      }
      return Scored(candidate: i, members: [i], worst: i, objective: obj, slacks: slacks, violation: violation(slacks))
    }
    // Choices: groups in order of their first candidate.
    var groupOrder: [Int] = []
    var membersOf: [Int: [Int]] = [:]
    for (i, c) in candidates.enumerated() {
      let key = c.group ?? -(i + 1)
      if membersOf[key] == nil { groupOrder.append(key) }
      membersOf[key, default: []].append(i)
    }
    let choices = groupOrder.map { membersOf[$0] ?? [] }
    // Twins: choices of one strategy whose members have identical values.
    var firstOfKind: [String: [Int]] = [:]
    var twinOf = [Int?](repeating: nil, count: choices.count)
    for (k, members) in choices.enumerated() {
      let policy = candidates[members[0]].strategy
      let same = firstOfKind[policy]?.first { j in
        choices[j].count == members.count
          && zip(choices[j], members).allSatisfy { candidates[$0].values == candidates[$1].values }
      }
      if let same { twinOf[k] = same } else { firstOfKind[policy, default: []].append(k) }
    }
    var scored: [Scored] = []
    var unscored = 0
    for (k, members) in choices.enumerated() where twinOf[k] == nil {
      let parts = members.map { alone[$0] }
      guard parts.allSatisfy({ $0 != nil }) else {
        unscored += 1
        continue
      }
      let ps = parts.compactMap { $0 }
      var worst = ps[0]
      for p in ps.dropFirst() where isBetter(worst.objective, than: p.objective) { worst = p }
      let slacks = bounds.indices.map { b -> Double? in
        let xs = ps.map { $0.slacks[b] }
        return xs.contains { $0 == nil } ? nil : xs.compactMap { $0 }.min()
      }
      let twins = choices.indices.filter { twinOf[$0] == k }
      scored.append(
        Scored(
          candidate: members[0], members: members, worst: worst.candidate, objective: worst.objective, slacks: slacks,
          violation: violation(slacks), twins: twins.flatMap { choices[$0] }, twinChoices: twins.count))
    }
    // Stable: equal objective values keep choice order.
    let ranking = scored.filter(\.isFeasible).enumerated().sorted { a, b in
      if a.element.objective != b.element.objective { return isBetter(a.element.objective, than: b.element.objective) }
      return a.offset < b.offset
    }.map(\.element)
    var closest: Scored? = nil
    if ranking.isEmpty {
      for s in scored where closest == nil || s.violation < closest!.violation { closest = s }
    }
    let stats = bounds.enumerated().map { b, bound -> ObjectiveOutcome.BoundStat in
      let xs = candidates.compactMap { value($0, boundColumns[b]) }
      let met = xs.filter { Self.rounded(bound.slack($0), decimals: boundColumns[b]?.decimals ?? 6) >= 0 }.count
      let best = bound.kind == .atLeast ? xs.max() : xs.min()
      return .init(met: met, measured: xs.count, bestValue: best)
    }
    return ObjectiveOutcome(
      objective: self, candidates: candidates, choices: choices.count, ranking: ranking, closest: closest,
      boundStats: stats, unscored: unscored, perCandidate: alone)
  }

  /// `x` rounded to `decimals` places, as `NumberFormat.fixed` prints it.
  static func rounded(_ x: Double, decimals: Int) -> Double {
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let r = (x * scale).rounded() / scale
    return r == 0 ? 0 : r  // no -0
  }
}

extension ObjectiveOutcome {
  /// For each strategy, in the order the candidates first name it, the
  /// objective judged on that strategy's candidates alone: its `best` is the
  /// strategy's best choice (the best polling interval, the best budget
  /// setting, ...), its `closest` the least failing one when none meets
  /// every constraint. `columns`: the columns the candidates' values follow.
  /// Each outcome keeps this outcome's `candidates`, so its indices (and
  /// anything that describes a choice of this outcome) refer to the same
  /// candidates; its counts and bound statistics are the strategy's own.
  ///
  ///     // sweep-poll-interval: hybrid the same at every point, poll best at 45 min
  ///     outcome.byStrategy(columns: results.columns).map { ($0.strategy, $0.outcome.best?.candidate) }
  ///
  /// - Complexity: one `evaluate` per strategy over its own candidates.
  public func byStrategy(columns: [Metric]) -> [(strategy: String, outcome: ObjectiveOutcome)] {
    var names: [String] = []
    for c in candidates where !names.contains(c.strategy) { names.append(c.strategy) }
    return names.map { name in
      let own = candidates.indices.filter { candidates[$0].strategy == name }
      var o = objective.evaluate(own.map { candidates[$0] }, columns: columns)
      // Back to this outcome's candidate indices.
      func map(_ s: Scored) -> Scored {
        var s = s
        s.candidate = own[s.candidate]
        s.members = s.members.map { own[$0] }
        s.worst = own[s.worst]
        s.twins = s.twins.map { own[$0] }
        return s
      }
      o.ranking = o.ranking.map(map)
      o.closest = o.closest.map(map)
      var alone = [Scored?](repeating: nil, count: candidates.count)
      for (k, s) in o.perCandidate.enumerated() { alone[own[k]] = s.map(map) }
      o.perCandidate = alone
      o.candidates = candidates
      return (name, o)
    }
  }
}
