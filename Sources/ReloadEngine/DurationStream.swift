/// The draws of one `DurationDistribution` from a random stream of their
/// own: each `next()` is `distribution.sample(using:)` on the stream, and
/// `nextUnit()` a uniform draw made after them, as if from the stream itself.
///
///     var delays = DurationStream(.logNormal(median: .seconds(2), sigma: 1),
///                                 stream: Xoshiro256StarStar(seed: 7))
///     let d = delays.next()
///
/// NOTE: for performance. A log-normal draw is one dependent chain of
/// about 150 cycles (`log`, `sqrt`, `exp`, rounding); made where it is
/// needed, the work after it waits in the reorder buffer until it
/// finishes. A log-normal stream is therefore drawn eight at a time
/// (`LogNormalSampler.fillRounded`), and a draw is then a load. The same
/// random numbers give the same values in the same order; the draws made
/// ahead and never taken are dropped with the stream.
@frozen
public struct DurationStream: Sendable {
  public let distribution: DurationDistribution
  /// The stream, past every draw made (taken or ahead).
  @usableFromInline var rng: Xoshiro256StarStar
  /// The stream as it was before the draws ahead were made.
  @usableFromInline var beforeAhead: Xoshiro256StarStar
  /// The draws made ahead, in milliseconds; `ahead[taken...]` are still to come.
  @usableFromInline var ahead = InlineArray<8, Int64>(repeating: 0)
  @usableFromInline var taken = 8  // none ahead
  /// The log-normal a batch is drawn from, or `nil` for the other shapes
  /// (drawn one at a time).
  @usableFromInline let logNormal: LogNormalSampler?

  public init(_ distribution: DurationDistribution, stream: Xoshiro256StarStar) {
    self.distribution = distribution
    rng = stream
    beforeAhead = stream
    if case .logNormal(let median, let sigma) = distribution {
      logNormal = LogNormalSampler(median: Double(median.milliseconds), sigma: sigma)
    } else {
      logNormal = nil
    }
  }

  /// Starts over on `stream` (the next device's), with the same
  /// distribution; nothing drawn ahead is kept.
  public mutating func restart(stream: Xoshiro256StarStar) {
    rng = stream
    beforeAhead = stream
    taken = ahead.count
  }

  /// The next draw.
  @inlinable @inline(__always)
  public mutating func next() -> SimDuration {
    if taken < ahead.count {
      defer { taken &+= 1 }
      return SimDuration(milliseconds: ahead[taken])
    }
    return drawMore()
  }

  @inlinable @inline(never)
  mutating func drawMore() -> SimDuration {
    guard let logNormal else { return distribution.sample(using: &rng) }
    beforeAhead = rng
    logNormal.fillRounded(&ahead, using: &rng)
    taken = 1
    return SimDuration(milliseconds: ahead[0])
  }

  /// A uniform draw in [0, 1) from the same stream, after the durations
  /// taken so far (the draws made ahead are dropped: a log-normal draw
  /// takes two random numbers, so the stream is wound back to just after
  /// the last one taken).
  public mutating func nextUnit() -> Double {
    if taken < ahead.count {
      rng = beforeAhead
      for _ in 0..<(2 * taken) { _ = rng.next() }
      taken = ahead.count
    }
    return rng.nextUnit()
  }
}
