import ReloadMetrics

/// The page's text sections: the recommendation with its margins, the
/// sensitivity table, and the list of points.
extension SweepReport {
  // MARK: - Recommendation

  static func writeRecommendation(_ results: SweepResults, outcome: ObjectiveOutcome?, to w: inout _HTMLWriter) {
    w.raw("<section id=\"recommendation\" aria-labelledby=\"rec-h\"><h2 id=\"rec-h\">Recommendation</h2>\n")
    guard let outcome else {
      w.raw("<p>")
      w.text(
        "The scenario has no objective, so nothing is recommended. Add one to choose a point and a strategy, e.g. "
          + "\"objective\": {\"maximize\": \"fresh_glance_pct\", \"subject_to\": [{\"metric\": "
          + "\"frozen_widget_day_pct\", \"max\": 1}]}.")
      w.raw("</p></section>\n")
      return
    }
    let summary = ObjectiveSummary(sweep: results, outcome: outcome, wording: .labels)
    let shown = outcome.best ?? outcome.closest
    let metric = outcome.objective.metric
    w.raw(outcome.best != nil ? "<div class=\"rec\">" : "<div class=\"rec miss\">")
    w.raw("<p class=\"rec-k\">")
    w.text(outcome.best != nil ? "Best point and strategy" : "No candidate meets every constraint; closest")
    w.raw("</p>")
    if let shown {
      let c = outcome.candidates[shown.candidate]
      w.raw("<p class=\"rec-name\">")
      w.text(c.strategy)
      w.raw("</p><p class=\"rec-why\">")
      var at = results.describe(shown, in: outcome).trimmingLeadingSpace
      if at.hasPrefix("(") { at = String(at.dropFirst().dropLast()) }
      at = at.hasPrefix("at ") ? String(at.dropFirst(3)) : at
      let what = summary.name(metric)
      w.text(
        (at.isEmpty ? what.uppercasedFirst : at.uppercasedFirst + ": " + what) + " "
          + summary.value(metric, shown.objective)
          + (summary.intervalText(shown).map { " (95 % interval " + $0 + ")" } ?? "") + ".")
      w.raw("</p>")
    } else {
      w.raw("<p class=\"rec-why\">")
      w.text("No candidate has a value for \(summary.name(metric)).")
      w.raw("</p>")
    }
    w.raw("</div>\n")
    writeNoise(results, summary: summary, shown: shown, to: &w)
    writeBestPerStrategy(results, summary: summary, to: &w)
    if let shown { writeMargins(results, outcome: outcome, summary: summary, shown: shown, to: &w) }
    w.raw("<ul class=\"objective-lines\"><li>")
    writeObjective(summary, to: &w)
    w.raw("</li>")
    for line in summary.lines.dropFirst() where !line.hasPrefix("  ") && line != "Best per strategy:" {
      w.raw("<li>")
      w.text(line.trimmingLeadingSpace)
      w.raw("</li>")
    }
    w.raw("</ul>\n</section>\n")
  }

  /// The objective line, each metric's label followed by its column name
  /// (to find it in sweep.csv).
  static func writeObjective(_ summary: ObjectiveSummary, to w: inout _HTMLWriter) {
    let o = summary.outcome.objective
    func metric(_ m: SummaryMetric) {
      w.text(summary.name(m) + " ")
      w.element("code", text: m.name)
    }
    w.text("Objective: " + (o.goal == .maximize ? "maximise " : "minimise "))
    metric(o.metric)
    for (k, b) in o.bounds.enumerated() {
      w.text(k == 0 ? " subject to " : k == o.bounds.count - 1 ? " and " : ", ")
      metric(b.metric)
      w.text((b.kind == .atLeast ? " ≥ " : " ≤ ") + summary.value(b.metric, b.value))
    }
    w.text(", " + summary.headlineCount)
  }

  /// What the numbers' noise allows: which margins are within the 95 %
  /// intervals, or, when the objective's metrics have none (one
  /// replication), that the values are estimates without one.
  static func writeNoise(
    _ results: SweepResults, summary: ObjectiveSummary, shown: ObjectiveOutcome.Scored?, to w: inout _HTMLWriter
  ) {
    let o = summary.outcome.objective
    let metrics = [o.metric] + o.bounds.map(\.metric).filter { $0 != o.metric }
    let without = metrics.filter { m in !results.hasInterval(m.metric) }
    var notes: [String] = []
    if let shown {
      if summary.advantageIsNoise == true, let runnerUp = summary.outcome.runnerUp {
        notes.append(
          "Its lead over the runner-up (\(summary.label(runnerUp))) is within the noise: the two are as good as "
            + "each other at this sample size.")
      }
      for b in summary.noisyBounds(shown) {
        let bound = o.bounds[b]
        notes.append(
          "Its \((shown.slacks[b] ?? 0) >= 0 ? "margin" : "shortfall") on \(summary.text(bound)) is within the noise "
            + "(95 % interval \(summary.noisyInterval(shown, bound: b) ?? "")): another seed could put it on the "
            + "other side of the target.")
      }
    }
    if !without.isEmpty {
      let f = results.facts
      notes.append(
        (without.count == metrics.count
          ? "Every value above is"
          : "The values of "
            + without.map { summary.name($0) }.joined(separator: " and ") + " are")
          + " one estimate from \(NumberFormat.grouped(f.devices)) simulated devices"
          + (f.replications > 1 ? "" : " (one replication)") + ", without a 95 % interval, so this page cannot "
          + "tell a small margin from noise. Run the sweep with")
    }
    guard !notes.isEmpty else { return }
    w.raw("<p class=\"noise\">")
    w.text(notes.joined(separator: " "))
    if !without.isEmpty {
      w.raw(" <code>--replications 5</code> ")
      w.text(
        "(or \"replications\" in the scenario) for intervals: the tables then show them and flag each margin "
          + "smaller than its interval.")
    }
    w.raw("</p>\n")
  }

  /// A value and, under it, its 95 % interval (when it has one).
  static func writeValue(_ value: String, interval: String?, to w: inout _HTMLWriter) {
    w.text(value)
    if let interval {
      w.raw("<span class=\"ci\">")
      w.text(interval.hasPrefix("±") ? interval : "95 %: " + interval)
      w.raw("</span>")
    }
  }

  /// A swept parameter's value at a choice, for a table cell: the value,
  /// "any" when the choice stands for every point, or "–".
  static func parameterValue(
    _ results: SweepResults, _ s: ObjectiveOutcome.Scored, _ outcome: ObjectiveOutcome, parameter p: Int
  ) -> String {
    let parameter = results.parameters[p]
    if s.twinChoices > 0 && s.members.count + s.twins.count >= results.points.count { return "any" }
    if parameter.assumption && s.members.count > 1 { return "every value" }
    let point = outcome.candidates[s.candidate].point
    guard results.points.indices.contains(point) else { return "–" }
    return parameter.values[results.points[point].valueIndices[p]]
  }

  /// A bound's metric value at a choice, from its slack (the worst member's, for a group).
  static func boundValue(_ s: ObjectiveOutcome.Scored, _ b: Int, summary: ObjectiveSummary) -> String {
    guard let slack = s.slacks[b] else { return "–" }
    let bound = summary.objective.bounds[b]
    return summary.value(bound.metric, bound.kind == .atLeast ? bound.value + slack : bound.value - slack)
  }

  /// A bound's metric value at a choice with its 95 % interval, into a cell.
  static func writeBoundValue(
    _ s: ObjectiveOutcome.Scored, _ b: Int, summary: ObjectiveSummary, to w: inout _HTMLWriter
  ) {
    writeValue(
      boundValue(s, b, summary: summary), interval: s.slacks[b] == nil ? nil : summary.intervalText(s, bound: b),
      to: &w)
  }

  /// A metric's heading cell: its label, with its column name in a title.
  static func writeMetricHeading(_ m: SummaryMetric, summary: ObjectiveSummary, scope: String, to w: inout _HTMLWriter)
  {
    w.raw("<th scope=\"" + scope + "\"")
    w.attribute("title", m.name)
    w.raw(">")
    w.text(summary.heading(m))
    w.raw("</th>")
  }

  /// Each strategy's own best choice (the best polling interval, the best
  /// budget setting, ...) beside the overall best: the answer to "how far
  /// can this strategy go", which the overall best alone does not give when
  /// another strategy wins.
  static func writeBestPerStrategy(_ results: SweepResults, summary: ObjectiveSummary, to w: inout _HTMLWriter) {
    let per = summary.byStrategy
    guard !per.isEmpty else { return }
    let o = summary.objective
    let overall = summary.outcome.best?.candidate
    w.raw(
      "<h3 id=\"per-strategy\">Best point per strategy</h3>\n<div class=\"scroll\"><table class=\"margins "
        + "perstrategy\">"
    )
    w.element(
      "caption",
      text: "Each strategy's best choice by the objective among its own points (its closest miss when none meets "
        + "every constraint); \"any\": the sweep does not change the strategy")
    w.raw("<thead><tr><th scope=\"col\">Strategy</th>")
    for p in results.parameters {
      w.raw("<th scope=\"col\">")
      w.text("Best " + p.name)
      w.raw("</th>")
    }
    for metric in [o.metric] + o.bounds.map(\.metric) {
      writeMetricHeading(metric, summary: summary, scope: "col", to: &w)
    }
    w.raw("<th scope=\"col\">Verdict</th></tr></thead><tbody>")
    for (name, sub) in per {
      guard let s = sub.best ?? sub.closest else { continue }
      let isOverall = s.candidate == overall
      w.raw(isOverall ? "<tr class=\"recrow\"><th scope=\"row\">" : "<tr><th scope=\"row\">")
      w.text(name)
      if isOverall { w.raw(" <span class=\"badge\">best overall</span>") }
      w.raw("</th>")
      for p in results.parameters.indices {
        w.raw("<td>")
        w.text(parameterValue(results, s, sub, parameter: p))
        w.raw("</td>")
      }
      w.raw("<td>")
      writeValue(summary.value(o.metric, s.objective), interval: summary.intervalText(s), to: &w)
      w.raw("</td>")
      for b in o.bounds.indices {
        let noisy = summary.noisyInterval(s, bound: b) != nil
        w.raw((s.slacks[b] ?? -1) >= 0 ? (noisy ? "<td class=\"noisy\">" : "<td>") : "<td class=\"bad\">")
        writeBoundValue(s, b, summary: summary, to: &w)
        w.raw("</td>")
      }
      let noisy = summary.noisyBounds(s)
      w.raw(s.isFeasible ? (noisy.isEmpty ? "<td class=\"ok\">" : "<td class=\"noisy\">") : "<td class=\"bad\">")
      if s.isFeasible {
        w.text(
          "meets every constraint"
            + (noisy.isEmpty
              ? ""
              : ", " + noisy.map { summary.name(o.bounds[$0].metric) }.joined(separator: " and ")
                + " within the noise"))
      } else {
        w.text(summary.verdict(s, withValue: false))
      }
      w.raw("</td></tr>")
    }
    w.raw("</tbody></table></div>\n")
  }

  /// The objective and each bound: the target, the chosen choice's value
  /// and margin, and the runner-up's value (worst cases, for choices that
  /// span the sweep's assumptions).
  static func writeMargins(
    _ results: SweepResults, outcome: ObjectiveOutcome, summary: ObjectiveSummary, shown: ObjectiveOutcome.Scored,
    to w: inout _HTMLWriter
  ) {
    let o = outcome.objective
    let runnerUp = outcome.best != nil ? outcome.runnerUp : nil
    func header(_ title: String, _ s: ObjectiveOutcome.Scored) -> String {
      title + ": " + outcome.candidates[s.candidate].strategy + results.describe(s, in: outcome, brief: true)
        + (s.members.count > 1 ? " (worst case)" : "")
    }
    w.raw("<div class=\"scroll\"><table class=\"margins\">")
    w.element(
      "caption",
      text: "The objective and its constraints, all segments (the values under a value: its 95 % interval; a margin "
        + "within it is noise); the objective judges at summary.csv precision")
    w.raw("<thead><tr><th scope=\"col\">Metric</th><th scope=\"col\">Target</th><th scope=\"col\">")
    w.text(header(outcome.best != nil ? "Best" : "Closest", shown))
    w.raw("</th><th scope=\"col\">Margin</th>")
    if let runnerUp {
      w.raw("<th scope=\"col\">")
      w.text(header("Runner-up", runnerUp))
      w.raw("</th>")
    }
    w.raw("</tr></thead><tbody><tr>")
    writeMetricHeading(o.metric, summary: summary, scope: "row", to: &w)
    w.raw("<td>")
    w.text(o.goal == .maximize ? "maximise" : "minimise")
    w.raw("</td><td>")
    writeValue(summary.value(o.metric, shown.objective), interval: summary.intervalText(shown), to: &w)
    w.raw(summary.advantageIsNoise == true ? "</td><td class=\"noisy\">" : "</td><td>")
    if let advantage = summary.advantageText, summary.advantageNoiseText == nil {
      w.text(advantage + " than the runner-up")
    } else if let advantage = summary.advantageText, let noise = summary.advantageNoiseText {
      w.text(String(advantage.dropLast(noise.count)) + " than the runner-up" + noise)
    } else {
      w.text("–")
    }
    w.raw("</td>")
    if let runnerUp {
      w.raw("<td>")
      writeValue(summary.value(o.metric, runnerUp.objective), interval: summary.intervalText(runnerUp), to: &w)
      w.raw("</td>")
    }
    w.raw("</tr>")
    for (b, bound) in o.bounds.enumerated() {
      w.raw("<tr>")
      writeMetricHeading(bound.metric, summary: summary, scope: "row", to: &w)
      w.raw("<td>")
      w.text((bound.kind == .atLeast ? "≥ " : "≤ ") + summary.value(bound.metric, bound.value))
      w.raw("</td><td>")
      writeBoundValue(shown, b, summary: summary, to: &w)
      let slack = shown.slacks[b]
      let noise = summary.noisyInterval(shown, bound: b)
      w.raw(
        noise != nil
          ? "</td><td class=\"noisy\">" : (slack ?? -1) >= 0 ? "</td><td class=\"ok\">" : "</td><td class=\"bad\">")
      if let slack {
        w.text(
          (slack >= 0
            ? summary.amount(bound.metric, slack) + " to spare" : "misses by " + summary.amount(bound.metric, -slack))
            + (noise != nil ? ", within the noise" : ""))
      } else {
        w.text("no value")
      }
      w.raw("</td>")
      if let runnerUp {
        w.raw("<td>")
        writeBoundValue(runnerUp, b, summary: summary, to: &w)
        w.raw("</td>")
      }
      w.raw("</tr>")
    }
    w.raw("</tbody></table></div>\n")
  }

  // MARK: - Sensitivity

  /// A metric's range in words: percentages in points ("12.3 pts").
  static func rangeText(_ r: Double, _ m: Metric) -> String {
    m.unit == .percent
      ? NumberFormat.trim(NumberFormat.fixed(r, decimals: 1)) + " pts" : NumberFormat.metric(r, unit: m.unit)
  }

  static func writeSensitivity(_ results: SweepResults, to w: inout _HTMLWriter) {
    let metrics = SweepParameterCharts.metrics(results)
    let table = metrics.map { results.sensitivity(of: $0) }
    w.raw("<section id=\"sensitivity\" aria-labelledby=\"sens-h\"><h2 id=\"sens-h\">Which parameter matters</h2>\n<p>")
    w.text(
      "How far each swept parameter moves each metric: the largest minus the smallest value of the metric as "
        + "that parameter runs through its values, the other parameters held at their middle value (the lower "
        + "middle one for an even count), for the strategy it moves most (named under the figure). "
        + (results.parameters.count > 1
          ? "★ marks the parameter that moves each metric most. "
          : "With one parameter this is simply the metric's range over the sweep. ")
        + "A large range for a model assumption (a budget size, a Low Power Mode share) means the answer depends "
        + "on a number Apple does not document: treat it as a range, not a point. One parameter at a time: "
        + "interactions are in sweep.csv.")
    w.raw("</p>\n<div class=\"scroll\"><table class=\"sens\">")
    w.element("caption", text: "Range of each metric (all segments) along each parameter")
    w.raw("<thead><tr><th scope=\"col\">Parameter</th>")
    for m in metrics {
      w.raw("<th scope=\"col\">")
      w.text(m.label)
      w.raw("</th>")
    }
    w.raw("</tr></thead><tbody>")
    let largest = table.map { column in column.compactMap { $0.largest?.range }.max() }
    for (p, parameter) in results.parameters.enumerated() {
      w.raw("<tr><th scope=\"row\">")
      w.text(parameter.name)
      w.raw("<span class=\"unit\">")
      w.text(parameter.path + ": " + (parameter.values.first ?? "") + " … " + (parameter.values.last ?? ""))
      w.raw("</span></th>")
      for (k, m) in metrics.enumerated() {
        guard let l = table[k][p].largest else {
          w.raw("<td class=\"na\">–</td>")
          continue
        }
        let isTop = results.parameters.count > 1 && largest[k] == l.range && l.range > 0
        w.raw(isTop ? "<td class=\"best\">" : "<td>")
        w.text(rangeText(l.range, m))
        if isTop {
          w.raw("<span class=\"star\" aria-hidden=\"true\"> ★</span><span class=\"vh\"> (moves it most)</span>")
        }
        w.raw("<span class=\"by\">")
        w.text(l.policy)
        w.raw("</span></td>")
      }
      w.raw("</tr>")
    }
    w.raw("</tbody></table></div>\n<details class=\"datatable\"><summary>Per strategy</summary>")
    let strategies = results.strategies
    var rows: [[String]] = []
    for (p, parameter) in results.parameters.enumerated() {
      for (s, name) in strategies.enumerated() {
        var cells = [parameter.name + " · " + name]
        for (k, m) in metrics.enumerated() { cells.append(table[k][p].ranges[s].map { rangeText($0, m) } ?? "–") }
        rows.append(cells)
      }
    }
    ReportFigure.Table(
      caption: "Range of each metric along each parameter, per strategy",
      columns: ["Parameter · strategy"] + metrics.map { $0.label }, rows: rows
    ).write(to: &w)
    w.raw("</details>\n</section>\n")
  }

  // MARK: - Points

  static func writePoints(_ results: SweepResults, outcome: ObjectiveOutcome?, to w: inout _HTMLWriter) {
    w.raw("<section id=\"points\" aria-labelledby=\"points-h\"><h2 id=\"points-h\">Points</h2>\n<p>")
    let metric = outcome?.objective.metric ?? .freshGlancePct
    w.text(
      outcome != nil
        ? "Each point of the grid with its best strategy by the objective among those that meet every constraint at "
          + "that point."
        : "Each point of the grid with its freshest strategy (all segments).")
    w.raw("</p>\n<details class=\"datatable\"><summary>")
    w.text("All \(results.points.count) points")
    w.raw("</summary>")
    let m = results.columns.first { $0.name == metric.name }
    var rows: [[String]] = []
    for point in results.points {
      var cells = [String(point.index + 1)]
      cells += zip(results.parameters, point.valueIndices).map { p, i in p.values[i] }
      var best: (String, Double)? = nil
      if let outcome {
        for case let s? in outcome.perCandidate
        where outcome.candidates[s.candidate].point == point.index && s.isFeasible {
          if best == nil || outcome.objective.isBetter(s.objective, than: best!.1) {
            best = (outcome.candidates[s.candidate].strategy, s.objective)
          }
        }
      } else {
        for r in point.rows where r.segment == "all" {
          if let v = results.value(named: metric.name, policy: r.strategy, point: point.index),
            best == nil || v > best!.1
          {
            best = (r.strategy, v)
          }
        }
      }
      cells.append(best?.0 ?? "none meets the constraints")
      if let (strategy, v) = best {
        let interval = m.flatMap { results.interval($0, policy: strategy, point: point.index) }
        cells.append(interval?.cell(unit: metric.metric.unit) ?? NumberFormat.metric(v, unit: metric.metric.unit))
      } else {
        cells.append("–")
      }
      cells.append(point.wallSeconds > 0 ? NumberFormat.seconds(point.wallSeconds) : "–")
      rows.append(cells)
    }
    ReportFigure.Table(
      caption: "Sweep points",
      columns: ["Point"] + results.parameters.map(\.name) + [
        "Best strategy", ReportLabels.withUnit(metric.metric), "Wall time",
      ],
      rows: rows
    ).write(to: &w)
    w.raw("</details>\n<dl class=\"facts\">")
    let f = results.facts
    let facts: [(String, String)] = [
      ("Scenario", f.scenario), ("Tool version", f.toolVersion), ("Seed (every point)", String(f.seed)),
      ("Points", String(results.points.count)), ("Strategies", String(f.strategies.count)),
      ("Devices", NumberFormat.grouped(f.devices)), ("Replications", String(f.replications)),
      ("Events", NumberFormat.short(Double(f.events))),
      ("Wall time", f.wallSeconds > 0 ? NumberFormat.seconds(f.wallSeconds) : "not measured"),
      ("Threads", f.threads > 0 ? String(f.threads) : "–"),
    ]
    w.factItems(facts)
    w.raw("</dl>\n</section>\n")
  }
}
