import ReloadMetrics

/// `reloadbench compare BASE NEW`: two runs of a scenario side by side, for
/// a pull request's description and a planning meeting. The headline
/// figures of every strategy, before and after, with each change judged
/// against its noise band (the check's tolerance, or the 95 % interval of
/// the difference when both runs have replications); what else moved; and
/// how the scenario itself changed.
package struct CompareReport {
  package var baseName: String
  package var newName: String
  /// The scenario's fields that changed, one line (nil: the same scenario, or unknown).
  package var scenarioChange: String?
  package var comparisons: [MetricComparison]
  package var notes: [String]
  package var toolVersion: String

  package init(
    baseName: String, newName: String, scenarioChange: String?, comparisons: [MetricComparison], notes: [String],
    toolVersion: String
  ) {
    self.baseName = baseName
    self.newName = newName
    self.scenarioChange = scenarioChange
    self.comparisons = comparisons
    self.notes = notes
    self.toolVersion = toolVersion
  }

  /// The headline metrics, in catalogue order, with a comparison.
  var headlines: [Metric] {
    var seen: Set<String> = []
    return comparisons.map(\.metric).filter { $0.headline && seen.insert($0.name).inserted }
  }

  /// The strategies, in the new run's order.
  var strategies: [String] {
    var seen: Set<String> = []
    return comparisons.map(\.strategy).filter { seen.insert($0).inserted }
  }

  func comparison(_ strategy: String, _ metric: Metric) -> MetricComparison? {
    comparisons.first { $0.strategy == strategy && $0.segment == "all" && $0.metric.name == metric.name }
  }

  static func mark(_ c: MetricComparison) -> String {
    switch c.verdict {
    case .regressed: return "worse"
    case .improved: return "better"
    case .changed: return "changed"
    case .unchanged: return "within noise"
    }
  }

  /// One cell: `83.77 → 80.28 ❌ -3.48 pts` when it moved beyond its noise
  /// band, `53.07` when it did not move, `53.07 → 53.10` inside the band.
  /// `inWords`: `83.77 → 80.28 (-3.48 pts, worse)`, for a page whose fonts
  /// may lack the marks.
  static func cell(_ c: MetricComparison, inWords: Bool = false) -> String {
    let (b, n) = CheckReport.values(c.baseline, c.now, decimals: c.metric.decimals)
    let change = CheckReport.change(c)
    switch c.verdict {
    case .unchanged: return b == n ? n : "\(b) → \(n)"
    case .regressed: return inWords ? "\(b) → \(n) (\(change), worse)" : "\(b) → \(n) ❌ \(change)"
    case .improved: return inWords ? "\(b) → \(n) (\(change), better)" : "\(b) → \(n) ✅ \(change)"
    case .changed: return "\(b) → \(n) (\(change))"
    }
  }

  package func markdown() -> String {
    var out = "## ReloadBench compare: \(CheckReport.cell(baseName)) → \(CheckReport.cell(newName))\n\n"
    if let change = scenarioChange { out += "**Changed scenario:** \(CheckReport.cell(change)).\n\n" }
    let metrics = headlines
    out += "| strategy | " + metrics.map { CheckReport.cell($0.label) }.joined(separator: " | ") + " |\n"
    out += "|---|" + String(repeating: "--:|", count: metrics.count) + "\n"
    for s in strategies {
      let cells = metrics.map { m in comparison(s, m).map { Self.cell($0) } ?? "–" }
      out += "| \(CheckReport.cell(s)) | " + cells.joined(separator: " | ") + " |\n"
    }
    out += "\nAll segments. Each cell: before → now; ❌ worse or ✅ better beyond its noise band (the move a rerun "
    out += "could make by chance: the 95 % interval of the difference with replications, else the check's "
    out += "tolerance); a single value did not move.\n\n**Every metric**: " + CheckReport.movedTable(comparisons) + "\n"
    for note in notes { out += "- \(CheckReport.cell(note))\n" }
    return out
  }
}
