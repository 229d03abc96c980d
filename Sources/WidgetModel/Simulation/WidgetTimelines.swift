import ReloadEngine

/// What each widget shows: its kind, the timeline its last reload
/// returned, and the next change that timeline does not show.
struct WidgetTimelines {
  let kind: Column<Int>
  /// Staleness the kind tolerates, ms.
  let tolerance: Column<Int64>
  let plan: Column<TimelinePlan>
  /// The first scheduled change after the timeline's coverage.
  let predictedNext: Column<SimTime>
  /// The last instant whose scheduled data was published when the timeline
  /// was made (`.never` without a publication lag): no entry shows a
  /// scheduled change after it (docs/model.md#publication-lag).
  let published: Column<SimTime>
  /// The first unpredictable change after the last reload (elided mode;
  /// set by the change event in event-by-event mode).
  let unpredictableNext: Column<SimTime>
  let changeCursor: Column<Int>

  init(widgets: Int, storage: _DeviceStorage) {
    kind = storage.column(widgets, 0)
    tolerance = storage.column(widgets, 0)
    plan = storage.column(
      widgets,
      TimelinePlan(reloadTime: .zero, lastEntry: .zero, horizonEnd: .zero, coverage: .captureOnly, nextRequest: .never))
    predictedNext = storage.column(widgets, .never)
    published = storage.column(widgets, .never)
    unpredictableNext = storage.column(widgets, .never)
    changeCursor = storage.column(widgets, 0)
  }

  /// Widget `w` now shows `newPlan`, made at `t`; in elided mode the next
  /// unpredictable change it misses is looked up from `feed`.
  @inline(__always)
  func show(
    _ w: Int, _ newPlan: TimelinePlan, madeAt t: SimTime, eventMode: Bool, _ feed: ContentFeed,
    _ env: DeviceEnvironment
  ) {
    let k = kind[w]
    plan[w] = newPlan
    let known = feed.publishedThrough(kind: k, at: t, env)
    published[w] = known
    predictedNext[w] = env.schedules[k]?.next(after: min(newPlan.coverageEnd, known)) ?? .never
    if eventMode {
      unpredictableNext[w] = .never
    } else {
      var cursor = changeCursor[w]
      unpredictableNext[w] = feed.firstUnpredictable(kind: k, after: t, cursor: &cursor, env)
      changeCursor[w] = cursor
    }
  }

  /// The first change widget `w` does not show at `g` (`> g` means fresh).
  @inline(__always)
  func firstUnshownChange(_ w: Int, at g: SimTime, _ env: DeviceEnvironment) -> SimTime {
    var first = unpredictableNext[w]
    let p = plan[w]
    if case .grid = p.coverage, let schedule = env.schedules[kind[w]] {
      first = min(first, schedule.next(after: min(p.coveredUntil(g), published[w])))
    } else if g >= min(p.coverageEnd, published[w]) {
      first = min(first, predictedNext[w])
    }
    return first
  }
}
