import ReloadEngine

/// When each widget's budget ran dry (docs/model.md#dry-spells): a spell
/// opens when a budgeted request finds the budget empty and closes when
/// budget returns; overlapping refusals make one spell. A spell counts only
/// if it lasts longer than `budget.dry_after_min`: then, and only then, it
/// adds its time to the dry hours (per run hour, for the hourly dry share),
/// marks every local day it touches dry, and its start is the hour the
/// budget ran out on its day. One definition for all four, decided when
/// the spell closes (its length is known then), so they agree.
struct DrySpells {
  private let since: Column<SimTime>
  private let until: Column<SimTime>
  private let lastDryDay: Column<Int>
  private let lastEpisodeDay: Column<Int>
  private let end: SimTime
  /// Spells this long or shorter are not dry (ms).
  private let dryAfter: Int64

  init(widgets: Int, end: SimTime, dryAfter: SimDuration, storage: _DeviceStorage) {
    since = storage.column(widgets, .never)
    until = storage.column(widgets, .never)
    lastDryDay = storage.column(widgets, Int.min)
    lastEpisodeDay = storage.column(widgets, Int.min)
    self.end = end
    self.dryAfter = max(0, dryAfter.milliseconds)
  }

  func reset(_ w: Int) {
    since[w] = .never
    until[w] = .never
    lastDryDay[w] = Int.min
    lastEpisodeDay[w] = Int.min
  }

  /// A budgeted request of widget `w` found the budget empty at `t`; it returns at `returns`.
  func open(_ w: Int, at t: SimTime, until returns: SimTime, _ env: DeviceEnvironment, _ counts: inout TallyWriter) {
    if since[w] != .never {
      if t < until[w] {
        until[w] = max(until[w], returns)
        return
      }
      close(w, at: t, env, &counts)
    }
    since[w] = t
    until[w] = returns
  }

  /// Budget returns earlier than expected (Low Power Mode ended).
  func budgetReturns(_ w: Int, at t: SimTime) {
    if until[w] != .never { until[w] = min(until[w], t) }
  }

  /// Ends widget `w`'s dry spell at `min(its budget's return, t)`; counts
  /// it if the budget's return came more than `dryAfter` after its start
  /// (a spell still open at the end of the run is judged by its return).
  func close(_ w: Int, at t: SimTime, _ env: DeviceEnvironment, _ counts: inout TallyWriter) {
    let start = since[w]
    guard start != .never else { return }
    let returns = until[w]
    since[w] = .never
    until[w] = .never
    guard returns.milliseconds &- start.milliseconds > dryAfter else { return }
    let stop = min(min(returns, t), end)
    markDryDay(w, at: start, episodeStart: true, env, counts)
    // Local days the spell runs into after its first are dry from midnight.
    var day = env.localDay(of: start) + 1
    while true {
      let midnight = SimTime.zero + .day * Int64(day) - env.utcOffset
      if midnight >= stop { break }
      markDryDay(w, at: midnight, episodeStart: false, env, counts)
      day += 1
    }
    let measureStart = counts.measureStart
    var a = max(start, measureStart)
    while a < stop {
      let hour = counts.hourIndex(a)
      let hourEnd = measureStart + .hour * Int64(hour + 1)
      let b = min(stop, hourEnd)
      let ms = UInt64(b.milliseconds - a.milliseconds)
      counts.count(.dryMs, ms)
      counts.countHourly(.dryMs, hour, ms)
      a = b
    }
  }

  /// Counts the local day of `t` as dry (once per widget and day). A new
  /// dry spell (`episodeStart`) also records the hour the budget ran out;
  /// a spell carried over from the day before does not, so the median
  /// first-dry hour says when budgets run out, not that they were still out
  /// at midnight.
  private func markDryDay(
    _ w: Int, at t: SimTime, episodeStart: Bool, _ env: DeviceEnvironment, _ counts: TallyWriter
  ) {
    let day = env.localDay(of: t)
    let newDay = day > lastDryDay[w]
    let firstEpisodeToday = episodeStart && day > lastEpisodeDay[w]
    if newDay { lastDryDay[w] = day }
    if firstEpisodeToday { lastEpisodeDay[w] = day }
    // Only local days wholly inside the measured window count, so the
    // share of dry days has a clean denominator in every time zone.
    guard Self.localDayIsMeasured(day, env, from: counts.measureStart, to: end) else { return }
    if newDay { counts.count(.dryWidgetDays) }
    if firstEpisodeToday {
      let day = SimDuration.day.milliseconds
      var local = (t.milliseconds + env.utcOffset.milliseconds) % day
      if local < 0 { local += day }
      counts.recordFirstDry(tenth: min(239, Int(local / (SimDuration.hour.milliseconds / 10))))
    }
  }

  /// `true` when local day `day` lies wholly inside the measured window.
  @inline(__always)
  static func localDayIsMeasured(_ day: Int, _ env: DeviceEnvironment, from measureStart: SimTime, to end: SimTime)
    -> Bool
  {
    let start = SimTime.zero + .day * Int64(day) - env.utcOffset
    return start >= measureStart && start + .day <= end
  }
}
