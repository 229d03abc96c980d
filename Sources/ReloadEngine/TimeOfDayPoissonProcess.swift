/// A Poisson process whose rate follows the local time of day.
///
/// The rate is piecewise constant: one value (events per hour) for each of
/// the 24 local hours, with the local clock `utcOffset` ahead of simulated
/// time. Arrivals are drawn by inverting the integrated rate: one standard
/// exponential "mass" per arrival, spent hour by hour, so the process is
/// exact (not thinned) and hours with rate zero cost one step each.
///
/// R1's glances, "4 per hour, only between 07:00 and 23:00", are
///
///     var rates = [Double](repeating: 0, count: 24)
///     for h in 7..<23 { rates[h] = 4 }
///     let glances = TimeOfDayPoissonProcess(ratesPerHour: rates)
///     var rng = Xoshiro256StarStar(seed: 42)
///     let first = glances.nextArrival(after: .zero, using: &rng)  // after 07:00
///
/// which is the same process as R1's "restart at the next 07:00 with a fresh
/// draw", because the exponential distribution is memoryless.
@frozen
public struct TimeOfDayPoissonProcess: Sendable, Equatable {
  /// Events per hour for each local hour 0...23.
  public let ratesPerHour: ContiguousArray<Double>
  /// Local time minus simulated (UTC) time.
  public let utcOffset: SimDuration
  /// Expected events per local day.
  public let dailyMean: Double

  public init(ratesPerHour: [Double], utcOffset: SimDuration = .zero) {
    precondition(ratesPerHour.count == 24, "need 24 hourly rates, got \(ratesPerHour.count)")
    precondition(
      ratesPerHour.allSatisfy { $0 >= 0 && $0.isFinite },
      "hourly rates must be finite and >= 0: \(ratesPerHour)")
    self.ratesPerHour = ContiguousArray(ratesPerHour)
    self.utcOffset = utcOffset
    self.dailyMean = ratesPerHour.reduce(0, +)
  }

  /// A process with the same rate at every hour.
  public static func constant(perHour rate: Double) -> TimeOfDayPoissonProcess {
    TimeOfDayPoissonProcess(ratesPerHour: Array(repeating: rate, count: 24))
  }

  /// The same profile, seen from a device whose clock is `offset` ahead of UTC.
  public func shifted(utcOffset offset: SimDuration) -> TimeOfDayPoissonProcess {
    TimeOfDayPoissonProcess(ratesPerHour: Array(ratesPerHour), utcOffset: offset)
  }

  /// `true` when no event can ever happen.
  public var isEmpty: Bool { dailyMean == 0 }

  /// The first arrival after `time` (it may fall on the same millisecond,
  /// after rounding), or `.never` when every hourly rate is zero.
  @inlinable
  public func nextArrival<G: RandomNumberGenerator>(after time: SimTime, using rng: inout G) -> SimTime {
    if dailyMean == 0 { return .never }
    return ratesPerHour.withUnsafeBufferPointer { rates in
      TimeOfDayPoissonProcess.nextArrival(after: time, ratesPerHour: rates, utcOffset: utcOffset, using: &rng)
    }
  }

  /// The same draw over caller-owned rates, so a simulation can reuse one
  /// buffer for many devices without allocating.
  ///
  /// - Precondition: `ratesPerHour` has 24 finite, non-negative values, at
  ///   least one of them positive.
  @inlinable
  public static func nextArrival<G: RandomNumberGenerator>(
    after time: SimTime, ratesPerHour rates: UnsafeBufferPointer<Double>, utcOffset: SimDuration,
    using rng: inout G
  ) -> SimTime {
    let hourMs = SimDuration.hour.milliseconds
    let dayMs = SimDuration.day.milliseconds
    var mass = rng.nextStandardExponential()
    var t = time.milliseconds
    // The local hour is found once; every later step starts on a local
    // hour boundary, so the next hour and its end follow by addition
    // (NOTE: for performance: the walk through a night's empty hours did
    // two divisions an hour). The rates' arithmetic is unchanged.
    var local = (t &+ utcOffset.milliseconds) % dayMs
    if local < 0 { local += dayMs }
    var hour = Int(local / hourMs)
    var hourEnd = t &+ (hourMs &- local % hourMs)
    var steps = 0
    while true {
      steps &+= 1
      if steps == 24_000 {
        // A thousand days walked: the rate is tiny. Skip whole days (each
        // holds the daily mean), and give up past ~2,700 years.
        var daily = 0.0
        for h in 0..<24 { daily += rates[h] }
        let days = (mass / daily).rounded(.down) - 1
        if days > 1_000_000 { return .never }
        if days > 0 {
          let skip = Int64(days) &* dayMs
          t = t &+ skip
          hourEnd = hourEnd &+ skip
          mass -= days * daily
        }
      }
      let rate = rates[hour]
      if rate > 0 {
        let available = rate * Double(hourEnd &- t) / Double(hourMs)
        if mass < available {
          return SimTime(milliseconds: t &+ Int64(mass / rate * Double(hourMs)))
        }
        mass -= available
      }
      t = hourEnd
      hour = hour == 23 ? 0 : hour &+ 1
      hourEnd = hourEnd &+ hourMs
    }
  }

  /// Appends every arrival in `(start, end)` to `out`, in order: the same
  /// process as calling `nextArrival` repeatedly, with the hour tracked
  /// incrementally and each hour's rate turned into a multiplier once, so
  /// an arrival costs one exponential draw and no division.
  ///
  /// NOTE: the hot path of device generation (glances, content changes),
  /// written for performance.
  @inlinable
  public static func appendArrivals<G: RandomNumberGenerator>(
    from start: SimTime, until end: SimTime, ratesPerHour rates: UnsafeBufferPointer<Double>,
    utcOffset: SimDuration, using rng: inout G, into out: inout [SimTime]
  ) {
    let hourMs = SimDuration.hour.milliseconds
    let dayMs = SimDuration.day.milliseconds
    // Arrivals are collected 64 at a time and appended in bulk: one
    // copy-on-write and capacity check per batch instead of per arrival.
    withUnsafeTemporaryAllocation(of: SimTime.self, capacity: 64) { batch in
      withUnsafeTemporaryAllocation(of: Double.self, capacity: 48) { table in
        // table[h]: expected arrivals per ms; table[24 + h]: ms per unit of mass.
        for h in 0..<24 {
          let r = rates[h]
          table[h] = r / Double(hourMs)
          table[24 &+ h] = r > 0 ? Double(hourMs) / r : 0
        }
        var filled = 0
        defer { out.append(contentsOf: UnsafeBufferPointer(rebasing: batch[0..<filled])) }
        var t = start.milliseconds
        let stop = end.milliseconds
        var local = (t &+ utcOffset.milliseconds) % dayMs
        if local < 0 { local &+= dayMs }
        var hour = Int(local / hourMs)
        var hourEnd = t &+ (hourMs &- local % hourMs)
        var perMs = table[hour]
        while t < stop {
          var mass = rng.nextStandardExponential()
          while true {
            if perMs > 0 {
              let available = Double(hourEnd &- t) * perMs
              if mass < available {
                t = t &+ Int64(mass * table[24 &+ hour])
                break
              }
              mass -= available
            }
            t = hourEnd
            if t >= stop { return }
            hour = hour == 23 ? 0 : hour &+ 1
            hourEnd = hourEnd &+ hourMs
            perMs = table[hour]
          }
          if t >= stop { return }
          batch[filled] = SimTime(milliseconds: t)
          filled &+= 1
          if filled == 64 {
            out.append(contentsOf: batch)
            filled = 0
          }
        }
      }
    }
  }

  /// The expected number of arrivals in `[start, end)`.
  public func expectedCount(from start: SimTime, to end: SimTime) -> Double {
    if end <= start { return 0 }
    let hourMs = SimDuration.hour.milliseconds
    let dayMs = SimDuration.day.milliseconds
    var total = 0.0
    var t = start.milliseconds
    while t < end.milliseconds {
      var local = (t + utcOffset.milliseconds) % dayMs
      if local < 0 { local += dayMs }
      let hour = Int(local / hourMs)
      let hourEnd = min(end.milliseconds, t + (hourMs - local % hourMs))
      total += ratesPerHour[hour] * Double(hourEnd - t) / Double(hourMs)
      t = hourEnd
    }
    return total
  }
}
