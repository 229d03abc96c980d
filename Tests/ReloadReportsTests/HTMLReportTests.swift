import Foundation
import ReloadMetrics
import ReloadReports
import Testing

@Suite struct HTMLReportTests {
  static func render(_ results: ScenarioResults) -> String {
    HTMLReport.render(
      ReportFixtures.concluded(
        results, Recommendation.compute(results.summary), findings: Findings.compute(results)),
      objective: nil)
  }

  /// Every `<tag ...>` opening tag in `html`, case-insensitively by name.
  static func openingTags(_ name: String, in html: String) -> [Substring] {
    var out: [Substring] = []
    var rest = html[...]
    while let start = rest.range(of: "<" + name, options: .caseInsensitive) {
      guard let end = rest[start.upperBound...].firstIndex(of: ">") else { break }
      out.append(rest[start.lowerBound...end])
      rest = rest[rest.index(after: end)...]
    }
    return out
  }

  /// The text between `open` and the next `close`, for every `open`.
  static func blocks(from open: String, to close: String, in html: String) -> [Substring] {
    var out: [Substring] = []
    var rest = html[...]
    while let start = rest.range(of: open), let end = rest[start.upperBound...].range(of: close) {
      out.append(rest[start.upperBound..<end.lowerBound])
      rest = rest[end.upperBound...]
    }
    return out
  }

  static func jsonBlock(_ html: String) -> String? {
    blocks(from: "<script type=\"application/json\" id=\"results-data\">", to: "</script>", in: html).first
      .map(String.init)
  }

  // MARK: - Safety

  @Test func scenarioStringsRenderAsTextNeverAsScript() throws {
    let evil = ReportFixtures.hostile
    let attribute = "\" onmouseover=\"alert(2)"
    let results = ReportFixtures.results(
      scenario: evil, description: "About " + evil, strategies: ["alpha", evil, "gamma" + attribute],
      segments: [evil, "plain"], parameterValue: evil)
    let html = Self.render(results)

    // Two script elements: the JSON data block, and the page's own script,
    // whose text is a constant: no scenario string ever enters it.
    let scripts = Self.openingTags("script", in: html)
    #expect(scripts.count == 2)
    #expect(scripts.first == "<script type=\"application/json\" id=\"results-data\">")
    #expect(Self.blocks(from: "<script>", to: "</script>", in: html).map(String.init) == [PageScript.source])
    #expect(!html.contains("alert(1)</script>"))
    #expect(!html.localizedCaseInsensitiveContains("<script>alert"))
    // No attribute can be broken out of.
    #expect(!html.contains("\" onmouseover=\""))
    #expect(!html.contains("onmouseover=\"alert"))
    // The text is there, escaped: in the title, headings, tables and charts.
    let escaped = "&lt;script&gt;alert(1)&lt;/script&gt;"
    #expect(html.contains("<title>ReloadBench report: " + escaped + "</title>"))
    #expect(html.contains("<h1>" + escaped + "</h1>"))
    #expect(html.contains("<th scope=\"row\">" + escaped))
    #expect(html.contains("Segment " + escaped))
    #expect(html.contains("<td class=\"val\">" + escaped))
    #expect(html.contains("Stale glances by local hour: " + escaped))
    #expect(html.contains("gamma&quot; onmouseover=&quot;alert(2)"))
    // Inside the JSON block "</" is "<\/" and no other "<" is left.
    let json = try #require(Self.jsonBlock(html))
    #expect(!json.contains("</"))
    #expect(!json.contains("<s"))
    #expect(json.contains("alert(1)<\\/script>"))
  }

  // MARK: - Self-containment

  @Test func pageIsSelfContainedAndCarriesItsData() throws {
    let results = ReportFixtures.results()
    let html = Self.render(results)
    // No src or href points anywhere but inside the page.
    for attribute in ["src", "href", "xlink:href", "action", "srcset", "poster", "data"] {
      for quote in ["\"", "'"] {
        for scheme in ["http:", "https:", "//", "ftp:", "file:"] {
          #expect(!html.localizedCaseInsensitiveContains(" " + attribute + "=" + quote + scheme))
        }
      }
    }
    #expect(!html.contains("url("))
    #expect(!html.contains("@import"))
    // "http" appears only as the SVG namespace.
    let http = html.components(separatedBy: "http").count - 1
    let namespaces = html.components(separatedBy: "xmlns=\"http://www.w3.org/2000/svg\"").count - 1
    #expect(http == namespaces)
    for link in Self.openingTags("a ", in: html) { #expect(link.contains("href=\"#")) }

    // Exactly one JSON block, and it decodes back to the results.
    #expect(html.components(separatedBy: "<script type=\"application/json\"").count == 2)
    let json = try #require(Self.jsonBlock(html))
    let decoder = JSONDecoder()
    decoder.nonConformingFloatDecodingStrategy = .convertFromString(
      positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
    let decoded = try decoder.decode(ScenarioResults.self, from: Data(json.utf8))
    #expect(decoded.facts == results.facts)
    #expect(decoded.parameters == results.parameters)
    #expect(decoded.summary == results.summary)
    #expect(decoded.series == results.series)
    #expect(decoded.series[0].budgetLeftByLocalHour[0].p90 == .infinity)
  }

  /// A percentage never wraps between the number and its sign on a narrow
  /// screen: the space before every `%` on the page is a no-break space.
  @Test func aNumberAndItsPercentSignStayTogether() {
    // The page before its embedded data (JSON keeps its strings as they are).
    let page = Self.render(ReportFixtures.results()).components(separatedBy: "<script").first ?? ""
    #expect(page.contains("&#160;%"))
    #expect(!page.contains(" %"))
  }

  @Test func sameResultsGiveTheSameBytes() {
    let results = ReportFixtures.results(strategies: ReportFixtures.twelve)
    #expect(Self.render(results) == Self.render(results))
  }

  // MARK: - Structure

  @Test func everyChartIsAnAccessibleImageWithADataTable() throws {
    let html = Self.render(ReportFixtures.results())
    let svgs = Self.blocks(from: "<svg ", to: "</svg>", in: html)
    #expect(svgs.count >= 6)
    for svg in svgs {
      let tag = svg.prefix { $0 != ">" }
      #expect(tag.contains("role=\"img\""))
      #expect(tag.contains("aria-labelledby=\""))
      #expect(svg.contains("<title id=\""))
      #expect(svg.contains("<desc id=\""))
      let desc = Self.blocks(from: "<desc id=\"", to: "</desc>", in: String(svg)).first ?? ""
      #expect(desc.split(separator: ">", maxSplits: 1).last.map { $0.count > 10 } == true)
    }
    let figures = Self.blocks(from: "<figure class=\"fig\"", to: "</figure>", in: html)
    // Freshness/cost, staleness, stale by hour, budget, backend, funnel.
    #expect(figures.count == 6)
    for figure in figures {
      #expect(figure.contains("<svg "))
      #expect(figure.contains("<details class=\"datatable\"><summary>"))
      #expect(figure.contains("<table class=\"data\">"))
      #expect(!figure.contains("<details class=\"datatable\" open"))
    }
    // Light and dark, print, and never colour alone: shapes and dashes vary.
    #expect(html.contains("@media (prefers-color-scheme:dark)"))
    #expect(html.contains("@media print"))
    #expect(html.contains("<circle ") && html.contains("<path class=\"pt s"))
    #expect(html.contains("class=\"ln s") && html.contains(" d1\"") && html.contains(" d2\""))
  }

  @Test func everyStrategyAppearsInTheTableAndTheCharts() {
    let names = ReportFixtures.twelve
    let html = Self.render(ReportFixtures.results(strategies: names))
    let scatter = Self.blocks(from: "<svg ", to: "</svg>", in: html).first ?? ""
    for name in names {
      #expect(
        html.contains("<tr><th scope=\"row\">" + name + "</th>")
          || html.contains("<th scope=\"row\">" + name + " <span"))
      #expect(scatter.contains(">" + name + "</text>"), "no label for \(name) in the scatter")
      #expect(html.contains("Reloads the budget allows within the hour, by local hour: " + name))
      #expect(html.contains("Backend requests per second over the run: " + name))
    }
  }

  // MARK: - Interaction

  /// Every mark drawn in a strategy's style, and every strategy's label, is
  /// inside that strategy's `<g data-strategy>` (or a small multiple's
  /// `<svg data-strategy>`), so the page's script can hide it everywhere.
  @Test func everyStrategyCanBeHiddenInEveryChart() throws {
    let names = ReportFixtures.twelve
    let html = Self.render(ReportFixtures.results(strategies: names))
    let svgs = Self.blocks(from: "<svg ", to: "</svg>", in: html).map(String.init)
    var grouped = 0
    for svg in svgs {
      let tag = svg.prefix { $0 != ">" }
      if let whose = Self.blocks(from: "data-strategy=\"", to: "\"", in: String(tag)).first {
        // A small multiple: its title names the strategy it shows.
        #expect(svg.contains(": " + whose + "</title>"), "small multiple marked \(whose) shows another strategy")
        continue
      }
      var rest = svg
      for name in names {
        let open = "<g data-strategy=\"" + name + "\">"
        for body in Self.blocks(from: open, to: "</g>", in: svg) {
          grouped += 1
          rest = rest.replacingOccurrences(of: open + body + "</g>", with: "")
        }
      }
      // A frontier joins strategies: it hides while any of them is hidden.
      for needs in Self.blocks(from: "<g data-needs=\"", to: "</g>", in: svg) {
        let list = needs.prefix { $0 != "\"" }.replacingOccurrences(of: "&quot;", with: "\"")
        let named = try JSONDecoder().decode([String].self, from: Data(list.utf8))
        #expect(named.count >= 2 && named.allSatisfy(names.contains), "\(named)")
        rest = rest.replacingOccurrences(of: "<g data-needs=\"" + needs + "</g>", with: "")
      }
      #expect(!rest.contains("class=\"frontier\""), "a frontier outside a data-needs group")
      for cls in ["class=\"pt ", "class=\"ln ", "class=\"bar ", "class=\"band ", "class=\"recring"] {
        #expect(!rest.contains(cls), "a strategy's mark (\(cls)) outside its group in \(tag)")
      }
      for name in names { #expect(!rest.contains(">" + name + "</text>"), "\(name)'s label outside its group") }
    }
    #expect(grouped >= 3 * names.count)
    // The controls are the script's: a page without scripts shows none.
    #expect(!html.contains("class=\"rb-"))
  }

  /// Line charts carry their values for hover (the browser's tooltip, and
  /// the page's script on focus): the budget by local hour, one column a
  /// slot, and the backend's load, in at most 48 spans a chart.
  @Test func lineChartsCarryTheirValuesOnHover() {
    let names = ["alpha", "beta"]
    let html = Self.render(ReportFixtures.results(strategies: names))
    let svgs = Self.blocks(from: "<svg ", to: "</svg>", in: html).map(String.init)
    for name in names {
      let budget = svgs.first { $0.contains("by local hour: " + name + "</title>") && $0.contains("budget") }
      let backend = svgs.first { $0.contains("over the run: " + name + "</title>") }
      for (chart, what) in [(budget, "budget"), (backend, "backend")] {
        let tips = Self.blocks(from: "<rect class=\"hov\"", to: "</rect>", in: chart ?? "")
        #expect(!tips.isEmpty, "no values on hover in \(name)'s \(what) chart")
        #expect(tips.count <= 48)
        #expect(tips.allSatisfy { $0.contains("<title>" + name + ", ") })
      }
    }
  }

  /// The cells of the `<tr>` whose row header is `name`, in the first
  /// comparison table.
  static func cells(of name: String, in html: String) -> [Substring] {
    guard let table = blocks(from: "<table class=\"cmp\">", to: "</table>", in: html).first,
      let row = blocks(from: "<th scope=\"row\">" + name, to: "</tr>", in: String(table)).first
    else { return [] }
    return blocks(from: "<td", to: "</td>", in: String(row))
  }

  @Test func bestValuesFollowEachMetricsPolarity() {
    let html = Self.render(ReportFixtures.results())
    // Column 0: fresh glances (prefers larger): gamma. Column 4: budgeted
    // reloads (prefers smaller): alpha. Column 5: free reloads (neutral): none.
    #expect(Self.cells(of: "gamma", in: html)[0].hasPrefix(" class=\"best\""))
    #expect(!Self.cells(of: "alpha", in: html)[0].contains("best"))
    #expect(Self.cells(of: "alpha", in: html)[4].contains("class=\"best"))
    #expect(!Self.cells(of: "gamma", in: html)[4].contains("best"))
    for name in ["alpha", "beta", "gamma"] {
      #expect(!Self.cells(of: name, in: html)[5].contains("best"))
    }
  }

  @Test func highlightingReadsPolarityFromTheMetricNotTheName() {
    // The same columns, with fresh glances declared lower-is-better.
    let flipped = SummaryMetrics.all.map { m in
      m == SummaryMetric.freshGlancePct.metric
        ? Metric(
          m.name, unit: m.unit, polarity: .prefersSmaller, decimals: m.decimals, label: m.label,
          shortLabel: m.shortLabel, definition: m.definition) : m
    }
    let html = Self.render(ReportFixtures.results(columns: flipped))
    #expect(Self.cells(of: "alpha", in: html)[0].contains("class=\"best"))
    #expect(!Self.cells(of: "gamma", in: html)[0].contains("best"))
    #expect(html.contains("Fresh glances<span class=\"unit\">(%)</span><span class=\"dir\">↓ better</span>"))
  }

  @Test func rendersWithoutSeriesOrRows() {
    var results = ReportFixtures.results()
    results.series = []
    results.summary.rows = []
    results.parameters = []
    let html = HTMLReport.render(ReportFixtures.concluded(results, nil), objective: nil)
    #expect(html.hasPrefix("<!DOCTYPE html>"))
    #expect(html.contains("No recommendation"))
    #expect(html.hasSuffix("</html>\n"))
  }
}
