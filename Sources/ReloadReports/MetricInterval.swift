import ReloadMetrics

/// A value with its 95 % interval: `value ± half-width` from the
/// replications (a headline metric's `_ci95` column), or the fleet peak
/// second's own interval (`backend_fleet_peak_low_rps` to
/// `backend_fleet_peak_high_rps`, the sample's Poisson error, which a run
/// of one replication has too).
///
///     let i = results.interval(.acceptableGlancePct, policy: "poll", point: 3)
///     i?.text(unit: .percent)   // "± 1.3 %"
///     i?.contains(90)           // the bound is within the noise
struct MetricInterval: Equatable {
  var value: Double
  var lo: Double
  var hi: Double
  /// `value ± half-width` (replications), not an interval of its own.
  var symmetric: Bool

  /// How far the value may be off towards `x`.
  func halfWidth(toward x: Double) -> Double { x >= value ? hi - value : value - lo }

  func contains(_ x: Double) -> Bool { lo <= x && x <= hi }

  /// "± 1.3 %" (replications) or "267–324" (the fleet figure's interval).
  func text(unit: MetricUnit) -> String {
    symmetric ? "± " + NumberFormat.metric((hi - lo) / 2, unit: unit) : NumberFormat.range(lo, hi)
  }

  /// The value and its interval for a table cell: "92.1 % ± 1.3 %", "296 (267–324)".
  func cell(unit: MetricUnit) -> String {
    NumberFormat.metric(value, unit: unit) + (symmetric ? " " + text(unit: unit) : " (" + text(unit: unit) + ")")
  }

  /// The noise a difference between `a` and `b` has to beat: the combined
  /// 95 % half-widths facing each other (`sqrt(ha^2 + hb^2)`, as the ★ of
  /// the reports reads it); nil when either has no interval.
  static func combined(_ a: MetricInterval?, _ b: MetricInterval?) -> Double? {
    guard let a, let b else { return nil }
    let ha = a.halfWidth(toward: b.value)
    let hb = b.halfWidth(toward: a.value)
    return (ha * ha + hb * hb).squareRoot()
  }
}

extension SweepResults {
  /// The 95 % interval of `metric` for `policy` (all segments) at `point`:
  /// its `_ci95` half-width with replications, else its own interval
  /// (`SummaryMetric.intervalEnds`: the fleet figures); nil when it has none.
  func interval(_ metric: Metric, policy: String, point: Int) -> MetricInterval? {
    guard points.indices.contains(point),
      let row = points[point].rows.first(where: { $0.strategy == policy && $0.segment == "all" })
    else { return nil }
    func column(_ name: String) -> (index: Int, value: Double)? {
      guard let c = columns.firstIndex(where: { $0.name == name }), c < row.values.count,
        let v = row.values[c], v.isFinite
      else { return nil }
      return (c, v)
    }
    guard let (c, v) = column(metric.name) else { return nil }
    if let ci = row.ci95, c < ci.count, let h = ci[c], h.isFinite, h > 0 {
      return MetricInterval(value: v, lo: v - h, hi: v + h, symmetric: true)
    }
    if let ends = SummaryMetric(columnName: metric.name)?.intervalEnds,
      let lo = column(ends.low.name)?.value, let hi = column(ends.high.name)?.value, lo <= v, v <= hi, lo < hi
    {
      return MetricInterval(value: v, lo: lo, hi: hi, symmetric: false)
    }
    return nil
  }

  /// `metric`'s value for a table cell, with its 95 % interval where it has
  /// one: "92.1 % ± 1.3 %", "296 (267–324)", "3.86", or "–".
  func cell(_ metric: Metric, policy: String, point: Int) -> String {
    if let i = interval(metric, policy: policy, point: point) { return i.cell(unit: metric.unit) }
    return value(named: metric.name, policy: policy, point: point).map { NumberFormat.metric($0, unit: metric.unit) }
      ?? "–"
  }

  /// Whether any point has a 95 % interval for `metric`.
  func hasInterval(_ metric: Metric) -> Bool {
    points.contains { p in
      p.rows.contains { r in r.segment == "all" && interval(metric, policy: r.strategy, point: p.index) != nil }
    }
  }
}
