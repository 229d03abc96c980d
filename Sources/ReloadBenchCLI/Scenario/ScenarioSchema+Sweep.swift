import ReloadMetrics

extension ScenarioSchema {
  // MARK: - Sweeps

  /// The most values one parameter may take.
  static let maxValuesPerParameter = 1000
  /// The largest grid `max_points` may allow.
  static let maxPointsLimit = 10_000

  static let sweepValue = SchemaType.anyOf([
    .number(min: nil, max: nil, exclusiveMin: false), .string(choices: nil), .boolean, .null,
  ])

  static let sweepParameter = SchemaObject(
    "Sweep parameter",
    doc:
      "One swept parameter: a path into this scenario and its values, either listed (`values`) or a range (`from`, "
      + "`to` and `step` or `count`). Each value is written into the scenario's JSON at `path` before the "
      + "scenario is checked, so a swept value is validated exactly like a hand-written one.",
    absentDefault: "none",
    [
      SchemaField(
        "path", .string(choices: nil),
        "Where the value goes: keys joined by `.`, and `[i]` (0-based index), `[*]` (every element) or `[name]` "
          + "(the element with that `name`, or a strategy given by its preset name) for arrays. E.g. "
          + "`strategies[poll].timeline.after_min`, `segments[*].low_power_mode.share`, `model.budget.max_per_day`.",
        required: true),
      SchemaField(
        "name", .string(choices: nil), "Label in reports and the `sweep.csv` column name; defaults to `path`."),
      choice(
        "role",
        "`decision`: a choice (a polling interval): the objective picks its best value; `assumption`: something you "
          + "cannot choose (a budget size, a Low Power Mode share): the objective judges each choice by its worst "
          + "case over these values.",
        ["decision", "assumption"], default: "decision"),
      SchemaField(
        "values", .array(of: sweepValue, minItems: 1, maxItems: maxValuesPerParameter),
        "The values, in order (numbers, strings, booleans or null)."),
      number("from", "First value of a range."),
      number("to", "Last value of a range (included when a step lands on it)."),
      number("step", "Range step: `from`, `from + step`, ... up to `to`.", min: 0, exclusiveMin: true),
      integer(
        "count", "Range size: `count` values from `from` to `to`, both included, spaced by `spacing`.", min: 1,
        max: Double(maxValuesPerParameter)),
      choice(
        "spacing", "With `count`: `linear` (equal steps) or `log` (equal ratios; needs `from` and `to` > 0).",
        ["linear", "log"], default: "linear"),
      SchemaField(
        "round_to", .anyOf([.number(min: 0, max: nil, exclusiveMin: true), .null]),
        "Round range values to a multiple of this (1 for whole numbers); repeated values are dropped. Null: no "
          + "rounding.",
        default: .null),
    ])

  static let sweep = SchemaObject(
    "Sweep",
    doc:
      "A parameter sweep: the scenario runs once per point of the grid of its parameters' values (every "
      + "combination), with the same seed, so every point sees the same devices, glances and data changes unless "
      + "a swept parameter changes them. The file without `sweep` must itself be a valid scenario.",
    [
      SchemaField(
        "parameters", .array(of: .object(sweepParameter), minItems: 1, maxItems: 8),
        "The swept parameters; the first varies slowest.", required: true),
      integer(
        "max_points", "Refuse grids with more points than this (each point is a full run).", default: 200, min: 1,
        max: Double(maxPointsLimit)),
    ])

  // MARK: - Objective

  static var metricNames: [String] { SummaryMetrics.all.map(\.name) }

  static let objectiveConstraint = SchemaObject(
    "Objective constraint", doc: "A bound on a summary metric (all segments); give `min`, `max` or both.",
    absentDefault: "none",
    [
      SchemaField(
        "metric", .string(choices: metricNames), "A `summary.csv` column (Reports/README.md defines them).",
        required: true),
      number("min", "The metric must be at least this.", min: -maxBound, max: maxBound),
      number("max", "The metric must be at most this.", min: -maxBound, max: maxBound),
    ])

  /// The largest bound an objective constraint may set: beyond any metric.
  static let maxBound = 1e12

  static let objective = SchemaObject(
    "Objective",
    doc:
      "What to recommend: the strategy (and sweep point) that maximises or minimises one summary metric while "
      + "meeting every constraint, judged on the `all`-segment rows at the precision `summary.csv` prints. Give "
      + "exactly one of `maximize` and `minimize`.",
    absentDefault: "none",
    [
      SchemaField("maximize", .string(choices: metricNames), "A `summary.csv` column to maximise."),
      SchemaField("minimize", .string(choices: metricNames), "A `summary.csv` column to minimise."),
      SchemaField(
        "subject_to", .array(of: .object(objectiveConstraint), minItems: 0, maxItems: 16),
        "Constraints the recommendation must meet.", default: .array([])),
    ])
}
