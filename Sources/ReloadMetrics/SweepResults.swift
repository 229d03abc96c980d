/// Everything a parameter sweep produced, as plain values: what
/// `sweep.csv`, `sweep.html` and `sweep.json` are rendered from.
///
/// A sweep runs one scenario at every point of a grid of parameter values
/// (the cartesian product of each parameter's values, the first parameter
/// varying slowest) with the same seed, so every point sees the same
/// devices, glances and data changes unless a swept parameter changes them.
/// Each point keeps only its summary rows (the `ResultRow`s of
/// `summary.csv`), so a sweep's memory does not grow with its points' series.
public struct SweepResults: Sendable, Codable {
  /// What was simulated, and how fast (the facts a run reports too).
  public var facts: SimulationFacts
  public var parameters: [SweepParameter]
  /// In grid order.
  public var points: [SweepPoint]
  /// The metric columns of every point's rows (`SummaryMetrics.all`).
  public var columns: [Metric]
  /// The scenario's objective, if it has one.
  public var objective: Objective?
  /// What the objective recommends, once the runner has judged the points
  /// (nil before, without an objective, and in the data sweep.html embeds:
  /// the page gives it in its own section).
  public var recommendation: SweepRecommendation?

  public init(
    facts: SimulationFacts, parameters: [SweepParameter], points: [SweepPoint], columns: [Metric] = SummaryMetrics.all,
    objective: Objective? = nil, recommendation: SweepRecommendation? = nil
  ) {
    self.facts = facts
    self.parameters = parameters
    self.points = points
    self.columns = columns
    self.objective = objective
    self.recommendation = recommendation
  }

  /// The `all`-segment row of every point x strategy: what an objective
  /// reads, in point order, then strategy order.
  ///
  /// With assumption parameters, the candidates of one strategy at the
  /// same decision values share a `group`: one choice, judged on its worst
  /// case over the assumptions' values.
  public var candidates: [ObjectiveCandidate] {
    let decisions = parameters.indices.filter { !parameters[$0].assumption }
    let grouped = decisions.count < parameters.count
    var groups: [[Int]: Int] = [:]
    var names: [String: Int] = [:]
    return points.flatMap { p in
      p.rows.filter { $0.segment == "all" }.map { row in
        var c = ObjectiveCandidate(point: p.index, strategy: row.strategy, values: row.values)
        if grouped {
          if names[row.strategy] == nil { names[row.strategy] = names.count }
          let key = [names[row.strategy] ?? 0] + decisions.map { p.valueIndices[$0] }
          if groups[key] == nil { groups[key] = groups.count }
          c.group = groups[key]
        }
        return c
      }
    }
  }

  /// Where a scored choice sits, after its strategy's name:
  /// ` at interval_min = 30`, ` at interval_min = 30, for every lpm_share
  /// (worst at lpm_share = 0.6)`, ` (the same at every point)`.
  ///
  /// `brief` leaves out where the worst case is and the twins: ` at
  /// interval_min = 30, for every lpm_share`.
  public func describe(_ s: ObjectiveOutcome.Scored, in outcome: ObjectiveOutcome, brief: Bool = false) -> String {
    if s.twinChoices > 0 && s.members.count + s.twins.count >= points.count { return " (the same at every point)" }
    let c = outcome.candidates
    guard points.indices.contains(c[s.candidate].point) else { return "" }
    let first = points[c[s.candidate].point].valueIndices
    let decisions = parameters.indices.filter { !parameters[$0].assumption }
    let assumptions = parameters.indices.filter { parameters[$0].assumption }
    var text =
      decisions.isEmpty
      ? ""
      : " at "
        + decisions.map { parameters[$0].name + " = " + parameters[$0].values[first[$0]] }.joined(separator: ", ")
    if !assumptions.isEmpty && s.members.count > 1 {
      let worst = points[c[s.worst].point].valueIndices
      text +=
        (decisions.isEmpty ? " " : ", ") + "for every "
        + assumptions.map { parameters[$0].name }.joined(separator: " and ")
      if brief { return text }
      if s.members.allSatisfy({ c[$0].values == c[s.candidate].values }) {
        text += " (unchanged by \(assumptions.count == 1 ? "it" : "them"))"
      } else {
        text +=
          " (worst at "
          + assumptions.map { parameters[$0].name + " = " + parameters[$0].values[worst[$0]] }
          .joined(separator: ", ") + ")"
      }
    } else if !assumptions.isEmpty {
      text +=
        (decisions.isEmpty ? " at " : ", ")
        + assumptions.map { parameters[$0].name + " = " + parameters[$0].values[first[$0]] }.joined(separator: ", ")
    }
    if s.twinChoices > 0 && !brief {
      text +=
        " (the same at \(s.twinChoices) other "
        + "\(assumptions.isEmpty ? "point" : "choice")\(s.twinChoices == 1 ? "" : "s"))"
    }
    return text
  }

  /// The strategy names, in the order the points list them.
  public var strategies: [String] {
    var out: [String] = []
    for p in points {
      for r in p.rows where r.segment == "all" && !out.contains(r.strategy) { out.append(r.strategy) }
    }
    return out
  }

  /// The point's values as `name = value` pairs: `interval_min = 30, lpm = 0.2`.
  public func describe(point: Int) -> String {
    guard points.indices.contains(point) else { return "point \(point + 1)" }
    return zip(parameters, points[point].valueIndices).map { p, i in p.name + " = " + p.values[i] }
      .joined(separator: ", ")
  }

  /// The value of the column named `metric` for `policy` (all segments) at
  /// `point` (the name of a column of `columns`, or one from the scenario's
  /// `objective`).
  public func value(named metric: String, policy: String, point: Int) -> Double? {
    guard let c = columns.firstIndex(where: { $0.name == metric }), points.indices.contains(point),
      let row = points[point].rows.first(where: { $0.strategy == policy && $0.segment == "all" }),
      c < row.values.count
    else { return nil }
    return row.values[c]
  }
}

/// One swept parameter: its label, where it points in the scenario, and
/// the values it takes.
public struct SweepParameter: Sendable, Codable, Equatable {
  /// The column label in `sweep.csv` (the path unless the scenario names it).
  public var name: String
  /// The path into the scenario JSON, as written: `strategies[poll].timeline.after_min`.
  public var path: String
  /// The values as the CSV writes them (JSON text; strings unquoted).
  public var values: [String]
  /// The values as numbers, when every value is one (else nil: a
  /// categorical axis).
  public var numbers: [Double]?
  /// Draw charts on a log axis (the values are spread more evenly in log).
  public var logScale: Bool
  /// A model assumption, not a choice: a recommendation must hold at every
  /// one of its values (see `candidates`).
  public var assumption: Bool

  public init(
    name: String, path: String, values: [String], numbers: [Double]?, logScale: Bool, assumption: Bool = false
  ) {
    self.name = name
    self.path = path
    self.values = values
    self.numbers = numbers
    self.logScale = logScale
    self.assumption = assumption
  }

  /// The reference value's index: the middle value (the lower middle one
  /// for an even count). Sensitivity slices and line charts hold the other
  /// parameters here.
  public var referenceIndex: Int { (values.count - 1) / 2 }
}

/// One point of the grid and its results.
public struct SweepPoint: Sendable, Codable, Equatable {
  /// 0-based position in grid order (reports show `index + 1`).
  public var index: Int
  /// For each parameter, the index of its value at this point.
  public var valueIndices: [Int]
  /// The point's summary rows, as `summary.csv` orders them.
  public var rows: [ResultRow]
  /// Wall time the point took (0 when not measured).
  public var wallSeconds: Double

  public init(index: Int, valueIndices: [Int], rows: [ResultRow], wallSeconds: Double = 0) {
    self.index = index
    self.valueIndices = valueIndices
    self.rows = rows
    self.wallSeconds = wallSeconds
  }
}
