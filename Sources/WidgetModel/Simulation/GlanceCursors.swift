import ReloadEngine

/// Where each widget is in its device's pre-drawn glances, when its next
/// hourly budget sample is due, and (event-by-event mode) where each kind
/// is in its unpredictable changes.
struct GlanceCursors {
  /// The widget's next glance (an index into `env.glances`).
  let cursor: Column<Int>
  /// The next local hour boundary at which the widget's budget left is sampled.
  let nextTick: Column<SimTime>
  /// The local hour of day `nextTick` starts (kept alongside it, so that a
  /// sample finds its hour by an increment, not a division; NOTE: for
  /// performance, a sample is taken every hour of every widget).
  let tickHour: Column<Int>
  /// Event-by-event mode: each kind's next unpredictable change.
  let changeCursor: Column<Int>

  init(widgets: Int, kinds: Int, storage: _DeviceStorage) {
    cursor = storage.column(widgets, 0)
    nextTick = storage.column(widgets, .never)
    tickHour = storage.column(widgets, 0)
    changeCursor = storage.column(max(1, kinds), 0)
  }

  func reset(_ w: Int, _ env: DeviceEnvironment) {
    cursor[w] = env.glanceStart[w]
    nextTick[w] = .never
  }

  func resetKinds(_ kinds: Int) {
    for k in 0..<kinds { changeCursor[k] = 0 }
  }

  /// The first hourly sample is the first local hour boundary in the measured window.
  func startHourlySamples(_ w: Int, measureStart: SimTime, _ env: DeviceEnvironment) {
    let first = Self.nextLocalHour(after: measureStart - .milliseconds(1), env)
    nextTick[w] = first
    tickHour[w] = env.localHour(of: first)
  }

  /// The number of measured glances of widget `w`.
  func measuredGlances(_ w: Int, from measureStart: SimTime, _ env: DeviceEnvironment) -> UInt64 {
    var lo = env.glanceStart[w]
    var hi = env.glanceStart[w + 1]
    let stop = hi
    while lo < hi {
      let mid = (lo + hi) / 2
      if env.glances[mid] < measureStart { lo = mid + 1 } else { hi = mid }
    }
    return UInt64(stop - lo)
  }

  /// The first local hour boundary strictly after `t`.
  @inline(__always)
  static func nextLocalHour(after t: SimTime, _ env: DeviceEnvironment) -> SimTime {
    let hour = SimDuration.hour.milliseconds
    var local = (t.milliseconds &+ env.utcOffset.milliseconds) % hour
    if local < 0 { local &+= hour }
    return SimTime(milliseconds: t.milliseconds &- local &+ hour)
  }
}

extension DeviceWidgets {
  /// Accounts widget `w`'s glances and hourly budget samples before `t`
  /// against its current state. Called just before anything changes that
  /// state, so each glance sees exactly what an event-by-event run shows.
  @inline(__always)
  mutating func catchUp(_ w: Int, before t: SimTime, _ env: DeviceEnvironment) {
    if rules.defersFirstEntry && widgets.upcomingAt[w] < t { showUpcoming(w, env) }
    if !rules.eventMode {
      let i = glances.cursor[w]
      if i < env.glanceStart[w &+ 1] && env.glances[i] < t { accountGlances(w, from: i, before: t, env) }
    }
    guard glances.nextTick[w] < t else { return }
    let rate = ReloadBudget.SampleRate(cap: budget.cap(w, context.app), budget)
    while glances.nextTick[w] < t {
      let tick = glances.nextTick[w]
      let hour = glances.tickHour[w]
      let left = min(budget.ringCapacity, budget.sampledLeft(w, at: tick, rate))
      context.counts.recordBudgetLeft(left, hour: hour)
      glances.nextTick[w] = tick + .hour
      // A tick is a local hour boundary and a local day is 24 hours.
      glances.tickHour[w] = hour == 23 ? 0 : hour &+ 1
    }
  }

  /// Widget `w`'s upcoming timeline reaches its first entry: the glances
  /// before that date are accounted against what it showed, and from then
  /// on it shows the new timeline (docs/model.md#future-first-entry).
  @inline(never)
  mutating func showUpcoming(_ w: Int, _ env: DeviceEnvironment) {
    let at = widgets.upcomingAt[w]
    widgets.upcomingAt[w] = .never
    if !rules.eventMode {
      let i = glances.cursor[w]
      if i < env.glanceStart[w &+ 1] && env.glances[i] < at { accountGlances(w, from: i, before: at, env) }
    }
    widgets.show(w, widgets.upcoming[w], madeAt: at, eventMode: rules.eventMode, context.feed, env)
    if rules.special { widgets.placeholder[w] = widgets.upcomingPlaceholder[w] }
  }

  /// Catches every widget up before a device-wide change (Low Power Mode,
  /// learning period) and settles token buckets at the old rate.
  mutating func catchUpAll(before t: SimTime, _ env: DeviceEnvironment) {
    for w in 0..<count {
      catchUp(w, before: t, env)
      if budget.isTokenBucket { budget.settle(w, at: t, context.app) }
    }
  }

  /// Accounts widget `w`'s glances from its `i`-th to the last before `t`,
  /// all seeing its current state. Consecutive glances mostly share the
  /// first change they do not show (until the timeline's next entry), so
  /// it is found once per span, not once per glance (NOTE: for
  /// performance: the most frequent event of a run; the same counts as
  /// `accountGlance` glance by glance, tested).
  @inline(__always)
  mutating func accountGlances(_ w: Int, from start: Int, before t: SimTime, _ env: DeviceEnvironment) {
    let stop = env.glanceStart[w &+ 1]
    let measureStart = context.counts.measureStart
    let kindBase = context.counts.layout.kindBase(widgets.kind[w])
    var i = start
    var first = SimTime.never
    var spanEnd = SimTime(milliseconds: .min)
    repeat {
      let g = env.glances[i]
      if g >= measureStart {
        if g >= spanEnd { (first, spanEnd) = widgets.firstUnshownChangeSpan(w, at: g, env) }
        account(
          w, at: g, first: first, runHour: context.counts.hourIndex(g), hour: env.localHour(of: g),
          kindBase: kindBase)
      }
      i &+= 1
    } while i < stop && env.glances[i] < t
    glances.cursor[w] = i
  }

  /// One glance at widget `w` at `g`: fresh, or stale since the first
  /// change it does not show.
  @inline(__always)
  func accountGlance(_ w: Int, at g: SimTime, _ env: DeviceEnvironment) {
    guard g >= context.counts.measureStart else { return }
    let first = widgets.firstUnshownChange(w, at: g, env)
    account(
      w, at: g, first: first, runHour: context.counts.hourIndex(g), hour: env.localHour(of: g),
      kindBase: context.counts.layout.kindBase(widgets.kind[w]))
  }

  /// The counts of a measured glance at widget `w` at `g` (run hour
  /// `runHour`, local hour `hour`) whose first unshown change is `first`;
  /// `kindBase`: where the widget's kind counts (`TallyLayout.kindBase`).
  @inline(__always)
  func account(_ w: Int, at g: SimTime, first: SimTime, runHour: Int, hour: Int, kindBase: Int) {
    context.counts.countHourly(.glances, runHour)
    if rules.special && widgets.placeholder[w] {
      // No data to see: not fresh, not acceptable, and not stale either
      // (staleness is the age of data shown): counted apart.
      context.counts.recordPlaceholder(hour: hour, kindBase: kindBase)
    } else if first <= g {
      let staleness = UInt64(g.milliseconds &- first.milliseconds)
      context.counts.recordStale(
        staleness, acceptable: Int64(staleness) <= widgets.tolerance[w], hour: hour, kindBase: kindBase)
      context.counts.countHourly(.staleGlances, runHour)
    } else {
      context.counts.recordFresh(hour: hour)
    }
  }

  /// Event-by-event mode: a glance at widget `w`; the next one enters the queue.
  mutating func glanced(_ w: Int, at t: SimTime, _ env: DeviceEnvironment) {
    if rules.defersFirstEntry && widgets.upcomingAt[w] <= t { showUpcoming(w, env) }
    accountGlance(w, at: t, env)
    let next = glances.cursor[w] + 1
    glances.cursor[w] = next
    if next < env.glanceStart[w + 1] { context.queue.scheduleGlance(w, at: env.glances[next]) }
  }

  /// Event-by-event mode: an unpredictable change of `kind` at `t`.
  mutating func changeHappened(kind k: Int, at t: SimTime, _ env: DeviceEnvironment) {
    for w in 0..<count where widgets.kind[w] == k && widgets.unpredictableNext[w] == .never {
      widgets.unpredictableNext[w] = t
    }
    var c = glances.changeCursor[k]
    let next = context.feed.firstUnpredictable(kind: k, after: t, cursor: &c, env)
    glances.changeCursor[k] = c
    if next < context.end { context.queue.scheduleChange(kind: k, at: next) }
  }
}
