import Testing

import ReloadEngine

/// Sample mean and variance of `n` draws.
private func moments(_ n: Int, _ draw: () -> Double) -> (mean: Double, variance: Double) {
  var sum = 0.0
  var sumSq = 0.0
  for _ in 0..<n {
    let x = draw()
    sum += x
    sumSq += x * x
  }
  let mean = sum / Double(n)
  return (mean, sumSq / Double(n) - mean * mean)
}

@Suite struct RandomStreamTests {
  @Test func splitMix64MatchesTheReferenceSequence() {
    // First outputs of SplitMix64 seeded with 0 (Vigna's splitmix64.c).
    var g = SplitMix64(seed: 0)
    #expect(g.next() == 0xE220_A839_7B1D_CDAF)
    #expect(g.next() == 0x6E78_9E6A_A1B9_65F4)
  }

  @Test func aStreamDependsOnlyOnItsKeyNotOnCreationOrder() {
    let streams = RandomStreams(seed: 42)
    var a = streams.stream(entity: 7, purpose: .one)
    let firstA = (0..<5).map { _ in a.next() }
    // Create and use other streams first, then the same key again.
    for e in 0..<100 {
      var other = streams.stream(entity: UInt64(e), purpose: .two)
      _ = other.next()
    }
    var again = streams.stream(entity: 7, purpose: .one)
    #expect((0..<5).map { _ in again.next() } == firstA)
  }

  @Test func differentKeysGiveUncorrelatedStreams() {
    let streams = RandomStreams(seed: 1)
    let keys: [(UInt64, StreamPurpose)] = [
      (0, .one), (1, .one), (0, .two), (1, .two), (2, .three),
    ]
    var gens = keys.map { streams.stream(entity: $0.0, purpose: $0.1) }
    let n = 20_000
    var samples = Array(repeating: [Double](), count: gens.count)
    for i in gens.indices { samples[i] = (0..<n).map { _ in gens[i].nextUnit() } }
    for i in samples.indices {
      for j in samples.indices where j > i {
        var c = 0.0
        for k in 0..<n { c += (samples[i][k] - 0.5) * (samples[j][k] - 0.5) }
        let correlation = c / Double(n) * 12
        // Sd of the sample correlation is 1/sqrt(n) ~ 0.007: allow 5 sd.
        #expect(abs(correlation) < 0.035, "streams \(i) and \(j): \(correlation)")
      }
    }
    // No two streams start alike.
    #expect(Set(samples.map { $0[0] }).count == samples.count)
  }

  @Test func seedsAndReplicationsChangeEveryStream() {
    let a = RandomStreams(seed: 1).key(entity: 5, purpose: .one)
    let b = RandomStreams(seed: 2).key(entity: 5, purpose: .one)
    let c = RandomStreams(seed: 1).replication(1).key(entity: 5, purpose: .one)
    #expect(Set([a, b, c]).count == 3)
    #expect(RandomStreams(seed: 1).replication(0).seed == 1)
  }

  @Test func counterBasedDrawsArePureFunctionsOfTheIndex() {
    let s = RandomStreams(seed: 9)
    let forward = (0..<100).map { s.counter(entity: 3, purpose: .three, index: UInt64($0)) }
    let backward = (0..<100).reversed().map { s.counter(entity: 3, purpose: .three, index: UInt64($0)) }
    #expect(forward == backward.reversed())
    #expect(Set(forward).count == 100)
  }
}

@Suite struct SamplerTests {
  let n = 200_000

  @Test func unitDrawsAreInRangeWithUniformMoments() {
    var g = Xoshiro256StarStar(seed: 3)
    let m = moments(n) { g.nextUnit() }
    #expect(abs(m.mean - 0.5) < 0.004)
    #expect(abs(m.variance - 1.0 / 12) < 0.002)
    var h = Xoshiro256StarStar(seed: 4)
    for _ in 0..<10_000 {
      let u = h.nextUnitPositive()
      #expect(u > 0 && u <= 1)
    }
  }

  @Test func uniformSamplerMeanAndVariance() {
    var g = Xoshiro256StarStar(seed: 5)
    let s = UniformSampler(lower: 10, upper: 130)
    let m = moments(n) { s.sample(using: &g) }
    #expect(abs(m.mean - s.mean) < 0.5)
    #expect(abs(m.variance - s.variance) / s.variance < 0.02)
  }

  @Test func exponentialSamplerMeanAndVariance() {
    var g = Xoshiro256StarStar(seed: 6)
    let s = ExponentialSampler(mean: 1800)
    let m = moments(n) { s.sample(using: &g) }
    #expect(abs(m.mean - 1800) / 1800 < 0.01)
    #expect(abs(m.variance - s.variance) / s.variance < 0.03)
  }

  @Test func normalAndLogNormalSamplersMeanAndVariance() {
    var g = Xoshiro256StarStar(seed: 7)
    let z = moments(n) { g.nextStandardNormal() }
    #expect(abs(z.mean) < 0.01)
    #expect(abs(z.variance - 1) < 0.015)
    let s = LogNormalSampler(median: 120, sigma: 0.5)
    let m = moments(n) { s.sample(using: &g) }
    #expect(abs(m.mean - s.mean) / s.mean < 0.01)
    #expect(abs(m.variance - s.variance) / s.variance < 0.05)
    // The median is the median.
    var h = Xoshiro256StarStar(seed: 8)
    let below = (0..<n).filter { _ in s.sample(using: &h) < 120 }.count
    #expect(abs(Double(below) / Double(n) - 0.5) < 0.005)
  }

  @Test(arguments: [0.3, 4.0, 29.0, 31.0, 250.0])
  func poissonSamplerMeanAndVariance(lambda: Double) {
    var g = Xoshiro256StarStar(seed: UInt64(lambda * 10))
    let s = PoissonSampler(lambda: lambda)
    let m = moments(n) { Double(s.sample(using: &g)) }
    #expect(abs(m.mean - lambda) / lambda < 0.02)
    #expect(abs(m.variance - lambda) / lambda < 0.04)
  }

  @Test func durationDistributionsHaveTheirMeans() {
    var g = Xoshiro256StarStar(seed: 11)
    let cases: [DurationDistribution] = [
      .constant(.seconds(30)),
      .uniform(.zero, .seconds(120)),
      .uniform(.seconds(-60), .seconds(60)),
      .exponential(mean: .minutes(10)),
      .logNormal(median: .minutes(80), sigma: 0.45),
      .lateOrEarly(median: .minutes(80), sigma: 0.45, earlyProbability: 0.1, earlyMax: .minutes(15)),
    ]
    for d in cases {
      let m = moments(100_000) { Double(d.sample(using: &g).milliseconds) }
      let expected = Double(d.mean.milliseconds)
      #expect(abs(m.mean - expected) <= max(50, abs(expected) * 0.015), "\(d): \(m.mean) vs \(expected)")
    }
  }

  /// Arrivals per local hour match the hourly rates, and the process
  /// respects the time-zone offset.
  @Test func timeOfDayPoissonProcessFollowsItsHourlyRates() {
    var rates = [Double](repeating: 0, count: 24)
    for h in 7..<23 { rates[h] = 4 }
    rates[12] = 10
    let offset = SimDuration.hours(3)
    let process = TimeOfDayPoissonProcess(ratesPerHour: rates, utcOffset: offset)
    var g = Xoshiro256StarStar(seed: 12)
    var perHour = [Int](repeating: 0, count: 24)
    var t = SimTime.zero
    let days = 2_000
    let end = SimTime.zero + .days(Double(days))
    var count = 0
    while true {
      t = process.nextArrival(after: t, using: &g)
      if t >= end { break }
      let local = (t + offset).milliseconds % 86_400_000
      perHour[Int(local / 3_600_000)] += 1
      count += 1
    }
    for h in 0..<24 {
      let expected = rates[h] * Double(days)
      if expected == 0 {
        #expect(perHour[h] == 0, "hour \(h)")
      } else {
        // 5 standard deviations of a Poisson count.
        #expect(abs(Double(perHour[h]) - expected) < 5 * expected.squareRoot(), "hour \(h)")
      }
    }
    let expectedTotal = process.expectedCount(from: .zero, to: end)
    #expect(abs(Double(count) - expectedTotal) < 5 * expectedTotal.squareRoot())
    #expect(TimeOfDayPoissonProcess.constant(perHour: 0).nextArrival(after: .zero, using: &g) == .never)
  }

  /// A rate so small its next arrival is centuries away is found without
  /// walking every hour, and one beyond ~2,700 years is `.never`; a slow
  /// but plausible rate (one a month) still lands where the hour-by-hour
  /// walk puts it.
  @Test func tinyRatesSkipWholeDays() {
    var g = Xoshiro256StarStar(seed: 5)
    #expect(TimeOfDayPoissonProcess.constant(perHour: 1e-300).nextArrival(after: .zero, using: &g) == .never)
    // Mean gap 100 years: finite, far, and drawn quickly.
    let slow = TimeOfDayPoissonProcess.constant(perHour: 1.0 / (24 * 365 * 100))
    var total = 0.0
    for _ in 0..<200 {
      let t = slow.nextArrival(after: .zero, using: &g)
      #expect(t != .never)
      total += Double(t.milliseconds) / 86_400_000 / 365
    }
    // Mean of 200 exponentials with mean 100 years: within 5 standard errors.
    #expect(abs(total / 200 - 100) < 5 * 100 / 200.0.squareRoot())
    // Below the skip threshold, results equal the plain walk's (same draws).
    var a = Xoshiro256StarStar(seed: 9)
    var b = Xoshiro256StarStar(seed: 9)
    let monthly = TimeOfDayPoissonProcess.constant(perHour: 1.0 / (24 * 30))
    for _ in 0..<100 {
      let t = monthly.nextArrival(after: .zero, using: &a)
      let mass = b.nextStandardExponential()
      #expect(abs(Double(t.milliseconds) - mass * 30 * 86_400_000) < 2)
    }
  }

  /// `nextArrival` advances the local hour by addition after its first
  /// step; it must land exactly where recomputing the hour from the clock
  /// at every step does (the walk it replaced, written out here as the
  /// oracle), also for offsets that are not whole hours and for start
  /// times inside an hour, before UTC 0 and across midnights.
  @Test func nextArrivalMatchesTheHourByHourWalk() {
    func oracle(after time: SimTime, rates: [Double], offset: SimDuration, _ g: inout Xoshiro256StarStar) -> SimTime {
      let hourMs: Int64 = 3_600_000
      var mass = g.nextStandardExponential()
      var t = time.milliseconds
      while true {
        var local = (t + offset.milliseconds) % 86_400_000
        if local < 0 { local += 86_400_000 }
        let hourEnd = t + (hourMs - local % hourMs)
        let rate = rates[Int(local / hourMs)]
        if rate > 0 {
          let available = rate * Double(hourEnd - t) / Double(hourMs)
          if mass < available { return SimTime(milliseconds: t + Int64(mass / rate * Double(hourMs))) }
          mass -= available
        }
        t = hourEnd
      }
    }
    var setup = Xoshiro256StarStar(seed: 77)
    for trial in 0..<200 {
      var rates = [Double](repeating: 0, count: 24)
      let from = setup.nextIndex(below: 24)
      let hours = 1 + setup.nextIndex(below: 23)
      for h in from..<(from + hours) { rates[h % 24] = 0.05 + 6 * setup.nextUnit() }
      let offset = SimDuration.milliseconds(Int64(setup.nextIndex(below: 26 * 3_600_000)) - 12 * 3_600_000)
      let process = TimeOfDayPoissonProcess(ratesPerHour: rates, utcOffset: offset)
      var a = Xoshiro256StarStar(seed: UInt64(trial))
      var b = a
      var t = SimTime(milliseconds: Int64(setup.nextIndex(below: 4 * 86_400_000)) - 86_400_000)
      for _ in 0..<50 {
        let fast = process.nextArrival(after: t, using: &a)
        let slow = oracle(after: t, rates: rates, offset: offset, &b)
        #expect(fast == slow, "trial \(trial): \(fast) vs \(slow)")
        if fast != slow { return }
        t = fast
      }
    }
  }

  /// Gaps inside the window are exponential with mean 15 min (R1's glances).
  @Test func gapsInsideTheWindowAreExponential() {
    var rates = [Double](repeating: 0, count: 24)
    for h in 7..<23 { rates[h] = 4 }
    let process = TimeOfDayPoissonProcess(ratesPerHour: rates)
    var g = Xoshiro256StarStar(seed: 13)
    var gaps: [Double] = []
    var t = SimTime.zero + .hours(7)
    for _ in 0..<100_000 {
      let next = process.nextArrival(after: t, using: &g)
      let sameWindow = next.milliseconds / 86_400_000 == t.milliseconds / 86_400_000
        && t.milliseconds % 86_400_000 >= 7 * 3_600_000
      if sameWindow { gaps.append(Double((next - t).milliseconds) / 60_000) }
      t = next
    }
    // Gaps inside one window are truncated by 23:00, so compare the short ones:
    // P(gap < 15 min) = 1 - e^-1.
    let short = Double(gaps.filter { $0 < 15 }.count) / Double(gaps.count)
    #expect(abs(short - (1 - 0.36788)) < 0.01)
  }
}

@Suite struct SimTimeTests {
  @Test func factoriesRoundAndSaturate() {
    #expect(SimDuration.seconds(1.5).milliseconds == 1_500)
    #expect(SimDuration.minutes(15).milliseconds == 900_000)
    #expect(SimDuration.hours(.infinity) == .max)
    #expect(SimDuration.hours(-.infinity).milliseconds == -SimDuration.max.milliseconds)
    #expect(SimDuration.seconds(.nan) == .zero)
    #expect((SimTime.zero + .days(1)).milliseconds == 86_400_000)
    #expect(SimTime(milliseconds: 90_061_001).description == "d1+01:01:01.001")
  }

  /// The named spans are the factories' whole units, and a span scaled by
  /// a fraction truncates (a uniform draw in [0, 1) stays inside the span).
  @Test func namedSpansAndScaling() {
    #expect(SimDuration.day == .hours(24) && SimDuration.hour == .minutes(60) && SimDuration.minute == .seconds(60))
    #expect(SimDuration.day == SimDuration.hour * 24)
    #expect(SimDuration.hour.scaled(by: 0.5) == .minutes(30))
    #expect(SimDuration.hour.scaled(by: 0.999_999_999_9).milliseconds == 3_599_999)
    #expect(SimDuration.hour.scaled(by: 0) == .zero)
  }
}

@Suite struct BulkArrivalTests {
  /// The bulk generator follows the hourly rates like `nextArrival` does.
  @Test func appendArrivalsFollowsTheHourlyRatesInOrder() {
    var rates = [Double](repeating: 0, count: 24)
    for h in 6..<22 { rates[h] = Double(h % 5 + 1) }
    let offset = SimDuration.hours(-5)
    var g = Xoshiro256StarStar(seed: 21)
    var out: [SimTime] = []
    let end = SimTime.zero + .days(3000)
    rates.withUnsafeBufferPointer {
      TimeOfDayPoissonProcess.appendArrivals(from: .zero, until: end, ratesPerHour: $0, utcOffset: offset, using: &g, into: &out)
    }
    #expect(zip(out, out.dropFirst()).allSatisfy { $0 <= $1 })
    #expect(out.last! < end)
    var perHour = [Int](repeating: 0, count: 24)
    for t in out {
      var local = (t + offset).milliseconds % 86_400_000
      if local < 0 { local += 86_400_000 }
      perHour[Int(local / 3_600_000)] += 1
    }
    for h in 0..<24 {
      let expected = rates[h] * 3000
      if expected == 0 { #expect(perHour[h] == 0) } else { #expect(abs(Double(perHour[h]) - expected) < 5 * expected.squareRoot(), "hour \(h)") }
    }
  }
}

/// The engine names no model purposes; these stand in for any three.
extension StreamPurpose {
  fileprivate static let one = StreamPurpose(rawValue: 2)
  fileprivate static let two = StreamPurpose(rawValue: 9)
  fileprivate static let three = StreamPurpose(rawValue: 20)
}
