/// A distribution of non-negative-or-signed time spans, as scenario files
/// describe delays, lateness and session lengths.
///
///     let jitter = DurationDistribution.uniform(.zero, .seconds(120))
///     let late = DurationDistribution.logNormal(median: .minutes(80), sigma: 0.45)
///     var rng = Xoshiro256StarStar(seed: 1)
///     let d: SimDuration = jitter.sample(using: &rng)
@frozen
public enum DurationDistribution: Sendable, Equatable {
  /// Always the same span.
  case constant(SimDuration)
  /// Uniform on [lower, upper); `lower` may be negative ("sometimes early").
  case uniform(SimDuration, SimDuration)
  /// Exponential with the given mean.
  case exponential(mean: SimDuration)
  /// Log-normal with the given median and log-standard-deviation.
  case logNormal(median: SimDuration, sigma: Double)
  /// With probability `earlyProbability`, uniform in [-earlyMax, 0);
  /// otherwise log-normal. The shape developers measured for `.after`
  /// reloads: usually an hour or two late, sometimes a little early.
  case lateOrEarly(median: SimDuration, sigma: Double, earlyProbability: Double, earlyMax: SimDuration)

  /// Draws one span, rounded to the millisecond.
  ///
  /// NOTE: the constant and uniform cases (R1's lateness, every delay
  /// jitter) are inlined where a reload samples them; the shaped ones stay
  /// a call (`sampleShaped`), for performance.
  @inlinable @inline(__always)
  public func sample<G: RandomNumberGenerator>(using rng: inout G) -> SimDuration {
    switch self {
    case .constant(let d):
      return d
    case .uniform(let lo, let hi):
      let span = hi.milliseconds - lo.milliseconds
      if span <= 0 { return lo }
      return SimDuration(milliseconds: lo.milliseconds + Int64(rng.nextUnit() * Double(span)))
    default:
      return sampleShaped(using: &rng)
    }
  }

  /// `sample(using:)` for the exponential and log-normal shapes.
  @inlinable @inline(never)
  func sampleShaped<G: RandomNumberGenerator>(using rng: inout G) -> SimDuration {
    switch self {
    case .constant, .uniform:
      preconditionFailure("sampleShaped(using:) is for the shaped distributions")
    case .exponential(let mean):
      return .saturating(rng.nextStandardExponential() * Double(mean.milliseconds))
    case .logNormal(let median, let sigma):
      return LogNormalSampler(median: Double(median.milliseconds), sigma: sigma).sampleRounded(using: &rng)
    case .lateOrEarly(let median, let sigma, let p, let earlyMax):
      if rng.nextUnit() < p {
        return SimDuration(milliseconds: -Int64(rng.nextUnit() * Double(earlyMax.milliseconds)))
      }
      return LogNormalSampler(median: Double(median.milliseconds), sigma: sigma).sampleRounded(using: &rng)
    }
  }

  /// The mean span (exact for every case).
  public var mean: SimDuration {
    switch self {
    case .constant(let d): return d
    case .uniform(let lo, let hi): return SimDuration(milliseconds: (lo.milliseconds + hi.milliseconds) / 2)
    case .exponential(let m): return m
    case .logNormal(let median, let sigma):
      return .saturating(LogNormalSampler(median: Double(median.milliseconds), sigma: sigma).mean)
    case .lateOrEarly(let median, let sigma, let p, let earlyMax):
      let late = LogNormalSampler(median: Double(median.milliseconds), sigma: sigma).mean
      return .saturating((1 - p) * late - p * Double(earlyMax.milliseconds) / 2)
    }
  }

  /// `true` when every draw is zero.
  public var isZero: Bool {
    if case .constant(let d) = self { return d == .zero }
    return false
  }
}
