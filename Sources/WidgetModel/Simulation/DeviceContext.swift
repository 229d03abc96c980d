import ReloadEngine

/// What the parts of one device's simulation share, and all that a trigger
/// or wake source reads and writes of its device apart from the reloads it
/// asks for (`ReloadingDevice`): the device's event queue, the app's state,
/// the counters, the reload log, the content feed, the random streams and
/// the end of the run.
struct DeviceContext {
  /// The device's own event queue (the widgets' pending reloads and the
  /// lifecycle's next changes wait in slots beside it).
  var queue = Simulator<EventQueue>()
  var app = AppState()
  var counts: TallyWriter
  /// The device's reload log, kept only for `run --emit-log`.
  var log: LogRecorder
  let feed: ContentFeed
  let streams: RandomStreams
  /// The end of the run: nothing at or after it happens.
  let end: SimTime
  /// The number of widget kinds in the scenario.
  let kindCount: Int

  init(_ prepared: PreparedScenario, countsPushes: Bool, recordLog: Bool, storage: _DeviceStorage) {
    let scenario = prepared.scenario
    counts = TallyWriter(
      segments: scenario.segments.count, ringCapacity: prepared.ringCapacity, kinds: scenario.kinds.count,
      measureStart: prepared.measureStart, end: prepared.end, countsPushes: countsPushes,
      logCapacity: RequestLog.capacity(devices: scenario.devices), storage: storage)
    log = LogRecorder(enabled: recordLog, measureStart: prepared.measureStart, storage: storage)
    feed = ContentFeed(prepared, storage: storage)
    streams = prepared.streams
    end = prepared.end
    kindCount = scenario.kinds.count
  }

  /// Whether `t` is in the measured window.
  @inline(__always)
  func measured(_ t: SimTime) -> Bool { counts.measured(t) }

  /// Counts one event at `t`, if `t` is measured.
  @inline(__always)
  func countEvent(at t: SimTime) {
    if counts.measured(t) { counts.count(.events) }
  }

  /// Schedules `kind` for widget or kind `index` at `t`, unless the run has
  /// ended by then.
  @inline(__always)
  mutating func schedule(_ kind: DeviceEvent, _ index: Int, at t: SimTime, generation: UInt32 = 0) {
    if t < end { queue.schedule(kind, index, at: t, generation: generation) }
  }

  /// The random stream of `purpose` for `env`'s device.
  @inline(__always)
  func stream(_ purpose: StreamPurpose, _ env: DeviceEnvironment) -> Xoshiro256StarStar {
    streams.stream(entity: UInt64(env.device), purpose: purpose)
  }
}
