import ReloadEngine
import ReloadMetrics

/// The named scalar counters of a `SegmentTally`, in block order.
@usableFromInline
enum Counter: Int, CaseIterable {
  case devices, widgets, freshGlances, acceptableStaleGlances, staleGlances, staleSumMs
  case budgetedReloads, freeReloads, wastedReloads, withheldRequests, frozenWidgetDays, frozenMs
  case appWakes, silentPushesSent, silentPushesDelivered, silentPushReloads
  case bgRefreshRequested, bgRefreshRuns, bgRefreshReloads
  case widgetPushesSent, widgetPushesAccepted, widgetPushReloads
  case backendRequests, dataChanges, events
  /// Local days (per widget) that lie wholly inside the measured window.
  case measuredLocalWidgetDays
  /// Glances at a widget showing a placeholder (neither fresh nor stale).
  case placeholderGlances
  /// Budgeted reloads that changed what the widget shows.
  case changedBudgetedReloads
  /// Budgeted requests that reached the budget (held back, dropped or granted).
  case budgetRequests
  /// Budget-limited time, from a refusal to the widget's next reload, and
  /// the local widget-days (wholly measured) it touches (docs/model.md#budget-limited).
  case limitedWidgetDays, limitedMs
  /// Every measured glance, counted once per widget at the device's end
  /// (not per glance): a kind's fresh glances are its glances less its
  /// stale and placeholder ones (`SegmentTally.kind(_:)`).
  case measuredGlances
}

/// Where each part of a segment tally sits in its counter block.
@frozen
public struct TallyLayout: Sendable, Equatable {
  public let staleness: Int
  public let firstFrozenTenths: Int
  public let firstLimitedTenths: Int
  public let glancesByHour: Int
  public let staleByHour: Int
  public let budgetLeft: Int
  /// Budget-left values per hour (`ringCapacity + 1`).
  public let budgetLeftWidth: Int
  /// Where the widget kinds' counters start: one section per kind, laid
  /// out as this layout's first `kindWidth` counters (the scalars, the
  /// staleness histogram, the first frozen and first budget-limited hours).
  public let kinds: Int
  public let kindStart: Int
  public let kindWidth: Int
  public let count: Int

  /// `kinds`: the scenario's widget kinds (each gets a section of counters).
  public init(ringCapacity: Int, kinds: Int) {
    staleness = Counter.allCases.count
    firstFrozenTenths = staleness + LogHistogram.bucketCount
    firstLimitedTenths = firstFrozenTenths + 240
    glancesByHour = firstLimitedTenths + 240
    staleByHour = glancesByHour + 24
    budgetLeft = staleByHour + 24
    budgetLeftWidth = ringCapacity + 1
    self.kinds = max(0, kinds)
    kindStart = budgetLeft + 24 * budgetLeftWidth
    kindWidth = glancesByHour
    count = kindStart + self.kinds * kindWidth
  }

  /// Where kind `k`'s section starts.
  @inlinable @inline(__always)
  public func kindBase(_ k: Int) -> Int { kindStart &+ k &* kindWidth }
}

/// What one strategy did on one segment: integer counters only, so tallies
/// from different threads merge exactly, in any order.
///
/// Backed by `CounterBlock`s that the simulator increments through raw
/// pointers; `copy()` before merging into a tally you do not own.
public struct SegmentTally: Sendable {
  public let layout: TallyLayout
  /// Scalars, histograms and per-hour arrays (see `TallyLayout`).
  public let counters: CounterBlock<UInt64>
  /// Backend requests per UTC second of the measured days.
  public let perSecond: CounterBlock<UInt32>

  public init(ringCapacity: Int, kinds: Int, measuredSeconds: Int) {
    layout = TallyLayout(ringCapacity: ringCapacity, kinds: kinds)
    counters = CounterBlock(count: layout.count)
    perSecond = CounterBlock(count: max(0, measuredSeconds))
  }

  init(layout: TallyLayout, counters: CounterBlock<UInt64>, perSecond: CounterBlock<UInt32>) {
    self.layout = layout
    self.counters = counters
    self.perSecond = perSecond
  }

  /// An independent copy.
  public func copy() -> SegmentTally {
    SegmentTally(layout: layout, counters: counters.copy(), perSecond: perSecond.copy())
  }

  /// Adds `other` into this tally's blocks.
  public func merge(_ other: SegmentTally) {
    counters.add(other.counters)
    perSecond.add(other.perSecond)
  }

  @inlinable
  func value(_ c: Counter) -> UInt64 { counters.value(at: c.rawValue) }

  public var devices: UInt64 { value(.devices) }
  public var widgets: UInt64 { value(.widgets) }
  /// Every glance: fresh, stale, or at a placeholder.
  public var glances: UInt64 { value(.freshGlances) &+ value(.staleGlances) &+ value(.placeholderGlances) }
  /// Glances at a widget that showed data (fresh or stale, not a placeholder).
  public var glancesWithData: UInt64 { value(.freshGlances) &+ value(.staleGlances) }
  public var freshGlances: UInt64 { value(.freshGlances) }
  /// Fresh glances are always acceptable.
  public var acceptableGlances: UInt64 { value(.freshGlances) &+ value(.acceptableStaleGlances) }
  public var staleGlances: UInt64 { value(.staleGlances) }
  public var staleSumMs: UInt64 { value(.staleSumMs) }
  public var placeholderGlances: UInt64 { value(.placeholderGlances) }
  public var budgetedReloads: UInt64 { value(.budgetedReloads) }
  public var changedBudgetedReloads: UInt64 { value(.changedBudgetedReloads) }
  public var freeReloads: UInt64 { value(.freeReloads) }
  public var wastedReloads: UInt64 { value(.wastedReloads) }
  public var withheldRequests: UInt64 { value(.withheldRequests) }
  public var frozenWidgetDays: UInt64 { value(.frozenWidgetDays) }
  public var frozenMs: UInt64 { value(.frozenMs) }
  public var budgetRequests: UInt64 { value(.budgetRequests) }
  public var limitedWidgetDays: UInt64 { value(.limitedWidgetDays) }
  public var limitedMs: UInt64 { value(.limitedMs) }
  public var appWakes: UInt64 { value(.appWakes) }
  public var backendRequests: UInt64 { value(.backendRequests) }
  public var dataChanges: UInt64 { value(.dataChanges) }
  public var events: UInt64 { value(.events) }
  public var measuredLocalWidgetDays: UInt64 { value(.measuredLocalWidgetDays) }
  /// Every measured glance, counted per widget at its device's end: equal
  /// to `glances`, counted the other way.
  public var measuredGlances: UInt64 { value(.measuredGlances) }

  public var funnel: WakeFunnel {
    var f = WakeFunnel()
    f.silentPushesSent = value(.silentPushesSent)
    f.silentPushesDelivered = value(.silentPushesDelivered)
    f.silentPushReloads = value(.silentPushReloads)
    f.bgRefreshRequested = value(.bgRefreshRequested)
    f.bgRefreshRuns = value(.bgRefreshRuns)
    f.bgRefreshReloads = value(.bgRefreshReloads)
    f.widgetPushesSent = value(.widgetPushesSent)
    f.widgetPushesAccepted = value(.widgetPushesAccepted)
    f.widgetPushReloads = value(.widgetPushReloads)
    return f
  }

  /// Staleness of every glance that showed data, in ms (fresh glances as
  /// 0: the hot loop counts only stale ones into the histogram).
  public var staleness: LogHistogram {
    var counts = counters.values(layout.staleness..<(layout.staleness + LogHistogram.bucketCount))
    counts[0] &+= freshGlances
    return LogHistogram(counts: counts, sum: staleSumMs)
  }
  /// Local hour a frozen widget-day first froze, in tenths of an hour.
  public var firstFrozenTenths: [UInt64] {
    counters.values(layout.firstFrozenTenths..<(layout.firstFrozenTenths + 240))
  }
  /// Local hour a budget-limited widget-day's first refusal came, in tenths of an hour.
  public var firstLimitedTenths: [UInt64] {
    counters.values(layout.firstLimitedTenths..<(layout.firstLimitedTenths + 240))
  }
  public var glancesByLocalHour: [UInt64] { counters.values(layout.glancesByHour..<(layout.glancesByHour + 24)) }
  public var staleByLocalHour: [UInt64] { counters.values(layout.staleByHour..<(layout.staleByHour + 24)) }
  public var budgetLeftWidth: Int { layout.budgetLeftWidth }
  /// Budget left sampled at every local hour: `[h * width + left]`.
  public var budgetLeft: [UInt64] { counters.values(layout.budgetLeft..<layout.count) }
  public var backendPerSecond: [UInt32] { perSecond.values(0..<perSecond.count) }

  /// The number of widget kinds counted apart.
  public var kindCount: Int { layout.kinds }

  /// What the widgets of kind `k` counted, as a tally of their own (a
  /// copy). It holds what widgets count (glances, staleness, reloads,
  /// requests to the budget, frozen and budget-limited time, widget-days,
  /// data changes); what the device counts (devices, wakes, pushes,
  /// backend requests, events, the per-hour arrays, budget samples) is 0.
  public func kind(_ k: Int) -> SegmentTally {
    precondition(k >= 0 && k < layout.kinds, "kind \(k) out of 0..<\(layout.kinds)")
    let block = CounterBlock<UInt64>(count: layout.count)
    let base = layout.kindBase(k)
    for i in 0..<layout.kindWidth { block[i] = counters.value(at: base + i) }
    // Fresh glances are not counted per kind in the hot loop (the most
    // frequent event): they are the kind's glances less its others.
    func at(_ c: Counter) -> UInt64 { block[c.rawValue] }
    block[Counter.freshGlances.rawValue] =
      at(.measuredGlances) &- at(.staleGlances) &- at(.placeholderGlances)
    return SegmentTally(layout: layout, counters: block, perSecond: CounterBlock(count: 0))
  }
}

/// Per-hour-of-run totals of one strategy over all segments.
public struct SeriesTally: Sendable {
  @usableFromInline enum Field: Int, CaseIterable {
    case budgetedReloads, freeReloads, glances, staleGlances, frozenMs, backendRequests, silentPushesSent,
      silentPushesDelivered
  }
  public let hours: Int
  public let block: CounterBlock<UInt64>

  public init(hours: Int) {
    self.hours = max(0, hours)
    block = CounterBlock(count: Field.allCases.count * self.hours)
  }

  init(hours: Int, block: CounterBlock<UInt64>) {
    self.hours = hours
    self.block = block
  }

  public func copy() -> SeriesTally { SeriesTally(hours: hours, block: block.copy()) }
  public func merge(_ o: SeriesTally) { block.add(o.block) }

  /// The hourly totals of `f` (`ResultsBuilder` turns them into the
  /// reported series, `HourlyMetric`).
  func values(_ f: Field) -> [UInt64] { block.values((f.rawValue * hours)..<((f.rawValue + 1) * hours)) }
}

/// Everything one strategy produced: one tally per segment plus its series.
public struct StrategyTally: Sendable {
  public let segments: [SegmentTally]
  public let series: SeriesTally
  /// APNs pushes the backend sent per UTC second of the measured days, all
  /// segments together: silent pushes at `0 ..< n`, WidgetKit pushes at
  /// `n ..< 2n` (`n` measured seconds). Empty for a strategy that sends
  /// none (no memory spent on it).
  public let pushesPerSecond: CounterBlock<UInt32>

  /// The whole seconds from `start` to `end` (a part of a second counts):
  /// the length of a tally's per-second blocks.
  public static func measuredSeconds(from start: SimTime, to end: SimTime) -> Int {
    Int((end.milliseconds - start.milliseconds + 999) / 1000)
  }

  /// `countsPushes`: the strategy sends APNs pushes (else `pushesPerSecond` is empty).
  public init(segments: Int, ringCapacity: Int, kinds: Int, measuredSeconds: Int, countsPushes: Bool = false) {
    self.segments = (0..<segments).map { _ in
      SegmentTally(ringCapacity: ringCapacity, kinds: kinds, measuredSeconds: measuredSeconds)
    }
    let hour = Int(SimDuration.hour.milliseconds / SimDuration.second.milliseconds)
    series = SeriesTally(hours: (measuredSeconds + hour - 1) / hour)
    pushesPerSecond = CounterBlock(count: countsPushes ? 2 * max(0, measuredSeconds) : 0)
  }

  init(segments: [SegmentTally], series: SeriesTally, pushesPerSecond: CounterBlock<UInt32>) {
    self.segments = segments
    self.series = series
    self.pushesPerSecond = pushesPerSecond
  }

  /// An independent copy.
  public func copy() -> StrategyTally {
    StrategyTally(segments: segments.map { $0.copy() }, series: series.copy(), pushesPerSecond: pushesPerSecond.copy())
  }

  /// Adds `other` into this tally's blocks.
  public func merge(_ other: StrategyTally) {
    for i in segments.indices { segments[i].merge(other.segments[i]) }
    series.merge(other.series)
    pushesPerSecond.add(other.pushesPerSecond)
  }

  /// All segments together, as a new tally.
  public func allSegments() -> SegmentTally {
    let all = segments[0].copy()
    for s in segments.dropFirst() { all.merge(s) }
    return all
  }
}
