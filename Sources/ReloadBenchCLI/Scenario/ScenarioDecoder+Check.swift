import Foundation
import ReloadMetrics
import WidgetModel

/// What a scenario asks of `reloadbench check`: its expectations and its
/// tolerances against a baseline.
struct CheckSpec: Equatable {
  /// One metric's tolerance parts; nil parts keep the level below.
  struct Override: Equatable {
    var relativePct: Double?
    var absolute: Double?
  }

  var expectations: [Expectation] = []
  /// Outcomes real users reported (`evidence`).
  var evidence: [EvidenceClaim] = []
  /// `check.tolerance_pct`: a relative tolerance for every metric.
  var tolerancePct: Double? = nil
  /// `check.metrics`, by metric.
  var overrides: [SummaryMetric: Override] = [:]

  /// The tolerance of `metric`. From the most to the least specific: the
  /// scenario's `check.metrics` entry (each part on its own), `--tolerance`
  /// (`flagPct`), `check.tolerance_pct`, the default for the metric's unit.
  func tolerance(for metric: Metric, flagPct: Double?) -> Tolerance {
    var t: Tolerance
    if let pct = flagPct ?? tolerancePct {
      t = Tolerance(relativePct: pct, absolute: 0)
    } else {
      t = Tolerance.standard(for: metric.unit)
    }
    if let m = SummaryMetric(columnName: metric.name), let o = overrides[m] {
      if let r = o.relativePct { t.relativePct = r }
      if let a = o.absolute { t.absolute = a }
    }
    return t
  }

  /// Which tolerances apply, in a few words, for the reports.
  func toleranceSource(flagPct: Double?) -> String {
    var s: String
    if let pct = flagPct {
      s = "--tolerance \(SchemaValidator.format(pct)) % for every metric"
    } else if let pct = tolerancePct {
      s = "the scenario's tolerance_pct \(SchemaValidator.format(pct)) % for every metric"
    } else {
      s = "the defaults per unit"
    }
    if !overrides.isEmpty {
      s += ", the scenario's own for " + overrides.keys.map(\.name).sorted().joined(separator: ", ")
    }
    return s
  }
}

extension ScenarioDecoder {
  /// Reads `expect` and `check`, checking names against the scenario:
  /// strategies, segments, widget kinds, and `_ci95` columns only with
  /// replications.
  static func checkSpec(_ r: SchemaReader, scenario: Scenario) throws(ScenarioError) -> CheckSpec {
    var spec = CheckSpec()
    let policies = scenario.strategies.map(\.name)
    let activityPolicies = scenario.liveActivities?.strategies.map(\.name) ?? []
    let segments = ["all"] + scenario.segments.map(\.name)
    for (i, v) in r.array("expect").enumerated() {
      let e = SchemaReader(v, ScenarioSchema.expectation, path: "\(r.path).expect[\(i)]", log: r.log)
      let name = e.string("metric")
      guard let column = Expectation.parse(column: name) else {
        throw ScenarioError(
          path: "\(e.path).metric",
          message: "\(TerminalText.quoted(name)) is not a summary.csv or live_activities.csv column",
          fix: hint(name, Expectation.metricNames))
      }
      if column.metric.isLiveActivity && scenario.liveActivities == nil {
        throw ScenarioError(
          path: "\(e.path).metric", message: "\(name) is a Live Activity figure and this scenario has none",
          fix: "add a \"live_activities\" block (Scenarios/README.md, \"Writing a Live Activity\"), or bound a "
            + "summary.csv column")
      }
      let policy = e.optionalString("policy")
      let candidates = column.metric.isLiveActivity ? activityPolicies : policies
      if let policy, !candidates.contains(policy) {
        let what = column.metric.isLiveActivity ? "a Live Activity strategy" : "a strategy"
        throw ScenarioError(
          path: "\(e.path).policy", message: "\(TerminalText.quoted(policy)) is not \(what) of this scenario",
          fix: hint(policy, candidates) + " (or leave \"policy\" out for every strategy)")
      }
      let segment = e.string("segment")
      if !segments.contains(segment) {
        throw ScenarioError(
          path: "\(e.path).segment", message: "\(TerminalText.quoted(segment)) is not a segment of this scenario",
          fix: hint(segment, segments))
      }
      let kind = try widgetKind(e, scenario: scenario)
      if e.string("kind") != "all" && column.metric.isLiveActivity {
        throw ScenarioError(
          path: "\(e.path).metric", message: "\(name) has no value per widget kind (a Live Activity figure)",
          fix: "leave \"kind\" out: live_activities.csv has a row per activity strategy and segment")
      }
      if kind != nil && !column.metric.perKind {
        throw ScenarioError(
          path: "\(e.path).metric", message: "\(name) has no value per widget kind (a device or backend figure)",
          fix: "leave \"kind\" out, or bound a metric of the widgets (Reports/README.md, \"per kind\")")
      }
      if column.ci95 && scenario.replications < 2 {
        throw ScenarioError(
          path: "\(e.path).metric", message: "\(name) exists only with 2 or more replications",
          fix: "set \"replications\" to 2 or more, or use \(column.metric.name)")
      }
      let lo = e.optionalNumber("min")
      let hi = e.optionalNumber("max")
      if lo == nil && hi == nil {
        throw ScenarioError(
          path: e.path, message: "has neither \"min\" nor \"max\"", fix: "add \"min\", \"max\" or both")
      }
      if let lo, let hi, lo > hi {
        throw ScenarioError(
          path: "\(e.path).min", message: "\(fmt(lo)) is above max \(fmt(hi))", fix: "make min <= max")
      }
      spec.expectations.append(
        Expectation(
          strategy: policy, segment: segment, kind: kind, metric: column.metric, ci95: column.ci95, min: lo,
          max: hi, note: e.string("note")))
    }
    for (i, v) in r.array("evidence").enumerated() {
      let e = SchemaReader(v, ScenarioSchema.evidenceClaim, path: "\(r.path).evidence[\(i)]", log: r.log)
      let policy = e.string("policy")
      if !policies.contains(policy) {
        throw ScenarioError(
          path: "\(e.path).policy", message: "\(TerminalText.quoted(policy)) is not a strategy of this scenario",
          fix: hint(policy, policies))
      }
      let segment = e.string("segment")
      if !segments.contains(segment) {
        throw ScenarioError(
          path: "\(e.path).segment", message: "\(TerminalText.quoted(segment)) is not a segment of this scenario",
          fix: hint(segment, segments))
      }
      let kind = try widgetKind(e, scenario: scenario)
      let source = e.string("source")
      if source.trimmingCharacters(in: .whitespaces).isEmpty {
        throw ScenarioError(
          path: "\(e.path).source", message: "is empty",
          fix: "say where it was reported, e.g. \"owner/repo#123: a quote\"")
      }
      // Validation checked both words against the enums' cases.
      guard let reported = EvidenceClaim.Outcome(rawValue: e.string("reported")),
        let strength = EvidenceClaim.Strength(rawValue: e.string("strength"))
      else {
        throw ScenarioError(
          path: "\(e.path)", message: "has an unknown reported outcome or strength",
          fix: "see the evidence fields in Scenarios/README.md")
      }
      spec.evidence.append(
        EvidenceClaim(
          strategy: policy, segment: segment, kind: kind, reported: reported, strength: strength, source: source))
    }
    guard let c = r.object("check", ScenarioSchema.check) else { return spec }
    spec.tolerancePct = c.optionalNumber("tolerance_pct")
    for (i, v) in c.array("metrics").enumerated() {
      let m = SchemaReader(v, ScenarioSchema.metricTolerance, path: "\(c.path).metrics[\(i)]", log: r.log)
      let name = m.string("metric")
      let metric = try summaryMetric(name, at: "\(m.path).metric")
      if spec.overrides[metric] != nil {
        throw ScenarioError(
          path: "\(m.path).metric", message: "\(TerminalText.quoted(name)) has two entries", fix: "merge them into one")
      }
      let o = CheckSpec.Override(relativePct: m.optionalNumber("relative_pct"), absolute: m.optionalNumber("absolute"))
      if o.relativePct == nil && o.absolute == nil {
        throw ScenarioError(
          path: m.path, message: "sets no tolerance", fix: "add \"relative_pct\", \"absolute\" or both")
      }
      spec.overrides[metric] = o
    }
    return spec
  }

  /// The widget kind an expectation or a claim names (`kind`), or nil for
  /// every kind together: `all`, or the only kind of a scenario with one
  /// (whose figures are the `all` row's).
  static func widgetKind(_ e: SchemaReader, scenario: Scenario) throws(ScenarioError) -> String? {
    let kind = e.string("kind")
    let kinds = ["all"] + scenario.kinds.map(\.name)
    guard kinds.contains(kind) else {
      throw ScenarioError(
        path: "\(e.path).kind", message: "\(TerminalText.quoted(kind)) is not a widget kind of this scenario",
        fix: hint(kind, kinds))
    }
    return kind == "all" || scenario.kinds.count == 1 ? nil : kind
  }

  static func hint(_ word: String, _ names: [String]) -> String {
    SchemaValidator.nearest(word, in: names).map { "did you mean \"\($0)\"?" }
      ?? "use one of " + TerminalText.list(names)
  }
}
