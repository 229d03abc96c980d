import ReloadMetrics

extension CheckReport {
  /// Rows of the changes table shown per scenario before the rest is
  /// summarised (everything stays in the JSON and JUnit outputs).
  static let maxFailureRows = 100
  static let maxOtherRows = 30
  static let maxHoldingExpectationRows = 20

  /// GitHub-flavoured Markdown: a status heading, a table of scenarios when
  /// there are several, then per scenario the failed expectations, the
  /// changes against the baseline (regressions first, grouped by strategy
  /// and segment), the expectations that hold, and a count of unchanged
  /// metrics instead of hundreds of unchanged rows.
  ///
  /// Scenarios with nothing to report (no expectation, nothing changed)
  /// get only their row in the scenario table.
  public static func markdown(_ run: CheckRun) -> String {
    var out = "## ReloadBench check: " + (run.passed ? "✅ passed" : "❌ failed") + "\n\n"
    let failed = run.scenarios.filter { !$0.passed }.count
    out += "reloadbench \(run.toolVersion), model \(run.modelVersion); "
    out +=
      run.scenarios.count == 1
      ? "1 scenario"
      : "\(run.scenarios.count) scenarios, \(failed) failed"
    out += "; exit status \(run.passed ? 0 : 1).\n\n"
    if !run.skipped.isEmpty {
      out += "Skipped (nothing to check):\n\n" + run.skipped.map { "- \(cell($0))\n" }.joined() + "\n"
    }
    if !run.evidence.isEmpty { out += evidenceSection(run) }
    if run.scenarios.count > 1 {
      let evidence = !run.evidence.isEmpty
      out +=
        "| scenario | expectations |" + (evidence ? " evidence |" : "")
        + " regressed | improved | changed | unchanged | result |\n"
      out += "|---|--:|" + (evidence ? "--:|" : "") + "--:|--:|--:|--:|---|\n"
      for s in run.scenarios {
        var e = s.expectations.isEmpty ? "–" : "\(s.failedExpectations.count) of \(s.expectations.count) failed"
        if evidence {
          let agree = s.evidence.filter(\.agrees).count
          e += " | " + (s.evidence.isEmpty ? "–" : "\(agree) of \(s.evidence.count) agree")
        }
        let counts =
          s.baseline == nil
          ? ["–", "–", "–", "–"]
          : [ChangeVerdict.regressed, .improved, .changed, .unchanged].map { String(s.count($0)) }
        out +=
          "| \(cell(s.scenario)) | \(e) | " + counts.joined(separator: " | ")
          + " | \(s.passed ? "✅ passed" : "❌ failed") |\n"
      }
      out += "\n"
    }
    for s in run.scenarios {
      if run.scenarios.count == 1 || hasDetails(s) {
        out += section(s)
      } else if let table = headlineTable(s) {
        // Nothing else to say: its headline figures, folded.
        out += "<details><summary>\(headline(s))</summary>\n\n" + table + "</details>\n\n"
      }
    }
    return out
  }

  /// The columns of the headline table.
  static let headlineColumns: [SummaryMetric] = [
    .freshGlancePct, .acceptableGlancePct, .budgetedReloadsPerWidgetDay, .backendFleetPeakRps,
  ]

  /// Per strategy (all segments), what this run gives: fresh and
  /// within-tolerance glances, budgeted reloads, the backend's fleet peak.
  /// Nil without the run's summary.
  static func headlineTable(_ s: ScenarioCheck) -> String? {
    guard let summary = s.summary else { return nil }
    let columns = headlineColumns.compactMap { m in summary.columnIndex(m).map { (m.metric, $0) } }
    let rows = summary.rows.filter { $0.segment == "all" }
    guard !columns.isEmpty, !rows.isEmpty else { return nil }
    var out =
      "| strategy | "
      + columns.map { m, _ in
        let unit = m.unit.symbol.hasPrefix("/") ? "per " + m.unit.symbol.dropFirst() : m.unit.symbol
        return cell(m.label + (unit.isEmpty ? "" : ", " + unit))
      }.joined(separator: " | ") + " |\n"
    out += "|---|" + String(repeating: "--:|", count: columns.count) + "\n"
    for r in rows {
      out +=
        "| \(cell(r.strategy)) | "
        + columns.map { m, i in
          r.values[i].map { NumberFormat.brief($0, decimals: m.decimals) } ?? "–"
        }.joined(separator: " | ") + " |\n"
    }
    return out + "\n"
  }

  /// One line per scenario and one for the run, for a terminal when the
  /// Markdown goes to a file:
  ///
  ///     ❌ example: 2 regressed, 1 of 3 expectations failed
  ///     check failed (exit status 1)
  public static func brief(_ run: CheckRun) -> String {
    var out = ""
    for s in run.scenarios {
      out += headline(s) + "\n"
      for e in s.failedExpectations { out += "  expectation failed: " + sentence(e) + "\n" }
      for c in s.comparisonsInReadingOrder.filter(s.fails).prefix(10) { out += "  " + sentence(c, in: s) + "\n" }
      if s.failedMetrics.count > 10 { out += "  ... and \(s.failedMetrics.count - 10) more\n" }
    }
    if !run.evidence.isEmpty { out += agreementLine(run) + "\n" }
    return out + (run.passed ? "check passed (exit status 0)\n" : "check failed (exit status 1)\n")
  }

  static func hasDetails(_ s: ScenarioCheck) -> Bool {
    // A scenario that only states evidence is all in the evidence table.
    if s.baseline == nil && s.expectations.isEmpty && !s.evidence.isEmpty { return false }
    return !s.passed || !s.expectations.isEmpty || !s.notes.isEmpty || s.baseline == nil
      || s.comparisons.contains { $0.verdict != .unchanged }
  }

  /// `Evidence: 10 of 11 reported outcomes agree (at least 10 asked).`
  static func agreementLine(_ run: CheckRun) -> String {
    var line =
      "Evidence: \(run.agreeing) of \(run.evidence.count) reported outcome"
      + (run.evidence.count == 1 ? " agrees" : "s agree")
    if let k = run.minAgreement {
      line += run.agreementTooLow ? " (fewer than the \(k) --min-agreement asks)" : " (at least \(k) asked)"
    }
    return line + "."
  }

  /// The evidence claims of every scenario in one table: what was
  /// reported, what the run predicts by the one scoring rule, and whether
  /// they agree.
  static func evidenceSection(_ run: CheckRun) -> String {
    var out = "### " + (run.agreementTooLow ? "❌ " : "") + agreementLine(run) + "\n\n"
    out += "Scoring rule (the same for every app): \(cell(EvidenceScoring.ruleText))\n\n"
    out +=
      "| scenario | strategy | segment | reported | the run has | frozen widget-days % | acceptable glances % | agrees "
      + "| source |\n"
    out += "|---|---|---|---|---|--:|--:|---|---|\n"
    for s in run.scenarios {
      for r in s.evidence {
        let c = r.claim
        // Weak evidence of `fine` is the absence of complaints; of another outcome, a title without text.
        let weak = c.reported == .fine ? " (weak: no complaint found)" : " (weak: a title only)"
        let reported = c.reported.rawValue + (c.strength == .weak ? weak : "")
        out +=
          "| \(cell(s.scenario)) | \(cell(c.strategy)) | \(cell(c.place)) | \(reported) "
          + "| \(r.predicted.isEmpty ? "–" : r.predicted.map(\.rawValue).joined(separator: ", ")) | "
          + "\(value(r.frozenWidgetDayPct, decimals: 1)) "
          + "| \(value(r.acceptableGlancePct, decimals: 1)) | \(r.agrees ? "yes" : "**no**") | \(cell(c.source)) |\n"
      }
    }
    return out + "\n"
  }

  static func headline(_ s: ScenarioCheck) -> String {
    var parts: [String] = []
    let regressed = s.count(.regressed)
    if regressed > 0 { parts.append("\(regressed) regressed") }
    if s.failOnChange {
      let moved = s.count(.improved) + s.count(.changed)
      if moved > 0 { parts.append("\(moved) changed (--fail-on-change)") }
    }
    let failedExpectations = s.failedExpectations.count
    if failedExpectations > 0 {
      parts.append("\(failedExpectations) of \(NumberFormat.count(s.expectations.count, "expectation check")) failed")
    }
    if parts.isEmpty {
      if !s.expectations.isEmpty {
        parts.append(
          s.expectations.count == 1 ? "the expectation holds" : "all \(s.expectations.count) expectation checks hold")
      }
      if s.baseline != nil { parts.append(s.failOnChange ? "no metric moved" : "no metric regressed") }
    }
    return (s.passed ? "✅ " : "❌ ") + cell(s.scenario) + ": " + parts.joined(separator: ", ")
  }

  static func section(_ s: ScenarioCheck) -> String {
    var out = "### \(headline(s))\n\n"
    out += "`\(code(s.file))` (sha256 `\(s.scenarioSHA256.prefix(12))`), seed \(s.seed), "
    out += NumberFormat.count(s.replications, "replication")
    if let b = s.baseline {
      out +=
        ", against `\(code(b.file))` (saved by reloadbench \(cell(b.toolVersion)), model \(cell(b.modelVersion))); "
      out += "tolerances: \(s.toleranceSource)"
      if s.replications > 1 { out += "; headline metrics must also move beyond their 95 % confidence intervals" }
    } else {
      out += "; no baseline: expectations only"
    }
    out += ".\n\n"
    if let change = s.baseline?.scenarioChange { out += "**Changed scenario:** \(cell(change)).\n\n" }
    if let table = headlineTable(s) { out += table }

    let expectations = s.expectationsInReadingOrder
    let failed = expectations.filter { $0.verdict == .failed }
    if !failed.isEmpty {
      out += "**Expectations that failed**\n\n"
      out += expectationTable(failed)
    }

    let moved = s.comparisonsInReadingOrder.filter { $0.verdict != .unchanged }
    if !moved.isEmpty {
      out += "**Changes against the baseline**\n\n"
      out += "| strategy | segment | metric | baseline | now | change | allowed | verdict |\n"
      out += "|---|---|---|--:|--:|--:|--:|---|\n"
      let failures = moved.filter(s.fails)
      let others = moved.filter { !s.fails($0) }
      for c in failures.prefix(maxFailureRows) + others.prefix(maxOtherRows) {
        let (b, n) = values(c.baseline, c.now, decimals: c.metric.decimals)
        let mark = s.fails(c) ? "❌ " : ""
        out +=
          "| \(cell(c.strategy)) | \(cell(c.segment)) | `\(c.metric.name)` | \(b) | \(n) | \(change(c)) "
          + "| \(allowed(c)) | \(mark)\(verdict(c, in: s)) |\n"
      }
      out += "\n"
      let hidden = max(0, failures.count - maxFailureRows) + max(0, others.count - maxOtherRows)
      if hidden > 0 {
        out += "… and \(hidden) more changed metrics (every one is in the --json and --junit outputs).\n\n"
      }
    }

    let inapplicable = expectations.filter { $0.verdict == .notApplicable }
    if !inapplicable.isEmpty {
      out += "**Expectations that do not apply** (the metric has no value here)\n\n"
      out += expectationTable(inapplicable)
    }

    let holding = expectations.filter { $0.verdict == .holds }
    if !holding.isEmpty {
      out += "**Expectations that hold**\n\n"
      out += expectationTable(Array(holding.prefix(maxHoldingExpectationRows)))
      if holding.count > maxHoldingExpectationRows {
        out += "… and \(holding.count - maxHoldingExpectationRows) more that hold.\n\n"
      }
    }

    if s.baseline != nil {
      out += unchangedLine(s)
    }
    for note in s.notes { out += "- \(cell(note))\n" }
    if !s.notes.isEmpty { out += "\n" }
    return out
  }

  static func expectationTable(_ results: [ExpectationResult]) -> String {
    var out = "| strategy | segment | metric | expected | now | verdict |\n|---|---|---|---|--:|---|\n"
    for r in results {
      let e = r.expectation
      let verdict: String
      switch r.verdict {
      case .failed: verdict = "❌ failed"
      case .holds: verdict = "holds"
      case .notApplicable: verdict = "not applicable"
      }
      let note = e.note.isEmpty ? "" : " (\(cell(e.note)))"
      out +=
        "| \(cell(r.strategy)) | \(cell(e.place)) | `\(e.column)` | \(bound(e)) | \(expectationValue(r)) "
        + "| \(verdict)\(note) |\n"
    }
    return out + "\n"
  }

  /// The bound with mathematical signs: `≥ 90`, `≤ 5`, `in [2, 8]`.
  static func bound(_ e: Expectation) -> String {
    switch (e.min, e.max) {
    case (_?, _?): return e.boundText
    case (let lo?, nil): return "≥ " + Expectation.format(lo)
    case (nil, let hi?): return "≤ " + Expectation.format(hi)
    default: return "any"
    }
  }

  /// `Unchanged: 788 of 792 metrics within tolerance (poll-15m 132/132, hybrid 130/132, ...).`
  static func unchangedLine(_ s: ScenarioCheck) -> String {
    let total = s.comparisons.count
    let unchanged = s.count(.unchanged)
    var perStrategy: [String: (Int, Int)] = [:]
    for c in s.comparisons {
      var t = perStrategy[c.strategy] ?? (0, 0)
      t.1 += 1
      if c.verdict == .unchanged { t.0 += 1 }
      perStrategy[c.strategy] = t
    }
    let parts = s.strategies.compactMap { name in perStrategy[name].map { "\(cell(name)) \($0.0)/\($0.1)" } }
    var line = "Unchanged: \(unchanged) of \(total) metrics within tolerance"
    if unchanged < total && !parts.isEmpty { line += " (by strategy: " + parts.joined(separator: ", ") + ")" }
    let noisy = s.comparisons.filter(\.isWithinNoiseOnly).count
    if noisy > 0 {
      line +=
        "; \(noisy) of them moved beyond their tolerance but not beyond the 95 % confidence interval "
        + "of the difference (more replications narrow it)"
    }
    return line + ".\n\n"
  }

  /// Text safe inside a Markdown table cell: no column breaks, no HTML,
  /// no Markdown (a link, an image, emphasis or a code span in a name or
  /// an expectation's note shows as the characters written).
  static func cell(_ s: String) -> String {
    var out = ""
    for ch in s {
      switch ch {
      case "|": out += "\\|"
      case "\\", "`", "*", "_", "[", "]", "!", "~", "#": out += "\\" + String(ch)
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "&": out += "&amp;"
      case "\n", "\r", "\t": out += " "
      default: out.append(ch)
      }
    }
    return out
  }

  /// Text safe inside a code span in a table cell.
  static func code(_ s: String) -> String {
    var out = ""
    for ch in s {
      switch ch {
      case "`", "\n", "\r": out += "'"
      case "|": out += "\\|"
      default: out.append(ch)
      }
    }
    return out
  }
}

extension CheckReport {
  /// What moved between a baseline and its re-saved successor, for a
  /// reviewer: the metrics beyond their allowance (regressions first, at
  /// most `limit` rows), each with both values, the change and the
  /// allowance, and a count of those within it. `baseline save` prints it.
  public static func movedTable(_ comparisons: [MetricComparison], limit: Int = 30) -> String {
    let order: [ChangeVerdict: Int] = [.regressed: 0, .improved: 1, .changed: 2]
    let moved = comparisons.filter { $0.verdict != .unchanged }.enumerated()
      .sorted { (order[$0.element.verdict] ?? 3, $0.offset) < (order[$1.element.verdict] ?? 3, $1.offset) }
      .map(\.element)
    var out = "\(comparisons.count - moved.count) of \(comparisons.count) metrics within tolerance"
    guard !moved.isEmpty else { return out + "; none moved.\n" }
    out += "; \(moved.count) moved:\n\n"
    out += "| strategy | segment | metric | before | now | change | allowed | verdict |\n"
    out += "|---|---|---|--:|--:|--:|--:|---|\n"
    for c in moved.prefix(limit) {
      let (b, n) = values(c.baseline, c.now, decimals: c.metric.decimals)
      out +=
        "| \(cell(c.strategy)) | \(cell(c.segment)) | `\(c.metric.name)` | \(b) | \(n) | \(change(c)) "
        + "| \(allowed(c)) | \(c.verdict.rawValue) |\n"
    }
    if moved.count > limit { out += "\n… and \(moved.count - limit) more.\n" }
    return out
  }
}
