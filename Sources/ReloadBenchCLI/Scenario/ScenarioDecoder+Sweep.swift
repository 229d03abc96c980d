import Foundation
import ReloadMetrics

extension ScenarioDecoder {
  // MARK: - Sweep

  /// Reads `sweep`: checks every path against the format, expands ranges,
  /// and refuses grids over `max_points`. Whether each value suits its
  /// field is checked later, point by point (`SweepSpec.points(base:)`).
  static func sweep(_ root: SchemaReader) throws(ScenarioError) -> SweepSpec? {
    guard let r = root.object("sweep", ScenarioSchema.sweep) else { return nil }
    var parameters: [SweepSpec.Parameter] = []
    for (i, v) in r.array("parameters").enumerated() {
      let p = SchemaReader(v, ScenarioSchema.sweepParameter, path: "\(r.path).parameters[\(i)]", log: r.log)
      parameters.append(try sweepParameter(p))
    }
    let reserved = Set(["scenario", "point", "policy", "segment"] + SummaryMetrics.all.map(\.name))
    var names: Set<String> = []
    var paths: [String: Int] = [:]
    for (i, p) in parameters.enumerated() {
      if reserved.contains(p.name) {
        throw ScenarioError(
          path: "\(p.location).name", message: "\(TerminalText.quoted(p.name)) is already a sweep.csv column",
          fix: "give the parameter another \"name\"")
      }
      if !names.insert(p.name).inserted {
        throw ScenarioError(
          path: "\(p.location).name", message: "\(TerminalText.quoted(p.name)) labels two parameters",
          fix: "give each parameter its own \"name\"")
      }
      if let j = paths[p.path.jsonPath] {
        throw ScenarioError(
          path: "\(p.location).path", message: "\(TerminalText.quoted(p.pathText)) is already swept by parameter \(j)",
          fix: "list each path once, with all its values")
      }
      paths[p.path.jsonPath] = i
    }
    let spec = SweepSpec(parameters: parameters, maxPoints: r.int("max_points"))
    if spec.pointCount > spec.maxPoints {
      let sizes = parameters.map { String($0.values.count) }.joined(separator: " x ")
      throw ScenarioError(
        path: "\(r.path)",
        message: "the grid has \(spec.pointCountText) points (\(sizes)), more than max_points \(spec.maxPoints)",
        fix: "use fewer values or a coarser step, or raise max_points (up to \(ScenarioSchema.maxPointsLimit)) "
          + "if you mean it: each point is a full run")
    }
    return spec
  }

  static func sweepParameter(_ r: SchemaReader) throws(ScenarioError) -> SweepSpec.Parameter {
    let text = r.string("path")
    let path: SweepPath
    do {
      path = try SweepPath.parse(text)
      try path.check(against: .object(ScenarioSchema.root))
    } catch {
      throw ScenarioError(
        path: "\(r.path).path", message: "\(TerminalText.quoted(text)): " + error.message, fix: error.fix)
    }
    let name = r.optionalString("name") ?? text
    if name.isEmpty {
      throw ScenarioError(path: "\(r.path).name", message: "is empty", fix: "give it a label or leave it out")
    }
    let hasRange = r.has("from") || r.has("to") || r.has("step") || r.has("count")
    let values: [JSONValue]
    if r.has("values") {
      if hasRange || r.has("spacing") || r.has("round_to") {
        throw ScenarioError(
          path: "\(r.path).values", message: "comes with range keys (from, to, step, count, spacing, round_to)",
          fix: "give either \"values\" or a range, not both")
      }
      values = r.array("values")
      for (i, v) in values.enumerated() {
        if let j = values[..<i].firstIndex(of: v) {
          throw ScenarioError(
            path: "\(r.path).values[\(i)]", message: "repeats values[\(j)] (\(v.jsonText))", fix: "list each value once"
          )
        }
      }
    } else {
      values = try range(r)
    }
    return SweepSpec.Parameter(
      name: name, pathText: text, path: path, values: values, location: r.path,
      assumption: r.string("role") == "assumption")
  }

  /// Expands `from`/`to` with `step` or `count`.
  static func range(_ r: SchemaReader) throws(ScenarioError) -> [JSONValue] {
    guard let from = r.optionalNumber("from"), let to = r.optionalNumber("to") else {
      throw ScenarioError(
        path: r.path, message: "has neither \"values\" nor a range",
        fix: "add \"values\": [...], or \"from\", \"to\" and \"step\" or \"count\"")
    }
    guard to > from else {
      throw ScenarioError(
        path: "\(r.path).to", message: "\(fmt(to)) is not above from \(fmt(from))",
        fix: "make to greater than from (list values to sweep downwards)")
    }
    let step = r.optionalNumber("step")
    let count = r.optionalNumber("count").map { Int($0) }
    let log = r.string("spacing") == "log"
    var xs: [Double]
    switch (step, count) {
    case (let s?, nil):
      if r.has("spacing") {
        throw ScenarioError(
          path: "\(r.path).spacing", message: "applies to count, not step", fix: "remove spacing, or use count")
      }
      // Counted as a Double first: a tiny step or a huge span must not trap.
      let values = ((to - from) / s + 1e-9).rounded(.down) + 1
      guard values.isFinite, values <= Double(ScenarioSchema.maxValuesPerParameter) else {
        throw ScenarioError(
          path: "\(r.path).step",
          message: (values < 1e9 ? "gives \(Int(values)) values, " : "gives ")
            + "more than \(ScenarioSchema.maxValuesPerParameter) values",
          fix: "use a larger step")
      }
      let n = Int(values)
      xs = (0..<n).map { from + Double($0) * s }
    case (nil, let c?):
      if log && from <= 0 {
        throw ScenarioError(
          path: "\(r.path).from", message: "log spacing needs from > 0, got \(fmt(from))",
          fix: "start above 0, or use linear spacing")
      }
      xs = (0..<c).map { k in
        guard c > 1 else { return from }
        let t = Double(k) / Double(c - 1)
        return log ? from * Foundation.pow(to / from, t) : from + (to - from) * t
      }
    default:
      throw ScenarioError(
        path: r.path, message: step == nil ? "has a range but neither step nor count" : "has both step and count",
        fix: "give exactly one of \"step\" and \"count\"")
    }
    if let unit = r.optionalNumber("round_to") { xs = xs.map { ($0 / unit).rounded() * unit } }
    guard xs.allSatisfy(\.isFinite) else {
      throw ScenarioError(
        path: r.path, message: "gives values that are not finite numbers (from \(fmt(from)) to \(fmt(to)))",
        fix: "use a narrower range" + (r.has("round_to") ? " or a larger round_to" : ""))
    }
    var out: [Double] = []
    for x in xs.map(clean) where out.last != x { out.append(x) }
    return out.map(JSONValue.number)
  }

  /// `x` to 12 significant digits: `0.30000000000000004` -> `0.3`.
  static func clean(_ x: Double) -> Double {
    let r = Double(String(format: "%.12g", x)) ?? x
    return r == 0 ? 0 : r
  }

  // MARK: - Objective

  static func objective(_ root: SchemaReader) throws(ScenarioError) -> Objective? {
    guard let r = root.object("objective", ScenarioSchema.objective) else { return nil }
    let goal: Objective.Goal
    let metric: SummaryMetric
    switch (r.optionalString("maximize"), r.optionalString("minimize")) {
    case (let m?, nil):
      goal = .maximize
      metric = try summaryMetric(m, at: "\(r.path).maximize")
    case (nil, let m?):
      goal = .minimize
      metric = try summaryMetric(m, at: "\(r.path).minimize")
    case (nil, nil):
      throw ScenarioError(
        path: r.path, message: "has neither \"maximize\" nor \"minimize\"",
        fix: "add one, e.g. \"maximize\": \"fresh_glance_pct\"")
    default:
      throw ScenarioError(path: "\(r.path).minimize", message: "is given with \"maximize\"", fix: "keep one of the two")
    }
    var bounds: [Objective.Bound] = []
    for (i, v) in r.array("subject_to").enumerated() {
      let c = SchemaReader(v, ScenarioSchema.objectiveConstraint, path: "\(r.path).subject_to[\(i)]", log: r.log)
      let name = try summaryMetric(c.string("metric"), at: "\(c.path).metric")
      let lo = c.optionalNumber("min")
      let hi = c.optionalNumber("max")
      if lo == nil && hi == nil {
        throw ScenarioError(
          path: c.path, message: "has neither \"min\" nor \"max\"", fix: "add a bound, e.g. \"max\": 1")
      }
      if let lo, let hi, lo > hi {
        throw ScenarioError(
          path: "\(c.path).max", message: "\(fmt(hi)) is below min \(fmt(lo))", fix: "make max >= min")
      }
      if let lo { bounds.append(.init(metric: name, kind: .atLeast, value: lo)) }
      if let hi { bounds.append(.init(metric: name, kind: .atMost, value: hi)) }
    }
    return Objective(goal: goal, metric: metric, bounds: bounds)
  }

  /// The summary metric whose column is `name` (the schema lists the names,
  /// so this only fails on a name the schema let through).
  static func summaryMetric(_ name: String, at path: String) throws(ScenarioError) -> SummaryMetric {
    guard let m = SummaryMetric(columnName: name) else {
      throw ScenarioError(
        path: path, message: "\(TerminalText.quoted(name)) is not a summary.csv column",
        fix: hint(name, SummaryMetrics.all.map(\.name)))
    }
    return m
  }
}
