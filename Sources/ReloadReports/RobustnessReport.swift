import ReloadMetrics

/// The robustness run in words and as robustness.json: the sentence a
/// planner can quote, built from the recommendation's own rule (the
/// default rule, or the scenario's objective), and the JSON document.
public enum RobustnessReport {
  /// What "best" means to the recommendation, as a noun phrase after the
  /// strategy's name: "the cheapest strategy that keeps 90 % of glances
  /// within tolerance", "the strategy that maximizes fresh glances with
  /// dry widget-days at most 1 %". `meetsTarget`: whether the base's
  /// recommendation met it (else it is the closest miss).
  public static func rule(_ objective: Objective?, meetsTarget: Bool) -> String {
    guard let o = objective else {
      let target = "\(NumberFormat.short(Recommendation.defaultTargetPct)) % of glances within tolerance"
      return meetsTarget
        ? "the cheapest strategy that keeps \(target)" : "the strategy that comes closest to keeping \(target)"
    }
    let goal = (o.goal == .maximize ? "maximizes " : "minimizes ") + o.metric.metric.label.lowercasedFirst
    let bounds = o.bounds.map { b in
      let unit = b.metric.metric.unit.symbol
      return b.metric.metric.label.lowercasedFirst + (b.kind == .atLeast ? " at least " : " at most ")
        + Objective.format(b.value) + (unit.isEmpty ? "" : " " + unit)
    }
    guard !bounds.isEmpty else { return "the strategy that \(goal)" }
    let list =
      bounds.count == 1 ? bounds[0] : bounds.dropLast().joined(separator: ", ") + " and " + bounds[bounds.count - 1]
    return meetsTarget
      ? "the strategy that \(goal) with \(list)"
      : "the strategy that comes closest to \(list) (none meets every constraint)"
  }

  /// The readings compared, in words: "all 33 readings of the model (the
  /// 32 alternatives of 16 assumptions, one at a time, and 1 whole-model
  /// profile)".
  static func readings(_ v: RobustnessVerdict, of count: Int? = nil) -> String {
    let alternatives = v.variants - v.profiles
    var parts =
      "the \(NumberFormat.count(alternatives, "alternative")) of "
      + "\(NumberFormat.count(v.assumptions, "assumption")), one at a time"
    if v.profiles > 0 { parts += ", and \(NumberFormat.count(v.profiles, "whole-model profile"))" }
    let head = count.map { "\($0) of the \(v.variants)" } ?? (v.variants == 1 ? "the one" : "all \(v.variants)")
    return "\(head) readings of the model (\(parts))"
  }

  /// The sentence to quote: "hybrid stays the cheapest strategy that keeps
  /// 90 % of glances within tolerance under all 33 readings of the model
  /// (...)", or "... under 32 of the 33 readings ..., except under
  /// `budget_accrual = sliding_window`, where future-entries is".
  public static func sentence(_ v: RobustnessVerdict, objective: Objective?, meetsTarget: Bool) -> String {
    guard let strategy = v.strategy else {
      return "No strategy can be judged under the scenario's own model, so there is no recommendation to test."
    }
    let rule = rule(objective, meetsTarget: meetsTarget)
    var s: String
    if v.robust {
      s = "\(strategy) stays \(rule) under \(readings(v))"
    } else {
      s = "\(strategy) is \(rule) under \(readings(v, of: v.variants - v.changes.count)), except under "
      func instead(_ c: RobustnessVerdict.Change) -> String { c.strategy ?? "no strategy can be judged" }
      if v.changes.count == 1 {
        let c = v.changes[0]
        s += "`\(c.variant)`, where " + (c.strategy.map { "\($0) is" } ?? "no strategy can be judged")
      } else {
        let items = v.changes.map { "`\($0.variant)` (\(instead($0)))" }
        s += items.dropLast().joined(separator: ", ") + " and " + items[items.count - 1]
      }
    }
    if v.devices < v.scenarioDevices {
      s +=
        ", each on the same \(NumberFormat.grouped(v.devices)) of the scenario's "
        + "\(NumberFormat.grouped(v.scenarioDevices)) devices"
    }
    s += "."
    if let full = v.fullRunStrategy, full != strategy {
      s =
        "On the \(NumberFormat.grouped(v.devices))-device sample the comparison runs on, the scenario's own model "
        + "recommends \(strategy), not \(full) as on all its devices, so the recommendation is not robust "
        + "(fix: a larger robustness.sample_devices). " + s
    }
    return s
  }

  /// robustness.json: the run, the recommendation's verdict, per headline
  /// metric and strategy the range across the variants and what moves it
  /// most, and each variant with what it recommends.
  package static func json(
    _ r: RobustnessResults, verdict: RobustnessVerdict, objective: Objective?, toolVersion: String
  ) -> JSON {
    let ranges = r.ranges()
    var metrics: [JSON] = []
    for metric in r.metrics {
      // At the metric's summary.csv precision.
      func num(_ x: Double?) -> JSON { JSON.optional(x) { JSON.number($0, decimals: metric.metric.decimals) } }
      let rows = ranges.filter { $0.metric == metric }.map { g -> JSON in
        .object(
          [
            ("policy", .string(g.strategy)), ("base", num(g.base)), ("low", num(g.low)), ("high", num(g.high)),
            ("lowVariant", JSON.optional(g.lowVariant, JSON.string)),
            ("highVariant", JSON.optional(g.highVariant, JSON.string)),
            ("movesMost", JSON.optional(g.movesMost, JSON.string)), ("movesMostSwing", num(g.movesMostSwing)),
          ], layout: .inline)
      }
      metrics.append(
        .object([("metric", .string(metric.name)), ("strategies", .array(rows, layout: .lines))], layout: .lines))
    }
    let changes = verdict.changes.map { c -> JSON in
      .object(
        [
          ("variant", .string(c.variant)), ("assumption", JSON.optional(c.assumption, JSON.string)),
          ("strategy", JSON.optional(c.strategy, JSON.string)),
        ], layout: .inline)
    }
    let variants = r.variants.map { v -> JSON in
      .object(
        [
          ("name", .string(v.name)), ("assumption", JSON.optional(v.assumption, JSON.string)),
          ("alternative", .string(v.alternative)), ("recommended", JSON.optional(v.recommended, JSON.string)),
          (
            "simulated",
            .array(zip(r.strategies, v.simulated).filter(\.1).map { .string($0.0) }, layout: .inline)
          ),
        ], layout: .inline)
    }
    return .object(
      [
        ("format", "reloadbench-robustness"),
        ("version", 1),
        ("toolVersion", .string(toolVersion)),
        ("scenario", .string(r.scenario)),
        ("seed", .integer(r.seed)),
        ("devices", .integer(r.devices)),
        ("scenarioDevices", .integer(r.scenarioDevices)),
        ("objective", .string(r.baseRecommendation?.objective ?? objective?.text ?? Recommendation.defaultObjective)),
        (
          "recommendation",
          .object(
            [
              ("strategy", JSON.optional(verdict.strategy, JSON.string)), ("robust", .bool(verdict.robust)),
              ("meetsObjective", .bool(r.baseRecommendation?.meetsTarget ?? false)),
              ("variants", .integer(verdict.variants)), ("assumptions", .integer(verdict.assumptions)),
              ("profiles", .integer(verdict.profiles)), ("changes", .array(changes, layout: .lines)),
              ("sentence", .string(verdict.sentence)),
            ], layout: .lines)
        ),
        ("metrics", .array(metrics, layout: .lines)),
        ("variants", .array(variants, layout: .lines)),
      ] + (r.activities.map { [("liveActivities", activitiesJSON($0))] } ?? []))
  }

  /// robustness.json's `liveActivities`: the best activity strategy and
  /// whether it holds, the readings that change it, each metric's range.
  static func activitiesJSON(_ a: ActivityRobustness) -> JSON {
    let ranges = a.ranges()
    let metrics = ActivityRobustness.metrics.map { metric -> JSON in
      func num(_ x: Double?) -> JSON { JSON.optional(x) { JSON.number($0, decimals: metric.decimals) } }
      let rows = ranges.filter { $0.metric == metric }.map { g -> JSON in
        .object(
          [
            ("policy", .string(g.strategy)), ("base", num(g.base)), ("low", num(g.low)), ("high", num(g.high)),
            ("lowReading", JSON.optional(g.lowReading, JSON.string)),
            ("highReading", JSON.optional(g.highReading, JSON.string)),
          ], layout: .inline)
      }
      return .object([("metric", .string(metric.name)), ("strategies", .array(rows, layout: .lines))], layout: .lines)
    }
    let changes = a.changes.map { c -> JSON in
      .object([("reading", .string(c.name)), ("best", JSON.optional(c.best, JSON.string))], layout: .inline)
    }
    return .object(
      [
        ("rule", .string(ActivityRobustness.bestRule)), ("best", JSON.optional(a.best, JSON.string)),
        ("robust", .bool(a.robust)), ("changes", .array(changes, layout: .lines)), ("sentence", .string(a.sentence)),
        ("metrics", .array(metrics, layout: .lines)),
      ], layout: .lines)
  }
}
