import ReloadEngine
import ReloadMetrics

/// What one strategy did on one segment: integer counters and histograms
/// only, so tallies from different threads merge exactly in any order.
public struct SegmentTally: Sendable {
  public var devices: UInt64 = 0
  public var widgets: UInt64 = 0
  public var glances: UInt64 = 0
  public var freshGlances: UInt64 = 0
  public var acceptableGlances: UInt64 = 0
  public var staleGlances: UInt64 = 0
  public var staleSumMs: UInt64 = 0
  /// Staleness of every glance in ms (fresh glances as 0).
  public var staleness = LogHistogram()
  public var budgetedReloads: UInt64 = 0
  public var freeReloads: UInt64 = 0
  public var wastedReloads: UInt64 = 0
  public var withheldRequests: UInt64 = 0
  public var dryWidgetDays: UInt64 = 0
  public var dryMs: UInt64 = 0
  /// Local hour a dry widget-day first ran dry, in tenths of an hour (240 bins).
  public var firstDryTenths: [UInt64] = Array(repeating: 0, count: 240)
  public var appWakes: UInt64 = 0
  public var funnel = WakeFunnel()
  public var backendRequests: UInt64 = 0
  public var dataChanges: UInt64 = 0
  public var events: UInt64 = 0
  public var glancesByLocalHour: [UInt64] = Array(repeating: 0, count: 24)
  public var staleByLocalHour: [UInt64] = Array(repeating: 0, count: 24)
  /// Budget left sampled at every local hour: `budgetLeft[h * (cap + 1) + left]`.
  public var budgetLeft: [UInt64]
  public let budgetLeftWidth: Int
  /// Backend requests per UTC second of the measured days.
  public var backendPerSecond: [UInt32]

  public init(ringCapacity: Int, measuredSeconds: Int) {
    budgetLeftWidth = ringCapacity + 1
    budgetLeft = Array(repeating: 0, count: 24 * (ringCapacity + 1))
    backendPerSecond = Array(repeating: 0, count: max(0, measuredSeconds))
  }

  public mutating func merge(_ o: SegmentTally) {
    devices &+= o.devices
    widgets &+= o.widgets
    glances &+= o.glances
    freshGlances &+= o.freshGlances
    acceptableGlances &+= o.acceptableGlances
    staleGlances &+= o.staleGlances
    staleSumMs &+= o.staleSumMs
    staleness.merge(o.staleness)
    budgetedReloads &+= o.budgetedReloads
    freeReloads &+= o.freeReloads
    wastedReloads &+= o.wastedReloads
    withheldRequests &+= o.withheldRequests
    dryWidgetDays &+= o.dryWidgetDays
    dryMs &+= o.dryMs
    for i in firstDryTenths.indices { firstDryTenths[i] &+= o.firstDryTenths[i] }
    appWakes &+= o.appWakes
    funnel.silentPushesSent &+= o.funnel.silentPushesSent
    funnel.silentPushesDelivered &+= o.funnel.silentPushesDelivered
    funnel.silentPushReloads &+= o.funnel.silentPushReloads
    funnel.bgRefreshRequested &+= o.funnel.bgRefreshRequested
    funnel.bgRefreshRuns &+= o.funnel.bgRefreshRuns
    funnel.bgRefreshReloads &+= o.funnel.bgRefreshReloads
    funnel.widgetPushesSent &+= o.funnel.widgetPushesSent
    funnel.widgetPushesAccepted &+= o.funnel.widgetPushesAccepted
    funnel.widgetPushReloads &+= o.funnel.widgetPushReloads
    backendRequests &+= o.backendRequests
    dataChanges &+= o.dataChanges
    events &+= o.events
    for h in 0..<24 {
      glancesByLocalHour[h] &+= o.glancesByLocalHour[h]
      staleByLocalHour[h] &+= o.staleByLocalHour[h]
    }
    for i in budgetLeft.indices { budgetLeft[i] &+= o.budgetLeft[i] }
    for i in backendPerSecond.indices { backendPerSecond[i] &+= o.backendPerSecond[i] }
  }
}

/// Per-hour-of-run totals of one strategy over all segments.
public struct SeriesTally: Sendable {
  public var budgetedReloads: [UInt64]
  public var freeReloads: [UInt64]
  public var glances: [UInt64]
  public var staleGlances: [UInt64]
  public var dryMs: [UInt64]
  public var backendRequests: [UInt64]
  public var silentPushesSent: [UInt64]
  public var silentPushesDelivered: [UInt64]

  public init(hours: Int) {
    let z = [UInt64](repeating: 0, count: max(0, hours))
    budgetedReloads = z
    freeReloads = z
    glances = z
    staleGlances = z
    dryMs = z
    backendRequests = z
    silentPushesSent = z
    silentPushesDelivered = z
  }

  public mutating func merge(_ o: SeriesTally) {
    for i in glances.indices {
      budgetedReloads[i] &+= o.budgetedReloads[i]
      freeReloads[i] &+= o.freeReloads[i]
      glances[i] &+= o.glances[i]
      staleGlances[i] &+= o.staleGlances[i]
      dryMs[i] &+= o.dryMs[i]
      backendRequests[i] &+= o.backendRequests[i]
      silentPushesSent[i] &+= o.silentPushesSent[i]
      silentPushesDelivered[i] &+= o.silentPushesDelivered[i]
    }
  }
}

/// Everything one strategy produced: one tally per segment plus its series.
public struct StrategyTally: Sendable {
  public var segments: [SegmentTally]
  public var series: SeriesTally

  public init(segments: Int, ringCapacity: Int, measuredSeconds: Int) {
    self.segments = (0..<segments).map { _ in
      SegmentTally(ringCapacity: ringCapacity, measuredSeconds: measuredSeconds)
    }
    series = SeriesTally(hours: (measuredSeconds + 3599) / 3600)
  }

  public mutating func merge(_ o: StrategyTally) {
    for i in segments.indices { segments[i].merge(o.segments[i]) }
    series.merge(o.series)
  }
}
