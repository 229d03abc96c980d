import ReloadEngine
import ReloadMetrics

extension DeviceSimulator {
  /// Accounts widget `w`'s glances and hourly budget samples before `t`
  /// against its current state. Called just before anything changes that
  /// state, so each glance sees exactly what an event-by-event run shows.
  @inline(__always)
  mutating func catchUp(_ w: Int, before t: SimTime, _ env: DeviceEnvironment) {
    if !eventMode {
      var i = glanceCursor[w]
      let stop = env.glanceStart[w &+ 1]
      if i < stop && env.glances[i] < t {
        repeat {
          accountGlance(w, at: env.glances[i], env)
          i &+= 1
        } while i < stop && env.glances[i] < t
        glanceCursor[w] = i
      }
    }
    while tickNext[w] < t {
      let tick = tickNext[w]
      let left = min(ringCapacity, budgetLeft(w, at: tick, env))
      let hour = env.localHour(of: tick)
      counters[layout.budgetLeft &+ hour &* layout.budgetLeftWidth &+ left] &+= 1
      tickNext[w] = tick + .hour
    }
  }

  /// Catches every widget up before a device-wide change (Low Power Mode,
  /// learning period) and settles token buckets at the old rate.
  mutating func catchUpAll(before t: SimTime, _ env: DeviceEnvironment) {
    for w in 0..<widgetCount {
      catchUp(w, before: t, env)
      if params.budget.accrual == .tokenBucket { refreshTokens(w, at: t, env) }
    }
  }

  /// One glance at widget `w` at `g`: fresh, or stale since the first
  /// change it does not show.
  @inline(__always)
  mutating func accountGlance(_ w: Int, at g: SimTime, _ env: DeviceEnvironment) {
    guard g >= measureStart else { return }
    let first = firstUnshownChange(w, at: g, env)
    let hour = env.localHour(of: g)
    let runHour = hourIndex(g)
    countHourly(.glances, runHour)
    if first <= g {
      let staleness = UInt64(g.milliseconds &- first.milliseconds)
      recordStale(staleness, acceptable: Int64(staleness) <= tolerance[w], hour: hour)
      countHourly(.staleGlances, runHour)
    } else {
      recordFresh(hour: hour)
    }
  }

  @inline(__always)
  func recordStale(_ staleness: UInt64, acceptable: Bool, hour: Int) {
    count(.staleGlances)
    count(.staleSumMs, staleness)
    counters[layout.staleness &+ LogHistogram.bucket(of: staleness)] &+= 1
    if acceptable { count(.acceptableStaleGlances) }
    counters[layout.glancesByHour &+ hour] &+= 1
    counters[layout.staleByHour &+ hour] &+= 1
  }

  /// A fresh glance: two increments. What follows from it (a glance, an
  /// acceptable one, staleness 0 in the histogram) is added when the tally
  /// is read. NOTE: the most frequent event of a run, kept short for
  /// performance.
  @inline(__always)
  func recordFresh(hour: Int) {
    count(.freshGlances)
    counters[layout.glancesByHour &+ hour] &+= 1
  }

  /// Event-by-event mode: an unpredictable change of `kind` at `t`.
  mutating func changeHappened(kind k: Int, at t: SimTime, _ env: DeviceEnvironment) {
    for w in 0..<widgetCount where widgetKind[w] == k && unpredictableNext[w] == .never {
      unpredictableNext[w] = t
    }
    var c = eventChangeCursor[k]
    let next = firstUnpredictable(kind: k, after: t, cursor: &c, env)
    eventChangeCursor[k] = c
    if next < end {
      sim.schedule(payload: DeviceEvent.pack(.change, index: k), at: next, priority: DeviceEvent.changePriority)
    }
  }

  // MARK: - Dry spells

  /// A budgeted request found the budget empty at `t`; it returns at `until`.
  mutating func openDry(_ w: Int, at t: SimTime, until: SimTime, _ env: DeviceEnvironment) {
    if drySince[w] != .never {
      if t < dryUntil[w] {
        dryUntil[w] = max(dryUntil[w], until)
        return
      }
      closeDry(w, at: t, env)
    }
    drySince[w] = t
    dryUntil[w] = until
    markDryDay(w, at: t, episodeStart: true, env)
  }

  /// Ends widget `w`'s dry spell at `min(its budget's return, t)`.
  mutating func closeDry(_ w: Int, at t: SimTime, _ env: DeviceEnvironment) {
    let start = drySince[w]
    guard start != .never else { return }
    let stop = min(min(dryUntil[w], t), end)
    drySince[w] = .never
    dryUntil[w] = .never
    // Local days the spell runs into after its first are dry from midnight.
    var day = env.localDay(of: start) + 1
    while true {
      let midnight = SimTime(milliseconds: Int64(day) * 86_400_000 - env.utcOffset.milliseconds)
      if midnight >= stop { break }
      markDryDay(w, at: midnight, episodeStart: false, env)
      day += 1
    }
    var a = max(start, measureStart)
    while a < stop {
      let hour = hourIndex(a)
      let hourEnd = SimTime(milliseconds: measureStart.milliseconds + Int64(hour + 1) * 3_600_000)
      let b = min(stop, hourEnd)
      let ms = UInt64(b.milliseconds - a.milliseconds)
      count(.dryMs, ms)
      countHourly(.dryMs, hour, ms)
      a = b
    }
  }

  /// Counts the local day of `t` as dry (once per widget and day). A new
  /// dry spell (`episodeStart`) also records the hour the budget ran out;
  /// a spell carried over from the day before does not, so the median
  /// first-dry hour says when budgets run out, not that they were still out
  /// at midnight.
  mutating func markDryDay(_ w: Int, at t: SimTime, episodeStart: Bool, _ env: DeviceEnvironment) {
    let day = env.localDay(of: t)
    let newDay = day > lastDryDay[w]
    let firstEpisodeToday = episodeStart && day > lastEpisodeDay[w]
    if newDay { lastDryDay[w] = day }
    if firstEpisodeToday { lastEpisodeDay[w] = day }
    // Only local days wholly inside the measured window count, so the
    // share of dry days has a clean denominator in every time zone.
    guard localDayIsMeasured(day, env) else { return }
    if newDay { count(.dryWidgetDays) }
    if firstEpisodeToday {
      var local = (t.milliseconds + env.utcOffset.milliseconds) % 86_400_000
      if local < 0 { local += 86_400_000 }
      counters[layout.firstDryTenths &+ min(239, Int(local / 360_000))] &+= 1
    }
  }

  /// `true` when local day `day` lies wholly inside the measured window.
  @inline(__always)
  func localDayIsMeasured(_ day: Int, _ env: DeviceEnvironment) -> Bool {
    let start = Int64(day) * 86_400_000 - env.utcOffset.milliseconds
    return start >= measureStart.milliseconds && start + 86_400_000 <= end.milliseconds
  }

  /// The number of local days of `env`'s device wholly inside the measured window.
  func measuredLocalDays(_ env: DeviceEnvironment) -> Int {
    let day: Int64 = 86_400_000
    let o = env.utcOffset.milliseconds
    let first = ChangeSchedule.floorDiv(measureStart.milliseconds + o + day - 1, day)
    let last = ChangeSchedule.floorDiv(end.milliseconds + o, day) - 1
    return Int(max(0, last - first + 1))
  }
}
