import ReloadEngine

/// The counts of one activity strategy on the devices of one segment
/// (measured days only), summed device by device in a fixed order.
struct ActivityTally {
  var devices = 0
  var followed = 0
  var activities = 0
  var missed = 0
  var glances = 0
  var freshGlances = 0
  var acceptableGlances = 0
  var staleMarkedGlances = 0
  var updatesShown = 0
  var updatesMerged = 0
  var pushesThrottled = 0
  var pushesSent = 0
  var throttledActivities = 0
  var alertsShown = 0

  mutating func add(_ o: ActivityTally) {
    devices += o.devices
    followed += o.followed
    activities += o.activities
    missed += o.missed
    glances += o.glances
    freshGlances += o.freshGlances
    acceptableGlances += o.acceptableGlances
    staleMarkedGlances += o.staleMarkedGlances
    updatesShown += o.updatesShown
    updatesMerged += o.updatesMerged
    pushesThrottled += o.pushesThrottled
    pushesSent += o.pushesSent
    throttledActivities += o.throttledActivities
    alertsShown += o.alertsShown
  }
}

/// One broadcast request to a shared event's channel.
struct ChannelSend: Hashable {
  var event: Int
  var eventStart: SimTime
  var time: SimTime
}

/// A strategy's counts over the whole sample: per segment, the pushes the
/// backend sent in each second, and the glances by the activity's age.
struct StrategyTally {
  var segments: [ActivityTally]
  /// Pushes sent in each second of the run (the sample's).
  var pushesPerSecond: [UInt32]
  /// Per 10-minute age bucket: glances and acceptable glances.
  var ageGlances: [Int]
  var ageAcceptable: [Int]
  /// Per event: glances and acceptable glances (measured).
  var eventGlances: [Int]
  var eventAcceptable: [Int]
  /// Per 10-minute age bucket: priority-10 pushes sent and the push budget
  /// left (tokens, before the push) summed over them (measured).
  var agePushes: [Int]
  var ageTokens: [Double]
  /// The backend's broadcast requests (`push_via: channel`): one per event
  /// occurrence and send time, however many devices receive it.
  var channelSends: Set<ChannelSend> = []

  static let ageBucket = SimDuration.minutes(10)
  static let ageBuckets = 72  // 12 hours: 8 active and 4 on the Lock Screen

  init(segments: Int, seconds: Int, events: Int) {
    eventGlances = Array(repeating: 0, count: events)
    eventAcceptable = Array(repeating: 0, count: events)
    self.segments = Array(repeating: ActivityTally(), count: segments)
    pushesPerSecond = Array(repeating: 0, count: seconds)
    ageGlances = Array(repeating: 0, count: Self.ageBuckets)
    ageAcceptable = Array(repeating: 0, count: Self.ageBuckets)
    agePushes = Array(repeating: 0, count: Self.ageBuckets)
    ageTokens = Array(repeating: 0, count: Self.ageBuckets)
  }
}
