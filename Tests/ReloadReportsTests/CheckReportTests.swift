import Foundation
import ReloadMetrics
import ReloadReports
import Testing

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// The renderers of `reloadbench check`, on hand-made outcomes.
@Suite struct CheckReportTests {
  /// A check of `strategies` on segments `all` and `north`: the first
  /// `regressed` directional metrics of the first `regressedStrategies`
  /// strategies regressed on `all`, `fresh_glance_pct` of the last
  /// strategy (if it did not regress) improved on both, the rest unchanged; one expectation per
  /// strategy, failing for the first.
  static func check(
    scenario: String = "fixture", strategies: [String] = ["alpha", ReportFixtures.hostile], regressed: Int = 1,
    regressedStrategies: Int = 1, failOnChange: Bool = false
  ) -> ScenarioCheck {
    let regressing = Set(SummaryMetrics.all.filter { $0.polarity != .neutral }.prefix(regressed).map(\.name))
    var comparisons: [MetricComparison] = []
    for (i, policy) in strategies.enumerated() {
      for segment in ["all", "north"] {
        for metric in SummaryMetrics.all {
          var now = 10.0
          if i < regressedStrategies && segment == "all" && regressing.contains(metric.name) {
            now = metric.polarity == .prefersLarger ? 5 : 20
          }
          if i == strategies.count - 1 && i >= regressedStrategies && metric == SummaryMetric.freshGlancePct.metric { now = 20 }
          comparisons.append(
            MetricComparison(
              strategy: policy, segment: segment, metric: metric, baseline: 10, now: now,
              tolerance: Tolerance.standard(for: metric.unit)))
        }
      }
    }
    let table = ResultTable(
      columns: [SummaryMetric.freshGlancePct.metric],
      rows: strategies.enumerated().map { i, p in ResultRow(scenario: scenario, strategy: p, segment: "all", values: [i == 0 ? 50 : 95]) })
    let expectations = Expectation(metric: .freshGlancePct, min: 90, note: "fresh & \"quoted\"").evaluate(on: table)
    return ScenarioCheck(
      scenario: scenario, file: "Scenarios/\(scenario).json", scenarioSHA256: String(repeating: "ab", count: 32),
      seed: 1, replications: 1, strategies: strategies, segments: ["north"],
      baseline: .init(file: "Scenarios/baselines/\(scenario).json", toolVersion: "0.1.0", modelVersion: "1"),
      toleranceSource: "the defaults per unit", failOnChange: failOnChange, comparisons: comparisons,
      expectations: expectations, notes: [], seconds: 0.25)
  }

  static func run(_ checks: [ScenarioCheck]) -> CheckRun {
    CheckRun(toolVersion: "0.1.0", modelVersion: "1", scenarios: checks)
  }

  @Test func markdownPutsFailuresFirstAndSummarisesUnchangedMetrics() throws {
    let md = CheckReport.markdown(Self.run([Self.check(regressed: 3)]))
    #expect(md.hasPrefix("## ReloadBench check: ❌ failed"))
    #expect(md.contains("### ❌ fixture: 3 regressed, 1 of 2 expectation checks failed"))
    let failed = try #require(md.range(of: "| alpha | all | `fresh_glance_pct` | ≥ 90 | 50.00 | ❌ failed"))
    let regressed = try #require(md.range(of: "❌ regressed"))
    let improved = try #require(md.range(of: "| improved |"))
    let holds = try #require(md.range(of: "**Expectations that hold**"))
    #expect(failed.lowerBound < regressed.lowerBound && regressed.lowerBound < improved.lowerBound)
    #expect(improved.lowerBound < holds.lowerBound)
    // Unchanged metrics are counted, not listed.
    let total = 2 * 2 * SummaryMetrics.all.count
    #expect(md.contains("Unchanged: \(total - 3 - 2) of \(total) metrics within tolerance"))
    #expect(!md.contains("| unchanged |"))
  }

  /// The run's figures per strategy: fresh, within tolerance, budgeted
  /// reloads, fleet peak (`nil` for beta's peak).
  static let summary = ResultTable(
    columns: [
      SummaryMetric.freshGlancePct.metric, SummaryMetric.acceptableGlancePct.metric,
      SummaryMetric.budgetedReloadsPerWidgetDay.metric, SummaryMetric.backendFleetPeakRps.metric,
    ],
    rows: [
      ResultRow(scenario: "fixture", strategy: "alpha", segment: "all", values: [84.04, 96.51, 59.33, 763.2]),
      ResultRow(scenario: "fixture", strategy: "alpha", segment: "north", values: [1, 2, 3, 4]),
      ResultRow(scenario: "fixture", strategy: "beta", segment: "all", values: [52.3, 84.8, 16.1, nil]),
    ])

  /// Every scenario shows its headline figures, also when it passes; one
  /// with nothing else to say among several shows them folded.
  @Test func markdownShowsTheHeadlineTableEvenWhenEverythingPasses() throws {
    var passing = Self.check(scenario: "calm", regressed: 0)
    passing.expectations = []
    passing.comparisons = passing.comparisons.map {
      MetricComparison(strategy: $0.strategy, segment: $0.segment, metric: $0.metric, baseline: 10, now: 10, tolerance: $0.tolerance)
    }
    passing.summary = Self.summary
    #expect(passing.passed)
    let md = CheckReport.markdown(Self.run([passing]))
    #expect(md.hasPrefix("## ReloadBench check: ✅ passed"))
    let heading =
      "| strategy | Fresh glances, % | Glances within tolerance, % | Budgeted reloads, per widget-day | Fleet peak second (p99.9), req/s |"
    #expect(md.contains(heading + "\n|---|--:|--:|--:|--:|\n"), "\(md)")
    #expect(md.contains("| alpha | 84.0 | 96.5 | 59.3 | 763 |"), "\(md)")
    #expect(md.contains("| beta | 52.3 | 84.8 | 16.1 | – |"), "\(md)")
    #expect(!md.contains("| alpha | 1.0 |"), "only the all-segments rows")
    // The table comes before the counts of unchanged metrics.
    let table = try #require(md.range(of: heading))
    let unchanged = try #require(md.range(of: "Unchanged: "))
    #expect(table.lowerBound < unchanged.lowerBound)
    // Among several scenarios, the passing one's figures are folded under its headline.
    let several = CheckReport.markdown(Self.run([Self.check(regressed: 2), passing]))
    #expect(several.contains("<details><summary>✅ calm: no metric regressed</summary>\n\n" + heading), "\(several)")
    // Without the run's summary (older callers), no table.
    #expect(!CheckReport.markdown(Self.run([Self.check(regressed: 0)])).contains("| strategy | Fresh glances"))
  }

  /// Expectations that do not apply (no value) are listed apart from the failures.
  @Test func markdownListsNotApplicableExpectationsApartFromFailures() throws {
    var c = Self.check(regressed: 0)
    let table = ResultTable(
      columns: [SummaryMetric.freshGlancePct.metric, SummaryMetric.silentPushesDeliveredPct.metric],
      rows: [ResultRow(scenario: "fixture", strategy: "alpha", segment: "all", values: [50, nil])])
    c.expectations =
      Expectation(metric: .freshGlancePct, min: 90).evaluate(on: table)
      + Expectation(metric: .silentPushesDeliveredPct, min: 80).evaluate(on: table)
    let md = CheckReport.markdown(Self.run([c]))
    let failed = try #require(md.range(of: "**Expectations that failed**"))
    let inapplicable = try #require(md.range(of: "**Expectations that do not apply**"))
    #expect(failed.lowerBound < inapplicable.lowerBound)
    let failures = md[failed.upperBound..<inapplicable.lowerBound]
    #expect(failures.contains("`fresh_glance_pct`") && !failures.contains("not applicable"), "\(md)")
    #expect(md[inapplicable.upperBound...].contains("| alpha | all | `silent_pushes_delivered_pct` | ≥ 80 | – | not applicable |"), "\(md)")
  }

  @Test func markdownEscapesNamesAndCapsLongTables() {
    let md = CheckReport.markdown(Self.run([Self.check(regressed: 30), Self.check(scenario: "quiet", regressed: 0)]))
    #expect(!md.contains("<script>"))
    #expect(md.contains("&lt;script&gt;"))
    // Several scenarios: one summary table, and a section only where there is something to say.
    #expect(md.contains("| scenario | expectations | regressed | improved | changed | unchanged | result |"))
    #expect(md.contains("2 scenarios, 2 failed"))
    let many = CheckReport.markdown(
      Self.run([Self.check(strategies: (0..<12).map { "s\($0)" }, regressed: 20, regressedStrategies: 12)]))
    // 240 regressions: the first 100 are listed.
    #expect(many.contains("… and 140 more changed metrics (every one is in the --json and --junit outputs)"))
    #expect(many.components(separatedBy: "❌ regressed").count - 1 == 100)
  }

  /// With no tolerance, the allowance is float noise, shown as none.
  @Test func anExactCheckShowsNoAllowance() {
    var check = Self.check(regressed: 0, failOnChange: true)
    check.comparisons = [
      MetricComparison(
        strategy: "alpha", segment: "all", metric: SummaryMetric.freshGlancePct.metric, baseline: 12.5, now: 48.11,
        tolerance: .exact)
    ]
    let md = CheckReport.markdown(Self.run([check]))
    #expect(md.contains("| alpha | all | `fresh_glance_pct` | 12.50 | 48.11 | +35.61 pts | ±0 | ❌ improved (--fail-on-change) |"))
  }

  @Test func junitParsesAsXMLWithConsistentCounts() throws {
    let check = Self.check(regressed: 2)
    let xml = CheckReport.junit(Self.run([check, Self.check(scenario: "second", regressed: 0)]))
    let counts = try JUnitCounts(xml)
    #expect(counts.suites == 2)
    #expect(counts.testcases == 2 * (check.comparisons.count + check.expectations.count))
    // Per scenario: 1 failed expectation; the first also 2 regressed metrics.
    #expect(counts.failures == 4)
    #expect(counts.rootAttributes["tests"] == String(counts.testcases))
    #expect(counts.rootAttributes["failures"] == String(counts.failures))
    #expect(counts.rootAttributes["skipped"] == "0")
    // Hostile names survive as text.
    #expect(counts.classNames.contains("fixture.\(ReportFixtures.hostile).all"))
    #expect(counts.failureMessages.contains { $0.contains("fresh & \"quoted\"") })
  }

  @Test func xmlEscapingDropsWhatXMLCannotCarry() throws {
    var check = Self.check(regressed: 0)
    check.notes = ["control \u{01} char, tab\tand\nnewline"]
    let xml = CheckReport.junit(Self.run([check]))
    let counts = try JUnitCounts(xml)
    #expect(counts.properties["note_1"] == "control \u{FFFD} char, tab\tand\nnewline")
  }

  @Test func jsonHasEveryComparisonAndExplicitNulls() throws {
    let check = Self.check(regressed: 1)
    let text = CheckReport.json(Self.run([check]))
    let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    #expect(object["passed"] as? Bool == false)
    #expect(object["exit_status"] as? Int == 1)
    let scenarios = try #require(object["scenarios"] as? [[String: Any]])
    let metrics = try #require(scenarios.first?["metrics"] as? [[String: Any]])
    #expect(metrics.count == check.comparisons.count)
    #expect(metrics.first?["verdict"] as? String == "regressed")
    let expectations = try #require(scenarios.first?["expectations"] as? [[String: Any]])
    #expect(expectations.first?["max"] is NSNull)
  }
}

/// Counts what a JUnit document holds, by parsing it as XML.
struct JUnitCounts {
  var suites = 0
  var testcases = 0
  var failures = 0
  var skipped = 0
  var rootAttributes: [String: String] = [:]
  var classNames: Set<String> = []
  var failureMessages: [String] = []
  var properties: [String: String] = [:]

  init(_ xml: String) throws {
    let delegate = Delegate()
    let parser = XMLParser(data: Data(xml.utf8))
    parser.delegate = delegate
    guard parser.parse() else {
      throw ParseError(description: parser.parserError.map { "\($0)" } ?? "unknown XML error")
    }
    self = delegate.counts
  }

  struct ParseError: Error, CustomStringConvertible {
    let description: String
  }

  final class Delegate: NSObject, XMLParserDelegate {
    var counts = JUnitCounts()

    func parser(
      _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
      attributes: [String: String] = [:]
    ) {
      switch name {
      case "testsuites": counts.rootAttributes = attributes
      case "testsuite": counts.suites += 1
      case "testcase":
        counts.testcases += 1
        if let c = attributes["classname"] { counts.classNames.insert(c) }
      case "failure":
        counts.failures += 1
        counts.failureMessages.append(attributes["message"] ?? "")
      case "skipped": counts.skipped += 1
      case "property": counts.properties[attributes["name"] ?? ""] = attributes["value"]
      default: break
      }
    }
  }
}

extension JUnitCounts {
  /// An empty tally (for the delegate).
  init() {}
}
