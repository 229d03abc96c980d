import ReloadMetrics
import ReloadReports
import Testing

@Suite struct TextTableTests {
  let results = ReportFixtures.results()

  func lines() -> [Substring] {
    TextTable.render(results.summary).split(separator: "\n", omittingEmptySubsequences: false)
  }

  @Test func oneRowPerStrategyAlignedWithNoTrailingSpace() {
    let lines = lines()
    // header, rule, three strategies, legend, final empty piece after the last newline
    #expect(lines.count == 7)
    #expect(lines[0].hasPrefix("strategy"))
    #expect(lines[1].allSatisfy { $0 == "-" })
    for name in ["alpha", "beta", "gamma"] {
      #expect(lines.contains { $0.hasPrefix(name) })
    }
    for line in lines { #expect(line.last != " ", "trailing space in \(line)") }
    // Right-aligned columns: every row (header included) is no wider than the rule.
    for line in lines.prefix(5) { #expect(line.count <= lines[1].count) }
  }

  @Test func bestValueIsMarkedByPolarity() throws {
    let lines = lines()
    let alpha = try #require(lines.first { $0.hasPrefix("alpha") })
    let gamma = try #require(lines.first { $0.hasPrefix("gamma") })
    // gamma is freshest (higher is better), alpha cheapest (lower is better).
    // Data cells hold no spaces: strategy, fresh %, ok %, p95 stale min, budgeted/wd, ...
    let freshColumn = 1
    let budgetColumn = 4
    func cells(_ line: Substring) -> [Substring] { line.split(separator: " ", omittingEmptySubsequences: true) }
    #expect(cells(gamma)[freshColumn].hasSuffix("*"))
    #expect(!cells(alpha)[freshColumn].hasSuffix("*"))
    #expect(lines[0].contains("budgeted/wd"))
    #expect(cells(alpha)[budgetColumn].hasSuffix("*"))
    #expect(!cells(gamma)[budgetColumn].hasSuffix("*"))
  }
}
