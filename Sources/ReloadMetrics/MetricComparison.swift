/// What a metric did between a baseline run and the current one.
public enum ChangeVerdict: String, Sendable, Codable, CaseIterable {
  /// Moved beyond its allowance in the worse direction (by `Metric.polarity`).
  case regressed
  /// Moved beyond its allowance in the better direction.
  case improved
  /// Moved beyond its allowance, and neither direction is better (a
  /// neutral metric), or it appeared or vanished (a value where the
  /// baseline had none, or the reverse).
  case changed
  /// Within its allowance.
  case unchanged
}

/// One metric of one row (strategy x segment), baseline against now.
public struct MetricComparison: Sendable, Equatable, Codable {
  public var strategy: String
  public var segment: String
  public var metric: Metric
  public var baseline: Double?
  public var now: Double?
  /// 95 % half-widths, present with two or more replications (headline metrics).
  public var baselineCI95: Double?
  public var nowCI95: Double?
  public var tolerance: Tolerance
  /// The move that counts: the tolerance's allowance, the 95 % half-width
  /// of the difference when both runs have one, and float noise, whichever
  /// is largest.
  public var threshold: Double
  /// `true` when the confidence intervals, not the tolerance, set `threshold`.
  public var thresholdIsCI: Bool
  public var verdict: ChangeVerdict

  /// Unchanged only because the confidence intervals are wide: the move
  /// exceeds the tolerance but not the half-width of the difference.
  /// `strategy` is written `policy`, as in `summary.csv`.
  private enum CodingKeys: String, CodingKey {
    case strategy = "policy"
    case segment, metric, baseline, now, baselineCI95, nowCI95, tolerance, threshold, thresholdIsCI,
      verdict
  }

  public var isWithinNoiseOnly: Bool {
    guard verdict == .unchanged, thresholdIsCI, let b = baseline, let d = delta else { return false }
    return abs(d) > Swift.max(tolerance.allowance(baseline: b), Tolerance.floatNoise(b, b + d))
  }

  /// `now - baseline`, when both exist.
  public var delta: Double? {
    guard let b = baseline, let n = now else { return nil }
    return n - b
  }

  /// The change in percent of the baseline, when it is not zero.
  public var relativeChangePct: Double? {
    guard let b = baseline, let d = delta, b != 0 else { return nil }
    return 100 * d / abs(b)
  }

  /// Compares one value pair.
  ///
  /// With both half-widths present (replications >= 2), a move must also
  /// exceed the half-width of the difference, `sqrt(ci_b^2 + ci_n^2)`, to
  /// count: the two runs are treated as independent, which overstates the
  /// noise when they share random draws (same seed), so the test errs
  /// towards "unchanged".
  public init(
    strategy: String, segment: String, metric: Metric, baseline: Double?, now: Double?, baselineCI95: Double? = nil,
    nowCI95: Double? = nil, tolerance: Tolerance
  ) {
    self.strategy = strategy
    self.segment = segment
    self.metric = metric
    self.baseline = baseline
    self.now = now
    self.baselineCI95 = baselineCI95
    self.nowCI95 = nowCI95
    self.tolerance = tolerance
    guard let b = baseline, let n = now, b.isFinite, n.isFinite else {
      threshold = 0
      thresholdIsCI = false
      // Both missing (not applicable in either run), or the same non-finite value.
      let same = (baseline == nil && now == nil) || (baseline.map { "\($0)" } == now.map { "\($0)" })
      verdict = same ? .unchanged : .changed
      return
    }
    var t = Swift.max(tolerance.allowance(baseline: b), Tolerance.floatNoise(b, n))
    var byCI = false
    if let cb = baselineCI95, let cn = nowCI95, cb.isFinite, cn.isFinite {
      let ci = (cb * cb + cn * cn).squareRoot()
      if ci > t {
        t = ci
        byCI = true
      }
    }
    threshold = t
    thresholdIsCI = byCI
    if abs(n - b) <= t {
      verdict = .unchanged
    } else if metric.isBetter(n, than: b) {
      verdict = .improved
    } else if metric.isBetter(b, than: n) {
      verdict = .regressed
    } else {
      verdict = .changed
    }
  }
}

extension ResultTable {
  /// Compares every metric of every row with `baseline`, row by
  /// (policy, segment) and column by name.
  ///
  /// Rows and columns present on one side only are not compared; they are
  /// listed in `notes`.
  ///
  /// - Complexity: O(rows x columns).
  public func compared(
    with baseline: ResultTable, tolerance: (Metric) -> Tolerance
  ) -> (comparisons: [MetricComparison], notes: [String]) {
    var out: [MetricComparison] = []
    var notes: [String] = []
    var baseColumn: [String: Int] = [:]
    for (i, c) in baseline.columns.enumerated() { baseColumn[c.name] = i }
    let nowNames = Set(columns.map(\.name))
    let added = columns.map(\.name).filter { baseColumn[$0] == nil }
    let removed = baseline.columns.map(\.name).filter { !nowNames.contains($0) }
    if !added.isEmpty { notes.append("not in the baseline, not compared: " + added.joined(separator: ", ")) }
    if !removed.isEmpty { notes.append("in the baseline only, not compared: " + removed.joined(separator: ", ")) }
    var baseRow: [String: ResultRow] = [:]
    for r in baseline.rows { baseRow[r.strategy + "\u{1F}" + r.segment] = r }
    var matched: Set<String> = []
    for row in rows {
      let key = row.strategy + "\u{1F}" + row.segment
      guard let b = baseRow[key] else {
        notes.append("\(row.strategy) / \(row.segment): not in the baseline, not compared")
        continue
      }
      matched.insert(key)
      for (i, metric) in columns.enumerated() {
        guard let j = baseColumn[metric.name] else { continue }
        out.append(
          MetricComparison(
            strategy: row.strategy, segment: row.segment, metric: metric, baseline: b.values.element(j),
            now: row.values.element(i), baselineCI95: b.ci95?.element(j), nowCI95: row.ci95?.element(i),
            tolerance: tolerance(metric)))
      }
    }
    for r in baseline.rows where !matched.contains(r.strategy + "\u{1F}" + r.segment) {
      notes.append("\(r.strategy) / \(r.segment): in the baseline only, not compared")
    }
    return (out, notes)
  }
}

extension Array where Element == Double? {
  /// The element at `i`, or nil past the end.
  func element(_ i: Int) -> Double? { i < count ? self[i] : nil }
}
