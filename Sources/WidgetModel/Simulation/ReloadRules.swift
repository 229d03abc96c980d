import ReloadEngine

/// What the scenario and the strategy fix about a device's reloads for the
/// whole run: the model's parameters, and the flags read from them once so
/// that a reload tests a `Bool` instead of comparing parameters.
struct ReloadRules {
  let params: ModelParameters
  /// `engine: event_by_event`: glances and unpredictable changes are events in the queue.
  let eventMode: Bool
  /// The shortest time from a reload to the next budgeted one.
  let minInterval: SimDuration
  /// Per kind: the staleness it tolerates, ms.
  let tolerance: [Int64]
  /// Per kind: how old a refused widget's last reload is when it freezes, ms
  /// (`budget.frozen_after_min`, or the kind's tolerance; docs/model.md#frozen-widgets).
  let frozenAfter: [Int64]
  /// Per kind: its reloads re-read the app's cache (docs/model.md#data-source).
  let readsCache: [Bool]
  let cacheReaders: Bool
  /// Some kind reads the app's cache and the app keeps it current while it
  /// runs (docs/model.md#cache-while-running).
  let cacheWhileRunning: Bool
  /// Per kind: its fetches can fail (docs/model.md#fetch-failure).
  let failure: [FetchFailure?]
  /// Some kind's provider may use a reload's random draw or fail.
  let drawsPerReload: Bool
  /// Some reload may draw, fail, read a cache or show a placeholder: the
  /// per-reload bookkeeping for those is skipped when `false`.
  let special: Bool
  /// `reload.asap: paced`: a policy request due at once waits for the budget's pace.
  let pacedAsap: Bool
  /// `reload.lateness_pressure: budget`: lateness grows with the budget spent.
  let latenessPressure: Bool
  /// Some budgeted app call may wait (`app_reload.background_latency`, `while_asleep`).
  let delaysBackgroundCalls: Bool
  /// A timeline may come back with its first entry still ahead, and the
  /// widget keeps what it shows until that date
  /// (`reload.future_first_entry: keeps_shown`, docs/model.md#future-first-entry).
  let defersFirstEntry: Bool
  /// Per kind: a reload at a restart, before the first unlock, cannot read
  /// the kind's data (docs/model.md#device-restart).
  let lockedAtBoot: [Bool]
  /// Per kind: its provider fetches only when its data is this old, ms (0:
  /// every reload fetches; docs/model.md#max-age).
  let maxAge: [Int64]
  /// The provider reads `TimelineRequest.lastChange`.
  let readsLastChange: Bool

  /// `providerDraws`: the strategy's provider uses a reload's random draw.
  init(_ scenario: Scenario, _ strategy: Strategy, providerDraws: Bool, providerReadsLastChange: Bool = false) {
    params = scenario.model
    eventMode = scenario.engine == .eventByEvent
    minInterval = scenario.model.budget.minInterval
    tolerance = scenario.kinds.map(\.tolerance.milliseconds)
    frozenAfter = scenario.kinds.map { (scenario.model.budget.frozenAfter ?? $0.tolerance).milliseconds }
    readsCache = (0..<scenario.kinds.count).map { strategy.dataSource(kind: $0) == .appCache }
    cacheReaders = readsCache.contains(true)
    cacheWhileRunning = cacheReaders && strategy.app.writesCacheWhileRunning
    failure = scenario.kinds.map { kind in
      kind.fetchFailure.flatMap { f in
        f.probability > 0 || f.outageToHour > f.outageFromHour || f.whenUnpublished ? f : nil
      }
    }
    drawsPerReload = providerDraws || failure.contains { $0 != nil }
    let restarts =
      scenario.model.reload.atRestart == .beforeFirstUnlock && StrategyConstruct.deviceRestart.isUsed(in: scenario)
    lockedAtBoot = (0..<scenario.kinds.count).map { restarts && !strategy.readsBeforeFirstUnlock(kind: $0) }
    maxAge = (0..<scenario.kinds.count).map { strategy.maxAge(kind: $0)?.milliseconds ?? 0 }
    readsLastChange = providerReadsLastChange
    special =
      drawsPerReload || cacheReaders || lockedAtBoot.contains(true) || maxAge.contains { $0 > 0 } || readsLastChange
    pacedAsap = scenario.model.reload.asap == .paced
    latenessPressure = scenario.model.reload.latenessPressure == .budget
    delaysBackgroundCalls = scenario.model.appReload.delaysBackgroundCalls
    defersFirstEntry =
      scenario.model.reload.futureFirstEntry == .keepsShown && StrategyConstruct.futureFirstEntry.isUsed(by: strategy)
  }
}
