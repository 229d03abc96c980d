import ReloadEngine

/// Wake source: the app schedules a `BGAppRefreshTaskRequest` with an
/// `earliestBeginDate`; the system runs it after a delay that grows the
/// less the app is used, and not while the user sleeps; the run fetches
/// and calls `reloadAllTimelines()` from the background (budgeted). Not run
/// in Low Power Mode (deferred), for a force-quit app (discarded until the
/// next launch), or with Background App Refresh off
/// (docs/model.md#background-refresh-delay, #background-refresh-suppressed, #force-quit).
struct BackgroundRefreshWakes: DeviceActivity {
  let interval: SimDuration?
  let reloads: Bool
  private let parameters: BackgroundRefreshParameters
  /// Bumped when a request is replaced or dies, so its run is ignored.
  private var generation: UInt32 = 0
  /// A request is waiting to run.
  private var pending = false
  private var rng = Xoshiro256StarStar(seed: 0)

  init(_ strategy: Strategy, _ parameters: BackgroundRefreshParameters) {
    interval = strategy.app.backgroundRefreshInterval
    reloads = strategy.app.backgroundRefreshReloads
    self.parameters = parameters
  }

  mutating func reset<D: ReloadingDevice>(_ device: inout D, _ env: DeviceEnvironment) {
    generation = 0
    pending = false
    rng = device.context.stream(.backgroundRefresh, env)
  }

  /// The installed app submits its first request, spread over one interval.
  mutating func deviceStarted<D: ReloadingDevice>(_ device: inout D, _ env: DeviceEnvironment) {
    guard let interval, !env.backgroundRefreshOff else { return }
    let earliest = SimTime(milliseconds: Int64(rng.nextUnit() * Double(interval.milliseconds)))
    submit(earliest: earliest, now: .zero, &device.context, env)
  }

  mutating func appDidBecomeActive<D: ReloadingDevice>(at t: SimTime, _ device: inout D, _ env: DeviceEnvironment) {
    if let interval, !pending, !env.backgroundRefreshOff {
      submit(earliest: t + interval, now: t, &device.context, env)
    }
  }

  mutating func appDidEnterBackground<D: ReloadingDevice>(at t: SimTime, _ device: inout D, _ env: DeviceEnvironment) {
    if device.context.app.forceQuit {  // the request dies with the app
      pending = false
      generation &+= 1
    }
  }

  /// The app submits a request; the system picks when it runs.
  private mutating func submit(
    earliest: SimTime, now t: SimTime, _ context: inout DeviceContext, _ env: DeviceEnvironment
  ) {
    if context.measured(t) { context.counts.count(.bgRefreshRequested) }
    let median = parameters.medianDelay(sessionsPerDay: env.appSessionsPerDay)
    let delay = DurationDistribution.logNormal(median: median, sigma: parameters.sigma).sample(using: &rng)
    var run = max(t, earliest + delay)
    if parameters.followUsage && !env.isAwake(at: run) {
      run = env.nextAwakeTime(atOrAfter: run) + .milliseconds(Int64(rng.nextUnit() * 1_800_000))
    }
    generation &+= 1
    pending = true
    context.schedule(.backgroundRefreshRun, 0, at: run, generation: generation & 0x7FFFF)
  }

  /// `DeviceEvent.backgroundRefreshRun` (generation `g`): whether the task ran.
  @discardableResult
  mutating func ran<D: ReloadingDevice>(
    generation g: UInt32, at t: SimTime, _ device: inout D, _ env: DeviceEnvironment
  ) -> Bool {
    guard g == (generation & 0x7FFFF) else { return false }
    pending = false
    if device.context.app.forceQuit { return false }  // discarded until the next launch
    if device.context.app.lowPower, let until = env.lowPowerEnd(containing: t) {
      pending = true
      generation &+= 1
      let at = until + .milliseconds(Int64(rng.nextUnit() * 600_000))
      device.context.schedule(.backgroundRefreshRun, 0, at: at, generation: generation & 0x7FFFF)
      return false
    }
    if device.context.measured(t) {
      device.context.counts.count(.bgRefreshRuns)
      device.context.counts.count(.appWakes)
      device.context.counts.count(.events)
    }
    device.context.counts.recordBackendRequest(at: t)
    device.context.app.lastFetch = t
    if reloads { device.appReloadAll(at: t, cause: .backgroundRefresh, env) }
    if let interval { submit(earliest: t + interval, now: t, &device.context, env) }
    return true
  }
}
