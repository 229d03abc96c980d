/// How many times a bootstrap resample drew each device (1 for every device
/// in the point estimate).
package typealias Weights = [Int]

/// One figure of every device (say its late-day intervals), pooled and
/// sorted once. A bootstrap resample draws devices with repetition; its
/// pooled quantile is then a walk over the sorted values counting each as
/// often as its device was drawn, which is exactly the quantile of the
/// resample's pooled values (`Stats.sortedQuantile`) without copying or
/// sorting them again for each of the resamples.
struct Pool {
  private var values: [Double] = []
  private var owner: [Int32] = []
  /// Values per device.
  private var perDevice: [Int]

  init(devices: Int, _ values: (Int) -> [Double]) {
    perDevice = Array(repeating: 0, count: devices)
    var pairs: [(Double, Int32)] = []
    for d in 0..<devices {
      let v = values(d)
      perDevice[d] = v.count
      for x in v { pairs.append((x, Int32(d))) }
    }
    pairs.sort { $0.0 < $1.0 }
    self.values = pairs.map(\.0)
    owner = pairs.map(\.1)
  }

  /// The resample's number of values.
  func count(_ w: Weights) -> Int {
    var n = 0
    for d in perDevice.indices where perDevice[d] > 0 { n += perDevice[d] * w[d] }
    return n
  }

  /// The `q` quantile of the resample's values by linear interpolation
  /// between order statistics; NaN when it has none.
  func quantile(_ w: Weights, _ q: Double) -> Double {
    let n = count(w)
    guard n > 0 else { return .nan }
    let h = q * Double(n - 1)
    let lo = Int(h.rounded(.down))
    let hi = min(n - 1, lo + 1)
    var cum = 0
    var low = Double.nan
    for i in values.indices {
      let c = w[Int(owner[i])]
      if c == 0 { continue }
      cum += c
      if low.isNaN && cum > lo { low = values[i] }
      if cum > hi { return low + (h - Double(lo)) * (values[i] - low) }
    }
    return low
  }

  func median(_ w: Weights) -> Double { quantile(w, 0.5) }
}
