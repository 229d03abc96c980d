import ReloadEngine
import ReloadMetrics

/// Simulates one strategy on one device at a time, accumulating into its
/// `tally`. Reused for every device a worker handles: its arrays keep their
/// capacity, so the hot loop allocates nothing once warm.
///
/// Each device has its own small event queue: the devices of a fleet do
/// not interact (shared content and backend load are functions of time that
/// every device reads), so one queue per device keeps the heap tiny and in
/// cache. In `.elided` mode glances and unpredictable data changes never
/// enter the queue: they are read in order from the device's pre-drawn
/// arrays just before each event that changes a widget's state, which gives
/// exactly the results of the `.eventByEvent` mode (tested) at a fraction of
/// the queue traffic.
public struct DeviceSimulator<Policy: TimelinePolicy> {
  public let prepared: PreparedScenario
  public let strategy: Strategy
  public let policy: Policy
  public var tally: StrategyTally

  // Settings, unpacked once.
  let params: ModelParameters
  let eventMode: Bool
  let measureStart: SimTime
  let end: SimTime
  let minInterval: SimDuration
  let kindCount: Int

  var sim = Simulator<EventQueue>()
  var seg = 0

  // Per widget (structure of arrays).
  var gen: [UInt32] = []
  var pendingAt: [SimTime] = []
  var pendingKind: [DeviceEvent] = []
  var pendingCause: [ReloadCause] = []
  var withheld: [Bool] = []
  var lastReload: [SimTime] = []
  var plans: [TimelinePlan] = []
  var unpredictableNext: [SimTime] = []
  var changeCursor: [Int] = []
  var predictedNext: [SimTime] = []
  var glanceCursor: [Int] = []
  var tickNext: [SimTime] = []
  var drySince: [SimTime] = []
  var dryUntil: [SimTime] = []
  var lastDryDay: [Int] = []
  var lastEpisodeDay: [Int] = []
  var tapCursor: [Int] = []
  var tolerance: [Int64] = []
  var rings = RingBuffers()
  var tokens: [Double] = []
  var tokensAt: [SimTime] = []

  // Per kind.
  var pushCursor: [Int] = []
  var widgetPushCursor: [Int] = []
  var runningCursor: [Int] = []
  var eventChangeCursor: [Int] = []
  var widgetPushTokens: [Double] = []
  var widgetPushTokensAt: [SimTime] = []

  // Device state.
  var foreground = false
  var audio = false
  var forceQuit = false
  var lowPower = false
  var learning = false
  var sessionCursor = 0
  var audioCursor = 0
  var lowPowerCursor = 0
  var settingsCursor = 0
  var pushTokens = 0.0
  var pushTokensAt = SimTime.zero
  var heldPushes = 0
  var heldKind = 0
  var releaseScheduled = false
  var backgroundGen: UInt32 = 0
  var backgroundPending = false
  var runningGen: UInt32 = 0

  // Strategy-dependent random streams of the current device.
  var latenessRNG = Xoshiro256StarStar(seed: 0)
  var pushRNG = Xoshiro256StarStar(seed: 0)
  var refreshRNG = Xoshiro256StarStar(seed: 0)

  public init(prepared: PreparedScenario, strategy: Strategy, policy: Policy) {
    self.prepared = prepared
    self.strategy = strategy
    self.policy = policy
    let scenario = prepared.scenario
    params = scenario.model
    eventMode = scenario.engine == .eventByEvent
    measureStart = prepared.measureStart
    end = prepared.end
    minInterval = scenario.model.budget.minInterval
    kindCount = scenario.kinds.count
    let seconds = Int((prepared.end.milliseconds - prepared.measureStart.milliseconds + 999) / 1000)
    tally = StrategyTally(
      segments: scenario.segments.count, ringCapacity: prepared.ringCapacity, measuredSeconds: seconds)
  }

  /// Simulates the strategy on `env`'s device and adds what happened to `tally`.
  public mutating func run(_ env: DeviceEnvironment) {
    start(env)
    while let event = sim.step(before: end) {
      handle(event, env)
    }
    finish(env)
  }

  @inline(__always)
  func measured(_ t: SimTime) -> Bool { t >= measureStart }

  @inline(__always)
  mutating func schedule(_ kind: DeviceEvent, _ index: Int, at t: SimTime, generation: UInt32 = 0) {
    sim.schedule(
      payload: DeviceEvent.pack(kind, index: index, generation: generation), at: t,
      priority: DeviceEvent.modelPriority)
  }

  mutating func handle(_ event: Event, _ env: DeviceEnvironment) {
    let (kind, index, generation) = DeviceEvent.unpack(event.payload)
    let t = event.time
    switch kind {
    case .policyRequest, .appRequest, .exec:
      guard (gen[index] & 0x7FFFF) == generation else { return }  // superseded
      pendingAt[index] = .never
      if kind == .exec {
        executeReload(index, at: t, budgeted: true, chargeTimeline: true, cause: pendingCause[index], env)
      } else if kind == .policyRequest {
        policyRequest(index, at: t, env)
      } else {
        budgetedRequest(index, at: t, late: false, cause: pendingCause[index], env)
      }
    case .sessionStart: sessionStarted(at: t, env)
    case .sessionEnd: sessionEnded(at: t, env)
    case .audioStart: audioStarted(at: t, env)
    case .audioEnd: audioEnded(at: t, env)
    case .tap: tapped(index, at: t, env)
    case .lowPowerStart: lowPowerStarted(at: t, env)
    case .lowPowerEnd: lowPowerEnded(at: t, env)
    case .settingsChange: settingsChanged(at: t, env)
    case .silentPushSend: silentPushSent(kind: index, at: t, env)
    case .silentPushDeliver: silentPushDelivered(kind: index, at: t, env)
    case .silentPushRelease: releaseHeldPush(at: t, env)
    case .widgetPushSend: widgetPushSent(kind: index, at: t, env)
    case .backgroundRefreshRun:
      guard generation == (backgroundGen & 0x7FFFF) else { return }
      backgroundRefreshRan(at: t, env)
    case .changeWhileRunning:
      guard generation == (runningGen & 0x7FFFF) else { return }
      changedWhileRunning(kind: index, at: t, env)
    case .learningEnd:
      catchUpAll(before: t, env)
      learning = false
    case .glance:
      accountGlance(index, at: t, env)
      let next = glanceCursor[index] + 1
      glanceCursor[index] = next
      if next < env.glanceStart[index + 1] {
        sim.schedule(
          payload: DeviceEvent.pack(.glance, index: index), at: env.glances[next],
          priority: DeviceEvent.glancePriority)
      }
    case .change:
      changeHappened(kind: index, at: t, env)
    }
  }
}
