import ReloadEngine

/// The content each widget kind shows, as the simulator reads it: the
/// provider's horizon, and the unpredictable changes (shared by every
/// device for `shared` kinds, else drawn per device into its environment).
/// Cursors only move forward: times asked for never decrease per cursor.
struct ContentFeed {
  /// How far ahead the kind's provider writes scheduled entries.
  let horizon: Column<SimDuration>
  private let shared: Column<Bool>
  /// Shared changes of every kind, one after another; kind `k`'s are
  /// `sharedChanges[sharedStart[k] ..< sharedStart[k + 1]]`.
  private let sharedChanges: Column<SimTime>
  private let sharedStart: Column<Int>
  /// Some kind's data is published after its change (skip the lookups otherwise).
  let publishes: Bool

  init(_ prepared: PreparedScenario, storage: _DeviceStorage) {
    let kinds = prepared.scenario.kinds
    publishes = kinds.contains { $0.scheduled?.publication != nil }
    let k = max(1, kinds.count)
    horizon = storage.column(k, .zero)
    shared = storage.column(k, false)
    let all = prepared.sharedChanges.flatMap { $0 }
    sharedChanges = storage.column(copying: all, filler: .zero)
    sharedStart = storage.column(k + 1, 0)
    var offset = 0
    for (i, kind) in kinds.enumerated() {
      horizon[i] = kind.scheduled?.horizon ?? .zero
      shared[i] = kind.scope == .shared
      sharedStart[i] = offset
      offset += prepared.sharedChanges[i].count
      sharedStart[i + 1] = offset
    }
  }

  /// The first unpredictable change of `kind` strictly after `t`.
  @inline(__always)
  func firstUnpredictable(kind k: Int, after t: SimTime, cursor: inout Int, _ env: DeviceEnvironment) -> SimTime {
    if shared[k] {
      let lo = sharedStart[k]
      let n = sharedStart[k &+ 1] &- lo
      var c = cursor
      while c < n && sharedChanges[lo &+ c] <= t { c &+= 1 }
      cursor = c
      return c < n ? sharedChanges[lo &+ c] : .never
    }
    let lo = env.changeStart[k]
    let hi = env.changeStart[k + 1]
    var c = max(cursor, lo)
    while c < hi && env.changes[c] <= t { c &+= 1 }
    cursor = c
    return c < hi ? env.changes[c] : .never
  }

  /// The newest unpredictable change of `kind` at or before `t`
  /// (`.never`: none). A binary search: only for providers that read it.
  func lastUnpredictable(kind k: Int, atOrBefore t: SimTime, _ env: DeviceEnvironment) -> SimTime {
    var lo: Int
    var hi: Int
    if shared[k] {
      lo = sharedStart[k]
      hi = sharedStart[k &+ 1]
    } else {
      lo = env.changeStart[k]
      hi = env.changeStart[k + 1]
    }
    let first = lo
    while lo < hi {
      let mid = (lo + hi) / 2
      let c = shared[k] ? sharedChanges[mid] : env.changes[mid]
      if c <= t { lo = mid + 1 } else { hi = mid }
    }
    guard lo > first else { return .never }
    return shared[k] ? sharedChanges[lo - 1] : env.changes[lo - 1]
  }

  /// The next change of `kind` after `t` that a push or watcher reacts to:
  /// unpredictable ones, and with `.all` scheduled ones too, when they can
  /// be shown (a change published later is reacted to at its publication:
  /// docs/model.md#publication-lag).
  func nextChange(
    kind k: Int, after t: SimTime, on: PushTrigger.Changes, cursor: inout Int, _ env: DeviceEnvironment
  ) -> SimTime {
    let u = firstUnpredictable(kind: k, after: t, cursor: &cursor, env)
    if on == .all, let schedule = env.schedules[k] { return min(u, schedule.nextShowable(after: t)) }
    return u
  }

  /// How far a timeline of `kind` made at `t` can show its scheduled
  /// changes: `.never` unless the kind's data is published late
  /// (docs/model.md#publication-lag).
  @inline(__always)
  func publishedThrough(kind k: Int, at t: SimTime, _ env: DeviceEnvironment) -> SimTime {
    guard publishes else { return .never }
    return env.schedules[k]?.publishedThrough(at: t) ?? .never
  }
}
