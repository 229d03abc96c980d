import Foundation
import ReloadMetrics
import Testing

/// The catalogue: one declaration per metric, looked up by typed key.
@Suite struct SummaryMetricTests {
  @Test func casesAreTheColumnsInOrder() {
    #expect(SummaryMetrics.all.count == SummaryMetric.allCases.count)
    for m in SummaryMetric.allCases {
      #expect(SummaryMetrics.all[m.rawValue] == m.metric)
      #expect(SummaryMetric(columnName: m.name) == m)
    }
    #expect(SummaryMetric(columnName: "fresh_glance_pc") == nil)
    #expect(SummaryMetrics.metric(named: "fresh_glance_pct")?.label == "Fresh glances")
  }

  @Test func namesAndLabelsAreUnique() {
    let all = SummaryMetric.allCases.map(\.metric)
    #expect(Set(all.map(\.name)).count == all.count)
    #expect(Set(all.map(\.label)).count == all.count)
    for m in all {
      #expect(!m.definition.isEmpty && !m.label.isEmpty && !m.shortLabel.isEmpty, "\(m.name)")
      #expect(m.name.allSatisfy { $0.isLowercase || $0.isNumber || $0 == "_" }, "\(m.name)")
    }
  }

  /// A typed key finds its column in a table of other columns too.
  @Test func typedLookupFindsTheColumnWhereverItIs() {
    let table = ResultTable(
      columns: [SummaryMetric.frozenWidgetDayPct.metric, SummaryMetric.freshGlancePct.metric],
      rows: [ResultRow(scenario: "s", strategy: "a", segment: "all", values: [3, 97])])
    #expect(table.columnIndex(.freshGlancePct) == 1)
    #expect(table.value(.freshGlancePct, in: table.rows[0]) == 97)
    #expect(table.value(.frozenWidgetDayPct, in: table.rows[0]) == 3)
    #expect(table.value(.devices, in: table.rows[0]) == nil)
    #expect(table.columnIndex(named: "fresh_glance_pct") == 1)
  }

  /// results.json carries no labels; a decoded summary metric takes them
  /// from the catalogue, an unknown one from its name.
  @Test func decodedMetricsGetTheirLabelsFromTheCatalogue() throws {
    let metrics = [
      SummaryMetric.stalenessP95Min.metric,
      Metric("made_up_metric", unit: .count, polarity: .neutral, decimals: 1, definition: "Not one."),
    ]
    let data = try JSONEncoder().encode(metrics)
    let text = String(decoding: data, as: UTF8.self)
    #expect(!text.contains("label") && !text.contains("Staleness, 95th"))
    let decoded = try JSONDecoder().decode([Metric].self, from: data)
    #expect(decoded[0].label == "Staleness, 95th percentile")
    #expect(decoded[0].terminalLabel == "p95 stale min")
    #expect(decoded[0].headline && decoded[0].decimals == 2 && decoded[0].polarity == .prefersSmaller)
    #expect(decoded[1].label == "made up metric" && decoded[1].terminalLabel == "made_up_metric")
  }
}
