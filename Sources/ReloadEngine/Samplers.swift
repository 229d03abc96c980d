// Random variates from a stream: uniform, exponential, normal, log-normal,
// Poisson counts. Every sampler takes `inout some RandomNumberGenerator`, so
// tests can pass a fixed generator and the engine never owns randomness.

extension RandomNumberGenerator {
  /// A uniform `Double` in [0, 1) with 53 random bits.
  @inlinable @inline(__always)
  public mutating func nextUnit() -> Double { _unit(next()) }

  /// A uniform `Double` in (0, 1]: safe to take the logarithm of.
  @inlinable @inline(__always)
  public mutating func nextUnitPositive() -> Double { _unitPositive(next()) }

  /// An exponential variate with mean 1 (ziggurat method; see
  /// `nextStandardExponentialZiggurat`).
  @inlinable @inline(__always)
  public mutating func nextStandardExponential() -> Double {
    nextStandardExponentialZiggurat()
  }

  /// A standard normal variate (Box–Muller, one of the pair).
  @inlinable
  public mutating func nextStandardNormal() -> Double {
    let u1 = nextUnitPositive()
    let u2 = nextUnit()
    return _BoxMuller.standardNormal(u1: u1, u2: u2)
  }

  /// A uniform integer in `0 ..< bound` (Lemire's multiply-shift; the bias
  /// is below 2^-40 for the bounds a simulation uses).
  @inlinable @inline(__always)
  public mutating func nextIndex(below bound: Int) -> Int {
    precondition(bound > 0, "nextIndex(below:) needs a positive bound, got \(bound)")
    return Int(truncatingIfNeeded: next().multipliedFullWidth(by: UInt64(bound)).high)
  }
}

/// The top 53 bits of the random number `r` as a `Double` in [0, 1).
@inlinable @inline(__always)
package func _unit(_ r: UInt64) -> Double { Double(r &>> 11) * 0x1.0p-53 }

/// The top 53 bits of the random number `r`, plus one ulp, in (0, 1].
@inlinable @inline(__always)
package func _unitPositive(_ r: UInt64) -> Double { Double((r &>> 11) &+ 1) * 0x1.0p-53 }

/// A uniform distribution on [lower, upper).
@frozen
public struct UniformSampler: Sendable, Equatable {
  public var lower: Double
  public var upper: Double
  @inlinable public init(lower: Double, upper: Double) {
    precondition(upper >= lower, "UniformSampler: upper \(upper) < lower \(lower)")
    self.lower = lower
    self.upper = upper
  }
  @inlinable @inline(__always)
  public func sample<G: RandomNumberGenerator>(using rng: inout G) -> Double {
    lower + (upper - lower) * rng.nextUnit()
  }
  public var mean: Double { (lower + upper) / 2 }
  public var variance: Double { (upper - lower) * (upper - lower) / 12 }
}

/// An exponential distribution with the given mean.
@frozen
public struct ExponentialSampler: Sendable, Equatable {
  public var mean: Double
  @inlinable public init(mean: Double) {
    precondition(mean > 0, "ExponentialSampler: mean must be positive, got \(mean)")
    self.mean = mean
  }
  @inlinable @inline(__always)
  public func sample<G: RandomNumberGenerator>(using rng: inout G) -> Double {
    rng.nextStandardExponential() * mean
  }
  public var variance: Double { mean * mean }
}

/// A log-normal distribution given by its median and the standard deviation
/// `sigma` of its logarithm: `median * exp(sigma * N(0, 1))`.
///
/// Medians read better than `mu` in scenario files ("sessions last a median
/// of 2 minutes").
@frozen
public struct LogNormalSampler: Sendable, Equatable {
  public var median: Double
  public var sigma: Double
  @inlinable public init(median: Double, sigma: Double) {
    // A median of 0 (a duration below a millisecond, rounded) is the
    // degenerate distribution at 0.
    precondition(median >= 0 && sigma >= 0, "LogNormalSampler: median \(median), sigma \(sigma)")
    self.median = median
    self.sigma = sigma
  }
  @inlinable
  public func sample<G: RandomNumberGenerator>(using rng: inout G) -> Double {
    let r1 = rng.next()
    let r2 = rng.next()
    return value(r1, r2)
  }

  /// The draw made of the random numbers `r1` and `r2` (those of
  /// `nextStandardNormal`, in its order), with the C library.
  @inlinable @inline(__always)
  package func value(_ r1: UInt64, _ r2: UInt64) -> Double {
    median * _exp(sigma * _BoxMuller.standardNormal(u1: _unitPositive(r1), u2: _unit(r2)))
  }
  public var mean: Double { median * _exp(sigma * sigma / 2) }
  public var variance: Double {
    let s2 = sigma * sigma
    return (_exp(s2) - 1) * median * median * _exp(s2)
  }
}

/// Poisson-distributed counts with mean `lambda`.
///
/// Knuth's product-of-uniforms method below `lambda = 30`; above it,
/// Hörmann's transformed rejection (PTRS, "The transformed rejection method
/// for generating Poisson random variables", 1993), which needs about 1.2
/// uniforms per draw whatever the mean.
@frozen
public struct PoissonSampler: Sendable, Equatable {
  public var lambda: Double
  @inlinable public init(lambda: Double) {
    precondition(lambda >= 0, "PoissonSampler: lambda must be >= 0, got \(lambda)")
    self.lambda = lambda
  }
  @inlinable
  public func sample<G: RandomNumberGenerator>(using rng: inout G) -> Int {
    if lambda == 0 { return 0 }
    if lambda < 30 {
      let limit = _exp(-lambda)
      var product = rng.nextUnitPositive()
      var k = 0
      while product > limit {
        product *= rng.nextUnitPositive()
        k += 1
      }
      return k
    }
    let slam = _sqrt(lambda)
    let loglam = _log(lambda)
    let b = 0.931 + 2.53 * slam
    let a = -0.059 + 0.02483 * b
    let invalpha = 1.1239 + 1.1328 / (b - 3.4)
    let vr = 0.9277 - 3.6224 / (b - 2)
    while true {
      let u = rng.nextUnit() - 0.5
      let v = rng.nextUnitPositive()
      let us = 0.5 - abs(u)
      let k = ((2 * a / us + b) * u + lambda + 0.43).rounded(.down)
      if us >= 0.07 && v <= vr { return Int(k) }
      if k < 0 || (us < 0.013 && v > us) { continue }
      let lhs = _log(v) + _log(invalpha) - _log(a / (us * us) + b)
      let rhs = -lambda + k * loglam - _lgamma(k + 1)
      if lhs <= rhs { return Int(k) }
    }
  }
}
