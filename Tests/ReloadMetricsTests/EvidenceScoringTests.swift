import ReloadMetrics
import Testing

/// The one scoring rule of `reloadbench check`'s evidence (Scenarios/README.md,
/// "Evidence"): each reported word is one condition on the run's figures.
@Suite struct EvidenceScoringTests {
  /// A table with the two columns the rule reads, one row per strategy.
  static func table(_ rows: [(String, dry: Double?, acceptable: Double?)]) -> ResultTable {
    ResultTable(
      columns: [SummaryMetric.acceptableGlancePct.metric, SummaryMetric.frozenWidgetDayPct.metric],
      rows: rows.map { ResultRow(scenario: "s", strategy: $0.0, segment: "all", values: [$0.acceptable, $0.dry]) })
  }

  static func claim(_ strategy: String, _ reported: EvidenceClaim.Outcome) -> EvidenceClaim {
    EvidenceClaim(strategy: strategy, reported: reported, strength: .reported, source: "test")
  }

  @Test func eachReportedWordIsOneConditionOnTheRun() {
    let t = Self.table([
      ("dry-and-stale", dry: 40, acceptable: 60),
      ("dry-but-seen-fine", dry: 100, acceptable: 95),  // a budget spent where nobody looks
      ("stale-not-dry", dry: 0, acceptable: 80),
      ("fine", dry: 9.99, acceptable: 90),  // both thresholds are inclusive on the fine side
    ])
    func agrees(_ s: String, _ o: EvidenceClaim.Outcome) -> Bool { Self.claim(s, o).evaluate(on: t).agrees }
    #expect(agrees("dry-and-stale", .exhausted) && agrees("dry-and-stale", .stale) && !agrees("dry-and-stale", .fine))
    #expect(agrees("dry-but-seen-fine", .exhausted) && agrees("dry-but-seen-fine", .fine))
    #expect(!agrees("dry-but-seen-fine", .stale))
    #expect(!agrees("stale-not-dry", .exhausted) && agrees("stale-not-dry", .stale))
    #expect(!agrees("fine", .exhausted) && !agrees("fine", .stale) && agrees("fine", .fine))
    #expect(Self.claim("dry-but-seen-fine", .fine).evaluate(on: t).predicted == [.exhausted, .fine])
    #expect(Self.claim("stale-not-dry", .stale).evaluate(on: t).predicted == [.stale])
  }

  @Test func thresholdsSitExactlyAtTenAndNinety() {
    #expect(EvidenceScoring.has(.exhausted, frozenWidgetDayPct: 10, acceptableGlancePct: 50) == true)
    #expect(EvidenceScoring.has(.exhausted, frozenWidgetDayPct: 9.999, acceptableGlancePct: 50) == false)
    #expect(EvidenceScoring.has(.stale, frozenWidgetDayPct: 0, acceptableGlancePct: 89.999) == true)
    #expect(EvidenceScoring.has(.fine, frozenWidgetDayPct: 0, acceptableGlancePct: 90) == true)
  }

  @Test func aMissingFigureOrRowNeverAgrees() {
    let t = Self.table([("no-glances", dry: 0, acceptable: nil)])
    let r = Self.claim("no-glances", .fine).evaluate(on: t)
    #expect(!r.agrees && r.predicted == [])
    // The dry condition can still be read without glances.
    #expect(Self.claim("no-glances", .exhausted).evaluate(on: t).predicted.isEmpty)
    #expect(!Self.claim("absent", .stale).evaluate(on: t).agrees)
    let seg = EvidenceClaim(strategy: "no-glances", segment: "other", reported: .exhausted, strength: .weak, source: "x")
    #expect(!seg.evaluate(on: t).agrees)
  }
}
