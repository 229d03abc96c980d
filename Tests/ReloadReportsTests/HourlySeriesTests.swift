import Foundation
import ReloadMetrics
import ReloadReports
import Testing

/// Each hourly series is one declaration: its key in results.json, its
/// column of timeseries.csv and how it is written there.
@Suite struct HourlySeriesTests {
  @Test func keysAndColumnsAreUniqueAndTimeseriesFollowsTheDeclarations() {
    let keys = HourlyMetric.allCases.map(\.declaration.key)
    let columns = HourlyMetric.allCases.map(\.declaration.column.name)
    #expect(Set(keys).count == keys.count && Set(columns).count == columns.count)
    #expect(Array(CSVReport.timeseriesColumns.dropFirst(5)) == columns)
  }

  @Test func aRowWritesCountsWholeValuesAtTheirPrecisionAndTheStaleShareOfGlances() throws {
    var results = ReportFixtures.results(strategies: ["alpha"])
    var h = HourlySeries()
    for m in HourlyMetric.allCases { h[m] = [0, 0] }
    h[.glances] = [8, 0]
    h[.staleGlances] = [2, 0]
    h[.budgetedReloads] = [3, 0]
    h[.backendRps] = [1.23456, 0]
    results.series[0].hourly = h
    let lines = CSVReport.timeseries(results).split(separator: "\n").map {
      $0.split(separator: ",", omittingEmptySubsequences: false)
    }
    let header = lines[0].map(String.init)
    func cell(_ row: Int, _ m: HourlyMetric) throws -> String {
      String(lines[row][try #require(header.firstIndex(of: m.declaration.column.name))])
    }
    #expect(try cell(1, .budgetedReloads) == "3" && cell(1, .glances) == "8")
    #expect(try cell(1, .staleGlances) == "25.00", "a percent of the hour's glances")
    #expect(try cell(2, .staleGlances) == "", "no glances, no share")
    #expect(try cell(1, .backendRps) == "1.2346")
    // results.json: one key per series.
    let json = JSON.text(results.series[0].hourly)
    for m in HourlyMetric.allCases { #expect(json.contains("\"\(m.declaration.key)\":[")) }
    #expect(json.contains(#""budgetedReloads":[3,0]"#))
  }
}
