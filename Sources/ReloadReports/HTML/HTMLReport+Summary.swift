import ReloadMetrics

/// The headline: the recommendation and why, the findings, the run's facts.
extension HTMLReport {
  static func writeSummary(
    _ results: ScenarioResults, findings: [String], recommendation: Recommendation?, to w: inout _HTMLWriter
  ) {
    w.raw("<section id=\"summary\" aria-labelledby=\"summary-h\"><h2 id=\"summary-h\">Summary</h2>\n")
    if let rec = recommendation {
      w.raw(rec.meetsTarget ? "<div class=\"rec\">" : "<div class=\"rec miss\">")
      w.raw("<p class=\"rec-k\">")
      w.text(rec.meetsTarget ? "Recommended strategy" : "No strategy meets the target; closest")
      w.raw("</p><p class=\"rec-name\">")
      w.text(rec.strategy)
      w.raw("</p><p class=\"rec-why\">")
      w.text(
        (rec.meetsTarget ? "It " : "") + (rec.meetsTarget ? rec.reason : rec.reason.uppercasedFirst) + ".")
      w.raw("</p>")
      if let robustness = results.conclusions?.robustness {
        // Asked for by the scenario's `robustness` block: whether the answer
        // rests on the model's undocumented assumptions.
        w.raw("<p class=\"rec-robust\"><strong>")
        w.text(robustness.robust ? "Robust: " : "Not robust: ")
        w.raw("</strong>")
        w.text(robustness.sentence)
        w.raw("</p>")
      }
      w.raw("</div>\n")
    } else {
      w.raw("<p>No recommendation: no strategy has glances to judge its freshness by.</p>\n")
    }
    if !findings.isEmpty {
      w.raw("<h3>Findings</h3><ul class=\"findings\">")
      for sentence in findings {
        w.raw("<li>")
        w.text(sentence)
        w.raw("</li>")
      }
      w.raw("</ul>\n")
    }
    w.raw("</section>\n")
  }

  /// The run's facts and engine statistics, at the end of the page: the
  /// answer and the comparison come first.
  static func writeRun(_ results: ScenarioResults, to w: inout _HTMLWriter) {
    w.raw("<section id=\"run\" aria-labelledby=\"run-h\"><h2 id=\"run-h\">The run</h2><dl class=\"facts\">")
    w.factItems(facts(results.facts))
    w.raw("</dl>\n</section>\n")
  }

  /// The run's facts as (term, value) pairs, in reading order.
  static func facts(_ f: RunFacts) -> [(String, String)] {
    func days(_ d: Double) -> String { NumberFormat.trim(NumberFormat.fixed(d, decimals: 2)) }
    let measured = f.wallSeconds > 0
    var out: [(String, String)] = [
      ("Scenario", f.scenario),
      ("Tool version", f.toolVersion),
      ("Seed", String(f.seed)),
      ("Days simulated", days(f.days) + " (" + days(f.warmupDays) + " warm-up, not measured)"),
      ("Devices", NumberFormat.grouped(f.devices)),
      ("Widgets", NumberFormat.grouped(f.widgets)),
      ("Fleet size (backend scaling)", NumberFormat.grouped(Int(f.fleetDevices.rounded()))),
      ("Strategies", String(f.strategies.count)),
      ("Segments", f.segments.isEmpty ? "–" : f.segments.joined(separator: ", ")),
      ("Freshness tolerance", NumberFormat.minutes(f.toleranceMinutes)),
      ("Replications", String(f.replications)),
      ("Events", NumberFormat.short(Double(f.events))),
      ("Events per second", measured ? NumberFormat.short(f.eventsPerSecond) : "–"),
      ("Widget-days per second", measured ? NumberFormat.short(f.widgetDaysPerSecond) : "–"),
      ("Wall time", measured ? NumberFormat.seconds(f.wallSeconds) : "not measured"),
      ("Threads", f.threads > 0 ? String(f.threads) : "–"),
    ]
    for phase in f.phaseSeconds.keys.sorted() {
      out.append(("Time in " + phase, NumberFormat.seconds(f.phaseSeconds[phase] ?? 0)))
    }
    return out
  }
}

extension String {
  /// The string with its first character upper-cased.
  var uppercasedFirst: String {
    guard let first else { return self }
    return first.uppercased() + dropFirst()
  }
}
