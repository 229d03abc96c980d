import Foundation
import ReloadMetrics
import ReloadReports
import Testing

/// The metric table of Reports/README.md is generated from the catalogue;
/// these tests fail when the committed README drifts from it.
@Suite struct MetricReferenceTests {
  static let readmeURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Reports/README.md")

  @Test func committedMetricTableIsUpToDate() throws {
    let readme = try String(contentsOf: Self.readmeURL, encoding: .utf8)
    let refreshed = try #require(
      MetricReference.updatingReadme(readme), "Reports/README.md lost its metric table markers")
    #expect(readme == refreshed, "run 'reloadbench schema' to regenerate the metric table in Reports/README.md")
  }

  /// One row per summary column, in column order, each with the
  /// catalogue's definition.
  @Test func tableListsEveryColumnInOrderWithItsDefinition() throws {
    let text = MetricReference.markdown()
    let split = try #require(text.range(of: "`live_activities.csv`"))
    let rows = text[..<split.lowerBound].split(separator: "\n").filter { $0.hasPrefix("| `") }
    #expect(rows.count == SummaryMetric.allCases.count)
    // Then live_activities.csv's columns, from `ActivityMetric`.
    let activity = text[split.lowerBound...].split(separator: "\n").filter { $0.hasPrefix("| `") }
    #expect(activity.map { $0.split(separator: "`")[1] }.map(String.init) == ActivityMetric.allCases.map(\.name))
    for (row, metric) in zip(rows, SummaryMetric.allCases) {
      #expect(row.hasPrefix("| `\(metric.name)` | \(metric.metric.label) |"), "\(row)")
      #expect(row.hasSuffix(" \(metric.metric.definition) |"), "\(row)")
    }
    let free = rows[SummaryMetric.freeReloadsPerWidgetDay.rawValue]
    #expect(free.contains("newly added widgets"))
    #expect(free.contains("| per widget-day | – | 3 |"))
    #expect(rows[SummaryMetric.firstFrozenHourMedian.rawValue].contains("| local hour (0-24) | higher | 2 |"))
  }

  @Test func aHandEditedTableIsReplaced() throws {
    let readme = try String(contentsOf: Self.readmeURL, encoding: .utf8)
    let edited = readme.replacingOccurrences(of: ", newly added widgets.", with: ".")
    #expect(edited != readme)
    #expect(MetricReference.updatingReadme(edited) == readme)
    #expect(MetricReference.updatingReadme("# Reports\n\nno markers\n") == nil)
  }
}
