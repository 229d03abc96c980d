import ReloadEngine
import ReloadMetrics
import WidgetModel

/// Simulates a scenario's Live Activities (docs/model.md#live-activities):
/// on each device, the events its user follows, the activity each one
/// gets under each strategy, its pushes and local updates through
/// ActivityKit's budget and merging, and the glances at it. The devices,
/// their users, sessions and content are the widget simulation's
/// (`DeviceEnvironment`, the same streams), so a widget and an activity
/// are compared on the same event stream. One replication; devices run in
/// order, so the result does not depend on the thread count.
public enum LiveActivitySimulation {
  /// The scenario's activity figures; `nil` without `live_activities`.
  public static func run(_ scenario: Scenario) -> ActivityTable? {
    guard let spec = scenario.liveActivities, !spec.strategies.isEmpty else { return nil }
    let prepared = PreparedScenario(scenario)
    let seconds = Int(scenario.end.milliseconds / 1000) + 1
    var tallies = spec.strategies.map { _ in
      StrategyTally(segments: scenario.segments.count, seconds: seconds, events: spec.events.count)
    }
    var env = DeviceEnvironment()
    var device = DevicePlan()
    for d in 0..<scenario.devices {
      env.generate(device: d, in: prepared)
      device.plan(d, env, spec, prepared)
      for s in spec.strategies.indices {
        var run = DeviceRun(strategy: spec.strategies[s], model: scenario.model.activity, scenario: scenario)
        run.simulate(device, env, prepared, into: &tallies[s])
      }
    }
    return ActivityResultsBuilder.table(scenario, spec, tallies)
  }
}

/// What a device's user does, whatever the strategy: the events followed,
/// their data's changes, and the glances that could see an activity.
struct DevicePlan {
  struct Occurrence {
    var event: Int
    var eventStart: SimTime
    var eventEnd: SimTime
    /// When an activity can start: the event's start (push-to-start), the
    /// first foreground session during the event (app), `.never`: none.
    var startAt: SimTime
    /// `changes[changeRange]`: the data's changes during the event.
    var changeRange: Range<Int>
    /// `lockGlances[lockRange]`, `islandGlances[islandRange]`: views in the
    /// longest window an activity could be seen (12 h from the start; the
    /// Dynamic Island's while active, 8 h).
    var lockRange: Range<Int>
    var islandRange: Range<Int>
  }
  var occurrences: [Occurrence] = []
  var changes: [SimTime] = []
  var lockGlances: [SimTime] = []
  var islandGlances: [SimTime] = []
  var followed = 0
  var switchedOff = false
  private var scratch: [SimTime] = []
  private var kindChanges: [[SimTime]] = []

  mutating func plan(_ d: Int, _ env: DeviceEnvironment, _ spec: LiveActivitySpec, _ prepared: PreparedScenario) {
    let scenario = prepared.scenario
    let streams = prepared.streams
    occurrences.removeAll(keepingCapacity: true)
    changes.removeAll(keepingCapacity: true)
    lockGlances.removeAll(keepingCapacity: true)
    islandGlances.removeAll(keepingCapacity: true)
    followed = 0
    let entity = UInt64(d)
    switchedOff =
      unit(streams.counter(entity: entity, purpose: .activityFollow, index: 1 << 40)) < spec.switchedOffShare
    // Per-user data: drawn as the widget simulation draws it (same stream).
    kindChanges = scenario.kinds.indices.map { _ in [] }
    var drawn = Set<Int>()
    for e in spec.events where scenario.kinds[e.kind].scope == .perUser && !drawn.contains(e.kind) {
      let k = e.kind
      drawn.insert(k)
      if let u = scenario.kinds[k].unpredictable {
        var rng = streams.stream(entity: entity << 8 | UInt64(k), purpose: .contentChanges)
        UnpredictableChangeGenerator.generate(
          u, rates: prepared.changeRates[k], clockOffset: env.utcOffset, end: prepared.end, using: &rng,
          into: &kindChanges[k], calendar: scenario.calendar)
      }
      if let s = scenario.kinds[k].sessionChanges {
        SessionChangeGenerator.append(s, kind: k, device: d, env, prepared, into: &kindChanges[k])
        kindChanges[k].sort()
      }
    }
    var events: [(SimTime, SimTime, Int)] = []
    for (ei, e) in spec.events.enumerated() {
      guard unit(streams.counter(entity: entity, purpose: .activityFollow, index: UInt64(ei))) < e.share else {
        continue
      }
      let kind = scenario.kinds[e.kind]
      if let at = e.at {
        let offset =
          kind.scope == .shared
          ? SimDuration.hours(kind.scheduled?.sharedUTCOffsetHours ?? kind.unpredictable?.sharedUTCOffsetHours ?? 0)
          : env.utcOffset
        let lastDay = Int((scenario.days).rounded(.up))
        for day in 0...lastDay where e.days.isEmpty || e.days.contains(day) {
          let start = SimTime.zero + .days(Double(day)) - offset + at
          guard start >= .zero && start < prepared.end else { continue }
          // A shared event lasts as long for every follower.
          var rng =
            kind.scope == .shared
            ? streams.stream(entity: UInt64(ei) << 16 | UInt64(day), purpose: .activitySharedEvents)
            : streams.stream(entity: entity << 24 | UInt64(ei) << 16 | UInt64(day), purpose: .activityEvents)
          let length = max(SimDuration.minutes(1), e.length.sample(using: &rng))
          events.append((start, min(prepared.end, start + length), ei))
        }
      } else if let session = e.sessions {
        // Each of the app's sessions is an event (a workout, a navigation).
        let starts = session == .audio ? env.audioStart : env.sessionStart
        let ends = session == .audio ? env.audioEnd : env.sessionEnd
        for i in starts.indices { events.append((starts[i], ends[i], ei)) }
      } else if e.perDay > 0 {
        var rates = [Double](repeating: 0, count: 24)
        let awake = max(1, env.awakeHours.nonzeroBitCount)
        for h in 0..<24 where env.awakeHours & (1 << UInt32(h)) != 0 { rates[h] = e.perDay / Double(awake) }
        var rng = streams.stream(entity: entity << 8 | UInt64(ei), purpose: .activityEvents)
        scratch.removeAll(keepingCapacity: true)
        rates.withUnsafeBufferPointer {
          TimeOfDayPoissonProcess.appendArrivals(
            from: .zero, until: prepared.end, ratesPerHour: $0, utcOffset: env.utcOffset, using: &rng, into: &scratch)
        }
        for start in scratch {
          let length = max(SimDuration.minutes(1), e.length.sample(using: &rng))
          events.append((start, min(prepared.end, start + length), ei))
        }
      }
    }
    events.sort { ($0.0, $0.2) < ($1.0, $1.2) }
    let seg = scenario.segments[env.segment]
    let lockRates = Self.rates(seg, perDay: seg.lockViewsPerDay, env)
    let islandRates = Self.rates(
      seg, perDay: seg.homeViewsPerDay * scenario.model.activity.dynamicIslandViewsShare, env)
    var glanceRNG = streams.stream(entity: entity, purpose: .activityGlances)
    for (start, end, ei) in events {
      followed += 1
      let e = spec.events[ei]
      let startAt =
        e.start == .pushToStart || e.sessions != nil ? start : Self.firstSession(during: start, end, env)
      let lo = changes.count
      appendChanges(kind: e.kind, from: start, to: end, env, prepared)
      var occurrence = Occurrence(
        event: ei, eventStart: start, eventEnd: end, startAt: startAt, changeRange: lo..<changes.count,
        lockRange: 0..<0, islandRange: 0..<0)
      if startAt != .never {
        let l0 = lockGlances.count
        lockRates.withUnsafeBufferPointer {
          TimeOfDayPoissonProcess.appendArrivals(
            from: startAt,
            until: min(prepared.end, startAt + ActivityKitLimits.maxActive + ActivityKitLimits.lockScreenAfterEnd),
            ratesPerHour: $0, utcOffset: env.utcOffset, using: &glanceRNG, into: &lockGlances)
        }
        occurrence.lockRange = l0..<lockGlances.count
        let i0 = islandGlances.count
        islandRates.withUnsafeBufferPointer {
          TimeOfDayPoissonProcess.appendArrivals(
            from: startAt, until: min(prepared.end, startAt + ActivityKitLimits.maxActive), ratesPerHour: $0,
            utcOffset: env.utcOffset, using: &glanceRNG, into: &islandGlances)
        }
        occurrence.islandRange = i0..<islandGlances.count
      }
      occurrences.append(occurrence)
    }
  }

  /// The kind's changes in `[from, to)`: unpredictable (shared or this
  /// user's) and scheduled, in order.
  private mutating func appendChanges(
    kind k: Int, from: SimTime, to: SimTime, _ env: DeviceEnvironment, _ prepared: PreparedScenario
  ) {
    let lo = changes.count
    let source = prepared.scenario.kinds[k].scope == .shared ? prepared.sharedChanges[k] : kindChanges[k]
    var i = Self.firstIndex(source, atOrAfter: from)
    while i < source.count && source[i] < to {
      changes.append(source[i])
      i += 1
    }
    if let schedule = env.schedules[k] {
      var t = schedule.next(after: from - .milliseconds(1))
      while t < to {
        changes.append(t)
        t = schedule.next(after: t)
      }
    }
    changes[lo...].sort()
  }

  static func firstIndex(_ sorted: [SimTime], atOrAfter t: SimTime) -> Int {
    var lo = 0
    var hi = sorted.count
    while lo < hi {
      let mid = (lo + hi) / 2
      if sorted[mid] < t { lo = mid + 1 } else { hi = mid }
    }
    return lo
  }

  /// When an app-started activity starts: the app in the foreground at the
  /// event's start, or its first session during the event.
  static func firstSession(during start: SimTime, _ end: SimTime, _ env: DeviceEnvironment) -> SimTime {
    for i in env.sessionStart.indices where env.sessionEnd[i] > start {
      return env.sessionStart[i] < end ? max(start, env.sessionStart[i]) : .never
    }
    return .never
  }

  /// Hourly view rates: `perDay` over the user's awake hours by the view profile.
  static func rates(_ seg: Segment, perDay: Double, _ env: DeviceEnvironment) -> [Double] {
    var total = 0.0
    for h in 0..<24 where env.awakeHours & (1 << UInt32(h)) != 0 { total += seg.viewProfile[h] }
    return (0..<24).map { h in
      env.awakeHours & (1 << UInt32(h)) != 0 && total > 0 ? perDay * seg.viewProfile[h] / total : 0
    }
  }
}

@inline(__always)
func unit(_ bits: UInt64) -> Double { Double(bits >> 11) * 0x1p-53 }
