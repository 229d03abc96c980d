import ReloadMetrics

extension ScenarioSchema {
  // MARK: - Regression checks (`reloadbench check`)

  static let optionalNumber = SchemaType.anyOf([.number(min: nil, max: nil, exclusiveMin: false), .null])
  static let nonNegativeOrNull = SchemaType.anyOf([.number(min: 0, max: nil, exclusiveMin: false), .null])

  static let expectation = SchemaObject(
    "Expectation",
    doc:
      "A bound on one result that `reloadbench check` enforces: the check fails (exit 1) when a run breaks it. "
      + "Without `policy` it applies to every strategy; without `segment`, to all segments together (`all`); "
      + "without `kind`, to all widget kinds together (`all`). Both bounds are inclusive; a metric with no value "
      + "(no silent push was sent, say) is reported as not applicable.",
    [
      SchemaField(
        "policy", .anyOf([.string(choices: nil), .null]), "A strategy's name; null = every strategy of the scenario.",
        default: .null),
      SchemaField(
        "segment", .string(choices: nil), "A segment's name, or `all` for the whole population.",
        default: .string("all")),
      kindField(
        "A widget kind's name (`kinds[].name`), or `all` for every kind together; a kind takes only the metrics "
          + "with a value per kind (Reports/README.md)."),
      choice(
        "metric",
        "A `summary.csv` column (defined in Reports/README.md); `_ci95` columns need `replications` of 2 or more. "
          + "Or a `live_activities.csv` column, with a `live_activities` block: `policy` then names a Live Activity "
          + "strategy, and `kind` is left out.",
        Expectation.metricNames, required: true),
      SchemaField(
        "min", optionalNumber, "The value must be at least this; null = no lower bound.", unit: "the metric's",
        default: .null),
      SchemaField(
        "max", optionalNumber, "The value must be at most this; null = no upper bound.", unit: "the metric's",
        default: .null),
      SchemaField(
        "note", .string(choices: nil), "Why the bound exists; shown next to a failure.", default: .string("")),
    ])

  static let metricTolerance = SchemaObject(
    "Metric tolerance",
    doc:
      "How far one metric may move from the baseline before `reloadbench check` calls it regressed or improved. An "
      + "absent part keeps the default for the metric's unit (Reports/README.md, \"Regression checks\").",
    [
      choice("metric", "A metric column of `summary.csv`.", SummaryMetrics.all.map(\.name), required: true),
      SchemaField(
        "relative_pct", nonNegativeOrNull, "Allowed move in percent of the baseline value; null = the unit's default.",
        unit: "percent", default: .null),
      SchemaField(
        "absolute", nonNegativeOrNull,
        "Allowed move in the metric's own unit (points for `_pct` metrics); null = the unit's default.",
        unit: "the metric's", default: .null),
    ])

  static let check = SchemaObject(
    "Check",
    doc:
      "How `reloadbench check` compares a run with its baseline. A metric counts as changed when it moves by more "
      + "than both its relative and its absolute tolerance, and, with 2 or more replications, beyond the 95 % "
      + "confidence interval of the difference where the metric has one.",
    [
      SchemaField(
        "tolerance_pct", nonNegativeOrNull,
        "Relative tolerance for every metric instead of the per-unit defaults (with no absolute part); null keeps "
          + "the defaults. `--tolerance` replaces it.",
        unit: "percent", default: .null),
      SchemaField(
        "metrics", .array(of: .object(metricTolerance), minItems: nil, maxItems: nil),
        "Tolerances of single metrics; they win over `tolerance_pct` and `--tolerance`.", default: .array([])),
    ])

  static let evidenceClaim = SchemaObject(
    "Evidence",
    doc:
      "An outcome that a real app's users or maintainers reported for one of the scenario's strategies. "
      + "`reloadbench check` scores it with one rule for every app (Scenarios/README.md, \"Evidence\"): the run "
      + "is **exhausted** when `frozen_widget_day_pct` is at least 10, **stale** when `acceptable_glance_pct` is "
      + "below 90 and **fine** when it is at least 90; the claim agrees when the run has the outcome it "
      + "reports. A disagreement does not fail the check by itself: `--min-agreement` sets how many must "
      + "agree.",
    [
      SchemaField("policy", .string(choices: nil), "The strategy the report is about.", required: true),
      SchemaField(
        "segment", .string(choices: nil), "The segment it was reported for, or `all`.", default: .string("all")),
      kindField(
        "The widget kind it was reported for (`kinds[].name`), or `all` for the app's widgets together: the rule "
          + "then reads that kind's figures."),
      choice(
        "reported",
        "What was reported: `exhausted` (the budget ran out: a maintainer's diagnosis), `stale` (people saw old "
          + "data or placeholders) or `fine` (no complaint).",
        EvidenceClaim.Outcome.allCases.map(\.rawValue), required: true),
      choice(
        "strength",
        "`reported` (an issue, a pull request or a maintainer said so) or `weak` (only the absence of complaints is "
          + "known, or for `stale` and `exhausted` only a pull request's or commit's title).",
        EvidenceClaim.Strength.allCases.map(\.rawValue), required: true),
      SchemaField(
        "source", .string(choices: nil),
        "Where it was reported: the repository and the issue or pull request, with a short quote.", required: true),
    ])

  /// The `kind` of an expectation or an evidence claim.
  static func kindField(_ doc: String) -> SchemaField {
    SchemaField("kind", .string(choices: nil), doc, default: .string("all"))
  }

  static var checkFields: [SchemaField] {
    [
      SchemaField(
        "evidence", .array(of: .object(evidenceClaim), minItems: nil, maxItems: 100),
        "Outcomes real users reported, scored by `reloadbench check`.", default: .array([])),
      SchemaField(
        "expect", .array(of: .object(expectation), minItems: nil, maxItems: 1000),
        "Bounds on the results that `reloadbench check` enforces.", default: .array([])),
      SchemaField(
        "check", .object(check), "Tolerances of `reloadbench check` against a saved baseline.", default: .object([:])),
    ]
  }
}
