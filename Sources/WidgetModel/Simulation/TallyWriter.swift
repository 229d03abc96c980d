import ReloadEngine
import ReloadMetrics

/// Where a device simulation writes what it counts: the counters of the
/// device's segment (with what each widget kind counts apart, in its
/// section of the segment's block), the strategy's per-hour series, and
/// the backend requests waiting for the per-second tallies. Only measured
/// times count.
struct TallyWriter {
  /// What this writer has counted so far (its blocks are its own).
  let tally: StrategyTally
  let layout: TallyLayout
  let measureStart: SimTime
  private let seriesHours: Int
  private let series: CounterBlock<UInt64>.Writer
  private let perSecond: [CounterBlock<UInt32>]
  /// Pushes per second: silent, then WidgetKit (see `StrategyTally.pushesPerSecond`).
  /// The push tally (one block), and the pushes waiting for it: a fleet's
  /// pushes land on random seconds of a tally larger than the caches, so
  /// they are buffered and added stretch by stretch, like requests.
  private let pushes: [CounterBlock<UInt32>]
  private var pushLog: RequestLog
  private let measuredSeconds: Int
  /// The current device's segment and its counters.
  private(set) var segment = 0
  private var counters: CounterBlock<UInt64>.Writer
  private var requests: RequestLog

  /// `countsPushes`: the strategy sends APNs pushes (counted per second).
  init(
    segments: Int, ringCapacity: Int, kinds: Int, measureStart: SimTime, end: SimTime, countsPushes: Bool,
    logCapacity: Int, storage: _DeviceStorage
  ) {
    let seconds = StrategyTally.measuredSeconds(from: measureStart, to: end)
    tally = StrategyTally(
      segments: segments, ringCapacity: ringCapacity, kinds: kinds, measuredSeconds: seconds,
      countsPushes: countsPushes)
    pushes = [tally.pushesPerSecond]
    measuredSeconds = seconds
    layout = tally.segments[0].layout
    self.measureStart = measureStart
    seriesHours = tally.series.hours
    series = tally.series.block.writer
    perSecond = tally.segments.map(\.perSecond)
    counters = tally.segments[0].counters.writer
    requests = RequestLog(storage, segments: segments, seconds: seconds, capacity: logCapacity)
    pushLog = RequestLog(storage, segments: 1, seconds: 2 * seconds, capacity: countsPushes ? logCapacity : 1)
  }

  /// Counts into `segment`'s tally from now on.
  mutating func select(segment: Int) {
    self.segment = segment
    counters = tally.segments[segment].counters.writer
  }

  @inline(__always)
  func measured(_ t: SimTime) -> Bool { t >= measureStart }

  /// The hour of the measured window `t` falls in.
  @inline(__always)
  func hourIndex(_ t: SimTime) -> Int {
    Int((t.milliseconds &- measureStart.milliseconds) / SimDuration.hour.milliseconds)
  }

  /// Adds `n` to a scalar counter of the current segment.
  @inline(__always)
  func count(_ c: Counter, _ n: UInt64 = 1) { counters.increment(c.rawValue, by: n) }

  /// Adds `n` to a scalar counter of kind `kind` in the current segment
  /// (besides the segment's own count, which the caller makes).
  @inline(__always)
  func count(_ c: Counter, kind: Int, _ n: UInt64 = 1) {
    counters.increment(layout.kindBase(kind) &+ c.rawValue, by: n)
  }

  /// Adds `n` to a scalar counter of the current segment and of kind `kind`.
  @inline(__always)
  func countBoth(_ c: Counter, kind: Int, _ n: UInt64 = 1) {
    count(c, n)
    count(c, kind: kind, n)
  }

  /// Adds `n` to an hourly series of the strategy at run hour `hour`.
  @inline(__always)
  func countHourly(_ f: SeriesTally.Field, _ hour: Int, _ n: UInt64 = 1) {
    series.increment(f.rawValue &* seriesHours &+ hour, by: n)
  }

  /// One backend request (a timeline fetch or a background fetch) at `t`.
  @inline(__always)
  mutating func recordBackendRequest(at t: SimTime) {
    guard measured(t) else { return }
    let offset = t.milliseconds &- measureStart.milliseconds
    count(.backendRequests)
    requests.append(segment: segment, second: offset / 1000, flushingInto: perSecond)
    countHourly(.backendRequests, Int(offset / SimDuration.hour.milliseconds))
  }

  /// One APNs push sent at measured time `t`: a WidgetKit push if
  /// `widget`, else a silent one.
  @inline(__always)
  mutating func recordPush(at t: SimTime, widget: Bool) {
    let second = (t.milliseconds &- measureStart.milliseconds) / 1000
    pushLog.append(segment: 0, second: widget ? Int64(measuredSeconds) &+ second : second, flushingInto: pushes)
  }

  /// A stale glance at local hour `hour` at a widget of the kind whose
  /// section starts at `kindBase` (`layout.kindBase(k)`).
  @inline(__always)
  func recordStale(_ staleness: UInt64, acceptable: Bool, hour: Int, kindBase: Int) {
    let bucket = layout.staleness &+ LogHistogram.bucket(of: staleness)
    count(.staleGlances)
    count(.staleSumMs, staleness)
    counters.increment(bucket)
    counters.increment(kindBase &+ Counter.staleGlances.rawValue)
    counters.increment(kindBase &+ Counter.staleSumMs.rawValue, by: staleness)
    counters.increment(kindBase &+ bucket)
    if acceptable {
      count(.acceptableStaleGlances)
      counters.increment(kindBase &+ Counter.acceptableStaleGlances.rawValue)
    }
    counters.increment(layout.glancesByHour &+ hour)
    counters.increment(layout.staleByHour &+ hour)
  }

  /// A fresh glance: two increments. What follows from it (a glance, an
  /// acceptable one, staleness 0 in the histogram) is added when the tally
  /// is read. NOTE: the most frequent event of a run, kept short for
  /// performance.
  @inline(__always)
  func recordFresh(hour: Int) {
    count(.freshGlances)
    counters.increment(layout.glancesByHour &+ hour)
  }

  /// A glance at a widget showing a placeholder: neither fresh nor stale.
  @inline(__always)
  func recordPlaceholder(hour: Int, kindBase: Int) {
    count(.placeholderGlances)
    counters.increment(kindBase &+ Counter.placeholderGlances.rawValue)
    counters.increment(layout.glancesByHour &+ hour)
  }

  /// A widget's budget left (`left` reloads) sampled at local hour `hour`.
  @inline(__always)
  func recordBudgetLeft(_ left: Int, hour: Int) {
    counters.increment(layout.budgetLeft &+ hour &* layout.budgetLeftWidth &+ left)
  }

  /// A budget-limited widget-day (of a widget of kind `kind`) whose first
  /// refusal came in tenth-of-an-hour `tenth`.
  @inline(__always)
  func recordFirstLimited(tenth: Int, kind: Int) {
    counters.increment(layout.firstLimitedTenths &+ tenth)
    counters.increment(layout.kindBase(kind) &+ layout.firstLimitedTenths &+ tenth)
  }

  /// A frozen widget-day (of a widget of kind `kind`) that first froze in
  /// tenth-of-an-hour `tenth`.
  @inline(__always)
  func recordFirstFrozen(tenth: Int, kind: Int) {
    counters.increment(layout.firstFrozenTenths &+ tenth)
    counters.increment(layout.kindBase(kind) &+ layout.firstFrozenTenths &+ tenth)
  }

  /// Adds buffered backend requests to the per-second tallies.
  mutating func flush() {
    requests.flush(into: perSecond)
    pushLog.flush(into: pushes)
  }
}
