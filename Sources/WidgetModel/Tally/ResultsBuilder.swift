import ReloadEngine
import ReloadMetrics
import Synchronization

/// Turns merged tallies into the results model every report reads.
public enum ResultsBuilder {
  /// - Parameters:
  ///   - replications: per replication, one tally per strategy.
  public static func build(
    _ scenario: Scenario, replications: [[StrategyTally]], facts: RunFacts, parameters: [ParameterFact]
  ) -> ScenarioResults {
    build(scenario, replications: replications, facts: facts, parameters: parameters) { count, body in
      for i in 0..<count { body(i) }
    }
  }

  /// The same, with the strategies summarised by `forEach(count, body)`,
  /// which may call `body` concurrently (the CLI passes a parallel loop;
  /// each strategy's part is independent, so the result is the same).
  public static func build(
    _ scenario: Scenario, replications: [[StrategyTally]], facts: RunFacts, parameters: [ParameterFact],
    forEach: (Int, @Sendable (Int) -> Void) -> Void
  ) -> ScenarioResults {
    precondition(!replications.isEmpty, "no replication to build results from")
    // One replication: read its tallies as they are; several: pool copies.
    let pooled = replications.count == 1 ? replications[0] : replications[0].map { $0.copy() }
    for r in replications.dropFirst() {
      for s in pooled.indices { pooled[s].merge(r[s]) }
    }
    let parts = _StrategyParts(count: scenario.strategies.count)
    let scratch = Scratch()
    forEach(scenario.strategies.count) { s in
      parts.set(s, strategyPart(scenario, s, pooled: pooled[s], replications: replications, scratch: scratch))
    }
    let rows = parts.values.flatMap(\.rows)
    let kindRows = parts.values.flatMap(\.kindRows)
    let series = parts.values.map(\.series)
    return ScenarioResults(
      facts: facts, parameters: parameters,
      summary: ResultTable(columns: SummaryMetrics.all, rows: rows, kindRows: kindRows), series: series)
  }

  /// The values of `metrics` in the all-segments row of a strategy whose
  /// segments counted `counters` (one block per segment, laid out as
  /// `tally`'s) over `replications` replications, as `build` computes them
  /// from counters alone: no metric read from the per-second tallies (the
  /// backend's peaks) or a fleet-scale estimate may be among `metrics`
  /// (their values would be 0). A quick summary of a part of a run's devices
  /// (a robustness run's device groups).
  package static func overallValues(
    _ scenario: Scenario, like tally: StrategyTally, counters: [CounterBlock<UInt64>], replications: Int,
    metrics: [SummaryMetric]
  ) -> [Double?] {
    let segments = zip(tally.segments, counters).map {
      SegmentTally(layout: $0.layout, counters: $1, perSecond: CounterBlock(count: 0))
    }
    let ctx = Context(scenario: scenario, replications: Double(replications))
    let values = ctx.metrics(merged(segments), load: SecondStats(), fleet: .zero)
    return metrics.map { values[$0.rawValue] }
  }

  /// The rows (each segment, then `all`), the rows per widget kind (with
  /// several kinds) and the series of strategy `s`.
  static func strategyPart(
    _ scenario: Scenario, _ s: Int, pooled: StrategyTally, replications: [[StrategyTally]], scratch: Scratch
  ) -> StrategyPart {
    let strategy = scenario.strategies[s]
    let segmentNames = scenario.segments.map(\.name) + ["all"]
    let ctx = Context(scenario: scenario, replications: Double(replications.count))
    let all = merged(pooled.segments)
    // The fleet load estimate of each segment and, last, of their sum, from
    // the running sums the second statistics are read from (a series with
    // no request is none: `FleetLoad.zero`).
    var fleet = [FleetLoad](repeating: .zero, count: scenario.segments.count + 1)
    let loads = SecondStats.compute(pooled.segments.map(\.perSecond), scratch: scratch) { g, prefix in
      fleet[g] = FleetLoad.estimate(prefix: prefix, scale: ctx.scale)
    }
    let pushPeaks = pushFleetPeaks(pooled.pushesPerSecond, scale: ctx.scale, scratch: scratch)
    // Each replication's second statistics and fleet load estimates, for
    // the intervals over replications.
    let one = Context(scenario: scenario, replications: 1)
    var repFleet = [[FleetLoad]](
      repeating: [FleetLoad](repeating: .zero, count: scenario.segments.count + 1),
      count: replications.count >= 2 ? replications.count : 0)
    let repLoads =
      replications.count >= 2
      ? replications.enumerated().map { r, tallies in
        SecondStats.compute(tallies[s].segments.map(\.perSecond), scratch: scratch) { g, prefix in
          repFleet[r][g] = FleetLoad.estimate(prefix: prefix, scale: one.scale)
        }
      } : []
    var rows: [ResultRow] = []
    for g in 0...scenario.segments.count {
      let tally = g < scenario.segments.count ? pooled.segments[g] : all
      let values = ctx.metrics(
        tally, load: loads[g], fleet: fleet[g], pushPeaks: g == scenario.segments.count ? pushPeaks : nil)
      var ci: [Double?]? = nil
      if replications.count >= 2 {
        let perRep = replications.indices.map { r -> [Double?] in
          let t = g < scenario.segments.count ? replications[r][s].segments[g] : merged(replications[r][s].segments)
          return one.metrics(t, load: repLoads[r][g], fleet: repFleet[r][g])
        }
        ci = SummaryMetric.allCases.map { m -> Double? in
          guard m.metric.headline else { return nil }
          let xs = perRep.compactMap { $0[m.rawValue] }
          return xs.count >= 2 ? ReplicationSummary(xs).halfWidth95 : nil
        }
      }
      rows.append(
        ResultRow(scenario: scenario.name, strategy: strategy.name, segment: segmentNames[g], values: values, ci95: ci))
    }
    var kindRows: [ResultRow] = []
    if scenario.kinds.count > 1 {
      for g in 0...scenario.segments.count {
        let tally = g < scenario.segments.count ? pooled.segments[g] : all
        for k in scenario.kinds.indices {
          let values = ctx.kindMetrics(tally.kind(k))
          var ci: [Double?]? = nil
          if replications.count >= 2 {
            let perRep = replications.indices.map { r -> [Double?] in
              let t = g < scenario.segments.count ? replications[r][s].segments[g] : merged(replications[r][s].segments)
              return one.kindMetrics(t.kind(k))
            }
            ci = SummaryMetric.allCases.map { m -> Double? in
              guard m.metric.headline && m.perKind else { return nil }
              let xs = perRep.compactMap { $0[m.rawValue] }
              return xs.count >= 2 ? ReplicationSummary(xs).halfWidth95 : nil
            }
          }
          kindRows.append(
            ResultRow(
              scenario: scenario.name, strategy: strategy.name, segment: segmentNames[g],
              kind: scenario.kinds[k].name, values: values, ci95: ci))
        }
      }
    }
    return StrategyPart(
      rows: rows, kindRows: kindRows,
      series: ctx.series(strategy.name, pooled, all: all, load: loads[scenario.segments.count]))
  }

  /// What `strategyPart` gives for one strategy.
  struct StrategyPart: Sendable {
    var rows: [ResultRow]
    var kindRows: [ResultRow]
    var series: StrategySeries
  }

  /// The fleet's pushes in a busy second (`FleetLoad.peakSecond`), silent
  /// and WidgetKit, from a strategy's pushes per second (silent seconds,
  /// then WidgetKit ones; empty: it sends none, 0 and 0). One estimate per
  /// push series that has a push: FleetLoad reads prefix sums only.
  static func pushFleetPeaks(
    _ block: CounterBlock<UInt32>, scale: Double, scratch: Scratch
  ) -> (silent: Double, widget: Double) {
    let n = block.count / 2
    guard n > 0 else { return (0, 0) }
    return block.withUnsafeBufferPointer { pushes in
      scratch.with(count: n + 1) { prefix in
        func peak(_ offset: Int) -> Double {
          let series = UnsafeBufferPointer(rebasing: pushes[offset..<(offset + n)])
          guard series.contains(where: { $0 > 0 }) else { return 0 }
          // Running sums in 32 bits, wrapping, as `SecondStats.compute` keeps them.
          var sum: UInt32 = 0
          prefix[0] = 0
          for i in 0..<n {
            sum &+= series[i]
            prefix[i + 1] = sum
          }
          return FleetLoad.estimate(prefix: UnsafeBufferPointer(prefix), scale: scale).peakSecond
        }
        return (peak(0), peak(n))
      }
    }
  }

  /// Scratch memory for per-second running sums (a few MB a series),
  /// handed from one strategy's summary to the next: allocating it afresh
  /// for each would cost page faults and zeroing. Strategies summarised
  /// concurrently take buffers of their own.
  final package class Scratch: Sendable {
    private let free = Mutex<[Buffer]>([])

    package init() {}

    /// Calls `body` with `count` elements of scratch memory, of any content
    /// (`body` writes before it reads).
    func with<R>(count: Int, _ body: (UnsafeMutableBufferPointer<UInt32>) -> R) -> R {
      var buffer = free.withLock { $0.popLast() } ?? Buffer(count: count)
      if buffer.memory.count < count { buffer = Buffer(count: count) }
      let result = body(UnsafeMutableBufferPointer(rebasing: buffer.memory[0..<count]))
      free.withLock { $0.append(buffer) }
      return result
    }

    /// Memory of one scratch user at a time.
    final class Buffer: @unchecked Sendable {
      let memory: UnsafeMutableBufferPointer<UInt32>
      init(count: Int) { memory = .allocate(capacity: count) }
      deinit { memory.deallocate() }
    }
  }

  /// The segments' counters summed (the per-second blocks are summarised
  /// by `SecondStats.compute` instead, without a merged copy).
  static func merged(_ segments: [SegmentTally]) -> SegmentTally {
    let counters = segments[0].counters.copy()
    for t in segments.dropFirst() { counters.add(t.counters) }
    return SegmentTally(layout: segments[0].layout, counters: counters, perSecond: CounterBlock(count: 0))
  }

  struct Context {
    let scenario: Scenario
    let replications: Double
    var scale: Double { scenario.fleetDevices / Double(max(1, scenario.devices)) / replications }

    /// One value per summary column, in column order (`nil` where not
    /// applicable).
    /// `pushPeaks`: the fleet's busiest push seconds, for the all-segments row (nil elsewhere).
    func metrics(
      _ t: SegmentTally, load: SecondStats, fleet: FleetLoad, pushPeaks: (silent: Double, widget: Double)? = nil
    ) -> [Double?] {
      let days = scenario.measuredDays
      let widgetDays = Double(t.widgets) * days
      let deviceDays = Double(t.devices) * days
      func per(_ x: UInt64, _ d: Double) -> Double? { d > 0 ? Double(x) / d : nil }
      func pct(_ x: UInt64, _ of: UInt64) -> Double? { of > 0 ? 100 * Double(x) / Double(of) : nil }
      let reloads = t.budgetedReloads &+ t.freeReloads
      let minutes = 60_000.0
      let staleness = t.staleness
      let firstFrozen = t.firstFrozenTenths
      let firstLimited = t.firstLimitedTenths
      let scale = self.scale
      // One case per metric: the compiler checks that every column has a value.
      return SummaryMetric.allCases.map { metric -> Double? in
        switch metric {
        case .devices: return Double(t.devices) / replications
        case .widgets: return Double(t.widgets) / replications
        case .widgetDays: return widgetDays / replications
        case .glances: return Double(t.glances) / replications
        case .freshGlancePct: return pct(t.freshGlances, t.glances)
        case .acceptableGlancePct: return pct(t.acceptableGlances, t.glances)
        case .stalenessMeanMin:
          return t.glancesWithData > 0 ? Double(t.staleSumMs) / Double(t.glancesWithData) / minutes : nil
        case .stalenessP50Min: return t.glancesWithData > 0 ? staleness.quantile(0.50) / minutes : nil
        case .stalenessP95Min: return t.glancesWithData > 0 ? staleness.quantile(0.95) / minutes : nil
        case .stalenessP99Min: return t.glancesWithData > 0 ? staleness.quantile(0.99) / minutes : nil
        case .budgetedReloadsPerWidgetDay: return per(t.budgetedReloads, widgetDays)
        case .freeReloadsPerWidgetDay: return per(t.freeReloads, widgetDays)
        case .wastedReloadPct: return pct(t.wastedReloads, reloads)
        case .frozenWidgetDayPct:
          return t.measuredLocalWidgetDays > 0
            ? 100 * Double(t.frozenWidgetDays) / Double(t.measuredLocalWidgetDays) : nil
        case .frozenHoursPerWidgetDay: return widgetDays > 0 ? Double(t.frozenMs) / 3_600_000 / widgetDays : nil
        case .firstFrozenHourMedian:
          return firstFrozen.contains { $0 > 0 } ? tenthsQuantile(firstFrozen, 0.5) : nil
        case .budgetLimitedWidgetDayPct: return pct(t.limitedWidgetDays, t.measuredLocalWidgetDays)
        case .budgetLimitedRequestPct: return pct(t.withheldRequests, t.budgetRequests)
        case .budgetLimitedHoursPerWidgetDay:
          return widgetDays > 0 ? Double(t.limitedMs) / 3_600_000 / widgetDays : nil
        case .firstBudgetLimitedHourMedian:
          return firstLimited.contains { $0 > 0 } ? tenthsQuantile(firstLimited, 0.5) : nil
        case .extensionLaunchesPerWidgetDay: return per(reloads, widgetDays)
        case .appWakesPerDeviceDay: return per(t.appWakes, deviceDays)
        case .silentPushesSent: return Double(t.funnel.silentPushesSent) / replications
        case .silentPushesDeliveredPct: return pct(t.funnel.silentPushesDelivered, t.funnel.silentPushesSent)
        case .bgRefreshRunsPerDeviceDay: return per(t.funnel.bgRefreshRuns, deviceDays)
        case .backendRequestsPerWidgetDay: return per(t.backendRequests, widgetDays)
        case .backendPeakRps: return Double(load.peak) * scale
        case .energyMjPerDeviceDay:
          let fetchCost = Double(t.backendRequests) * scenario.energy.fetchMillijoules
          let energy =
            Double(reloads) * scenario.energy.extensionLaunchMillijoules + Double(t.appWakes)
            * scenario.energy.appWakeMillijoules + fetchCost
          return deviceDays > 0 ? energy / deviceDays : nil
        case .staleGlanceStalenessMeanMin:
          return t.staleGlances > 0 ? Double(t.staleSumMs) / Double(t.staleGlances) / minutes : nil
        case .reloadsPerWidgetDay: return per(reloads, widgetDays)
        case .withheldRequestsPerWidgetDay: return per(t.withheldRequests, widgetDays)
        case .dataChangesPerWidgetDay: return per(t.dataChanges, widgetDays)
        case .widgetPushesSent: return Double(t.funnel.widgetPushesSent) / replications
        case .widgetPushesAcceptedPct: return pct(t.funnel.widgetPushesAccepted, t.funnel.widgetPushesSent)
        case .backendMeanRps:
          let seconds = Double(load.seconds)
          return seconds > 0 ? Double(t.backendRequests) / seconds * scale : nil
        case .backendPeakMinuteRps: return Double(load.peakMinuteSum) / 60 * scale
        case .eventsPerWidgetDay: return per(t.events, widgetDays)
        case .placeholderGlancePct: return pct(t.placeholderGlances, t.glances)
        case .changedReloadPct: return pct(t.changedBudgetedReloads, t.budgetedReloads)
        case .backendFleetPeakRps: return fleet.peakSecond
        case .backendFleetPeakLowRps: return fleet.peakSecondLow
        case .backendFleetPeakHighRps: return fleet.peakSecondHigh
        case .backendFleetPeakMinuteRps: return fleet.peakMinute
        case .backendFleetPeakMinuteLowRps: return fleet.peakMinuteLow
        case .backendFleetPeakMinuteHighRps: return fleet.peakMinuteHigh
        case .silentPushesPerFleetDay: return days > 0 ? Double(t.funnel.silentPushesSent) * scale / days : nil
        case .widgetPushesPerFleetDay: return days > 0 ? Double(t.funnel.widgetPushesSent) * scale / days : nil
        case .silentPushFleetPeakPerS: return pushPeaks?.silent
        case .widgetPushFleetPeakPerS: return pushPeaks?.widget
        }
      }
    }

    /// The values of a widget kind's row, from its tally
    /// (`SegmentTally.kind(_:)`): `metrics`' values of the metrics that
    /// have one per kind (`SummaryMetric.perKind`), nil for the others.
    func kindMetrics(_ t: SegmentTally) -> [Double?] {
      let values = metrics(t, load: SecondStats(), fleet: .zero)
      return SummaryMetric.allCases.map { $0.perKind ? values[$0.rawValue] : nil }
    }

    func series(_ name: String, _ tally: StrategyTally, all: SegmentTally, load: SecondStats) -> StrategySeries {
      let width = all.budgetLeftWidth
      let budgetLeft = all.budgetLeft
      let firstFrozen = all.firstFrozenTenths
      let staleness = all.staleness
      let bands = (0..<24).map { h -> QuantileBand in
        let counts = Array(budgetLeft[(h * width)..<((h + 1) * width)])
        return QuantileBand(
          p10: countsQuantile(counts, 0.1), p50: countsQuantile(counts, 0.5), p90: countsQuantile(counts, 0.9))
      }
      let peak = Double(load.peak) * scale
      let peakIndex = load.peakIndex
      let s = tally.series
      let widgets = Double(all.widgets)
      var hourly = HourlySeries()
      // One case per series: the compiler checks that every series has values.
      for m in HourlyMetric.allCases {
        func counts(_ f: SeriesTally.Field) -> [Double] { s.values(f).map { Double($0) } }
        switch m {
        case .budgetedReloads: hourly[m] = counts(.budgetedReloads)
        case .freeReloads: hourly[m] = counts(.freeReloads)
        case .glances: hourly[m] = counts(.glances)
        case .staleGlances: hourly[m] = counts(.staleGlances)
        case .widgetsFrozenPct:
          hourly[m] = s.values(.frozenMs).map { widgets > 0 ? 100 * Double($0) / (widgets * 3_600_000) : 0 }
        case .backendRps: hourly[m] = s.values(.backendRequests).map { Double($0) / 3600 * scale }
        case .backendPeakRps: hourly[m] = load.hourPeaks.map { Double($0) * scale }
        case .silentPushesSent: hourly[m] = counts(.silentPushesSent)
        case .silentPushesDelivered: hourly[m] = counts(.silentPushesDelivered)
        }
      }
      // The distribution for charts and staleness.csv: fresh glances (0),
      // then buckets 1/8 of an octave wide (the histogram's 1/32, merged
      // four by four): a CDF to 12.5 %, at a fifth of the rows.
      var buckets: [DistributionBucket] = []
      var cumulative: UInt64 = 0
      let total = staleness.count
      var pending: (upper: UInt64, count: UInt64)? = nil
      func flush() {
        guard let p = pending else { return }
        cumulative += p.count
        buckets.append(
          DistributionBucket(
            upperMinutes: Double(p.upper) / 60_000, count: p.count,
            cumulativePct: total > 0 ? 100 * Double(cumulative) / Double(total) : 0))
        pending = nil
      }
      var group = -1
      for i in 0..<LogHistogram.bucketCount {
        let c = staleness.count(inBucket: i)
        guard c > 0 else { continue }
        if i == 0 {
          cumulative += c
          buckets.append(
            DistributionBucket(
              upperMinutes: 0, count: c, cumulativePct: total > 0 ? 100 * Double(cumulative) / Double(total) : 0))
          continue
        }
        let g = i < 64 ? -2 - i : (i - 64) / 4
        if g != group { flush() }
        group = g
        let upper = i < 64 ? LogHistogram.upperBound(of: i) : LogHistogram.upperBound(of: 64 + g * 4 + 3)
        pending = (upper, (pending?.count ?? 0) + c)
      }
      flush()
      let frozen: QuantileBand? =
        firstFrozen.contains { $0 > 0 }
        ? QuantileBand(
          p10: tenthsQuantile(firstFrozen, 0.1), p50: tenthsQuantile(firstFrozen, 0.5),
          p90: tenthsQuantile(firstFrozen, 0.9)) : nil
      var funnel = all.funnel
      funnel.silentPushesSent /= UInt64(replications)
      funnel.silentPushesDelivered /= UInt64(replications)
      funnel.silentPushReloads /= UInt64(replications)
      funnel.bgRefreshRequested /= UInt64(replications)
      funnel.bgRefreshRuns /= UInt64(replications)
      funnel.bgRefreshReloads /= UInt64(replications)
      funnel.widgetPushesSent /= UInt64(replications)
      funnel.widgetPushesAccepted /= UInt64(replications)
      funnel.widgetPushReloads /= UInt64(replications)
      return StrategySeries(
        strategy: name, budgetLeftByLocalHour: bands, glancesByLocalHour: all.glancesByLocalHour,
        staleGlancesByLocalHour: all.staleByLocalHour, hourly: hourly, staleness: buckets, funnel: funnel,
        backendPeakHour: Double(peakIndex) / 3600, backendPeakRps: peak, firstFrozenHour: frozen)
    }
  }

  /// Quantile of a histogram with one bin per integer value.
  static func countsQuantile(_ counts: [UInt64], _ q: Double) -> Double {
    let total = counts.reduce(0, &+)
    if total == 0 { return 0 }
    let target = q * Double(total)
    var seen = 0.0
    for (v, c) in counts.enumerated() {
      seen += Double(c)
      if seen >= target && c > 0 { return Double(v) }
    }
    return Double(counts.count - 1)
  }

  /// Quantile (in hours) of the first-frozen-hour histogram (tenths of an hour),
  /// interpolated within the bin.
  static func tenthsQuantile(_ counts: [UInt64], _ q: Double) -> Double {
    let total = counts.reduce(0, &+)
    if total == 0 { return 0 }
    let target = q * Double(total)
    var seen = 0.0
    for (bin, c) in counts.enumerated() where c > 0 {
      if seen + Double(c) >= target {
        return (Double(bin) + (target - seen) / Double(c)) / 10
      }
      seen += Double(c)
    }
    return 24
  }

  /// The largest of `sums[i + 1] - sums[i]` for `i` in `from..<to`
  /// (NOTE: for performance: a branch-free pass the compiler vectorises).
  static func busiestDifference(_ sums: UnsafeMutableBufferPointer<UInt32>, from: Int, to: Int) -> UInt32 {
    var most: UInt32 = 0
    for i in from..<to { most = Swift.max(most, sums[i + 1] &- sums[i]) }
    return most
  }

  /// Busiest second, busiest minute and busiest second of each hour of a
  /// per-second series.
  package struct SecondStats {
    package var seconds = 0
    package var peak: UInt32 = 0
    package var peakIndex = 0
    package var peakMinuteSum: UInt64 = 0
    package var hourPeaks: [UInt32] = []

    package init() {}

    /// The statistics of each block and, last, of their sum (no merged copy
    /// of the blocks is made). Each series is read through its running
    /// sums (32 bits, wrapping, as `FleetLoad.estimate` reads them), which
    /// are handed to `each` (the series' index, the sums) before the next
    /// series is summed; a series with no request is neither summed nor
    /// handed over.
    /// NOTE: for performance (with the fleet estimates, the report phase):
    /// one pass over each block writes its running sums and finds each
    /// hour's busiest second; a minute's requests are a difference of two
    /// running sums, and the sum's running sums are the blocks' added up.
    static package func compute(
      _ blocks: [CounterBlock<UInt32>], scratch: Scratch,
      each: (Int, UnsafeBufferPointer<UInt32>) -> Void = { _, _ in }
    ) -> [SecondStats] {
      let n = blocks.map(\.count).min() ?? 0
      let k = blocks.count
      let hours = (n + 3599) / 3600
      var out = [SecondStats](repeating: SecondStats(), count: k + 1)
      for j in 0...k {
        out[j].seconds = n
        out[j].hourPeaks.reserveCapacity(hours)
      }
      // Over the segments, each minute's requests and the sum of each
      // hour's busiest seconds (a bound on the sum's busiest second).
      var allMinutes = [UInt64](repeating: 0, count: (n + 59) / 60)
      var allBound = [UInt64](repeating: 0, count: hours)
      var summed = 0
      scratch.with(count: 2 * (n + 1)) { buffer in
        let prefix = UnsafeMutableBufferPointer(rebasing: buffer[0...n])
        let all = UnsafeMutableBufferPointer(rebasing: buffer[(n + 1)...])
        for j in 0..<k {
          blocks[j].withUnsafeBufferPointer { block in
            let series = UnsafeBufferPointer(rebasing: block[0..<n])
            guard series.contains(where: { $0 > 0 }) else {
              out[j].hourPeaks = [UInt32](repeating: 0, count: hours)
              return
            }
            var sum: UInt32 = 0
            prefix[0] = 0
            for hour in 0..<hours {
              let start = hour * 3600
              let end = Swift.min(n, start + 3600)
              var busiest: UInt32 = 0
              for i in start..<end {
                let v = series[i]
                sum &+= v
                prefix[i + 1] = sum
                busiest = Swift.max(busiest, v)
              }
              allBound[hour] &+= UInt64(busiest)
              // A minute's requests are a difference of running sums when
              // it cannot hold 2^32 of them.
              let exact = busiest <= UInt32.max / 60
              for minute in stride(from: start, to: end, by: 60) {
                let next = Swift.min(end, minute + 60)
                let requests =
                  exact
                  ? UInt64(prefix[next] &- prefix[minute])
                  : series[minute..<next].reduce(0) { $0 &+ UInt64($1) }
                out[j].peakMinuteSum = Swift.max(out[j].peakMinuteSum, requests)
                allMinutes[minute / 60] &+= requests
              }
              if busiest > out[j].peak {
                out[j].peak = busiest
                // `busiest` is the largest of these seconds, so it is among them.
                out[j].peakIndex = series[start..<end].firstIndex(of: busiest) ?? start
              }
              out[j].hourPeaks.append(busiest)
            }
            if summed == 0 {
              _ = all.update(fromContentsOf: prefix)
            } else {
              for i in 0...n { all[i] &+= prefix[i] }
            }
            summed += 1
            each(j, UnsafeBufferPointer(prefix))
          }
        }
        guard summed > 0 else {
          out[k].hourPeaks = [UInt32](repeating: 0, count: hours)
          return
        }
        out[k].peakMinuteSum = allMinutes.max() ?? 0
        for hour in 0..<hours {
          let start = hour * 3600
          let end = Swift.min(n, start + 3600)
          // The sum's seconds, from its running sums when no second of the
          // hour can hold 2^32 requests, else added up from the blocks.
          let exact = allBound[hour] <= UInt64(UInt32.max)
          let total = { (i: Int) -> UInt64 in
            exact ? UInt64(all[i + 1] &- all[i]) : blocks.reduce(0) { $0 &+ UInt64($1.value(at: i)) }
          }
          var busiest: UInt64 = 0
          if exact {
            busiest = UInt64(busiestDifference(all, from: start, to: end))
          } else {
            for i in start..<end { busiest = Swift.max(busiest, total(i)) }
          }
          let peak = UInt32(truncatingIfNeeded: busiest)
          if peak > out[k].peak {
            out[k].peak = peak
            out[k].peakIndex = (start..<end).first { total($0) == busiest }!
          }
          out[k].hourPeaks.append(peak)
        }
        each(k, UnsafeBufferPointer(all))
      }
      return out
    }
  }
}

/// One slot per strategy, filled by concurrent workers.
final class _StrategyParts: Sendable {
  private let slots: Mutex<[ResultsBuilder.StrategyPart?]>
  init(count: Int) { slots = Mutex(Array(repeating: nil, count: count)) }
  func set(_ i: Int, _ part: ResultsBuilder.StrategyPart) {
    slots.withLock { $0[i] = part }
  }
  var values: [ResultsBuilder.StrategyPart] { slots.withLock { $0.map { $0! } } }
}
