/// One-at-a-time sensitivity: how far each swept parameter moves a metric
/// while the others stay at their reference (middle) value.
///
/// For parameter `p`, the *slice* is the points where every other
/// parameter is at its `referenceIndex`, ordered by `p`'s value: a line
/// through the centre of the grid. A metric's *range* along the slice is
/// its largest minus its smallest value there, per strategy (all segments).
/// The parameter with the largest range moves that metric most. With one
/// swept parameter the slice is the whole sweep.
///
/// This is a local, one-at-a-time measure: it does not see interactions
/// (a parameter that matters only when another is extreme); the grid's
/// full rows are in `sweep.csv` for that.
extension SweepResults {
  /// How much one parameter moves one metric.
  public struct Sensitivity: Sendable, Equatable {
    public var parameter: Int
    public var metric: String
    /// Per strategy (in `strategies` order): max - min along the slice, nil
    /// when the strategy has fewer than two values there.
    public var ranges: [Double?]
    /// The strategy with the largest range, and that range.
    public var largest: (policy: String, range: Double)?

    public static func == (a: Sensitivity, b: Sensitivity) -> Bool {
      a.parameter == b.parameter && a.metric == b.metric && a.ranges == b.ranges
        && a.largest?.policy == b.largest?.policy && a.largest?.range == b.largest?.range
    }
  }

  /// The points of the slice through the reference point along parameter
  /// `p`, in the order of `p`'s values.
  ///
  /// - Complexity: O(points x parameters).
  public func slice(varying p: Int) -> [Int] {
    precondition(parameters.indices.contains(p), "no parameter \(p) among \(parameters.count)")
    return points.filter { point in
      point.valueIndices.indices.allSatisfy { q in q == p || point.valueIndices[q] == parameters[q].referenceIndex }
    }.sorted { $0.valueIndices[p] < $1.valueIndices[p] }.map(\.index)
  }

  /// The range of `metric` along each parameter's slice, one entry per
  /// parameter.
  public func sensitivity(of metric: Metric) -> [Sensitivity] {
    let names = strategies
    return parameters.indices.map { p in
      let slice = self.slice(varying: p)
      let ranges = names.map { policy -> Double? in
        let xs = slice.compactMap { value(named: metric.name, policy: policy, point: $0) }.filter(\.isFinite)
        guard xs.count >= 2, let lo = xs.min(), let hi = xs.max() else { return nil }
        return hi - lo
      }
      var largest: (String, Double)? = nil
      for (policy, r) in zip(names, ranges) {
        if let r, largest == nil || r > largest!.1 { largest = (policy, r) }
      }
      return Sensitivity(parameter: p, metric: metric.name, ranges: ranges, largest: largest)
    }
  }
}
