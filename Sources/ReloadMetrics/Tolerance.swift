/// How far a metric may move from its baseline before `reloadbench check`
/// counts the move as a change.
///
/// A change counts when it exceeds *both* parts: the allowance is the
/// larger of `absolute` and `relativePct` % of the baseline's magnitude
/// (the shape of Python's `math.isclose`). The absolute part keeps values
/// near zero from flagging huge relative moves (0.001 -> 0.002 is +100 %);
/// the relative part scales with the metric.
///
///     let t = Tolerance(relativePct: 2, absolute: 0.01)
///     t.allowance(baseline: 6.25)   // 0.125
///     t.allowance(baseline: 0.1)    // 0.01
public struct Tolerance: Sendable, Equatable, Codable {
  /// Percent of the baseline's magnitude.
  public var relativePct: Double
  /// In the metric's own unit (percentage points for `%` metrics).
  public var absolute: Double

  public init(relativePct: Double, absolute: Double) {
    precondition(relativePct >= 0 && absolute >= 0, "tolerances are not negative: \(relativePct) %, \(absolute)")
    self.relativePct = relativePct
    self.absolute = absolute
  }

  /// No tolerance: every change beyond float noise counts.
  public static let exact = Tolerance(relativePct: 0, absolute: 0)

  /// The largest move from `baseline` that is not a change.
  public func allowance(baseline: Double) -> Double {
    Swift.max(absolute, relativePct / 100 * abs(baseline))
  }

  /// The default tolerance of a metric, by its unit.
  ///
  /// Runs are deterministic, so under the same seed any move is real; these
  /// defaults say which moves are worth failing a build for. Percentages
  /// move in points; rates, minutes, counts and energy by 2 % of their
  /// value (with small absolute floors near zero); the backend's requests
  /// per second by 5 %, because a busiest second of a sampled fleet jumps by
  /// whole requests times the fleet scale; a local clock hour by 15 minutes.
  ///
  /// | unit | relative | absolute |
  /// |---|---|---|
  /// | percent | – | 0.5 points |
  /// | minutes | 2 % | 0.5 min |
  /// | hours | 2 % | 0.01 h |
  /// | hourOfDay | – | 0.25 h |
  /// | perWidgetDay, perDeviceDay | 2 % | 0.01 |
  /// | count | 2 % | 1 |
  /// | requestsPerSecond | 5 % | – |
  /// | millijoulesPerDeviceDay | 2 % | – |
  /// | timings (events/s, seconds, bytes) | 10 % | – |
  ///
  /// - Important: `Reports/README.md` ("Regression checks") documents this
  ///   table; keep the two in step.
  public static func standard(for unit: MetricUnit) -> Tolerance {
    switch unit {
    case .percent: return Tolerance(relativePct: 0, absolute: 0.5)
    case .minutes: return Tolerance(relativePct: 2, absolute: 0.5)
    case .hours: return Tolerance(relativePct: 2, absolute: 0.01)
    case .hourOfDay: return Tolerance(relativePct: 0, absolute: 0.25)
    case .perWidgetDay, .perDeviceDay: return Tolerance(relativePct: 2, absolute: 0.01)
    case .count: return Tolerance(relativePct: 2, absolute: 1)
    case .requestsPerSecond: return Tolerance(relativePct: 5, absolute: 0)
    case .millijoulesPerDeviceDay: return Tolerance(relativePct: 2, absolute: 0)
    case .eventsPerSecond, .widgetDaysPerSecond, .seconds, .bytes: return Tolerance(relativePct: 10, absolute: 0)
    }
  }

  /// Moves this small are float noise (another libm, another summation
  /// order), never a change: 1e-9 of the larger magnitude.
  public static func floatNoise(_ a: Double, _ b: Double) -> Double {
    1e-9 * Swift.max(abs(a), abs(b), 1e-3)
  }
}
