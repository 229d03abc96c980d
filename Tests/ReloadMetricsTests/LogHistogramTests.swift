import ReloadEngine
import ReloadMetrics
import Testing

@Suite struct LogHistogramTests {
  @Test func bucketsTileTheNumberLineWithBoundedWidth() {
    var previousUpper: UInt64 = 0
    for b in 0..<(LogHistogram.bucketCount - 1) {
      let lo = LogHistogram.lowerBound(of: b)
      let hi = LogHistogram.upperBound(of: b)
      #expect(lo == previousUpper, "bucket \(b) starts where the previous ends")
      #expect(LogHistogram.bucket(of: lo) == b && LogHistogram.bucket(of: hi - 1) == b)
      if lo >= 64 { #expect(Double(hi - lo) / Double(lo) <= 1.0 / 32 + 1e-12) }
      previousUpper = hi
    }
  }

  /// Quantiles against the exact order statistics, over many seeds.
  @Test func quantilesAreWithinTheBucketPrecision() {
    for seed in UInt64(0)..<40 {
      var rng = Xoshiro256StarStar(seed: seed)
      var h = LogHistogram()
      var values: [UInt64] = []
      for _ in 0..<2000 {
        let v = UInt64(rng.nextStandardExponential() * 3_600_000)
        values.append(v)
        h.record(v)
      }
      values.sort()
      for q in [0.5, 0.9, 0.95, 0.99] {
        let exact = Double(values[Int((q * Double(values.count)).rounded(.up)) - 1])
        #expect(abs(h.quantile(q) - exact) <= exact / 32 + 1, "seed \(seed) q \(q)")
      }
      #expect(h.count == 2000 && h.sum == values.reduce(0, +))
    }
  }

  @Test func mergingInAnyOrderGivesTheSameHistogram() {
    var rng = Xoshiro256StarStar(seed: 9)
    var parts = (0..<5).map { _ in LogHistogram() }
    var whole = LogHistogram()
    for i in 0..<10_000 {
      let v = UInt64(rng.nextIndex(below: 1 << 30))
      parts[i % 5].record(v)
      whole.record(v)
    }
    var forward = LogHistogram()
    for p in parts { forward.merge(p) }
    var backward = LogHistogram()
    for p in parts.reversed() { backward.merge(p) }
    #expect(forward == whole && backward == whole)
    #expect(LogHistogram(counts: (0..<LogHistogram.bucketCount).map { whole.count(inBucket: $0) }, sum: whole.sum) == whole)
  }

  @Test func fractionAtOrBelowIsExactAtBucketBounds() {
    var h = LogHistogram()
    for v: UInt64 in [0, 0, 10, 100, 1000] { h.record(v) }
    #expect(h.fraction(atOrBelow: 0) == 0.4)
    #expect(h.fraction(atOrBelow: 10) == 0.6)
    #expect(h.quantile(0.4) == 0)
  }
}

@Suite struct CounterBlockTests {
  @Test func copiesAreIndependentAndAddingMerges() {
    let a = CounterBlock<UInt64>(count: 5)
    a[1] = 3
    let b = a.copy()
    b.increment(1)
    #expect(a[1] == 3 && b[1] == 4)
    a.add(b)
    #expect(a.values(0..<5) == [0, 7, 0, 0, 0])
    #expect(a.max(in: 0..<5)! == (index: 1, value: 7))
    // A writer increments the block it came from, wrapping like `&+=`.
    let w = a.writer
    w.increment(4, by: UInt64.max)
    w.increment(4, by: 2)
    #expect(a[4] == 1 && a.value(at: 1) == 7)
  }
}

@Suite struct StatisticsTests {
  @Test func studentTQuantilesMatchTheTable() {
    #expect(ReplicationSummary.tQuantile975(degreesOfFreedom: 1) == 12.706)
    #expect(ReplicationSummary.tQuantile975(degreesOfFreedom: 9) == 2.262)
    // Beyond the table the expansion stays close to the true values.
    #expect(abs(ReplicationSummary.tQuantile975(degreesOfFreedom: 60) - 2.000) < 0.002)
    #expect(abs(ReplicationSummary.tQuantile975(degreesOfFreedom: 120) - 1.980) < 0.002)
  }

  @Test func halfWidthOfAKnownSample() {
    let s = ReplicationSummary([1, 2, 3, 4, 5])
    #expect(s.mean == 3)
    #expect(abs(s.standardDeviation - 1.5811388) < 1e-6)
    #expect(abs(s.halfWidth95 - 2.776 * 1.5811388 / 5.0.squareRoot()) < 1e-6)
    #expect(ReplicationSummary([7]).halfWidth95 == 0)
  }

  /// Over many simulated experiments, the 95 % interval covers the true
  /// mean about 95 % of the time.
  @Test func intervalsCoverTheTrueMeanAtTheNominalRate() {
    var rng = Xoshiro256StarStar(seed: 4)
    var covered = 0
    let trials = 4000
    for _ in 0..<trials {
      let xs = (0..<5).map { _ in rng.nextStandardNormal() * 2 + 10 }
      let s = ReplicationSummary(xs)
      if abs(s.mean - 10) <= s.halfWidth95 { covered += 1 }
    }
    let rate = Double(covered) / Double(trials)
    #expect(rate > 0.93 && rate < 0.97, "coverage \(rate)")
  }
}

@Suite struct MetricCatalogTests {
  @Test func summaryColumnsStartWithTheDocumentedOrder() {
    let required = [
      "devices", "widgets", "widget_days", "glances", "fresh_glance_pct", "acceptable_glance_pct",
      "staleness_mean_min", "staleness_p50_min", "staleness_p95_min", "staleness_p99_min",
      "budgeted_reloads_per_widget_day", "free_reloads_per_widget_day", "wasted_reload_pct", "frozen_widget_day_pct",
      "frozen_hours_per_widget_day", "first_frozen_hour_median", "extension_launches_per_widget_day",
      "app_wakes_per_device_day", "silent_pushes_sent", "silent_pushes_delivered_pct",
      "bg_refresh_runs_per_device_day", "backend_requests_per_widget_day", "backend_peak_rps",
      "energy_mj_per_device_day",
    ]
    #expect(Array(SummaryMetrics.all.map(\.name).prefix(required.count)) == required)
    #expect(Set(SummaryMetrics.all.map(\.name)).count == SummaryMetrics.all.count)
  }

  @Test func polarityDecidesWhatIsBetter() {
    #expect(SummaryMetric.freshGlancePct.metric.isBetter(90, than: 80))
    #expect(SummaryMetric.stalenessP95Min.metric.isBetter(5, than: 50))
    #expect(!SummaryMetric.devices.metric.isBetter(2, than: 1))
    let table = ResultTable(rows: [
      ResultRow(scenario: "s", strategy: "a", segment: "all", values: SummaryMetrics.all.map { _ in 1 }),
      ResultRow(scenario: "s", strategy: "b", segment: "all", values: SummaryMetrics.all.map { _ in 2 }),
    ])
    #expect(table.best(.freshGlancePct, among: table.rows) == 2)
    #expect(table.best(.stalenessMeanMin, among: table.rows) == 1)
    #expect(table.best(.devices, among: table.rows) == nil)
  }
}
