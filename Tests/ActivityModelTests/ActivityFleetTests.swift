import ActivityModel
import ReloadEngine
import ReloadMetrics
import Testing
import WidgetModel

/// The fleet figures of Live Activities do not depend on how many devices
/// were simulated (docs/model.md#activity-fleet-push).
@Suite struct ActivityFleetTests {
  /// A sports app: 1,000,000 devices, a fifth of them following an evening
  /// match at 20:00 UTC by push-to-start; goals are bursts of the score's
  /// changes during the match; a push for every change.
  static func match(devices: Int) -> Scenario {
    let segment = Segment(
      name: "fans", wakeHour: 7...7, sleepHour: 24...24, homeViewsPerDay: 20, lockViewsPerDay: 40,
      appSessionsPerDay: 1, widgets: [WidgetSlot(kind: 0)])
    let score = WidgetKindSpec(
      name: "score", scope: .shared,
      unpredictable: UnpredictableChanges(
        perDay: 0.01,
        bursts: Bursts(dailyProbability: 1, fromHour: 20, toHour: 21, duration: .minutes(100), perHour: 2)),
      tolerance: .minutes(2))
    var s = Scenario(
      name: "match", seed: 11, days: 3, warmupDays: 1, devices: devices, fleetDevices: 1_000_000,
      segments: [segment], kinds: [score],
      strategies: [Strategy(name: "poll", timeline: EntryTimeline(policy: .after(.minutes(30))))])
    s.liveActivities = LiveActivitySpec(
      events: [ActivityEvent(name: "match", kind: 0, at: .hours(20), length: .constant(.minutes(110)), share: 0.2)],
      strategies: [ActivityStrategy(name: "every-change")])
    return s
  }

  @Test func aSharedGoalsPushPeakIsStableFromOneToThirtyThousandDevices() throws {
    let small = try #require(LiveActivitySimulation.run(Self.match(devices: 3_000))?.row(strategy: "every-change"))
    let large = try #require(LiveActivitySimulation.run(Self.match(devices: 30_000))?.row(strategy: "every-change"))
    let a = small.value(.fleetPushPeakPerSecond)
    let b = large.value(.fleetPushPeakPerSecond)
    // Every follower gets the goal's push in the same second: about 200,000.
    #expect(abs(b - 200_000) / 200_000 < 0.05, "30,000 devices: \(b)")
    #expect(abs(a - b) / b < 0.10, "3,000 devices: \(a), 30,000: \(b)")
    // Each interval holds the other's estimate's neighbourhood.
    #expect(small.value(.fleetPushPeakLow) < b && small.value(.fleetPushPeakHigh) > b * 0.95)
    // Pushes per day scale the same way.
    let pa = small.value(.fleetPushesPerDay)
    let pb = large.value(.fleetPushesPerDay)
    #expect(abs(pa - pb) / pb < 0.10, "\(pa) vs \(pb) a day")
    // A robustness run's sample (1,000 devices, about 200 followers) still
    // sees one synchronized send, not a smoothed rate (a fixed threshold of
    // 250 pushes once made it report about 2,000 pushes/s here).
    let sample = try #require(LiveActivitySimulation.run(Self.match(devices: 1_000))?.row(strategy: "every-change"))
    let c = sample.value(.fleetPushPeakPerSecond)
    #expect(abs(c - b) / b < 0.10, "1,000 devices: \(c), 30,000: \(b)")
    #expect(sample.value(.fleetPushPeakLow) < b && sample.value(.fleetPushPeakHigh) > b)
  }

  /// Independent sends (each user's own events) are not taken for a
  /// synchronized one: their peak comes from the estimator, and a small
  /// and a larger sample agree.
  @Test func independentSendsAreNotTakenForOneSynchronizedSend() throws {
    func run(_ devices: Int) throws -> Double {
      var s = Self.match(devices: devices)
      s.liveActivities?.events = [
        ActivityEvent(name: "delivery", kind: 0, perDay: 2, length: .constant(.minutes(40)), start: .pushToStart)
      ]
      s.kinds[0].scope = .perUser
      s.kinds[0].unpredictable = UnpredictableChanges(perDay: 48)
      return try #require(LiveActivitySimulation.run(s)?.row(strategy: "every-change")).value(.fleetPushPeakPerSecond)
    }
    let small = try run(1_000)
    let large = try run(4_000)
    // 1,000,000 devices, two 40-minute deliveries a day each with a change
    // every half hour or so: tens of pushes a second, nowhere near a burst
    // of every device at once (1,000 a second per sampled push).
    #expect(small < 1_000 && large < 1_000, "\(small), \(large)")
    #expect(abs(small - large) / large < 0.25, "\(small) vs \(large)")
  }

  /// A broadcast channel (iOS 18) carries a shared event's updates and end
  /// as one request each, however many follow (docs/model.md#activity-fleet-push):
  /// the fleet's pushes a day fall to the push-to-starts (which cannot be
  /// broadcast) and a handful of broadcasts, the busiest second stays the
  /// start's, and each device sees what a token push would have shown it.
  @Test func aBroadcastChannelSendsOneRequestPerChangeNotOnePerFollower() throws {
    var s = Self.match(devices: 3_000)
    var channel = ActivityStrategy(name: "channel")
    channel.pushVia = .channel
    s.liveActivities?.strategies = [ActivityStrategy(name: "token"), channel]
    let t = try #require(LiveActivitySimulation.run(s))
    let token = try #require(t.row(strategy: "token"))
    let broadcast = try #require(t.row(strategy: "channel"))
    // Token: a push to each of 200,000 followers per change; channel: one per change.
    let followersPerDay = token.value(.activitiesPerDeviceDay) * 1_000_000
    #expect(token.value(.fleetPushesPerDay) > 5 * followersPerDay, "\(token.value(.fleetPushesPerDay))")
    #expect(broadcast.value(.fleetPushesPerDay) < 1.01 * followersPerDay, "\(broadcast.value(.fleetPushesPerDay))")
    // Only the push-to-start goes to the token.
    #expect(broadcast.value(.pushesSentPerActivity) == 1)
    // The start is a push to every follower at once either way.
    #expect(abs(broadcast.value(.fleetPushPeakPerSecond) - 200_000) / 200_000 < 0.1)
    // Same budget, same updates, same glances.
    #expect(broadcast.value(.acceptableGlancePct) == token.value(.acceptableGlancePct))
    #expect(broadcast.value(.updatesShownPerActivity) == token.value(.updatesShownPerActivity))
    // Under `channel_not_budgeted` every broadcast is shown.
    s.model.activity.channelBudgeted = false
    let free = try #require(LiveActivitySimulation.run(s)?.row(strategy: "channel"))
    #expect(free.value(.pushesThrottledPerActivity) == 0)
    #expect(free.value(.updatesShownPerActivity) >= broadcast.value(.updatesShownPerActivity))
  }
}
