/// Mean and 95 % confidence half-width of independent replications
/// (Student's t), for the `_ci95` columns.
public struct ReplicationSummary: Sendable, Equatable {
  public let count: Int
  public let mean: Double
  /// Sample standard deviation (n - 1 in the denominator).
  public let standardDeviation: Double
  /// Half-width of the two-sided 95 % interval of the mean; 0 when `count < 2`.
  public let halfWidth95: Double

  public init(_ values: [Double]) {
    count = values.count
    if values.isEmpty {
      mean = 0
      standardDeviation = 0
      halfWidth95 = 0
      return
    }
    let m = values.reduce(0, +) / Double(values.count)
    mean = m
    if values.count < 2 {
      standardDeviation = 0
      halfWidth95 = 0
      return
    }
    let ss = values.reduce(0) { $0 + ($1 - m) * ($1 - m) }
    let sd = (ss / Double(values.count - 1)).squareRoot()
    standardDeviation = sd
    halfWidth95 =
      ReplicationSummary.tQuantile975(degreesOfFreedom: values.count - 1) * sd
      / Double(values.count).squareRoot()
  }

  /// The 0.975 quantile of Student's t distribution.
  public static func tQuantile975(degreesOfFreedom df: Int) -> Double {
    let table: [Double] = [
      12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
      2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
      2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
    ]
    if df < 1 { return .infinity }
    if df <= table.count { return table[df - 1] }
    // Cornish-Fisher expansion around the normal quantile, good to 1e-3 above 30.
    let z = 1.959964
    let d = Double(df)
    return z + (z * z * z + z) / (4 * d) + (5 * z * z * z * z * z + 16 * z * z * z + 3 * z) / (96 * d * d)
  }
}
