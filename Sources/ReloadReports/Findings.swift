import ReloadMetrics

/// Two to four sentences computed from the numbers, never canned: who is
/// freshest and at what cost, who is frozen by the budget and when, what that does to the
/// glances afterwards, and the backend's peak (the highest, the lowest and
/// the `recommended` strategy's, when it is neither).
public enum Findings {
  public static func compute(_ results: ScenarioResults, recommended: String? = nil) -> [String] {
    let table = results.summary
    let rows = table.overallRows
    guard !rows.isEmpty else { return [] }
    func v(_ metric: SummaryMetric, _ row: ResultRow) -> Double { table.value(metric, in: row) ?? .nan }
    var out: [String] = []

    // Freshness is measured at glances: without any, there is nothing to rank.
    let seen = rows.filter { v(.freshGlancePct, $0).isFinite }
    if seen.isEmpty {
      out.append(
        "Nobody glanced at a widget in the measured days, so there is no freshness to compare; only the costs below "
          + "are measured."
      )
    } else {
      let freshest = seen.max { v(.freshGlancePct, $0) < v(.freshGlancePct, $1) }!
      let cheapestFresh = seen.filter { v(.freshGlancePct, $0) >= v(.freshGlancePct, freshest) - 2 }
        .min { v(.budgetedReloadsPerWidgetDay, $0) < v(.budgetedReloadsPerWidgetDay, $1) }!
      out.append(
        "\(freshest.strategy) shows current data at \(pct(v(.freshGlancePct, freshest))) of glances "
          + "(\(NumberFormat.short(v(.budgetedReloadsPerWidgetDay, freshest))) budgeted reloads per widget-day)"
          + (cheapestFresh.strategy != freshest.strategy
            ? "; \(cheapestFresh.strategy) comes within 2 points at "
              + "\(NumberFormat.short(v(.budgetedReloadsPerWidgetDay, cheapestFresh)))."
            : "."))

      let stalest = seen.min { v(.freshGlancePct, $0) < v(.freshGlancePct, $1) }!
      if stalest.strategy != freshest.strategy {
        // "The stalest" with no staleness at the 95th percentile would contradict itself.
        out.append(
          v(.stalenessP95Min, stalest) > 0
            ? "\(stalest.strategy) is the stalest: \(pct(v(.freshGlancePct, stalest))) fresh, p95 staleness "
              + "\(NumberFormat.minutes(v(.stalenessP95Min, stalest)))."
            : "Even the least fresh, \(stalest.strategy), shows current data at \(pct(v(.freshGlancePct, stalest))) "
              + "of glances.")
      }
    }

    // The strategy the budget freezes most often, when, and what follows.
    if let frozen = rows.filter({ v(.frozenWidgetDayPct, $0) >= 10 }).max(by: {
      v(.frozenWidgetDayPct, $0) < v(.frozenWidgetDayPct, $1)
    }),
      let s = results.series(for: frozen.strategy), let hour = s.firstFrozenHour?.p50
    {
      let from = Int(hour.rounded(.up)) % 24
      var glances: UInt64 = 0
      var stale: UInt64 = 0
      for h in from..<24 {
        glances += s.glancesByLocalHour[h]
        stale += s.staleGlancesByLocalHour[h]
      }
      var sentence =
        "The budget freezes \(frozen.strategy) on \(pct(v(.frozenWidgetDayPct, frozen))) of widget-days, from "
        + "\(NumberFormat.clock(hour)) local time on a median frozen day"
      if glances > 0 && from > 0 {
        sentence +=
          "; from \(NumberFormat.clock(Double(from))) to midnight \(pct(100 * Double(stale) / Double(glances))) of "
          + "its glances are stale"
      }
      out.append(sentence + ".")
    }

    // The fleet's busy second (p99.9), not the sample's busiest: see
    // FleetLoad (docs/model.md#fleet-load).
    let peak = rows.max { v(.backendFleetPeakRps, $0) < v(.backendFleetPeakRps, $1) }!
    let low = rows.min { v(.backendFleetPeakRps, $0) < v(.backendFleetPeakRps, $1) }!
    if v(.backendFleetPeakRps, peak) > 0 {
      var sentence =
        "Backend peak (the fleet's busiest 0.1 % of seconds): \(peak.strategy) reaches "
        + "\(NumberFormat.short(v(.backendFleetPeakRps, peak))) requests/s "
        + "(95 %: \(NumberFormat.range(v(.backendFleetPeakLowRps, peak), v(.backendFleetPeakHighRps, peak)))) "
        + "across \(NumberFormat.short(results.facts.fleetDevices)) devices, "
        + "\(NumberFormat.short(v(.backendFleetPeakMinuteRps, peak))) requests/s over a busy minute (95 %: "
        + "\(NumberFormat.range(v(.backendFleetPeakMinuteLowRps, peak), v(.backendFleetPeakMinuteHighRps, peak))))"
      if low.strategy != peak.strategy {
        sentence += "; \(low.strategy) only \(NumberFormat.short(v(.backendFleetPeakRps, low)))"
      }
      if let recommended, recommended != peak.strategy, recommended != low.strategy,
        let rec = rows.first(where: { $0.strategy == recommended })
      {
        sentence +=
          "; the recommended \(rec.strategy) \(NumberFormat.short(v(.backendFleetPeakRps, rec))) "
          + "(95 %: \(NumberFormat.range(v(.backendFleetPeakLowRps, rec), v(.backendFleetPeakHighRps, rec))))"
      }
      out.append(sentence + ".")
    }
    // APNs pushes at fleet scale, silent and WidgetKit apart.
    let pushers = rows.compactMap { row -> String? in
      let silent = v(.silentPushesPerFleetDay, row)
      let widget = v(.widgetPushesPerFleetDay, row)
      var parts: [String] = []
      if silent.isFinite && silent > 0 { parts.append("\(NumberFormat.short(silent)) silent") }
      if widget.isFinite && widget > 0 { parts.append("\(NumberFormat.short(widget)) WidgetKit") }
      return parts.isEmpty ? nil : "\(row.strategy) \(parts.joined(separator: " and "))"
    }
    if !pushers.isEmpty {
      out.append(
        "Pushes a day across \(NumberFormat.short(results.facts.fleetDevices)) devices: "
          + pushers.joined(separator: "; ") + ".")
    }
    return out
  }

  static func pct(_ x: Double) -> String {
    x.isFinite ? NumberFormat.trim(NumberFormat.fixed(x, decimals: x < 10 ? 1 : 0)) + " %" : "–"
  }
}
