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
  /// The latest time whose scheduled changes the timeline shows: its
  /// coverage, cut at the data published when it was made
  /// (docs/model.md#publication-lag). Precomputed here so a glance reads
  /// one value.
  let shownUntil: Column<SimTime>
  /// The first unpredictable change after the last reload (elided mode;
  /// set by the change event in event-by-event mode).
  let unpredictableNext: Column<SimTime>
  let changeCursor: Column<Int>
  /// Failed fetches since the last successful one.
  let failures: Column<Int>
  /// The widget shows a placeholder (no data).
  let placeholder: Column<Bool>
  /// The last `schedule.next(after:)` a glance asked for, and its answer:
  /// the glances between two reloads mostly fall on one entry of a grid
  /// timeline, so they ask the same question (a pure function of the
  /// device's schedule, so valid until the next device).
  let nextAsked: Column<SimTime>
  let nextAnswer: Column<SimTime>
  static var notAsked: SimTime { SimTime(milliseconds: .min) }
  /// A timeline returned with its first entry still ahead, and that entry's
  /// date (`.never`: none): the widget shows it from then on
  /// (docs/model.md#future-first-entry).
  let upcoming: Column<TimelinePlan>
  let upcomingAt: Column<SimTime>
  let upcomingPlaceholder: Column<Bool>

  init(widgets: Int, storage: _DeviceStorage) {
    failures = storage.column(widgets, 0)
    placeholder = storage.column(widgets, false)
    kind = storage.column(widgets, 0)
    tolerance = storage.column(widgets, 0)
    plan = storage.column(
      widgets,
      TimelinePlan(reloadTime: .zero, lastEntry: .zero, horizonEnd: .zero, coverage: .captureOnly, nextRequest: .never))
    predictedNext = storage.column(widgets, .never)
    shownUntil = storage.column(widgets, .zero)
    unpredictableNext = storage.column(widgets, .never)
    changeCursor = storage.column(widgets, 0)
    nextAsked = storage.column(widgets, Self.notAsked)
    nextAnswer = storage.column(widgets, .never)
    upcoming = storage.column(
      widgets,
      TimelinePlan(reloadTime: .zero, lastEntry: .zero, horizonEnd: .zero, coverage: .captureOnly, nextRequest: .never))
    upcomingAt = storage.column(widgets, .never)
    upcomingPlaceholder = storage.column(widgets, false)
  }

  /// Widget `w` now shows `newPlan`, made at `t` from data as of
  /// `newPlan.reloadTime`; in elided mode (and for data older than the
  /// reload) the next unpredictable change it misses is looked up from `feed`.
  @inline(__always)
  func show(
    _ w: Int, _ newPlan: TimelinePlan, madeAt t: SimTime, eventMode: Bool, _ feed: ContentFeed,
    _ env: DeviceEnvironment
  ) {
    let k = kind[w]
    let dataTime = newPlan.reloadTime
    let sameData = dataTime == plan[w].reloadTime && dataTime < t
    plan[w] = newPlan
    let shown = min(newPlan.coverageEnd, feed.publishedThrough(kind: k, at: dataTime, env))
    shownUntil[w] = shown
    predictedNext[w] = env.schedules[k]?.next(after: shown) ?? .never
    if sameData { return }  // a failed fetch: the same data, the same first unseen change
    if eventMode && dataTime == t {
      unpredictableNext[w] = .never
    } else {
      var cursor = changeCursor[w]
      unpredictableNext[w] = feed.firstUnpredictable(kind: k, after: dataTime, cursor: &cursor, env)
      changeCursor[w] = cursor
    }
  }

  /// The first change widget `w` does not show at `g` (`> g` means fresh).
  @inline(__always)
  func firstUnshownChange(_ w: Int, at g: SimTime, _ env: DeviceEnvironment) -> SimTime {
    firstUnshownChangeSpan(w, at: g, env).first
  }

  /// `firstUnshownChange(w, at: g)`, and the earliest time after `g` at
  /// which it may differ while the widget's state stays as it is (the
  /// next entry of a grid timeline, the end of what the timeline shows):
  /// the glances before it see the same answer (NOTE: for performance,
  /// the glances between two reloads are accounted a span at a time).
  @inline(__always)
  func firstUnshownChangeSpan(_ w: Int, at g: SimTime, _ env: DeviceEnvironment) -> (first: SimTime, until: SimTime) {
    let first = unpredictableNext[w]
    let p = plan[w]
    if case .grid(let spacing) = p.coverage, let schedule = env.schedules[kind[w]] {
      // `p.coveredUntil(g)`, from the entry shown at `g`; the answer holds
      // until the next entry. coveredUntil(g) <= coverageEnd, so the cut
      // is the publication's.
      let entryDate = p.gridEntry(at: g, spacing: spacing)
      let asked = min(min(entryDate, p.coverageEnd), shownUntil[w])
      if asked != nextAsked[w] {
        nextAsked[w] = asked
        nextAnswer[w] = schedule.next(after: asked)
      }
      return (min(first, nextAnswer[w]), entryDate + spacing)
    }
    let shown = shownUntil[w]
    if g >= shown { return (min(first, predictedNext[w]), .never) }
    return (first, shown)
  }
}
