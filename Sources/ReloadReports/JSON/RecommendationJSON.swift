import ReloadMetrics

/// The recommendation in `results.json`: a `"recommendation"` object
/// (strategy, whether it meets the objective, the objective in words, the
/// reason with its margins, the runner-up, the findings), so a program reads
/// the answer the page gives without parsing the page.
public enum RecommendationJSON {
  /// `json` (a results document with sorted keys) with the recommendation
  /// added in key order, before `"series"`.
  public static func insert(_ r: Recommendation?, findings: [String], into json: String) -> String {
    var node = ""
    node += "{\"findings\":["
    for (i, f) in findings.enumerated() {
      if i > 0 { node += "," }
      JSON.writeString(f, to: &node)
    }
    node += "]"
    if let r {
      node += ",\"meetsObjective\":" + (r.meetsTarget ? "true" : "false")
      node += ",\"objective\":"
      JSON.writeString(r.objective, to: &node)
      node += ",\"reason\":"
      JSON.writeString(r.reason, to: &node)
      node += ",\"runnerUp\":"
      if let up = r.runnerUp { JSON.writeString(up, to: &node) } else { node += "null" }
      node += ",\"strategy\":"
      JSON.writeString(r.strategy, to: &node)
    }
    node += "}"
    guard let at = json.firstRange(of: ",\"series\":") else { return json }
    return json[..<at.lowerBound] + ",\"recommendation\":" + node + json[at.lowerBound...]
  }
}

extension RecommendationJSON {
  /// One choice of a sweep in `sweep.json`: the strategy, where (the swept
  /// values, or `sameAtEveryPoint`), the objective's value and each bound's
  /// margin or miss.
  struct Choice: Encodable {
    var strategy: String
    /// The 1-based point (as sweep.html numbers them); absent when the choice
    /// is the same at every point or spans an assumption's values.
    var point: Int?
    /// Swept parameter -> value at the choice ("any": the same at every point).
    var values: [String: String]
    var sameAtEveryPoint: Bool
    var meetsObjective: Bool
    var objectiveValue: Double
    /// `acceptable_glance_pct 92.09, 2.09 inside >= 90` per bound.
    var margins: [String]
    /// The verdict in words (the objective's value, or what it misses).
    var verdict: String
  }

  /// The `"recommendation"` of `sweep.json`.
  struct Sweep: Encodable {
    var strategy: String?
    var point: Int?
    var values: [String: String]?
    var sameAtEveryPoint: Bool?
    var meetsObjective: Bool
    var objective: String
    var reason: String
    var margins: [String]
    var runnerUp: Choice?
    /// Each strategy's own best choice (its closest miss when none meets the objective).
    var bestPerStrategy: [Choice]
    /// The lines stdout and sweep.html print.
    var findings: [String]
  }

  /// `sweep.json`: the sweep's results (as `sweep.html` embeds them) with
  /// its `"recommendation"` (absent without an objective): strategy, point
  /// and values, margins, runner-up, best per strategy, findings.
  ///
  ///     let json = RecommendationJSON.sweep(results, outcome: outcome)
  ///     // jq '.recommendation.bestPerStrategy[] | [.strategy, .values.interval_min]' sweep.json
  public static func sweep(_ results: SweepResults, outcome: ObjectiveOutcome?) -> String {
    let json = JSON.text(results)
    guard let outcome, json.hasSuffix("}") else { return json }
    let summary = ObjectiveSummary(outcome, columns: results.columns, points: results.points.count) {
      results.describe($0, in: outcome)
    }
    func choice(_ s: ObjectiveOutcome.Scored, in o: ObjectiveOutcome) -> Choice {
      var values: [String: String] = [:]
      for p in results.parameters.indices {
        values[results.parameters[p].name] = SweepReport.parameterValue(results, s, o, parameter: p)
      }
      let every = s.twinChoices > 0 && s.members.count + s.twins.count >= results.points.count
      let single = !every && s.members.count == 1
      return Choice(
        strategy: o.candidates[s.candidate].strategy, point: single ? o.candidates[s.candidate].point + 1 : nil,
        values: values, sameAtEveryPoint: every, meetsObjective: s.isFeasible, objectiveValue: s.objective,
        margins: summary.margins(s), verdict: summary.verdict(s))
    }
    let shown = outcome.best ?? outcome.closest
    let chosen = shown.map { choice($0, in: outcome) }
    let reason = summary.lines.first { $0.hasPrefix("Best: ") || $0.hasPrefix("No candidate") } ?? ""
    let node = Sweep(
      strategy: chosen?.strategy, point: chosen?.point, values: chosen?.values, sameAtEveryPoint: chosen?.sameAtEveryPoint,
      meetsObjective: outcome.best != nil, objective: outcome.objective.text, reason: reason,
      margins: shown.map { summary.margins($0) } ?? [],
      runnerUp: outcome.best != nil ? outcome.runnerUp.map { choice($0, in: outcome) } : nil,
      bestPerStrategy: summary.byStrategy.compactMap { _, o in (o.best ?? o.closest).map { choice($0, in: o) } },
      findings: summary.lines.map { $0.trimmingLeadingSpace })
    let text = JSON.text(node)
    // "recommendation" sorts after every key of the results ("points" last).
    return String(json.dropLast()) + ",\"recommendation\":" + text + "}"
  }
}
