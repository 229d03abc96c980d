import Testing

@testable import ReloadEngine

/// `DurationStream` draws ahead but hands out exactly what drawing from
/// the stream one call at a time gives, in the same order, including
/// uniform draws made between durations.
@Suite struct DurationStreamTests {
  static let shapes: [DurationDistribution] = [
    .logNormal(median: .seconds(2), sigma: 1),
    .logNormal(median: .seconds(20), sigma: 1),
    .logNormal(median: .minutes(2), sigma: 0.8),
    .logNormal(median: .milliseconds(1), sigma: 5),
    .logNormal(median: .days(3), sigma: 2),
    .logNormal(median: .zero, sigma: 1),
    .constant(.seconds(5)),
    .uniform(.seconds(-30), .seconds(90)),
    .exponential(mean: .minutes(10)),
    .lateOrEarly(median: .minutes(80), sigma: 0.45, earlyProbability: 0.1, earlyMax: .minutes(5)),
  ]

  /// Durations alone: the same values as `sample(using:)`, across several
  /// batches and seeds.
  @Test(arguments: shapes)
  func durationsAreTheStreamsSamples(_ shape: DurationDistribution) {
    for seed: UInt64 in [1, 2, 99, 12_345] {
      var plain = Xoshiro256StarStar(seed: seed)
      var ahead = DurationStream(shape, stream: Xoshiro256StarStar(seed: seed))
      for i in 0..<203 {
        let expected = shape.sample(using: &plain)
        #expect(ahead.next() == expected, "seed \(seed), draw \(i)")
      }
    }
  }

  /// Durations and uniform draws interleaved at random (a uniform draw at
  /// every position of a batch, and several in a row): the same values.
  @Test(arguments: shapes)
  func uniformDrawsBetweenDurationsSeeTheSameStream(_ shape: DurationDistribution) {
    for seed: UInt64 in 1...20 {
      var plain = Xoshiro256StarStar(seed: seed)
      var ahead = DurationStream(shape, stream: Xoshiro256StarStar(seed: seed))
      var choice = SplitMix64(seed: seed &* 7919)
      for i in 0..<300 {
        if choice.next() % 4 == 0 {
          #expect(ahead.nextUnit() == plain.nextUnit(), "seed \(seed), step \(i)")
        } else {
          let expected = shape.sample(using: &plain)
          #expect(ahead.next() == expected, "seed \(seed), step \(i)")
        }
      }
    }
  }

  /// The batch of eight is eight single draws.
  @Test func fillRoundedIsEightSampleRounded() {
    for (median, sigma) in [(2_000.0, 1.0), (1.0, 5.0), (86_400_000.0, 2.0), (0.0, 1.0), (7.0, 0.0)] {
      let sampler = LogNormalSampler(median: median, sigma: sigma)
      var plain = Xoshiro256StarStar(seed: 5)
      var batched = Xoshiro256StarStar(seed: 5)
      var out = InlineArray<8, Int64>(repeating: -1)
      for _ in 0..<5_000 {
        sampler.fillRounded(&out, using: &batched)
        for k in 0..<8 {
          #expect(out[k] == sampler.sampleRounded(using: &plain).milliseconds, "median \(median), sigma \(sigma)")
        }
      }
      #expect(plain.next() == batched.next())
    }
  }
}
