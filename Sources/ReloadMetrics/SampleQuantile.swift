/// Quantiles of a sample of values, by linear interpolation between order
/// statistics (the definition R, NumPy and the reports' bands use by default).
package enum SampleQuantile {
  /// The `q` quantile (0...1) of `values`; NaN when empty.
  package static func of(_ values: [Double], _ q: Double) -> Double { ofSorted(values.sorted(), q) }

  /// The `q` quantile of `sorted`, already in increasing order; NaN when empty.
  package static func ofSorted(_ sorted: [Double], _ q: Double) -> Double {
    guard !sorted.isEmpty else { return .nan }
    let h = q * Double(sorted.count - 1)
    let lo = Int(h.rounded(.down))
    let hi = Swift.min(sorted.count - 1, lo + 1)
    return sorted[lo] + (h - Double(lo)) * (sorted[hi] - sorted[lo])
  }
}
