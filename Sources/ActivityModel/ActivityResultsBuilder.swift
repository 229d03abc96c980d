import ReloadEngine
import ReloadMetrics
import WidgetModel

/// Turns the strategies' counts into `ActivityTable`'s figures.
enum ActivityResultsBuilder {
  static func table(_ scenario: Scenario, _ spec: LiveActivitySpec, _ tallies: [StrategyTally]) -> ActivityTable {
    let fleetScale = scenario.fleetDevices / Double(max(1, scenario.devices))
    let measuredDays = scenario.measuredDays
    let firstSecond = Int(scenario.measureStart.milliseconds / 1000)
    var rows: [ActivityTable.Row] = []
    var series: [ActivityTable.Series] = []
    for (s, strategy) in spec.strategies.enumerated() {
      let tally = tallies[s]
      let counts = Array(tally.pushesPerSecond[min(firstSecond, tally.pushesPerSecond.count)...])
      // Broadcast requests are the backend's own, not the sample's: not scaled.
      var channel = [UInt32](repeating: 0, count: counts.count)
      for c in tally.channelSends {
        let i = Int(c.time.milliseconds / 1000) - firstSecond
        if i >= 0 && i < channel.count { channel[i] &+= 1 }
      }
      var fleet = fleetPeak(counts, scale: fleetScale)
      // At most the busiest second of broadcasts on top of the token pushes'
      // busiest second (they need not coincide: an upper bound).
      let channelPeak = Double(channel.max() ?? 0)
      fleet.peak += channelPeak
      fleet.low += channelPeak
      fleet.high += channelPeak
      let fleetPerDay =
        (Double(counts.reduce(0) { $0 + Int($1) }) * fleetScale + Double(channel.reduce(0) { $0 + Int($1) }))
        / max(measuredDays, 1e-9)
      var all = ActivityTally()
      for (g, segment) in scenario.segments.enumerated() {
        all.add(tally.segments[g])
        rows.append(
          row(strategy.name, segment.name, tally.segments[g], days: measuredDays, scenario: scenario, fleet: nil))
      }
      rows.append(
        row(strategy.name, "all", all, days: measuredDays, scenario: scenario, fleet: (fleet, fleetPerDay)))
      series.append(Self.series(strategy.name, counts, channel, fleet.busiest, scale: fleetScale, tally))
    }
    return ActivityTable(
      rows: rows, series: series, events: spec.events.map(\.name),
      eventKinds: spec.events.map { scenario.kinds[$0.kind].name })
  }

  static func row(
    _ strategy: String, _ segment: String, _ t: ActivityTally, days: Double, scenario: Scenario,
    fleet: ((peak: Double, low: Double, high: Double, busiest: Int), Double)?
  ) -> ActivityTable.Row {
    func pct(_ a: Int, _ b: Int) -> Double { b > 0 ? 100 * Double(a) / Double(b) : .nan }
    func per(_ a: Int, _ b: Int) -> Double { b > 0 ? Double(a) / Double(b) : .nan }
    let deviceDays = Double(t.devices) * days
    var v = [Double](repeating: .nan, count: ActivityMetric.allCases.count)
    v[ActivityMetric.devices.index] = Double(t.devices)
    v[ActivityMetric.activitiesPerDeviceDay.index] = deviceDays > 0 ? Double(t.activities) / deviceDays : .nan
    v[ActivityMetric.missedStartPct.index] = pct(t.missed, t.followed)
    v[ActivityMetric.activityGlances.index] = Double(t.glances)
    v[ActivityMetric.freshGlancePct.index] = pct(t.freshGlances, t.glances)
    v[ActivityMetric.acceptableGlancePct.index] = pct(t.acceptableGlances, t.glances)
    v[ActivityMetric.staleMarkedGlancePct.index] = pct(t.staleMarkedGlances, t.glances)
    v[ActivityMetric.updatesShownPerActivity.index] = per(t.updatesShown, t.activities)
    v[ActivityMetric.updatesMergedPerActivity.index] = per(t.updatesMerged, t.activities)
    v[ActivityMetric.alertsShownPerActivity.index] = per(t.alertsShown, t.activities)
    v[ActivityMetric.pushesThrottledPerActivity.index] = per(t.pushesThrottled, t.activities)
    v[ActivityMetric.pushesSentPerActivity.index] = per(t.pushesSent, t.activities)
    v[ActivityMetric.pushesPerDeviceDay.index] = deviceDays > 0 ? Double(t.pushesSent) / deviceDays : .nan
    v[ActivityMetric.budgetExhaustedActivityPct.index] = pct(t.throttledActivities, t.activities)
    v[ActivityMetric.energyMjPerDeviceDay.index] =
      deviceDays > 0 ? Double(t.updatesShown) * scenario.energy.extensionLaunchMillijoules / deviceDays : .nan
    if let (peak, perDay) = fleet {
      v[ActivityMetric.fleetPushesPerDay.index] = perDay
      v[ActivityMetric.fleetPushPeakPerSecond.index] = peak.peak
      v[ActivityMetric.fleetPushPeakLow.index] = peak.low
      v[ActivityMetric.fleetPushPeakHigh.index] = peak.high
    }
    return ActivityTable.Row(strategy: strategy, segment: segment, values: v.map { $0.isFinite ? $0 : nil })
  }

  /// The fleet's busiest second of pushes (docs/model.md#activity-fleet-push):
  /// the sample's busiest second, when it is a push to every follower at
  /// once (`isSynchronized`), is resolved as it is, its count times the
  /// fleet scale with its Poisson 95 % interval; other load by the backend
  /// fleet peak's estimator (`FleetLoad`). The larger wins.
  /// `busiest`: the sample's busiest second (index into `counts`).
  static func fleetPeak(_ counts: [UInt32], scale: Double) -> (peak: Double, low: Double, high: Double, busiest: Int) {
    guard !counts.isEmpty else { return (0, 0, 0, 0) }
    var prefix = [UInt32](repeating: 0, count: counts.count + 1)
    var busiest = 0
    for (i, c) in counts.enumerated() {
      prefix[i + 1] = prefix[i] &+ c
      if c > counts[busiest] { busiest = i }
    }
    let estimate = FleetLoad.estimate(prefix: prefix, scale: scale)
    var result = (estimate.peakSecond, estimate.peakSecondLow, estimate.peakSecondHigh, busiest)
    let top = Double(counts[busiest])
    if isSynchronized(top, expected: estimate.peakSecond / scale) && top * scale > estimate.peakSecond {
      let half = 1.96 * top.squareRoot()
      result = (top * scale, (top - half) * scale, (top + half) * scale, busiest)
    }
    return result
  }

  /// Pushes in one second of the sample that independent sends would not
  /// produce: at least `minimumSynchronized`, and more than six standard
  /// deviations (plus six, for small rates) above `expected`, the busiest
  /// second the estimator gives for the sample's load (a Poisson tail below
  /// about 1e-9). Fixed counts such as `FleetLoad.minimumWindowCount` would
  /// make the answer depend on the sample's size: 200 followers of 1,000
  /// devices pushed together are the same burst as 2,000 of 10,000.
  static func isSynchronized(_ count: Double, expected: Double) -> Bool {
    count >= minimumSynchronized && count > expected + 6 * expected.squareRoot() + 6
  }

  /// The fewest pushes in a second resolved as one synchronized send: the
  /// Poisson interval of 30 is about ±36 %, which the interval columns show.
  static let minimumSynchronized = 30.0

  static func series(
    _ name: String, _ counts: [UInt32], _ channel: [UInt32], _ busiest: Int, scale: Double, _ tally: StrategyTally
  ) -> ActivityTable.Series {
    let centre = busiest / 60
    var minutes: [Int] = []
    var perMinute: [Double] = []
    for m in (centre - 30)...(centre + 30) {
      let lo = m * 60
      guard lo >= 0 && lo < counts.count else { continue }
      let sum = counts[lo..<min(counts.count, lo + 60)].reduce(0) { $0 + Int($1) }
      let broadcasts = channel[lo..<min(channel.count, lo + 60)].reduce(0) { $0 + Int($1) }
      minutes.append(m - centre)
      perMinute.append(Double(sum) * scale + Double(broadcasts))
    }
    var ages: [Int] = []
    var acceptable: [Double] = []
    var glances: [Int] = []
    for b in 0..<StrategyTally.ageBuckets where tally.ageGlances[b] > 0 {
      ages.append(b * Int(StrategyTally.ageBucket.minutes))
      acceptable.append(100 * Double(tally.ageAcceptable[b]) / Double(tally.ageGlances[b]))
      glances.append(tally.ageGlances[b])
    }
    let events = zip(tally.eventGlances, tally.eventAcceptable).map { n, a in
      n > 0 ? 100 * Double(a) / Double(n) : nil
    }
    var s = ActivityTable.Series(
      strategy: name, pushMinutes: minutes, fleetPushesPerMinute: perMinute, ageMinutes: ages,
      acceptablePct: acceptable, ageGlances: glances, eventAcceptablePct: events)
    for b in 0..<StrategyTally.ageBuckets where tally.agePushes[b] > 0 {
      s.budgetMinutes.append(b * Int(StrategyTally.ageBucket.minutes))
      s.budgetLeft.append(tally.ageTokens[b] / Double(tally.agePushes[b]))
      s.budgetPushes.append(tally.agePushes[b])
    }
    return s
  }
}
