/// The held requests observed against each leading reading of the accrual,
/// for calibration.html: every policy request the replay reads
/// (`HoldPair`, at a quarter hour in which its user is seen awake), how
/// long after its date the system answered it, and how long after it each
/// reading, with its fitted B, answers it when replayed from the widget's
/// own earlier reloads (`BudgetHolds`): when the reading allows it, plus the
/// median lateness of the requests the best reading does not hold. A window lets a burst through and then freezes
/// (long holds late in the day), a bucket paces (short holds all day).
public struct HoldReplay: Sendable {
  /// The log's requests, or one reading's replay of them.
  public struct Series: Sendable {
    /// "observed", or the reading's name as `Assumption.budgetAccrual` names it.
    public var name: String
    /// B under the reading: the log's, or the median of the devices' with a B per device; NaN for observed.
    public var perDay = Double.nan
    /// The reading's held-out score margin over the best, with its 95 % interval; 0 for the best.
    public var margin = 0.0
    public var marginLow = 0.0
    public var marginHigh = 0.0
    public var ruledOut = false
    /// Requests held at least `HoldReplay.delaysMinutes[k]` after their date, per k.
    public var heldAtLeast: [Int] = []
    /// Requests made in each local hour held more than `thresholdMinutes`.
    public var heldByHour = [Int](repeating: 0, count: 24)
  }

  /// A request counts as held when it came (observed) or is allowed
  /// (replayed) more than this after its date: twice the 95th percentile
  /// of the lateness of the requests the best reading does not hold, at
  /// least a minute (`Fitter.countHeld`).
  public var thresholdMinutes: Double
  /// The delays the survival curves are read at, minutes: from the threshold to 24 h, log-spaced.
  public var delaysMinutes: [Double]
  /// The requests read, and those made in each local hour.
  public var requests = 0
  public var requestsByHour = [Int](repeating: 0, count: 24)
  public var observed: Series
  /// The best reading, the runner-up, and the best of the other kind
  /// (window or bucket) when neither of those is.
  public var readings: [Series]
  /// B is per device (budgets differ with how often widgets are seen).
  public var perDevice: Bool
  /// The log's holds decided the accrual: its other kind is ruled out.
  public var decided: Bool
}

extension Fitter {
  /// Points of the survival curves.
  static let replayPoints = 48

  /// The held requests observed and replayed under `holds`' leading readings.
  func holdReplay(_ holds: HoldFit) -> HoldReplay {
    var shown = Array(holds.readings.indices.prefix(2))
    if let other = holds.readings.indices.first(where: {
      holds.readings[$0].reading.window != holds.best.reading.window
    }),
      !shown.contains(other)
    {
      shown.append(other)
    }
    let threshold = max(1, 2 * holds.usualLatenessS.finiteOr(0) / 60)
    let top = max(1440, threshold * 10)
    let points = (0..<Self.replayPoints).map {
      threshold * Double.pow(top / threshold, Double($0) / Double(Self.replayPoints - 1))
    }
    // Each series' requests held at least points[k] and less than points[k + 1], then summed from the right.
    let perStep = Double(Self.replayPoints - 1) / Double.log(top / threshold)
    func bin(_ minutes: Double) -> Int? {
      guard minutes > threshold else { return nil }
      var k = min(points.count - 1, Int((Double.log(minutes / threshold) * perStep).rounded(.down)))
      // The rounding of the logarithm must not put a delay below its point.
      while k > 0 && points[k] > minutes { k -= 1 }
      return k
    }
    var observed = HoldReplay.Series(name: "observed")
    observed.heldAtLeast = [Int](repeating: 0, count: points.count)
    var series = shown.map { r -> HoldReplay.Series in
      let reading = holds.readings[r]
      var s = HoldReplay.Series(name: reading.reading.name)
      s.perDay = reading.perDay
      if holds.perDevice != nil, let each = holds.perDeviceByReading?[r] {
        let seen = holds.heldDeviceList.map { each[$0] }.filter(\.isFinite)
        s.perDay = seen.isEmpty ? .nan : Stats.median(seen)
      }
      (s.margin, s.marginLow, s.marginHigh, s.ruledOut) =
        (reading.margin, reading.marginLow, reading.marginHigh, reading.ruledOut)
      s.heldAtLeast = [Int](repeating: 0, count: points.count)
      return s
    }
    var replay = HoldReplay(
      thresholdMinutes: threshold, delaysMinutes: points, observed: observed, readings: [],
      perDevice: holds.perDevice != nil, decided: holds.identified && (holds.otherKind?.ruledOut ?? false))
    // A replayed reload comes the median lateness of the requests not held after the reading allows it.
    let lateness = holds.unheldLatenessS.finiteOr(0)
    var tokens: [Double] = []
    for (d, s) in summaries.enumerated() {
      // The request's local hour, if its user is seen awake then (a night's wait shows nothing of the budget).
      func hour(_ request: Int64) -> Int? {
        let q = Summarizer.quarter(request, offset: s.offsetMs)
        return s.awakeQuarters[q] ? q / 4 : nil
      }
      for (n, r) in shown.enumerated() {
        let b = holds.perDeviceByReading?[r][d] ?? holds.readings[r].perDay
        guard b.isFinite else { continue }
        BudgetHolds.forEachPair(s, holds.readings[r].reading, perDay: b, tokens: &tokens) { p, reload, allowed in
          guard let h = hour(p.request) else { return }
          if n == 0 {
            replay.requests += 1
            replay.requestsByHour[h] += 1
            if let k = bin(Double(reload - p.request) / 60_000) {
              observed.heldAtLeast[k] += 1
              observed.heldByHour[h] += 1
            }
          }
          if let k = bin((Double(allowed - p.request) / 1000 + lateness) / 60) {
            series[n].heldAtLeast[k] += 1
            series[n].heldByHour[h] += 1
          }
        }
      }
    }
    for k in stride(from: points.count - 2, through: 0, by: -1) {
      observed.heldAtLeast[k] += observed.heldAtLeast[k + 1]
      for n in series.indices { series[n].heldAtLeast[k] += series[n].heldAtLeast[k + 1] }
    }
    replay.observed = observed
    replay.readings = series
    return replay
  }
}

extension Double {
  /// The value, or `fallback` when it is not finite.
  func finiteOr(_ fallback: Double) -> Double { isFinite ? self : fallback }
}
