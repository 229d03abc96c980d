import ReloadMetrics

/// Renders a `CheckRun` for people (Markdown, for a terminal, a pull request
/// or GitHub's job summary), for CI test views (JUnit XML) and for
/// programs (JSON). Pure functions; the CLI writes the files.
///
/// This file holds the wording the three share: how a value, a change and
/// an allowance read.
public enum CheckReport {
  /// `baseline` and `now` with the metric's decimals, with more digits
  /// when that precision would print two different values the same.
  ///
  ///     values(82.531, 82.534, decimals: 2)   // ("82.531", "82.534")
  static func values(_ a: Double?, _ b: Double?, decimals: Int) -> (String, String) {
    var d = decimals
    while true {
      let sa = value(a, decimals: d)
      let sb = value(b, decimals: d)
      if sa != sb || d >= decimals + 6 || a == b { return (sa, sb) }
      guard let x = a, let y = b, x.isFinite, y.isFinite else { return (sa, sb) }
      d += 1
    }
  }

  static func value(_ x: Double?, decimals: Int) -> String {
    guard let x else { return "–" }
    guard x.isFinite else { return x.isNaN ? "nan" : (x > 0 ? "inf" : "-inf") }
    return NumberFormat.fixed(x, decimals: decimals)
  }

  /// Digits that show `x` with two significant figures at least, but no
  /// fewer than `decimals`.
  static func decimals(toShow x: Double, atLeast decimals: Int) -> Int {
    var d = decimals
    var scale = 1.0
    for _ in 0..<d { scale *= 10 }
    while x != 0, abs(x) * scale < 10, d < decimals + 6 {
      d += 1
      scale *= 10
    }
    return d
  }

  static func signed(_ x: Double, decimals: Int) -> String {
    let s = NumberFormat.fixed(x, decimals: decimals)
    return x > 0 && !s.allSatisfy({ $0 == "0" || $0 == "." }) ? "+" + s : s
  }

  /// The change as people read it: points for percentages
  /// (`-2.37 pts`), otherwise absolute and relative (`+0.849 (+13.6 %)`).
  static func change(_ c: MetricComparison) -> String {
    guard let d = c.delta else {
      if c.baseline == nil && c.now != nil { return "appeared" }
      if c.baseline != nil && c.now == nil { return "vanished" }
      return "–"
    }
    if d == 0 { return "0" }
    // Whole changes (counts) keep the metric's decimals; small ones get digits.
    let digits = d == d.rounded() ? c.metric.decimals : decimals(toShow: d, atLeast: c.metric.decimals)
    if c.metric.unit == .percent { return signed(d, decimals: digits) + " pts" }
    guard let r = c.relativeChangePct, r.isFinite else { return signed(d, decimals: digits) }
    return signed(d, decimals: digits) + " (" + signed(r, decimals: abs(r) < 10 ? 1 : 0) + " %)"
  }

  /// The largest move that is not a change: `±0.125`, `±0.50 pts`,
  /// `±0.61 (95 % CI)`.
  static func allowed(_ c: MetricComparison) -> String {
    guard let b = c.baseline, let n = c.now else { return "–" }
    // A threshold that is only float noise reads as no tolerance at all.
    if !c.thresholdIsCI && c.threshold <= Tolerance.floatNoise(b, n) { return "±0" }
    let digits = decimals(toShow: c.threshold, atLeast: c.metric.decimals)
    var s = "±" + NumberFormat.fixed(c.threshold, decimals: digits)
    if c.metric.unit == .percent { s += " pts" }
    if c.thresholdIsCI { s += " (95 % CI)" }
    return s
  }

  /// The word for a comparison's outcome in this check.
  static func verdict(_ c: MetricComparison, in check: ScenarioCheck) -> String {
    c.verdict == .regressed ? "regressed" : c.verdict.rawValue + (check.fails(c) ? " (--fail-on-change)" : "")
  }

  /// The value an expectation found, with enough digits to show which
  /// side of its bound it is on.
  static func expectationValue(_ r: ExpectationResult) -> String {
    guard let v = r.value else { return "–" }
    var d = r.expectation.metric.decimals
    for bound in [r.expectation.min, r.expectation.max].compactMap({ $0 }) {
      while d < 8, NumberFormat.fixed(v, decimals: d) == NumberFormat.fixed(bound, decimals: d), v != bound { d += 1 }
    }
    return value(v, decimals: d)
  }

  /// One line for a failed expectation: `hybrid / all: fresh_glance_pct is 85.20, expected >= 90`.
  static func sentence(_ r: ExpectationResult) -> String {
    let e = r.expectation
    var s = "\(r.strategy) / \(e.place): \(e.column) "
    switch r.verdict {
    case .notApplicable: s += "has no value here (not applicable), expected \(e.boundText)"
    case .holds: s += "is \(expectationValue(r)), expected \(e.boundText): holds"
    case .failed: s += "is \(expectationValue(r)), expected \(e.boundText)"
    }
    if !e.note.isEmpty { s += " (\(e.note))" }
    return s
  }

  /// One line for a comparison:
  /// `hybrid / all: fresh_glance_pct regressed: 95.47 -> 93.10 (-2.37 pts; allowed ±0.50 pts)`.
  static func sentence(_ c: MetricComparison, in check: ScenarioCheck) -> String {
    let (b, n) = values(c.baseline, c.now, decimals: c.metric.decimals)
    return "\(c.strategy) / \(c.segment): \(c.metric.name) \(verdict(c, in: check)): \(b) -> \(n) "
      + "(\(change(c)); allowed \(allowed(c)))"
  }
}
