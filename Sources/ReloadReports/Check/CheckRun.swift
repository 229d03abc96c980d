import ReloadMetrics

/// What `reloadbench check` found, for every scenario it checked: the view
/// model that the Markdown, JUnit and JSON renderers of `CheckReport` read.
public struct CheckRun: Sendable {
  public var toolVersion: String
  public var modelVersion: String
  public var scenarios: [ScenarioCheck]
  /// `--min-agreement`: at least this many evidence claims must agree.
  public var minAgreement: Int?

  /// Scenarios left out (`--skip-unchecked`), one line each with how to check them.
  public var skipped: [String]

  public init(
    toolVersion: String, modelVersion: String, scenarios: [ScenarioCheck], minAgreement: Int? = nil,
    skipped: [String] = []
  ) {
    self.skipped = skipped
    self.toolVersion = toolVersion
    self.modelVersion = modelVersion
    self.scenarios = scenarios
    self.minAgreement = minAgreement
  }

  /// Every evidence claim of every scenario, in order.
  public var evidence: [EvidenceResult] { scenarios.flatMap(\.evidence) }
  /// How many evidence claims agree with the runs.
  public var agreeing: Int { evidence.filter(\.agrees).count }
  /// Fewer claims agree than `--min-agreement` asks.
  public var agreementTooLow: Bool { minAgreement.map { agreeing < $0 } ?? false }

  /// Every expectation holds, no metric regressed, in every scenario, and
  /// enough evidence agrees.
  public var passed: Bool { scenarios.allSatisfy(\.passed) && !agreementTooLow }
}

/// The check of one scenario: its expectations and its metrics against
/// the baseline.
public struct ScenarioCheck: Sendable {
  /// Where the baseline came from, as stored in the baseline file.
  public struct Baseline: Sendable, Equatable {
    public var file: String
    public var toolVersion: String
    public var modelVersion: String
    /// How the scenario changed since the baseline was saved, one line (nil: it did not).
    public var scenarioChange: String?
    public init(file: String, toolVersion: String, modelVersion: String, scenarioChange: String? = nil) {
      self.file = file
      self.toolVersion = toolVersion
      self.modelVersion = modelVersion
      self.scenarioChange = scenarioChange
    }
  }

  public var scenario: String
  public var file: String
  public var scenarioSHA256: String
  public var seed: UInt64
  public var replications: Int
  /// Strategy and segment names in scenario order (rows are grouped by them).
  public var strategies: [String]
  public var segments: [String]
  /// nil when only expectations were checked.
  public var baseline: Baseline?
  /// Which tolerances applied, in a few words.
  public var toleranceSource: String
  /// Improved and changed metrics fail the check too (`--fail-on-change`).
  public var failOnChange: Bool
  public var comparisons: [MetricComparison]
  public var expectations: [ExpectationResult]
  /// The scenario's evidence claims, scored (they do not fail the check by
  /// themselves: `CheckRun.minAgreement` does).
  public var evidence: [EvidenceResult]
  /// Things the reader should know: rows or columns not compared, no baseline.
  public var notes: [String]
  /// Wall time of the run, for JUnit's `time`.
  public var seconds: Double
  /// The run's summary (every strategy and segment), for the headline
  /// table; nil when not at hand.
  public var summary: ResultTable?

  public init(
    scenario: String, file: String, scenarioSHA256: String, seed: UInt64, replications: Int, strategies: [String],
    segments: [String], baseline: Baseline?, toleranceSource: String, failOnChange: Bool,
    comparisons: [MetricComparison], expectations: [ExpectationResult], evidence: [EvidenceResult] = [],
    notes: [String], seconds: Double, summary: ResultTable? = nil
  ) {
    self.summary = summary
    self.scenario = scenario
    self.file = file
    self.scenarioSHA256 = scenarioSHA256
    self.seed = seed
    self.replications = replications
    self.strategies = strategies
    self.segments = segments
    self.baseline = baseline
    self.toleranceSource = toleranceSource
    self.failOnChange = failOnChange
    self.comparisons = comparisons
    self.expectations = expectations
    self.evidence = evidence
    self.notes = notes
    self.seconds = seconds
  }

  /// `true` when `c` fails the check: a regression, or with
  /// `failOnChange` any move beyond the allowance.
  public func fails(_ c: MetricComparison) -> Bool {
    c.verdict == .regressed || (failOnChange && c.verdict != .unchanged)
  }

  public var failedExpectations: [ExpectationResult] { expectations.filter { $0.verdict == .failed } }
  public var failedMetrics: [MetricComparison] { comparisons.filter(fails) }
  public var passed: Bool { failedExpectations.isEmpty && failedMetrics.isEmpty }

  public func count(_ verdict: ChangeVerdict) -> Int { comparisons.reduce(0) { $0 + ($1.verdict == verdict ? 1 : 0) } }

  /// Comparisons in reading order: failures first, then by verdict, then
  /// grouped by strategy and segment (`all` before the segments), then in
  /// column order.
  public var comparisonsInReadingOrder: [MetricComparison] {
    let rank: [ChangeVerdict: Int] = [.regressed: 0, .changed: 2, .improved: 1, .unchanged: 3]
    var strategyIndex: [String: Int] = [:]
    for (i, s) in strategies.enumerated() { strategyIndex[s] = i }
    var segmentIndex: [String: Int] = ["all": -1]
    for (i, s) in segments.enumerated() { segmentIndex[s] = i }
    var columnIndex: [String: Int] = [:]
    for (i, m) in SummaryMetrics.all.enumerated() { columnIndex[m.name] = i }
    func key(_ c: MetricComparison) -> [Int] {
      [
        fails(c) ? 0 : 1, rank[c.verdict] ?? 9, strategyIndex[c.strategy] ?? Int.max,
        segmentIndex[c.segment] ?? Int.max,
        columnIndex[c.metric.name] ?? Int.max,
      ]
    }
    return comparisons.enumerated().sorted { a, b in
      let ka = key(a.element)
      let kb = key(b.element)
      return ka == kb ? a.offset < b.offset : ka.lexicographicallyPrecedes(kb)
    }.map(\.element)
  }

  /// Expectation results in reading order: failed, not applicable, holds.
  public var expectationsInReadingOrder: [ExpectationResult] {
    let rank: [ExpectationResult.Verdict: Int] = [.failed: 0, .notApplicable: 1, .holds: 2]
    return expectations.enumerated().sorted { a, b in
      let ra = rank[a.element.verdict] ?? 9
      let rb = rank[b.element.verdict] ?? 9
      return ra == rb ? a.offset < b.offset : ra < rb
    }.map(\.element)
  }
}
