import ReloadEngine

extension DeviceEnvironment {
  /// Draws device `device` of `prepared` into this value, reusing its buffers.
  ///
  /// Every draw comes from a stream keyed by the device (and, for per-widget
  /// processes, the widget's index on the device), so the result does not
  /// depend on which thread draws it or what was drawn before. The steps run
  /// in this order because the first two share the attributes stream and
  /// the later ones reuse the rate and scratch buffers; each step draws from
  /// its own streams only.
  public mutating func generate(device: Int, in prepared: PreparedScenario) {
    self.device = device
    segment = prepared.segment(ofDevice: device)
    let seg = prepared.scenario.segments[segment]
    var attributes = prepared.streams.stream(entity: UInt64(device), purpose: .attributes)
    let forceQuitter = drawUser(seg, using: &attributes)
    placeWidgets(seg, in: prepared.scenario, using: &attributes)
    drawGlances(seg, in: prepared)
    drawTaps(seg, in: prepared)
    drawWidgetAdds(seg, in: prepared)
    drawAppSessions(seg, forceQuitter: forceQuitter, in: prepared)
    drawLowPowerMode(seg, in: prepared)
    drawSettingsChanges(seg, in: prepared)
    drawContentChanges(in: prepared)
    drawRestarts(seg, in: prepared)
  }

  /// The device's stream key (per-widget and per-kind keys put the index in
  /// the low byte: `entity << 8 | index`).
  private var entity: UInt64 { UInt64(device) }

  /// Who the user is: time zone, waking hours, settings and habits. Returns
  /// whether this user force-quits apps.
  private mutating func drawUser(_ seg: Segment, using attr: inout Xoshiro256StarStar) -> Bool {
    utcOffset = .hours(DeviceEnvironment.pickOffset(seg.utcOffsets, &attr))
    let wake = seg.wakeHour.lowerBound + attr.nextIndex(below: seg.wakeHour.count)
    let sleep = seg.sleepHour.lowerBound + attr.nextIndex(below: seg.sleepHour.count)
    let awakeLength = min(24, max(0, sleep - wake))
    awakeHours = 0
    for h in 0..<24 where ((h - wake) % 24 + 24) % 24 < awakeLength { awakeHours |= 1 << UInt32(h) }
    appSessionsPerDay = seg.appSessionsPerDay
    backgroundRefreshOff = attr.nextUnit() < seg.backgroundRefreshOffShare
    usesLowPowerMode = attr.nextUnit() < seg.lowPowerMode.share
    return attr.nextUnit() < seg.forceQuitShare
  }

  /// Which widgets sit where, each with its views per day and daily budget.
  /// With a weekend factor the budget follows the week's mean views
  /// (docs/model.md#weekday-patterns); a watch complication has a budget
  /// of its own (docs/model.md#watch-complications).
  private mutating func placeWidgets(
    _ seg: Segment, in scenario: Scenario, using attr: inout Xoshiro256StarStar
  ) {
    widgetKind.removeAll(keepingCapacity: true)
    widgetBudget.removeAll(keepingCapacity: true)
    widgetViewsPerDay.removeAll(keepingCapacity: true)
    placements.removeAll(keepingCapacity: true)
    hasKind.removeAll(keepingCapacity: true)
    hasKind.append(contentsOf: repeatElement(false, count: scenario.kinds.count))
    let weekly = WeekendThinning(factor: seg.weekendViewsFactor)
    for slot in seg.widgets {
      guard attr.nextUnit() < slot.probability else { continue }
      let sourceViews = slot.placement.surface.viewsPerDay(seg)
      let views = sourceViews * scenario.model.visibility.share(slot.placement)
      let budgetViews = weekly.isActive ? views * weekly.weeklyMean : views
      for _ in 0..<slot.count {
        widgetKind.append(slot.kind)
        placements.append(slot.placement)
        widgetViewsPerDay.append(views)
        widgetBudget.append(scenario.model.budget.dailyBudget(slot.placement, viewsPerDay: budgetViews))
        hasKind[slot.kind] = true
      }
    }
  }

  /// Views: one process per surface a device has widgets on (Home Screen,
  /// Lock Screen, watch face, StandBy); each widget sees a share of its
  /// surface's views set by its placement (independent thinning). A
  /// surface with one widget needs no thinning: its share of the views is
  /// itself a Poisson process at share x rate, drawn directly; a surface
  /// without widgets is not drawn at all. Views on weekends are scaled by
  /// the segment's weekend factor (docs/model.md#weekday-patterns).
  private mutating func drawGlances(_ seg: Segment, in prepared: PreparedScenario) {
    let streams = prepared.streams
    let visibility = prepared.scenario.model.visibility
    let end = prepared.end
    let weekly = WeekendThinning(factor: seg.weekendViewsFactor)
    var users = PerSurface(0)
    for p in placements { users[p.surface] += 1 }
    // The processes of surfaces with several widgets, one after another
    // in `scratch` (home first, then lock, watch, StandBy).
    scratch.removeAll(keepingCapacity: true)
    var ranges = PerSurface(0..<0)
    for surface in ViewSurface.allCases where users[surface] > 1 {
      let start = scratch.count
      fillSurfaceRates(seg, surface, perDay: surface.viewsPerDay(seg) * weekly.scale)
      var views = streams.stream(entity: entity, purpose: Self.purpose(surface))
      Self.drawArrivals(rates, utcOffset, until: end, using: &views, appendingTo: &scratch)
      weekly.thin(&scratch, from: start, calendar: prepared.scenario.calendar, clockOffset: utcOffset, using: &views)
      ranges[surface] = start..<scratch.count
    }
    glanceStart.removeAll(keepingCapacity: true)
    glances.removeAll(keepingCapacity: true)
    for w in widgetKind.indices {
      glanceStart.append(glances.count)
      let surface = placements[w].surface
      let share = visibility.share(placements[w])
      guard share > 0 else { continue }
      if users[surface] == 1 {
        fillSurfaceRates(seg, surface, perDay: surface.viewsPerDay(seg) * min(1, share) * weekly.scale)
        var views = streams.stream(entity: entity, purpose: Self.purpose(surface))
        let start = glances.count
        Self.drawArrivals(rates, utcOffset, until: end, using: &views, appendingTo: &glances)
        weekly.thin(&glances, from: start, calendar: prepared.scenario.calendar, clockOffset: utcOffset, using: &views)
        continue
      }
      let range = ranges[surface]
      if share >= 1 {
        glances.append(contentsOf: scratch[range])
      } else {
        let threshold = UInt64(share * 18_446_744_073_709_551_615.0)
        let widgetEntity = entity << 8 | UInt64(w)
        var n: UInt64 = 0
        for i in range {
          if streams.counter(entity: widgetEntity, purpose: .visibility, index: n) < threshold {
            glances.append(scratch[i])
          }
          n &+= 1
        }
      }
    }
    glanceStart.append(glances.count)
  }

  /// The stream of a surface's views.
  static func purpose(_ surface: ViewSurface) -> StreamPurpose {
    switch surface {
    case .homeScreen: return .homeViews
    case .lockScreen: return .lockViews
    case .watchFace: return .watchViews
    case .standby: return .standbyViews
    }
  }

  /// Hourly view rates of `surface`: the view profile over the awake hours,
  /// or for StandBy an even rate over its window, asleep or not
  /// (docs/model.md#standby).
  mutating func fillSurfaceRates(_ seg: Segment, _ surface: ViewSurface, perDay: Double) {
    guard surface == .standby else {
      fillRates(profile: seg.viewProfile, perDay: perDay)
      return
    }
    let habit = seg.standby
    let hours = max(0, min(24, habit.toHour - habit.fromHour))
    for h in 0..<24 { rates[h] = 0 }
    guard hours > 0, perDay > 0 else { return }
    for h in habit.fromHour..<(habit.fromHour + hours) { rates[h % 24] = perDay / Double(hours) }
  }

  /// Taps on interactive widgets, following the view profile (and its
  /// weekend factor).
  private mutating func drawTaps(_ seg: Segment, in prepared: PreparedScenario) {
    tapStart.removeAll(keepingCapacity: true)
    taps.removeAll(keepingCapacity: true)
    let weekly = WeekendThinning(factor: seg.weekendViewsFactor)
    fillRates(profile: seg.viewProfile, perDay: seg.tapsPerDay * weekly.scale)
    for w in widgetKind.indices {
      tapStart.append(taps.count)
      if prepared.scenario.kinds[widgetKind[w]].interactive && seg.tapsPerDay > 0 {
        var rng = prepared.streams.stream(entity: entity << 8 | UInt64(w), purpose: .taps)
        let start = taps.count
        Self.drawArrivals(rates, utcOffset, until: prepared.end, using: &rng, appendingTo: &taps)
        weekly.thin(&taps, from: start, calendar: prepared.scenario.calendar, clockOffset: utcOffset, using: &rng)
      }
    }
    tapStart.append(taps.count)
  }

  /// The user adds (or re-adds) widgets now and then, while awake.
  private mutating func drawWidgetAdds(_ seg: Segment, in prepared: PreparedScenario) {
    addStart.removeAll(keepingCapacity: true)
    adds.removeAll(keepingCapacity: true)
    fillRates(profile: seg.viewProfile, perDay: seg.widgetAddsPer30Days / 30)
    for w in widgetKind.indices {
      addStart.append(adds.count)
      if seg.widgetAddsPer30Days > 0 {
        var rng = prepared.streams.stream(entity: entity << 8 | UInt64(w), purpose: .widgetAdds)
        Self.drawArrivals(rates, utcOffset, until: prepared.end, using: &rng, appendingTo: &adds)
      }
    }
    addStart.append(adds.count)
  }

  /// Foreground sessions (never overlapping) and force-quits after them,
  /// then audio or navigation sessions; both scaled on weekends by the
  /// segment's weekend factor (docs/model.md#weekday-patterns).
  private mutating func drawAppSessions(_ seg: Segment, forceQuitter: Bool, in prepared: PreparedScenario) {
    let end = prepared.end
    let weekly = WeekendThinning(factor: seg.weekendSessionsFactor)
    let calendar = prepared.scenario.calendar
    sessionStart.removeAll(keepingCapacity: true)
    sessionEnd.removeAll(keepingCapacity: true)
    sessionForceQuit.removeAll(keepingCapacity: true)
    fillRates(profile: seg.sessionProfile, perDay: seg.appSessionsPerDay * weekly.scale)
    var sessions = prepared.streams.stream(entity: entity, purpose: .appSessions)
    Self.drawSessions(
      rates, utcOffset, length: seg.sessionLength, until: end, using: &sessions, starts: &sessionStart,
      ends: &sessionEnd, forceQuit: forceQuitter ? seg.forceQuitProbability : 0, flags: &sessionForceQuit,
      recordFlags: true,
      weekly: weekly, calendar: calendar)
    audioStart.removeAll(keepingCapacity: true)
    audioEnd.removeAll(keepingCapacity: true)
    fillRates(profile: seg.sessionProfile, perDay: seg.audioSessionsPerDay * weekly.scale)
    var audio = prepared.streams.stream(entity: entity, purpose: .audioSessions)
    Self.drawSessions(
      rates, utcOffset, length: seg.audioLength, until: end, using: &audio, starts: &audioStart,
      ends: &audioEnd, forceQuit: 0, flags: &sessionForceQuit, recordFlags: false, weekly: weekly, calendar: calendar)
  }

  /// Low Power Mode evenings (for a user who uses it), merged where they
  /// overlap.
  private mutating func drawLowPowerMode(_ seg: Segment, in prepared: PreparedScenario) {
    lowPowerStart.removeAll(keepingCapacity: true)
    lowPowerEnd.removeAll(keepingCapacity: true)
    guard usesLowPowerMode else { return }
    let end = prepared.end
    var lpm = prepared.streams.stream(entity: entity, purpose: .lowPowerMode)
    let habit = seg.lowPowerMode
    let day = SimDuration.day.milliseconds
    let firstDay = localDay(of: .zero) - 1
    let lastDay = localDay(of: end)
    for d in firstDay...lastDay {
      guard lpm.nextUnit() < habit.dailyProbability else { continue }
      let localMidnight = Int64(d) * day - utcOffset.milliseconds
      let hour = SimDuration.hour.milliseconds
      var s = SimTime(milliseconds: max(0, localMidnight + Int64(habit.fromHour) * hour))
      let e = SimTime(milliseconds: min(end.milliseconds, localMidnight + Int64(habit.toHour) * hour))
      if let last = lowPowerEnd.last, s <= last {
        s = last
        lowPowerEnd[lowPowerEnd.count - 1] = max(last, e)
        continue
      }
      if s < e {
        lowPowerStart.append(s)
        lowPowerEnd.append(e)
      }
    }
  }

  /// Locale / Dynamic Type / accessibility changes while awake.
  private mutating func drawSettingsChanges(_ seg: Segment, in prepared: PreparedScenario) {
    settingsChanges.removeAll(keepingCapacity: true)
    fillRates(profile: Segment.flatProfile, perDay: seg.settingsChangesPer30Days / 30)
    var settings = prepared.streams.stream(entity: entity, purpose: .settingsChanges)
    Self.drawArrivals(rates, utcOffset, until: prepared.end, using: &settings, appendingTo: &settingsChanges)
  }

  /// Device restarts, at any hour of the day (an update installs at night,
  /// a battery runs flat in the day).
  private mutating func drawRestarts(_ seg: Segment, in prepared: PreparedScenario) {
    restarts.removeAll(keepingCapacity: true)
    guard seg.restartsPer30Days > 0 else { return }
    for h in 0..<24 { rates[h] = seg.restartsPer30Days / 30 / 24 }
    var rng = prepared.streams.stream(entity: entity, purpose: .restarts)
    Self.drawArrivals(rates, utcOffset, until: prepared.end, using: &rng, appendingTo: &restarts)
  }

  /// Content: each kind's schedule as this device sees it, its per-user
  /// unpredictable changes (shared ones are drawn once per fleet), and the
  /// number of changes in the measured days.
  private mutating func drawContentChanges(in prepared: PreparedScenario) {
    let end = prepared.end
    changeStart.removeAll(keepingCapacity: true)
    changes.removeAll(keepingCapacity: true)
    schedules.removeAll(keepingCapacity: true)
    measuredChanges.removeAll(keepingCapacity: true)
    for (k, kind) in prepared.scenario.kinds.enumerated() {
      changeStart.append(changes.count)
      let shared = kind.scope == .shared
      if shared {
        schedules.append(prepared.sharedSchedules[k])
      } else {
        schedules.append(
          kind.scheduled.map { ChangeSchedule($0, calendar: prepared.scheduleCalendars[k], clockOffset: utcOffset) })
      }
      guard hasKind[k] else {
        measuredChanges.append(0)
        continue
      }
      var unpredictable = 0
      if shared {
        unpredictable = DeviceEnvironment.count(prepared.sharedChanges[k], from: prepared.measureStart)
      } else if let u = kind.unpredictable {
        var rng = prepared.streams.stream(entity: entity << 8 | UInt64(k), purpose: .contentChanges)
        let before = changes.count
        UnpredictableChangeGenerator.generate(
          u, rates: prepared.changeRates[k], clockOffset: utcOffset, end: end, using: &rng, into: &changes,
          calendar: prepared.scenario.calendar)
        for i in before..<changes.count where changes[i] >= prepared.measureStart { unpredictable += 1 }
      }
      if !shared, let s = kind.sessionChanges {
        let before = changes.count
        drawSessionChanges(s, kind: k, in: prepared)
        for i in before..<changes.count where changes[i] >= prepared.measureStart { unpredictable += 1 }
        changes[changeStart[k]...].sort()
      }
      var scheduled = 0
      if let s = schedules[k] { scheduled = s.count(from: prepared.measureStart, to: end) }
      measuredChanges.append(unpredictable + scheduled)
    }
    changeStart.append(changes.count)
  }

  /// Kind `k`'s changes made by the running app (docs/model.md#session-changes).
  private mutating func drawSessionChanges(_ s: SessionChanges, kind k: Int, in prepared: PreparedScenario) {
    SessionChangeGenerator.append(s, kind: k, device: device, self, prepared, into: &changes)
  }

  static func pickOffset<G: RandomNumberGenerator>(_ offsets: [WeightedOffset], _ rng: inout G) -> Double {
    let total = offsets.reduce(0) { $0 + $1.weight }
    var u = rng.nextUnit() * total
    for o in offsets {
      if u < o.weight { return o.hours }
      u -= o.weight
    }
    return offsets.last?.hours ?? 0
  }

  static func count(_ sorted: [SimTime], from start: SimTime) -> Int {
    var lo = 0
    var hi = sorted.count
    while lo < hi {
      let mid = (lo + hi) / 2
      if sorted[mid] < start { lo = mid + 1 } else { hi = mid }
    }
    return sorted.count - lo
  }

  /// Hourly rates: `perDay` spread over the awake hours by `profile`.
  mutating func fillRates(profile: [Double], perDay: Double) {
    var total = 0.0
    for h in 0..<24 where awakeHours & (1 << UInt32(h)) != 0 { total += profile[h] }
    for h in 0..<24 {
      let awake = awakeHours & (1 << UInt32(h)) != 0
      rates[h] = (awake && total > 0 && perDay > 0) ? perDay * profile[h] / total : 0
    }
  }

  static func drawArrivals<G: RandomNumberGenerator>(
    _ rates: [Double], _ offset: SimDuration, until end: SimTime, using rng: inout G,
    appendingTo out: inout [SimTime]
  ) {
    var any = false
    for r in rates where r > 0 { any = true }
    guard any else { return }
    rates.withUnsafeBufferPointer { r in
      TimeOfDayPoissonProcess.appendArrivals(
        from: .zero, until: end, ratesPerHour: r, utcOffset: offset, using: &rng, into: &out)
    }
  }

  /// Sessions start as a Poisson process; a start inside the previous
  /// session is skipped (the app is already open). `flags`, when given,
  /// gets a force-quit flag per session. With a weekend factor (`rates`
  /// already scaled), starts are thinned by the day of the week first.
  static func drawSessions<G: RandomNumberGenerator>(
    _ rates: [Double], _ offset: SimDuration, length: DurationDistribution, until end: SimTime,
    using rng: inout G, starts: inout [SimTime], ends: inout [SimTime], forceQuit: Double,
    flags: inout [Bool], recordFlags: Bool, weekly: WeekendThinning = WeekendThinning(factor: 1),
    calendar: WeekCalendar = WeekCalendar()
  ) {
    var any = false
    for r in rates where r > 0 { any = true }
    guard any else { return }
    rates.withUnsafeBufferPointer { r in
      var t = SimTime.zero
      while true {
        t = TimeOfDayPoissonProcess.nextArrival(after: t, ratesPerHour: r, utcOffset: offset, using: &rng)
        if t >= end { break }
        if weekly.isActive && !weekly.keeps(t, calendar: calendar, clockOffset: offset, using: &rng) { continue }
        let d = max(SimDuration.seconds(1), length.sample(using: &rng))
        let quit = forceQuit > 0 && rng.nextUnit() < forceQuit
        if let last = ends.last, t < last { continue }  // still in the previous session
        starts.append(t)
        ends.append(min(end, t + d))
        if recordFlags { flags.append(quit) }
      }
    }
  }
}

/// One value per view surface, held inline (no allocation).
struct PerSurface<Value> {
  var home, lock, watch, standby: Value

  init(_ value: Value) {
    home = value
    lock = value
    watch = value
    standby = value
  }

  subscript(surface: ViewSurface) -> Value {
    get {
      switch surface {
      case .homeScreen: return home
      case .lockScreen: return lock
      case .watchFace: return watch
      case .standby: return standby
      }
    }
    set {
      switch surface {
      case .homeScreen: home = newValue
      case .lockScreen: lock = newValue
      case .watchFace: watch = newValue
      case .standby: standby = newValue
      }
    }
  }
}

/// The changes a running app makes to a kind's data during its sessions:
/// at each session's start and at `perHour` while it lasts
/// (docs/model.md#session-changes). One device's, from its own stream, so
/// the widget and the Live Activity simulations draw the same ones.
public enum SessionChangeGenerator {
  public static func append(
    _ s: SessionChanges, kind k: Int, device: Int, _ env: DeviceEnvironment, _ prepared: PreparedScenario,
    into out: inout [SimTime]
  ) {
    var rng = prepared.streams.stream(entity: UInt64(device) << 8 | UInt64(k), purpose: .sessionChanges)
    let starts = s.session == .audio ? env.audioStart : env.sessionStart
    let ends = s.session == .audio ? env.audioEnd : env.sessionEnd
    let hour = Double(SimDuration.hour.milliseconds)
    for i in starts.indices {
      if s.atStart { out.append(starts[i]) }
      guard s.perHour > 0 else { continue }
      var t = Double(starts[i].milliseconds)
      while true {
        t += -_log(1 - rng.nextUnit()) * hour / s.perHour
        let at = SimTime(milliseconds: Int64(t))
        if at >= ends[i] { break }
        if at > starts[i] { out.append(at) }
      }
    }
  }
}
