import ReloadMetrics

extension SweepRecommendation {
  /// What `outcome` (the scenario's objective over `results`' points)
  /// recommends: the best choice (or the closest miss) with where it is in
  /// the grid and its margins, the runner-up, each strategy's own best, and
  /// the lines stdout and sweep.html print.
  ///
  ///     results.recommendation = SweepRecommendation(results, outcome: outcome)
  public init(_ results: SweepResults, outcome: ObjectiveOutcome) {
    let summary = ObjectiveSummary(sweep: results, outcome: outcome)
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
    self.init(
      shown: shown.map { choice($0, in: outcome) }, meetsObjective: outcome.best != nil,
      objective: outcome.objective.text,
      reason: summary.lines.first { $0.hasPrefix("Best: ") || $0.hasPrefix("No candidate") } ?? "",
      margins: shown.map { summary.margins($0) } ?? [],
      runnerUp: outcome.best != nil ? outcome.runnerUp.map { choice($0, in: outcome) } : nil,
      bestPerStrategy: summary.byStrategy.compactMap { _, o in (o.best ?? o.closest).map { choice($0, in: o) } },
      findings: summary.lines.map { $0.trimmingLeadingSpace })
  }
}
