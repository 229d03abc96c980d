import ReloadMetrics

/// Small hand-made results for report tests: no simulation, every field
/// filled, values chosen so the best of each column is known.
enum ReportFixtures {
  /// `results` with `recommendation` and `findings` as their conclusions.
  static func concluded(
    _ results: ScenarioResults, _ recommendation: Recommendation?, findings: [String] = []
  ) -> ScenarioResults {
    var r = results
    r.conclusions = Conclusions(findings: findings, recommendation: recommendation)
    return r
  }

  /// A script tag: must come out as text, never as markup.
  static let hostile = "<script>alert(1)</script>"

  /// Results for `strategies` on `segments`.
  ///
  /// Strategy `i` has fresh glances `40 + 10 i` % (the last is freshest)
  /// and budgeted reloads `5 + 10 i` per widget-day (the first is cheapest);
  /// free reloads are neutral and equal to `i`.
  static func results(
    scenario: String = "fixture", description: String = "A hand-made scenario for tests.",
    strategies: [String] = ["alpha", "beta", "gamma"], segments: [String] = ["commuters", "night-owls"],
    parameterValue: String = "70 reloads per 24 h", columns: [Metric] = SummaryMetrics.all
  ) -> ScenarioResults {
    var facts = RunFacts(
      scenario: scenario, description: description, toolVersion: "0.0-test", seed: 7, days: 3, warmupDays: 1,
      devices: 120, widgets: 150, fleetDevices: 100_000, replications: 1, strategies: strategies,
      segments: segments,
      toleranceMinutes: 30)
    facts.threads = 2
    facts.events = 1_234_567
    facts.wallSeconds = 0.5
    facts.phaseSeconds = ["simulation": 0.4, "setup": 0.0001]
    let parameters = [
      ParameterFact(
        path: "model.budget.max_per_day", value: parameterValue, source: "A, S",
        note: "default: B for a frequently seen widget."),
      ParameterFact(
        path: "model.budget.accrual", value: "sliding_window", source: "assumed",
        note: "set in scenario: `sliding_window` or `token_bucket`."),
      ParameterFact(
        path: "model.silent_push.rate_per_hour", value: "3 per hour", source: "A, T",
        note: "default: Apple: two or three per hour."),
      ParameterFact(
        path: "energy.fetch_mj", value: "40 millijoules", source: "M (direction), value assumed",
        note: "default: Per backend request."),
    ]
    var rows: [ResultRow] = []
    for segment in segments + ["all"] {
      for (i, name) in strategies.enumerated() {
        rows.append(ResultRow(scenario: scenario, strategy: name, segment: segment, values: values(i, columns)))
      }
    }
    let series = strategies.enumerated().map { i, name in self.series(name, index: i) }
    return ScenarioResults(
      facts: facts, parameters: parameters, summary: ResultTable(columns: columns, rows: rows), series: series
    )
  }

  static func values(_ i: Int, _ columns: [Metric]) -> [Double?] {
    let d = Double(i)
    return columns.map { m -> Double? in
      switch m.name {
      case "fresh_glance_pct": return 40 + 10 * d
      case "acceptable_glance_pct": return 60 + 10 * d
      case "budgeted_reloads_per_widget_day": return 5 + 10 * d
      case "backend_requests_per_widget_day": return 8 + 12 * d
      case "free_reloads_per_widget_day": return d
      case "staleness_mean_min": return 50 - 5 * d
      case "staleness_p95_min": return 300 - 20 * d
      case "first_frozen_hour_median": return i == 0 ? nil : 14 + d
      case "backend_peak_rps": return 1000 * (d + 1)
      default: return d + 0.5
      }
    }
  }

  static func series(_ name: String, index i: Int) -> StrategySeries {
    let d = Double(i)
    var hourly = HourlySeries()
    let hours = (0..<48).map(Double.init)
    for m in HourlyMetric.allCases {
      switch m {
      case .budgetedReloads: hourly[m] = hours.map { 10 + $0 }
      case .freeReloads: hourly[m] = hours.map { $0.truncatingRemainder(dividingBy: 3) }
      case .glances: hourly[m] = hours.map { 100 + $0 }
      case .staleGlances: hourly[m] = hours.map { _ in 10 + d * 5 }
      case .widgetsFrozenPct: hourly[m] = hours.map { $0.truncatingRemainder(dividingBy: 5) }
      case .backendRps: hourly[m] = hours.map { 20 * (d + 1) + $0.truncatingRemainder(dividingBy: 24) }
      case .backendPeakRps: hourly[m] = hours.map { 200 * (d + 1) + $0 }
      case .silentPushesSent: hourly[m] = hours
      case .silentPushesDelivered: hourly[m] = hours.map { ($0 / 2).rounded(.down) }
      }
    }
    var funnel = WakeFunnel()
    if i == 1 {
      funnel.silentPushesSent = 1000
      funnel.silentPushesDelivered = 800
      funnel.silentPushReloads = 790
    }
    if i == 2 {
      funnel.bgRefreshRequested = 500
      funnel.bgRefreshRuns = 450
      funnel.bgRefreshReloads = 600
    }
    let staleness =
      [0, 0.5, 2, 10, 30, 120, 600, 1440].enumerated().map { k, upper in
        DistributionBucket(
          upperMinutes: upper, count: UInt64(10 + k), cumulativePct: min(100, 40 + 10 * d + Double(k) * 9))
      } + [DistributionBucket(upperMinutes: 2880, count: 1, cumulativePct: 100)]
    return StrategySeries(
      strategy: name,
      // p90 of the first hour is infinite: the embedded JSON must carry it as "inf".
      budgetLeftByLocalHour: (0..<24).map { h in
        QuantileBand(p10: Double(20 - h / 2), p50: 40 - d, p90: h == 0 && i == 0 ? .infinity : 60)
      },
      glancesByLocalHour: (0..<24).map { h in h < 6 && h > 0 ? 0 : UInt64(100 + h) },
      staleGlancesByLocalHour: (0..<24).map { h in h < 6 && h > 0 ? 0 : UInt64(10 + h + i * 10) },
      hourly: hourly, staleness: staleness, funnel: funnel, backendPeakHour: 5.5 + d,
      backendPeakRps: 1000 * (d + 1), firstFrozenHour: i == 0 ? nil : QuantileBand(p10: 10, p50: 14, p90: 18))
  }

  /// Strategy names for a crowded chart.
  static let twelve = [
    "poll-15m", "poll-30m", "poll-60m", "future-entries", "silent-push", "bg-refresh",
    "hybrid", "on-demand", "anti-pattern-now", "widget-push", "poll-5m", "adaptive",
  ]
}
