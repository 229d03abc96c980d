import ReloadEngine

/// The registered triggers and wake sources of a device simulation, and
/// the one place that fans the app's lifecycle out to them.
///
/// Registering an activity (see `Sources/WidgetModel/README.md`): add it as
/// a stored property, create it in `init`, add one line to each fan-out
/// below that it should hear (all of them is always safe: unimplemented
/// hooks do nothing), and route its own `DeviceEvent` cases in
/// `DeviceSimulator.handle`. The order of the lines is the order in which
/// the activities act at one instant, which is part of the results: append
/// new activities last.
struct DeviceSources {
  var foreground: ForegroundReloads
  var backgroundRefresh: BackgroundRefreshWakes
  var dataChanges: DataChangeReloads
  var taps: WidgetTaps
  var adds: WidgetAdds
  var settings: SettingsChanges
  var silentPush: SilentPushWakes
  var widgetPush: WidgetPushReloads
  var triggers: AppTriggers
  var wakes: WakeSources
  var restarts: Restarts

  init(_ strategy: Strategy, _ prepared: PreparedScenario, providerCalls: Bool, widgets: Int, storage: _DeviceStorage) {
    let model = prepared.scenario.model
    let kinds = prepared.scenario.kinds.count
    foreground = ForegroundReloads(strategy)
    backgroundRefresh = BackgroundRefreshWakes(strategy, model.backgroundRefresh)
    dataChanges = DataChangeReloads(strategy, kinds: kinds, storage: storage)
    taps = WidgetTaps(strategy, widgets: widgets, storage: storage)
    adds = WidgetAdds(widgets: widgets, storage: storage)
    settings = SettingsChanges()
    silentPush = SilentPushWakes(strategy, model.silentPush, kinds: kinds, storage: storage)
    widgetPush = WidgetPushReloads(strategy, model.widgetPush, kinds: kinds, storage: storage)
    triggers = AppTriggers(strategy, model.appReload, providerCalls: providerCalls, kinds: kinds, storage: storage)
    wakes = WakeSources(strategy, model.wakeSources, storage: storage)
    restarts = Restarts(model.reload.atRestart)
  }

  mutating func reset<T>(_ d: inout DeviceWidgets<T>, _ env: DeviceEnvironment) {
    foreground.reset(&d, env)
    backgroundRefresh.reset(&d, env)
    dataChanges.reset(&d, env)
    taps.reset(&d, env)
    adds.reset(&d, env)
    settings.reset(&d, env)
    silentPush.reset(&d, env)
    widgetPush.reset(&d, env)
    triggers.reset(&d, env)
    wakes.reset(&d, env)
    restarts.reset(&d, env)
  }

  mutating func start<T>(widget w: Int, _ d: inout DeviceWidgets<T>, _ env: DeviceEnvironment) {
    taps.start(widget: w, &d, env)
    adds.start(widget: w, &d, env)
  }

  mutating func startDevice<T>(_ d: inout DeviceWidgets<T>, _ env: DeviceEnvironment) {
    settings.startDevice(&d, env)
    wakes.startDevice(&d, env)
    restarts.startDevice(&d, env)
  }

  mutating func start<T>(kind k: Int, _ d: inout DeviceWidgets<T>, _ env: DeviceEnvironment) {
    silentPush.start(kind: k, &d, env)
    widgetPush.start(kind: k, &d, env)
  }

  mutating func deviceStarted<T>(_ d: inout DeviceWidgets<T>, _ env: DeviceEnvironment) {
    backgroundRefresh.deviceStarted(&d, env)
  }

  mutating func appDidBecomeActive<T>(at t: SimTime, _ d: inout DeviceWidgets<T>, _ env: DeviceEnvironment) {
    foreground.appDidBecomeActive(at: t, &d, env)
    backgroundRefresh.appDidBecomeActive(at: t, &d, env)
    dataChanges.appDidBecomeActive(at: t, &d, env)
    d.appFetched(at: t)
    triggers.appDidBecomeActive(at: t, &d, env)
  }

  mutating func appDidEnterBackground<T>(at t: SimTime, _ d: inout DeviceWidgets<T>, _ env: DeviceEnvironment) {
    backgroundRefresh.appDidEnterBackground(at: t, &d, env)
    dataChanges.appDidEnterBackground(at: t, &d, env)
    triggers.appDidEnterBackground(at: t, &d, env)
  }

  mutating func audioSessionChanged<T>(at t: SimTime, _ d: inout DeviceWidgets<T>, _ env: DeviceEnvironment) {
    dataChanges.audioSessionChanged(at: t, &d, env)
    var woke = wakes.audioWakes(at: t, &d.context, env)
    while woke != 0 {
      let i = woke.trailingZeroBitCount
      woke &= woke - 1
      triggers.woke(.wake, source: i, at: t, &d, env)
    }
  }

  mutating func lowPowerModeEnded<T>(at t: SimTime, _ d: inout DeviceWidgets<T>, _ env: DeviceEnvironment) {
    silentPush.lowPowerModeEnded(at: t, &d, env)
  }
}
