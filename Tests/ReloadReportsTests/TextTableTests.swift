import ReloadMetrics
import ReloadReports
import Testing

@Suite struct TextTableTests {
  let results = ReportFixtures.results()

  func lines(width: Int = TextTable.defaultWidth) -> [Substring] {
    TextTable.render(results.summary, width: width).split(separator: "\n", omittingEmptySubsequences: false)
  }

  /// The tables' lines: every line up to the key.
  func tableLines(_ lines: [Substring]) -> [Substring] {
    Array(lines.prefix { !$0.hasPrefix("Key: ") })
  }

  @Test func oneRowPerStrategyAlignedWithNoTrailingSpace() {
    let lines = lines()
    let tables = tableLines(lines).split(separator: "")
    // Two tables at 100 columns (what people see, what it costs), each a
    // heading, a rule and three strategies.
    #expect(tables.count == 2, "\(lines)")
    for table in tables {
      #expect(table.count == 5)
      #expect(table[table.startIndex].hasPrefix("strategy"))
      #expect(table[table.startIndex + 1].allSatisfy { $0 == "-" })
      for name in ["alpha", "beta", "gamma"] { #expect(table.contains { $0.hasPrefix(name) }) }
      // Right-aligned columns: every row (heading included) is no wider than the rule.
      for line in table { #expect(line.count <= table[table.startIndex + 1].count) }
    }
    for line in lines { #expect(line.last != " ", "trailing space in \(line)") }
  }

  /// Every line fits the width; the columns are each shown once, in one
  /// table when they fit side by side, else split into more tables.
  @Test func fitsTheWidthOrWrapsToMoreTables() {
    let labels = TextTable.defaultColumns.map(\.metric.terminalLabel)
    for width in [60, 100, 200] {
      let lines = lines(width: width)
      for line in lines { #expect(line.count <= width, "\(width): \(line)") }
      let headings = tableLines(lines).filter { $0.hasPrefix("strategy") }
      for label in labels {
        #expect(headings.filter { $0.contains(label) }.count == 1, "\(width): \(label) in \(headings)")
      }
      #expect(headings.count == (width == 200 ? 1 : width == 100 ? 2 : 3), "\(width): \(headings)")
    }
  }

  /// The key under the tables says what every heading stands for, and what
  /// the mark means.
  @Test func theKeyExplainsEveryHeading() throws {
    let lines = lines()
    let start = try #require(lines.firstIndex { $0.hasPrefix("Key: ") })
    let key = lines[start...].joined(separator: " ")
    for metric in TextTable.defaultColumns.map(\.metric) {
      #expect(key.contains("\(metric.terminalLabel) = \(metric.terminalKey)"), "\(metric.name): \(key)")
      #expect(!metric.terminalKey.isEmpty && metric.terminalKey != metric.terminalLabel)
    }
    #expect(key.contains("fleet peak/s = backend requests in the fleet's busy second (p99.9 of seconds)"))
    #expect(key.contains("budgeted/wd = reloads charged to the budget per widget-day"))
    #expect(key.contains("* = best in column"))
  }

  @Test func bestValueIsMarkedByPolarity() throws {
    let lines = lines(width: 200)
    let alpha = try #require(lines.first { $0.hasPrefix("alpha") })
    let gamma = try #require(lines.first { $0.hasPrefix("gamma") })
    // gamma is freshest (higher is better), alpha cheapest (lower is better).
    // Data cells hold no spaces: strategy, fresh %, ok %, p95 stale min, dry days %, budgeted/wd, ...
    let freshColumn = 1
    let budgetColumn = 5
    func cells(_ line: Substring) -> [Substring] { line.split(separator: " ", omittingEmptySubsequences: true) }
    #expect(cells(gamma)[freshColumn].hasSuffix("*"))
    #expect(!cells(alpha)[freshColumn].hasSuffix("*"))
    #expect(lines[0].contains("budgeted/wd"))
    #expect(cells(alpha)[budgetColumn].hasSuffix("*"))
    #expect(!cells(gamma)[budgetColumn].hasSuffix("*"))
  }

  @Test func countsArePluralisedCorrectly() {
    #expect(NumberFormat.count(1, "strategy") == "1 strategy")
    #expect(NumberFormat.count(8, "strategy") == "8 strategies")
    #expect(NumberFormat.count(1, "run") == "1 run")
    #expect(NumberFormat.count(0, "run") == "0 runs")
    #expect(NumberFormat.count(1, "device") == "1 device")
    #expect(NumberFormat.count(3000, "device") == "3000 devices")
    #expect(NumberFormat.count(1, "scenario") == "1 scenario")
    #expect(NumberFormat.count(2, "pass") == "2 passes")
    #expect(NumberFormat.count(2, "day") == "2 days")
    #expect(NumberFormat.count(1.0, "measured day") == "1 measured day")
    #expect(NumberFormat.count(2.5, "day") == "2.5 days")
  }
}
