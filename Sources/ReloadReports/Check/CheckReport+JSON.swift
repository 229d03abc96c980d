import ReloadMetrics

extension CheckReport {
  /// The check as one JSON document for programs: the same facts as the
  /// Markdown and JUnit outputs, with every compared metric (unchanged
  /// ones too). Keys are snake_case and sorted; every key is written, a
  /// missing value as `null`, so readers see a stable shape.
  ///
  ///     {"model_version": "1", "passed": false, "scenarios": [{"name": "example",
  ///      "counts": {"regressed": 1, ...}, "expectations": [...], "metrics": [...], ...}],
  ///      "tool": "reloadbench-check", "version": "0.1.0"}
  public static func json(_ run: CheckRun) -> String {
    let doc: JSON = [
      "tool": "reloadbench-check",
      "version": .string(run.toolVersion),
      "model_version": .string(run.modelVersion),
      "passed": .bool(run.passed),
      "exit_status": .integer(run.passed ? 0 : 1),
      "scenarios": .array(run.scenarios.map(json)),
      "evidence_agreeing": .integer(run.agreeing),
      "evidence_claims": .integer(run.evidence.count),
      "min_agreement": JSON.optional(run.minAgreement, JSON.integer),
    ]
    return doc.text(.compact) + "\n"
  }

  static func json(_ s: ScenarioCheck) -> JSON {
    var counts: [(key: String, value: JSON)] = ChangeVerdict.allCases.map { ($0.rawValue, .integer(s.count($0))) }
    counts += [
      ("failed_metrics", .integer(s.failedMetrics.count)),
      ("expectations", .integer(s.expectations.count)),
      ("expectations_failed", .integer(s.failedExpectations.count)),
      ("expectations_not_applicable", .integer(s.expectations.filter { $0.verdict == .notApplicable }.count)),
    ]
    return [
      "name": .string(s.scenario),
      "file": .string(s.file),
      "sha256": .string(s.scenarioSHA256),
      "seed": .integer(s.seed),
      "replications": .integer(s.replications),
      "passed": .bool(s.passed),
      "baseline": JSON.optional(s.baseline) { b in
        var fields: [(key: String, value: JSON)] = [
          ("file", .string(b.file)), ("tool_version", .string(b.toolVersion)),
          ("model_version", .string(b.modelVersion)),
        ]
        if let change = b.scenarioChange { fields.append(("scenario_change", .string(change))) }
        return .object(fields)
      },
      "tolerances": .string(s.toleranceSource),
      "fail_on_change": .bool(s.failOnChange),
      "counts": .object(counts),
      "notes": .array(s.notes.map(JSON.string)),
      "expectations": .array(s.expectationsInReadingOrder.map(json)),
      "evidence": .array(s.evidence.map(json)),
      "metrics": .array(s.comparisonsInReadingOrder.map { json($0, fails: s.fails($0)) }),
      "seconds": .number(s.seconds),
    ]
  }

  static func json(_ r: EvidenceResult) -> JSON {
    .object(
      [
        ("policy", .string(r.claim.strategy)),
        ("segment", .string(r.claim.segment)),
      ] + kindMember(r.claim.kind) + [
        ("reported", .string(r.claim.reported.rawValue)),
        ("strength", .string(r.claim.strength.rawValue)),
        ("source", .string(r.claim.source)),
        ("predicted", .array(r.predicted.map { .string($0.rawValue) })),
        ("frozen_widget_day_pct", JSON.optional(r.frozenWidgetDayPct, JSON.number)),
        ("acceptable_glance_pct", JSON.optional(r.acceptableGlancePct, JSON.number)),
        ("agrees", .bool(r.agrees)),
      ])
  }

  static func json(_ r: ExpectationResult) -> JSON {
    .object(
      [
        ("policy", .string(r.strategy)),
        ("segment", .string(r.expectation.segment)),
      ] + kindMember(r.expectation.kind) + [
        ("metric", .string(r.expectation.column)),
        ("min", JSON.optional(r.expectation.min, JSON.number)),
        ("max", JSON.optional(r.expectation.max, JSON.number)),
        ("note", .string(r.expectation.note)),
        ("value", JSON.optional(r.value, JSON.number)),
        ("verdict", .string(r.verdict.rawValue)),
        ("message", .string(sentence(r))),
      ])
  }

  /// A `kind` member for an expectation or claim that names a widget kind
  /// (none for every kind together, as before kinds could be named).
  static func kindMember(_ kind: String?) -> [(key: String, value: JSON)] {
    kind.map { [("kind", .string($0))] } ?? []
  }

  static func json(_ m: MetricComparison, fails: Bool) -> JSON {
    [
      "policy": .string(m.strategy),
      "segment": .string(m.segment),
      "metric": .string(m.metric.name),
      "unit": .string(m.metric.unit.rawValue),
      "polarity": .string(m.metric.polarity.rawValue),
      "baseline": JSON.optional(m.baseline, JSON.number),
      "now": JSON.optional(m.now, JSON.number),
      "change": JSON.optional(m.delta, JSON.number),
      "change_pct": JSON.optional(m.relativeChangePct, JSON.number),
      "baseline_ci95": JSON.optional(m.baselineCI95, JSON.number),
      "now_ci95": JSON.optional(m.nowCI95, JSON.number),
      "tolerance_relative_pct": .number(m.tolerance.relativePct),
      "tolerance_absolute": .number(m.tolerance.absolute),
      "threshold": .number(m.threshold),
      "threshold_is_ci95": .bool(m.thresholdIsCI),
      "verdict": .string(m.verdict.rawValue),
      "fails": .bool(fails),
    ]
  }
}
