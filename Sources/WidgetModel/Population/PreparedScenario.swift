import ReloadEngine

/// A scenario made ready to simulate for one replication: hourly rates
/// normalised, segment boundaries fixed, shared content drawn. Immutable and
/// shared by every thread.
public struct PreparedScenario: Sendable {
  public let scenario: Scenario
  public let streams: RandomStreams
  /// `segmentEnd[s]` is one past the last device of segment `s`: devices
  /// are assigned to segments in contiguous blocks by largest remainder, so
  /// shares are exact and independent of the thread count.
  public let segmentEnd: [Int]
  /// Unpredictable change rates per kind (24 local hours), empty when none;
  /// times `WeekendThinning.scale` when the kind has a weekend factor above 1.
  public let changeRates: [[Double]]
  /// Drawn change times of shared kinds (empty for per-user kinds).
  public let sharedChanges: [[SimTime]]
  /// The schedule of shared kinds (`nil` for per-user or unscheduled kinds).
  public let sharedSchedules: [ChangeSchedule?]
  public let measureStart: SimTime
  public let end: SimTime
  /// The largest daily budget a widget can have (ring capacity).
  public let ringCapacity: Int
  /// Each kind's schedule calendar (clock times, weekdays, publication),
  /// built once and shared by every device's `ChangeSchedule`; `nil` for
  /// a plain grid or no schedule.
  let scheduleCalendars: [ScheduleCalendar?]

  /// The largest daily budget a widget of `scenario` can have. Placements
  /// with a budget of their own (a watch complication) may need a larger
  /// ring; a scenario without them keeps its capacity.
  public static func ringCapacity(_ scenario: Scenario) -> Int {
    let placements = Set(scenario.segments.flatMap { $0.widgets.map(\.placement) })
    return max(1, scenario.model.budget.largestBudget(placements: placements))
  }

  public init(_ scenario: Scenario, replication: Int = 0) {
    self.scenario = scenario
    let streams = RandomStreams(seed: scenario.seed).replication(replication)
    self.streams = streams
    self.measureStart = scenario.measureStart
    self.end = scenario.end
    self.ringCapacity = Self.ringCapacity(scenario)
    let calendars = scenario.kinds.map { k in
      k.scheduled.flatMap { ScheduleCalendar.make($0, startWeekday: scenario.startWeekday) }
    }
    scheduleCalendars = calendars

    // Segment sizes by largest remainder.
    let totalWeight = scenario.segments.reduce(0) { $0 + $1.weight }
    let exact = scenario.segments.map { Double(scenario.devices) * $0.weight / totalWeight }
    var sizes = exact.map { Int($0.rounded(.down)) }
    var left = scenario.devices - sizes.reduce(0, +)
    let order = exact.indices.sorted { (exact[$0] - Double(sizes[$0]), -$0) > (exact[$1] - Double(sizes[$1]), -$1) }
    var i = 0
    while left > 0 {
      sizes[order[i % order.count]] += 1
      left -= 1
      i += 1
    }
    var ends: [Int] = []
    var acc = 0
    for s in sizes {
      acc += s
      ends.append(acc)
    }
    segmentEnd = ends

    changeRates = scenario.kinds.map { kind in
      guard let u = kind.unpredictable else { return [] }
      let thinning = WeekendThinning(factor: u.weekendFactor)
      return thinning.scale == 1 ? u.ratesPerHour : u.ratesPerHour.map { $0 * thinning.scale }
    }
    var shared: [[SimTime]] = []
    var sharedSchedules: [ChangeSchedule?] = []
    for (k, kind) in scenario.kinds.enumerated() {
      if kind.scope == .shared {
        var rng = streams.stream(entity: (1 << 62) | UInt64(k), purpose: .contentChanges)
        var changes: [SimTime] = []
        if let u = kind.unpredictable {
          UnpredictableChangeGenerator.generate(
            u, rates: changeRates[k], clockOffset: .hours(u.sharedUTCOffsetHours), end: scenario.end,
            using: &rng, into: &changes, calendar: scenario.calendar)
        }
        shared.append(changes)
        sharedSchedules.append(
          kind.scheduled.map {
            ChangeSchedule($0, calendar: calendars[k], clockOffset: .hours($0.sharedUTCOffsetHours))
          })
      } else {
        shared.append([])
        sharedSchedules.append(nil)
      }
    }
    sharedChanges = shared
    self.sharedSchedules = sharedSchedules
  }

  /// The segment of device `device`.
  @inlinable
  public func segment(ofDevice device: Int) -> Int {
    var s = 0
    while device >= segmentEnd[s] { s += 1 }
    return s
  }

  /// Devices in each segment.
  public var segmentSizes: [Int] {
    var previous = 0
    return segmentEnd.map { e in
      defer { previous = e }
      return e - previous
    }
  }
}

/// Draws unpredictable change times: the base Poisson process with its
/// time-of-day rate, merged with the bursts.
public enum UnpredictableChangeGenerator {
  /// Appends the change times in `[0, end)` to `out`, sorted.
  ///
  /// With a weekend factor other than 1, `rates` must already be scaled by
  /// `WeekendThinning.scale` (`PreparedScenario.changeRates` are); the
  /// bursts are scaled here and every change is then thinned by the day of
  /// the week in `clockOffset`'s clock (docs/model.md#weekday-patterns).
  public static func generate<G: RandomNumberGenerator>(
    _ spec: UnpredictableChanges, rates: [Double], clockOffset: SimDuration, end: SimTime,
    using rng: inout G, into out: inout [SimTime], calendar: WeekCalendar = WeekCalendar()
  ) {
    let thinning = WeekendThinning(factor: spec.weekendFactor)
    let base = out.count
    generateUnthinned(
      spec, rates: rates, burstScale: thinning.scale, clockOffset: clockOffset, end: end, using: &rng, into: &out)
    thinning.thin(&out, from: base, calendar: calendar, clockOffset: clockOffset, using: &rng)
  }

  static func generateUnthinned<G: RandomNumberGenerator>(
    _ spec: UnpredictableChanges, rates: [Double], burstScale: Double, clockOffset: SimDuration, end: SimTime,
    using rng: inout G, into out: inout [SimTime]
  ) {
    let base = out.count
    if spec.perDay > 0 {
      rates.withUnsafeBufferPointer { r in
        TimeOfDayPoissonProcess.appendArrivals(
          from: .zero, until: end, ratesPerHour: r, utcOffset: clockOffset, using: &rng, into: &out)
      }
    }
    guard let bursts = spec.bursts, bursts.perHour > 0, bursts.dailyProbability > 0 else { return }
    let baseEnd = out.count
    let day = SimDuration.day.milliseconds
    let hour = SimDuration.hour.milliseconds
    let days = Int((end.milliseconds + day - 1) / day) + 1
    for d in -1..<days {
      guard rng.nextUnit() < bursts.dailyProbability else { continue }
      let windowHours = Double(max(0, bursts.toHour - bursts.fromHour))
      let startLocal =
        Int64(d) * day + Int64(bursts.fromHour) * hour
        + Int64(rng.nextUnit() * windowHours * Double(hour))
      let start = startLocal - clockOffset.milliseconds
      let stop = start + bursts.duration.milliseconds
      let mean = burstScale == 1 ? Double(hour) / bursts.perHour : Double(hour) / (bursts.perHour * burstScale)
      var t = Double(start)
      while true {
        t += rng.nextStandardExponential() * mean
        if t >= Double(stop) { break }
        let ms = Int64(t)
        if ms >= 0 && ms < end.milliseconds { out.append(SimTime(milliseconds: ms)) }
      }
    }
    // Merge the sorted base run with the burst run (each sorted) in place.
    if out.count > baseEnd && baseEnd > base {
      mergeSortedRuns(&out, base, baseEnd)
    } else if out.count > baseEnd {
      // Only bursts: they may overlap across days; keep them sorted.
      insertionSortTail(&out, from: baseEnd)
    }
  }

  static func insertionSortTail(_ a: inout [SimTime], from start: Int) {
    if a.count - start < 2 { return }
    for i in (start + 1)..<a.count {
      let v = a[i]
      var j = i - 1
      while j >= start && a[j] > v {
        a[j + 1] = a[j]
        j -= 1
      }
      a[j + 1] = v
    }
  }

  /// `a[lo..<mid]` and `a[mid...]` are each sorted (the second after
  /// sorting bursts of adjacent days); merge them.
  static func mergeSortedRuns(_ a: inout [SimTime], _ lo: Int, _ mid: Int) {
    insertionSortTail(&a, from: mid)
    let left = Array(a[lo..<mid])
    let right = Array(a[mid...])
    var i = 0
    var j = 0
    var k = lo
    while i < left.count && j < right.count {
      if right[j] < left[i] {
        a[k] = right[j]
        j += 1
      } else {
        a[k] = left[i]
        i += 1
      }
      k += 1
    }
    while i < left.count {
      a[k] = left[i]
      i += 1
      k += 1
    }
    while j < right.count {
      a[k] = right[j]
      j += 1
      k += 1
    }
  }
}
