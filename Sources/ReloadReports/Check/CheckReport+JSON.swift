import ReloadMetrics

extension CheckReport {
  /// The check as one JSON document for programs: the same facts as the
  /// Markdown and JUnit outputs, with every compared metric (unchanged
  /// ones too). Keys are snake_case and sorted; a missing value is `null`.
  ///
  ///     {"model_version": "1", "passed": false, "scenarios": [{"name": "example",
  ///      "counts": {"regressed": 1, ...}, "expectations": [...], "metrics": [...], ...}],
  ///      "tool": "reloadbench-check", "version": "0.1.0"}
  public static func json(_ run: CheckRun) -> String {
    ((try? _JSONText.encode(RunJSON(run))) ?? "{}") + "\n"
  }
}

// NOTE: each type below writes every key, nulls included (synthesized
// conformances would leave nil keys out), so readers see a stable shape.

private struct RunJSON: Encodable {
  let run: CheckRun
  init(_ run: CheckRun) { self.run = run }

  enum Keys: String, CodingKey {
    case tool, version, model_version, passed, exit_status, scenarios, evidence_agreeing, evidence_claims, min_agreement
  }

  func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: Keys.self)
    try c.encode("reloadbench-check", forKey: .tool)
    try c.encode(run.toolVersion, forKey: .version)
    try c.encode(run.modelVersion, forKey: .model_version)
    try c.encode(run.passed, forKey: .passed)
    try c.encode(run.passed ? 0 : 1, forKey: .exit_status)
    try c.encode(run.scenarios.map(ScenarioJSON.init), forKey: .scenarios)
    try c.encode(run.agreeing, forKey: .evidence_agreeing)
    try c.encode(run.evidence.count, forKey: .evidence_claims)
    try c.encode(run.minAgreement, forKey: .min_agreement)
  }
}

private struct ScenarioJSON: Encodable {
  let s: ScenarioCheck
  init(_ s: ScenarioCheck) { self.s = s }

  enum Keys: String, CodingKey {
    case name, file, sha256, seed, replications, passed, baseline, tolerances, fail_on_change, counts, notes
    case expectations, evidence, metrics, seconds
  }
  enum BaselineKeys: String, CodingKey { case file, tool_version, model_version }

  func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: Keys.self)
    try c.encode(s.scenario, forKey: .name)
    try c.encode(s.file, forKey: .file)
    try c.encode(s.scenarioSHA256, forKey: .sha256)
    try c.encode(s.seed, forKey: .seed)
    try c.encode(s.replications, forKey: .replications)
    try c.encode(s.passed, forKey: .passed)
    if let b = s.baseline {
      var bc = c.nestedContainer(keyedBy: BaselineKeys.self, forKey: .baseline)
      try bc.encode(b.file, forKey: .file)
      try bc.encode(b.toolVersion, forKey: .tool_version)
      try bc.encode(b.modelVersion, forKey: .model_version)
    } else {
      try c.encodeNil(forKey: .baseline)
    }
    try c.encode(s.toleranceSource, forKey: .tolerances)
    try c.encode(s.failOnChange, forKey: .fail_on_change)
    var counts: [String: Int] = [:]
    for v in ChangeVerdict.allCases { counts[v.rawValue] = s.count(v) }
    counts["failed_metrics"] = s.failedMetrics.count
    counts["expectations"] = s.expectations.count
    counts["expectations_failed"] = s.failedExpectations.count
    counts["expectations_not_applicable"] = s.expectations.filter { $0.verdict == .notApplicable }.count
    try c.encode(counts, forKey: .counts)
    try c.encode(s.notes, forKey: .notes)
    try c.encode(s.expectationsInReadingOrder.map(ExpectationJSON.init), forKey: .expectations)
    try c.encode(s.evidence.map(EvidenceJSON.init), forKey: .evidence)
    try c.encode(s.comparisonsInReadingOrder.map { MetricJSON($0, fails: s.fails($0)) }, forKey: .metrics)
    try c.encode(s.seconds, forKey: .seconds)
  }
}

private struct EvidenceJSON: Encodable {
  let r: EvidenceResult
  init(_ r: EvidenceResult) { self.r = r }

  enum Keys: String, CodingKey {
    case policy, segment, reported, strength, source, predicted, dry_widget_day_pct, acceptable_glance_pct, agrees
  }

  func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: Keys.self)
    try c.encode(r.claim.strategy, forKey: .policy)
    try c.encode(r.claim.segment, forKey: .segment)
    try c.encode(r.claim.reported.rawValue, forKey: .reported)
    try c.encode(r.claim.strength.rawValue, forKey: .strength)
    try c.encode(r.claim.source, forKey: .source)
    try c.encode(r.predicted.map(\.rawValue), forKey: .predicted)
    try c.encode(r.dryWidgetDayPct, forKey: .dry_widget_day_pct)
    try c.encode(r.acceptableGlancePct, forKey: .acceptable_glance_pct)
    try c.encode(r.agrees, forKey: .agrees)
  }
}

private struct ExpectationJSON: Encodable {
  let r: ExpectationResult
  init(_ r: ExpectationResult) { self.r = r }

  enum Keys: String, CodingKey { case policy, segment, metric, min, max, note, value, verdict, message }

  func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: Keys.self)
    try c.encode(r.strategy, forKey: .policy)
    try c.encode(r.expectation.segment, forKey: .segment)
    try c.encode(r.expectation.metric, forKey: .metric)
    try c.encode(r.expectation.min, forKey: .min)
    try c.encode(r.expectation.max, forKey: .max)
    try c.encode(r.expectation.note, forKey: .note)
    try c.encode(r.value, forKey: .value)
    try c.encode(r.verdict.rawValue, forKey: .verdict)
    try c.encode(CheckReport.sentence(r), forKey: .message)
  }
}

private struct MetricJSON: Encodable {
  let m: MetricComparison
  let fails: Bool
  init(_ m: MetricComparison, fails: Bool) {
    self.m = m
    self.fails = fails
  }

  enum Keys: String, CodingKey {
    case policy, segment, metric, unit, polarity, baseline, now, change, change_pct, baseline_ci95, now_ci95
    case tolerance_relative_pct, tolerance_absolute, threshold, threshold_is_ci95, verdict, fails
  }

  func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: Keys.self)
    try c.encode(m.strategy, forKey: .policy)
    try c.encode(m.segment, forKey: .segment)
    try c.encode(m.metric.name, forKey: .metric)
    try c.encode(m.metric.unit.rawValue, forKey: .unit)
    try c.encode(m.metric.polarity.rawValue, forKey: .polarity)
    try c.encode(m.baseline, forKey: .baseline)
    try c.encode(m.now, forKey: .now)
    try c.encode(m.delta, forKey: .change)
    try c.encode(m.relativeChangePct, forKey: .change_pct)
    try c.encode(m.baselineCI95, forKey: .baseline_ci95)
    try c.encode(m.nowCI95, forKey: .now_ci95)
    try c.encode(m.tolerance.relativePct, forKey: .tolerance_relative_pct)
    try c.encode(m.tolerance.absolute, forKey: .tolerance_absolute)
    try c.encode(m.threshold, forKey: .threshold)
    try c.encode(m.thresholdIsCI, forKey: .threshold_is_ci95)
    try c.encode(m.verdict.rawValue, forKey: .verdict)
    try c.encode(fails, forKey: .fails)
  }
}
