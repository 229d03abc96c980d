import ReloadEngine
import ReloadMetrics

/// Simulates one strategy on one device at a time, accumulating into its
/// `tally`. Reused for every device a worker handles; its state lives in a
/// fixed arena allocated once, so the hot loop allocates nothing.
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
  /// What this simulator has counted so far (its blocks are its own).
  public let tally: StrategyTally

  // Settings, unpacked once.
  let params: ModelParameters
  let eventMode: Bool
  let measureStart: SimTime
  let end: SimTime
  let minInterval: SimDuration
  let kindCount: Int
  let ringCapacity: Int
  let layout: TallyLayout
  let seriesHours: Int

  var sim = Simulator<EventQueue>()
  var seg = 0
  var widgetCount = 0
  /// Counters of the current device's segment (NOTE: raw pointers into the
  /// tally's blocks, for performance).
  var counters: UnsafeMutablePointer<UInt64>
  let series: UnsafeMutablePointer<UInt64>
  /// Each segment's per-second block, and requests waiting to be added.
  let segmentPerSecond: UnsafeMutablePointer<UnsafeMutablePointer<UInt32>>
  var requests: _RequestLog

  // Per widget (structure of arrays in the arena).
  let arena = _Arena()
  let gen: UnsafeMutablePointer<UInt32>
  let pendingAt: UnsafeMutablePointer<SimTime>
  let pendingKind: UnsafeMutablePointer<DeviceEvent>
  let pendingCause: UnsafeMutablePointer<ReloadCause>
  let withheld: UnsafeMutablePointer<Bool>
  let lastReload: UnsafeMutablePointer<SimTime>
  let plans: UnsafeMutablePointer<TimelinePlan>
  let unpredictableNext: UnsafeMutablePointer<SimTime>
  let changeCursor: UnsafeMutablePointer<Int>
  let predictedNext: UnsafeMutablePointer<SimTime>
  let glanceCursor: UnsafeMutablePointer<Int>
  let tickNext: UnsafeMutablePointer<SimTime>
  let drySince: UnsafeMutablePointer<SimTime>
  let dryUntil: UnsafeMutablePointer<SimTime>
  let lastDryDay: UnsafeMutablePointer<Int>
  let lastEpisodeDay: UnsafeMutablePointer<Int>
  let tapCursor: UnsafeMutablePointer<Int>
  let addCursor: UnsafeMutablePointer<Int>
  let tolerance: UnsafeMutablePointer<Int64>
  let tokens: UnsafeMutablePointer<Double>
  let tokensAt: UnsafeMutablePointer<SimTime>
  let widgetKind: UnsafeMutablePointer<Int>
  let baseBudget: UnsafeMutablePointer<Int>
  var rings = RingBuffers()

  // Per kind.
  let pushCursor: UnsafeMutablePointer<Int>
  let widgetPushCursor: UnsafeMutablePointer<Int>
  let runningCursor: UnsafeMutablePointer<Int>
  let eventChangeCursor: UnsafeMutablePointer<Int>
  let widgetPushTokens: UnsafeMutablePointer<Double>
  let widgetPushTokensAt: UnsafeMutablePointer<SimTime>
  let kindHorizon: UnsafeMutablePointer<SimDuration>
  let kindShared: UnsafeMutablePointer<Bool>
  let sharedStart: UnsafeMutablePointer<UnsafeMutablePointer<SimTime>>
  let sharedCount: UnsafeMutablePointer<Int>

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

  /// The most widgets one device can have.
  public static var maxWidgetsPerDevice: Int { 64 }

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
    ringCapacity = prepared.ringCapacity
    let seconds = Int((prepared.end.milliseconds - prepared.measureStart.milliseconds + 999) / 1000)
    tally = StrategyTally(segments: scenario.segments.count, ringCapacity: prepared.ringCapacity, measuredSeconds: seconds)
    layout = tally.segments[0].layout
    seriesHours = tally.series.hours
    counters = tally.segments[0].counters.base
    series = tally.series.block.base
    segmentPerSecond = arena.make(scenario.segments.count, tally.segments[0].perSecond.base)
    for (g, t) in tally.segments.enumerated() { segmentPerSecond[g] = t.perSecond.base }
    requests = _RequestLog(arena)

    let w = Self.maxWidgetsPerDevice
    gen = arena.make(w, 0)
    pendingAt = arena.make(w, .never)
    pendingKind = arena.make(w, .exec)
    pendingCause = arena.make(w, .policy)
    withheld = arena.make(w, false)
    lastReload = arena.make(w, .zero)
    plans = arena.make(
      w, TimelinePlan(reloadTime: .zero, lastEntry: .zero, horizonEnd: .zero, coverage: .captureOnly, nextRequest: .never))
    unpredictableNext = arena.make(w, .never)
    changeCursor = arena.make(w, 0)
    predictedNext = arena.make(w, .never)
    glanceCursor = arena.make(w, 0)
    tickNext = arena.make(w, .never)
    drySince = arena.make(w, .never)
    dryUntil = arena.make(w, .never)
    lastDryDay = arena.make(w, Int.min)
    lastEpisodeDay = arena.make(w, Int.min)
    tapCursor = arena.make(w, 0)
    addCursor = arena.make(w, 0)
    tolerance = arena.make(w, 0)
    tokens = arena.make(w, 0)
    tokensAt = arena.make(w, .zero)
    widgetKind = arena.make(w, 0)
    baseBudget = arena.make(w, 1)

    let k = max(1, kindCount)
    pushCursor = arena.make(k, 0)
    widgetPushCursor = arena.make(k, 0)
    runningCursor = arena.make(k, 0)
    eventChangeCursor = arena.make(k, 0)
    widgetPushTokens = arena.make(k, 0)
    widgetPushTokensAt = arena.make(k, .zero)
    kindHorizon = arena.make(k, .zero)
    kindShared = arena.make(k, false)
    sharedStart = arena.make(k, arena.make(1, SimTime.zero))
    sharedCount = arena.make(k, 0)
    for (i, kind) in scenario.kinds.enumerated() {
      kindHorizon[i] = kind.scheduled?.horizon ?? .zero
      kindShared[i] = kind.scope == .shared
      let changes = prepared.sharedChanges[i]
      let copy = arena.make(changes.count, SimTime.zero)
      for (j, t) in changes.enumerated() { copy[j] = t }
      sharedStart[i] = copy
      sharedCount[i] = changes.count
    }
  }

  /// Simulates the strategy on `env`'s device and adds what happened to
  /// `tally` (backend requests may wait in a buffer: `flush()` before
  /// reading the tally).
  public mutating func run(_ env: DeviceEnvironment) {
    start(env)
    while let event = sim.step(before: end) {
      handle(event, env)
    }
    finish(env)
  }

  /// Adds buffered backend requests to the per-second tallies.
  public mutating func flush() {
    requests.flush(into: segmentPerSecond)
  }

  @inline(__always)
  func measured(_ t: SimTime) -> Bool { t >= measureStart }

  /// Adds `n` to a scalar counter of the current segment.
  @inline(__always)
  func count(_ c: Counter, _ n: UInt64 = 1) { counters[c.rawValue] &+= n }

  /// Adds `n` to an hourly series of the strategy at run hour `hour`.
  @inline(__always)
  func countHourly(_ f: SeriesTally.Field, _ hour: Int, _ n: UInt64 = 1) {
    series[f.rawValue &* seriesHours &+ hour] &+= n
  }

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
    case .widgetAdded: widgetAdded(index, at: t, env)
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
