import ReloadEngine
import WidgetModel

/// One strategy's activities on one device (docs/model.md#live-activities):
/// starts within the concurrent limit, updates (local while the app runs,
/// else pushes, coalesced), the push budget, merging, the end and
/// dismissal, and the glances.
struct DeviceRun {
  let strategy: ActivityStrategy
  let model: ActivityParameters
  let scenario: Scenario

  /// A push or local update on its way to an activity.
  struct Send {
    var time: SimTime
    /// The latest change it carries.
    var content: SimTime
    var activity: Int
    var local: Bool
    /// It carries an `alert` (docs/model.md#activity-alerts).
    var alert: Bool
    /// A broadcast to the event's channel: not a push the backend sent to this device.
    var channel = false
  }

  /// One started activity.
  struct Activity {
    var occurrence: Int
    var start: SimTime
    var activeEnd: SimTime
    var visibleEnd: SimTime
    var measured: Bool
    /// The end push's time: it carries the final content (`Activity.end(_:dismissalPolicy:)`).
    var finalAt: SimTime? = nil
    var throttled = false
    var deliveries: [(SimTime, SimTime)] = []
    /// Under `over_budget: hold_newest`: the held delivery (index into
    /// `deliveries`) and when it is delivered.
    var held: (index: Int, at: SimTime)? = nil
    /// When alert updates were delivered: each lights the screen.
    var alerts: [SimTime] = []
  }

  init(strategy: ActivityStrategy, model: ActivityParameters, scenario: Scenario) {
    self.strategy = strategy
    self.model = model
    self.scenario = scenario
  }

  mutating func simulate(
    _ plan: DevicePlan, _ env: DeviceEnvironment, _ prepared: PreparedScenario, into tally: inout StrategyTally
  ) {
    let measureStart = prepared.measureStart
    var t = ActivityTally()
    t.devices = 1
    var activities: [Activity] = []
    var sends: [Send] = []
    var sentSeconds: [SimTime] = []
    // The device's push-to-start budget (docs/model.md#activity-lifecycle).
    var startTokens = model.pushToStartBurst
    var startRefill = SimTime.zero
    let startRate = model.pushToStartPerHour / 3_600_000
    for (oi, o) in plan.occurrences.enumerated() {
      let measured = o.eventStart >= measureStart
      if measured { t.followed += 1 }
      guard !plan.switchedOff, o.startAt != .never else {
        if measured { t.missed += 1 }
        continue
      }
      let start = o.startAt
      if plan.eventsStartByPush(o, scenario) {
        sentSeconds.append(start)  // the push-to-start, sent whatever the device does with it
        startTokens = min(
          model.pushToStartBurst, startTokens + Double((start - startRefill).milliseconds) * startRate)
        startRefill = start
        guard startTokens >= 1 else {
          if measured { t.missed += 1 }
          continue
        }
        startTokens -= 1
      }
      let running = activities.filter { $0.activeEnd > start }.count
      guard running < model.maxConcurrent else {
        if measured { t.missed += 1 }
        continue
      }
      let limit = start + ActivityKitLimits.maxActive
      var activeEnd: SimTime
      var visibleEnd: SimTime
      switch strategy.end {
      case .push:
        activeEnd = min(o.eventEnd, limit)
        let dismissal: SimDuration
        switch strategy.dismissal {
        case .immediate: dismissal = .zero
        case .default: dismissal = ActivityKitLimits.lockScreenAfterEnd
        case .after: dismissal = min(strategy.dismissalAfter, ActivityKitLimits.lockScreenAfterEnd)
        }
        visibleEnd = activeEnd + (o.eventEnd <= limit ? dismissal : ActivityKitLimits.lockScreenAfterEnd)
        // The end push; an event cut off by the run's end has not ended (its
        // push would put every such event's end in the run's last second).
        if o.eventEnd <= limit && o.eventEnd < prepared.end {
          if byChannel(o) {
            tally.channelSends.insert(ChannelSend(event: o.event, eventStart: o.eventStart, time: o.eventEnd))
          } else {
            sentSeconds.append(o.eventEnd)
          }
        }
      case .app:
        let next = DeviceRun.appRuns(atOrAfter: o.eventEnd, env)
        activeEnd = min(next, limit)
        visibleEnd = activeEnd + ActivityKitLimits.lockScreenAfterEnd
      case .limit:
        activeEnd = limit
        visibleEnd = activeEnd + ActivityKitLimits.lockScreenAfterEnd
      }
      activeEnd = min(activeEnd, prepared.end)
      visibleEnd = min(visibleEnd, prepared.end)
      let ai = activities.count
      activities.append(
        Activity(
          occurrence: oi, start: start, activeEnd: activeEnd, visibleEnd: visibleEnd, measured: measured,
          finalAt: strategy.end == .push && o.eventEnd <= limit && o.eventEnd < prepared.end ? o.eventEnd : nil))
      // The updates: the changes while the event runs and the activity is active.
      let updateEnd = min(o.eventEnd, activeEnd)
      var windowSend: SimTime? = nil
      let alerts = strategy.alert == .updates
      if strategy.alert == .end, let f = activities[ai].finalAt { activities[ai].alerts.append(f) }
      if byChannel(o) {
        // The backend broadcasts every change of the event (coalesced from
        // its start), whoever follows; this device receives what comes
        // while its activity runs.
        var window: SimTime? = nil
        let endMessage = strategy.end == .push ? o.eventEnd : nil
        for c in plan.changes[o.changeRange] where c >= o.eventStart && c < o.eventEnd {
          if strategy.localWhileRunning && c >= start && c < updateEnd && DeviceRun.appRunning(at: c, env) {
            sends.append(Send(time: c, content: c, activity: ai, local: true, alert: alerts))
          }
          guard var at = sendTime(for: c, window: &window, endPushAt: endMessage) else { continue }
          at = min(at, o.eventEnd)
          tally.channelSends.insert(ChannelSend(event: o.event, eventStart: o.eventStart, time: at))
          if at >= start && at < updateEnd {
            sends.append(Send(time: at, content: at, activity: ai, local: false, alert: alerts, channel: true))
          }
        }
        continue
      }
      let endPush = strategy.end == .push && o.eventEnd <= limit ? o.eventEnd : nil
      for c in plan.changes[o.changeRange] where c >= start && c < updateEnd {
        if strategy.localWhileRunning && DeviceRun.appRunning(at: c, env) {
          sends.append(Send(time: c, content: c, activity: ai, local: true, alert: alerts))
          continue
        }
        guard let at = sendTime(for: c, window: &windowSend, endPushAt: endPush) else { continue }
        let time = min(at, updateEnd)
        sends.append(Send(time: time, content: time, activity: ai, local: false, alert: alerts))
      }
    }
    // Pushes through the budget, in the order the backend sends them.
    sends.sort { ($0.time, $0.activity) < ($1.time, $1.activity) }
    let rate = (strategy.frequentUpdates ? model.frequentPushBudgetPerHour : model.pushBudgetPerHour) / 3_600_000
    var tokens = model.pushBurst
    var lastRefill = SimTime.zero
    var delays = prepared.streams.stream(entity: UInt64(env.device), purpose: .activityDelivery)
    for s in sends {
      if s.local {
        activities[s.activity].deliveries.append((s.time, s.content))
        if s.alert { activities[s.activity].alerts.append(s.time) }
        continue
      }
      if !s.channel { sentSeconds.append(s.time) }
      let measured = activities[s.activity].measured
      if s.channel && !model.channelBudgeted && strategy.priority != .low {
        // A broadcast that spends no budget: shown at once.
        activities[s.activity].deliveries.append((s.time, s.content))
        if s.alert { activities[s.activity].alerts.append(s.time) }
        continue
      }
      tokens = min(model.pushBurst, tokens + Double(s.time.milliseconds - lastRefill.milliseconds) * rate)
      lastRefill = s.time
      var highPriority = strategy.priority != .low
      if highPriority && measured {
        // The budget left when the push is sent, by the activity's age.
        let age = Int((s.time - activities[s.activity].start).milliseconds / StrategyTally.ageBucket.milliseconds)
        if age >= 0 && age < StrategyTally.ageBuckets {
          tally.agePushes[age] += 1
          tally.ageTokens[age] += tokens
        }
      }
      if highPriority && tokens < 1 {
        if strategy.priority == .budgetAware {
          highPriority = false
        } else {
          if measured { t.pushesThrottled += 1 }
          activities[s.activity].throttled = true
          guard model.overBudget == .holdNewest, rate > 0 else { continue }
          if let h = activities[s.activity].held, h.at > s.time {
            // A newer update replaces the one held.
            activities[s.activity].deliveries[h.index].1 = s.content
            continue
          }
          // Held until a token has accrued, which it spends.
          let wait = SimDuration.milliseconds(Int64(((1 - tokens) / rate).rounded(.up)))
          tokens = 0
          lastRefill = s.time + wait
          activities[s.activity].held = (activities[s.activity].deliveries.count, s.time + wait)
          activities[s.activity].deliveries.append((s.time + wait, s.content))
          if s.alert { activities[s.activity].alerts.append(s.time + wait) }
          continue
        }
      }
      if highPriority {
        tokens -= 1
        activities[s.activity].deliveries.append((s.time, s.content))
        if s.alert { activities[s.activity].alerts.append(s.time) }
      } else {
        var at = s.time + max(.zero, model.lowPriorityDelay.sample(using: &delays))
        if model.lowPowerLowPriority == .held { at = DeviceRun.afterLowPower(at, env) }
        activities[s.activity].deliveries.append((at, s.content))
        if s.alert { activities[s.activity].alerts.append(at) }
      }
    }
    for s in sentSeconds where s >= measureStart {
      let i = Int(s.milliseconds / 1000)
      if i < tally.pushesPerSecond.count { tally.pushesPerSecond[i] &+= 1 }
    }
    // Each activity: what it shows, and the glances at it.
    for a in activities {
      let o = plan.occurrences[a.occurrence]
      let shown = display(a)
      if a.measured {
        t.activities += 1
        t.updatesShown += shown.displays.count - 1
        t.updatesMerged += shown.merged
        if a.throttled { t.throttledActivities += 1 }
      }
      let changes = plan.changes[o.changeRange]
      func glance(_ g: SimTime) {
        guard g >= measureStart else { return }
        // The display shown at `g` and the first change it does not hold.
        var d = 0
        while d + 1 < shown.displays.count && shown.displays[d + 1].time <= g { d += 1 }
        let content = shown.displays[d].content
        var first = SimTime.never
        for c in changes where c > content {
          first = c
          break
        }
        let tolerance = scenario.kinds[scenario.liveActivities!.events[o.event].kind].tolerance
        t.glances += 1
        let age = Int((g - a.start).milliseconds / StrategyTally.ageBucket.milliseconds)
        let acceptable = first > g || g - first <= tolerance
        if first > g { t.freshGlances += 1 }
        if acceptable { t.acceptableGlances += 1 }
        tally.eventGlances[o.event] += 1
        if acceptable { tally.eventAcceptable[o.event] += 1 }
        if age >= 0 && age < StrategyTally.ageBuckets {
          tally.ageGlances[age] += 1
          if acceptable { tally.ageAcceptable[age] += 1 }
        }
        if let stale = strategy.staleAfter, g >= shown.displays[d].time + stale { t.staleMarkedGlances += 1 }
      }
      for g in plan.lockGlances[o.lockRange] where g >= a.start && g < a.visibleEnd { glance(g) }
      for g in plan.islandGlances[o.islandRange] where g >= a.start && g < a.activeEnd { glance(g) }
      // An alert shown lights the screen with the expanded presentation
      // (the end push's alert, at the end, included).
      for g in a.alerts where g >= a.start && g <= a.activeEnd && g < prepared.end {
        if a.measured { t.alertsShown += 1 }
        if model.alertCountsAsGlance { glance(g) }
      }
    }
    t.pushesSent = sentSeconds.filter { $0 >= measureStart }.count
    tally.segments[env.segment].add(t)
  }

  /// What activity `a` displays: its first content at the start, then each
  /// delivery before its end, those within `minUpdateInterval` of the last
  /// display merged into one at the end of the interval, and the end push's
  /// final content.
  func display(_ a: Activity) -> (displays: [(time: SimTime, content: SimTime)], merged: Int) {
    var displays: [(time: SimTime, content: SimTime)] = [(a.start, a.start)]
    var merged = 0
    for (at, content) in a.deliveries.sorted(by: { $0 < $1 }) where at < a.activeEnd {
      let last = displays[displays.count - 1]
      if last.time > at {
        // A merged display is still to come: this update joins it.
        displays[displays.count - 1].content = max(last.content, content)
        merged += 1
      } else if at >= last.time + model.minUpdateInterval {
        displays.append((at, max(last.content, content)))
      } else {
        // Too soon after the last display: shown at the end of the interval,
        // if the activity is still active (later ones then join it).
        let earliest = last.time + model.minUpdateInterval
        if earliest < a.activeEnd {
          displays.append((earliest, max(last.content, content)))
        } else {
          merged += 1
        }
      }
    }
    if let f = a.finalAt, f >= displays[displays.count - 1].time {
      displays.append((f, max(f, displays[displays.count - 1].content)))
    }
    return (displays, merged)
  }

  /// When the backend sends the push for change `c`: at once, or when the
  /// coalescing window `c` opens closes; nil when the open `window`'s push,
  /// or an end push at `endPushAt` that the window reaches, carries it.
  func sendTime(for c: SimTime, window: inout SimTime?, endPushAt end: SimTime?) -> SimTime? {
    guard strategy.coalesce > .zero else { return c }
    if let w = window, c <= w { return nil }
    let at = c + strategy.coalesce
    window = at
    if let end, at >= end { return nil }
    return at
  }

  /// Whether the strategy broadcasts occurrence `o`'s updates to a channel:
  /// `push_via: channel` and a shared event.
  func byChannel(_ o: DevicePlan.Occurrence) -> Bool {
    strategy.pushVia == .channel && scenario.liveActivities!.events[o.event].isShared
      && scenario.kinds[scenario.liveActivities!.events[o.event].kind].scope == .shared
  }

  /// Whether the app runs at `t` (foreground or an audio session).
  static func appRunning(at t: SimTime, _ env: DeviceEnvironment) -> Bool {
    inside(t, env.sessionStart, env.sessionEnd) || inside(t, env.audioStart, env.audioEnd)
  }

  static func inside(_ t: SimTime, _ starts: [SimTime], _ ends: [SimTime]) -> Bool {
    let i = DevicePlan.firstIndex(starts, atOrAfter: t + .milliseconds(1)) - 1
    return i >= 0 && ends[i] > t
  }

  /// `t`, or the end of the Low Power Mode period it falls in.
  static func afterLowPower(_ t: SimTime, _ env: DeviceEnvironment) -> SimTime {
    let i = DevicePlan.firstIndex(env.lowPowerStart, atOrAfter: t + .milliseconds(1)) - 1
    return i >= 0 && env.lowPowerEnd[i] > t ? env.lowPowerEnd[i] : t
  }

  /// When the app next runs at or after `t` (the foreground), `.never` if not.
  static func appRuns(atOrAfter t: SimTime, _ env: DeviceEnvironment) -> SimTime {
    if inside(t, env.sessionStart, env.sessionEnd) { return t }
    let i = DevicePlan.firstIndex(env.sessionStart, atOrAfter: t)
    return i < env.sessionStart.count ? env.sessionStart[i] : .never
  }
}

extension DevicePlan {
  /// Whether occurrence `o` starts with a push (push-to-start).
  func eventsStartByPush(_ o: Occurrence, _ scenario: Scenario) -> Bool {
    scenario.liveActivities?.events[o.event].start == .pushToStart
  }
}
