/// One lateness seen, seconds, with the share of the budget spent at its request.
package struct SpentLateness {
  package var lateness: Double
  package var used: Double

  package init(lateness: Double, used: Double) {
    self.lateness = lateness
    self.used = used
  }
}

/// The least-squares fit of log lateness on log spent share
/// (log d + e log used), over the points with a lateness over a second and
/// a spent share over 2 %. Each device's sums are taken once (about the
/// pooled means, so they do not cancel) and a resample adds them as often
/// as it drew the device. A seen lateness counts exp(rate x lateness) times:
/// the app's own reloads cut a long wait short more often, so a long draw is
/// seen less often (inverse probability of being seen).
package struct PressureRegression {
  let x0: Double
  let y0: Double
  /// Per device.
  let sums: [Stats.Sums]
  /// The points over every device.
  let points: Int

  /// `byDevice`: each device's lateness; `cutRate`: how often the app's
  /// own reloads cut a wait short, per second.
  package init(_ byDevice: [[SpentLateness]], cutRate: Double) {
    let points = byDevice.map { v in
      v.filter { $0.lateness > 1 && $0.used > 0.02 }.map {
        (x: Double.log($0.used), y: Double.log($0.lateness), weight: Double.exp(cutRate * $0.lateness))
      }
    }
    let x0 = Stats.mean(points.flatMap { $0.map(\.x) })
    let y0 = Stats.mean(points.flatMap { $0.map(\.y) })
    sums = points.map { v in
      var sums = Stats.Sums()
      for p in v { sums.add(p.x - x0, p.y - y0, weight: p.weight) }
      return sums
    }
    self.x0 = x0
    self.y0 = y0
    self.points = points.reduce(0) { $0 + $1.count }
  }

  /// The sums of a resample.
  func sums(_ w: Weights) -> Stats.Sums {
    var s = Stats.Sums()
    for d in w.indices where w[d] > 0 { s.add(sums[d], times: Double(w[d])) }
    return s
  }

  /// e: the slope, from a weight of 10 points or more.
  package func exponent(_ w: Weights) -> Double? {
    let s = sums(w)
    return s.n >= 10 ? s.slope : nil
  }

  /// d: the fitted lateness at a spent share of 1 (log used = 0).
  package func latenessAtFullBudget(_ w: Weights) -> Double? {
    let s = sums(w)
    guard s.n >= 10, let slope = s.slope else { return nil }
    return Double.exp(y0 + s.y / s.n - slope * (x0 + s.x / s.n))
  }
}
