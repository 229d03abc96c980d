import Foundation
import ReloadReports
import Testing

/// calibration.html: the page ReloadCalibration describes, drawn with the
/// reports' toolkit (stylesheet, figures with narrow variants and data
/// tables, escaping).
@Suite struct CalibrationPageTests {
  static func page(simulated: Bool) -> CalibrationPage {
    var page = CalibrationPage(toolVersion: "9.9.9")
    page.files = ["log.csv"]
    page.lines = 1200
    page.devices = 6
    page.deviceDays = 30
    page.dropped = [(what: "duplicate lines", count: 3)]
    page.rows = [
      .init(
        field: "budget.max_per_day", label: "Daily budget B", status: "identified", estimated: true, choice: nil,
        estimate: "71.3 reloads per 24 h", interval: "70.0 – 72.2", devices: 6, days: 30,
        note: "24 h over the <median> steady interval."),
      .init(
        field: "budget.accrual", label: "How the budget accrues", status: "too few data", estimated: false,
        choice: "token_bucket", estimate: "1.65 ratio", interval: nil, devices: 6, days: 30,
        note: "The interval straddles 1.2."),
    ]
    page.modelBlock = "{\n  \"budget\": {\n    \"max_per_day\": 71\n  }\n}"
    let curves = CalibrationPage.Curves(
      reloadsPerDay: (0..<200).map { Double(50 + $0 % 20) }, intervalsMinutes: (0..<200).map { 5 + Double($0 % 40) },
      latenessSeconds: (0..<200).map { Double($0 * 5 - 60) })
    page.observed = curves
    page.simulated = simulated ? curves : nil
    page.scenario = simulated ? "Scenarios/demo.json" : nil
    page.data = ["note": "</script><b>"]
    return page
  }

  @Test func thePageIsBuiltLikeTheOtherReports() {
    let html = Self.page(simulated: true).render()
    #expect(html.hasPrefix("<!DOCTYPE html>\n<html lang=\"en\">"))
    #expect(html.contains("<meta name=\"color-scheme\" content=\"light dark\">"))
    #expect(html.contains("<meta name=\"generator\" content=\"ReloadBench 9.9.9\">"))
    // The reports' stylesheet (dark mode, the phone layout) and the figures' narrow variants.
    #expect(html.contains("@media (prefers-color-scheme:dark)") && html.contains("@media (max-width:640px)"))
    for id in ["cal-reloads", "cal-intervals", "cal-lateness"] {
      #expect(html.contains("id=\"\(id)\"") && html.contains("id=\"\(id)-narrow\""), "\(id)")
    }
    #expect(html.components(separatedBy: "<details class=\"datatable\">").count == 4)
    #expect(html.contains("simulated with the fitted model") && html.contains("Scenarios/demo.json"))
  }

  @Test func whatComesFromTheLogIsEscaped() {
    let html = Self.page(simulated: false).render()
    #expect(html.contains("24 h over the &lt;median&gt; steady interval."))
    #expect(!html.contains("<median>"))
    // The embedded data cannot end its script element early.
    #expect(html.contains("<script type=\"application/json\" id=\"calibration-data\">{\"note\":\"<\\/script>\\u003cb>"))
    // Its end, and the page's own script (a constant) after it.
    #expect(html.components(separatedBy: "</script>").count == 3)
    #expect(html.contains("<script>" + PageScript.source + "</script>"))
    // A field path may wrap after its dots and underscores only.
    #expect(html.contains("<code>budget.<wbr>max_<wbr>per_<wbr>day</code>"))
  }

  @Test func aRowShowsItsChoiceStatusAndSupport() {
    let html = Self.page(simulated: false).render()
    #expect(html.contains("<span class=\"st no\">too few data</span>"))
    #expect(html.contains("<b>token_bucket</b> (1.65 ratio)"))
    #expect(html.contains("<span class=\"st ok\">identified</span>"))
    #expect(html.contains(">6 / 30<"))
    // Without a simulation: no simulated series, and how to get one.
    #expect(!html.contains("simulated with the fitted model"))
    #expect(html.contains("--scenario FILE"))
  }

  @Test func aModelBlockWithNothingIdentifiedSaysSo() {
    var page = Self.page(simulated: false)
    page.modelBlock = "{}"
    let html = page.render()
    #expect(html.contains("identifies none of the model"))
    #expect(!html.contains("<pre class=\"model\">"))
  }

  @Test func aCurveWithNoDataDrawsAnEmptyChartThatSaysSo() {
    var page = Self.page(simulated: false)
    page.observed = CalibrationPage.Curves(reloadsPerDay: [], intervalsMinutes: [], latenessSeconds: [])
    let html = page.render()
    #expect(html.components(separatedBy: ">no data in the log<").count == 7)
  }

  static func holds(requests: Int) -> CalibrationPage.Holds {
    // Requests in the hours 7 to 22 only, 40 an hour; the window holds the evening's, the bucket some all day.
    let byHour = (0..<24).map { $0 >= 7 && $0 < 23 ? requests / 16 : 0 }
    let delays: [Double] = [4, 8, 16, 32, 64, 128, 256, 512]
    return CalibrationPage.Holds(
      thresholdMinutes: 4, delaysMinutes: delays, requests: requests, requestsByHour: byHour,
      observed: .init(
        label: "observed", heldAtLeast: [60, 50, 40, 30, 20, 10, 5, 0], heldByHour: byHour.map { $0 / 4 }),
      readings: [
        .init(
          label: "sliding_<window> (B 50)", heldAtLeast: [58, 49, 41, 30, 19, 9, 4, 0],
          heldByHour: byHour.map { $0 / 4 }),
        .init(label: "default (B 47)", heldAtLeast: [90, 20, 2, 0, 0, 0, 0, 0], heldByHour: byHour.map { $0 / 8 }),
      ], note: "One B for the log.")
  }

  @Test func theVerdictsAndTheHeldRequestsAreShownForTheBestReadingAndTheRunnerUp() {
    var page = Self.page(simulated: false)
    page.verdicts = [
      .init(
        assumption: "budget_accrual", summary: "how the budget accrues", verdict: "supported",
        supported: "sliding_window",
        runnerUp: "default: +0.191 [0.188, 0.194] per request, ruled out", allowed: ["sliding_window"],
        ruledOut: ["default", "small_bucket"], readings: ["sliding_window: score 0.647, B 50"], note: "Held <out>."),
      .init(
        assumption: "min_interval", summary: "the minimum interval", verdict: "cannot tell apart", supported: nil,
        runnerUp: nil, allowed: ["default", "none"], ruledOut: [], readings: [], note: "Log a cohort."),
    ]
    page.holds = Self.holds(requests: 640)
    let html = page.render()
    // The verdicts' table comes first, in the contents too.
    #expect(html.contains("<li><a href=\"#assumptions\">"))
    let table = html.range(of: "id=\"assumptions\"")?.lowerBound
    let parameters = html.range(of: "id=\"parameters\"")?.lowerBound
    #expect(table != nil && parameters != nil && table! < parameters!)
    #expect(html.contains("<span class=\"st ok\">supported</span> <b>sliding_window</b>"))
    #expect(html.contains("<span class=\"st no\">cannot tell apart</span>"))
    #expect(html.contains("default: +0.191 [0.188, 0.194] per request, ruled out"))
    #expect(html.contains(">default, small_bucket<") && html.contains("Held &lt;out&gt;."))
    // Two figures with narrow variants and data tables; each reading's series in the key, escaped.
    for id in ["cal-held-for", "cal-held-by-hour"] {
      #expect(html.contains("id=\"\(id)\"") && html.contains("id=\"\(id)-narrow\""), "\(id)")
    }
    #expect(html.components(separatedBy: "<details class=\"datatable\">").count == 6)
    #expect(html.contains("sliding_&lt;window&gt; (B 50)") && !html.contains("sliding_<window>"))
    #expect(html.contains("<span class=\"sw ser d2 s2\" aria-hidden=\"true\"></span>default (B 47)"))
    // The survival table: shares of all requests; the hours with too few requests are not drawn.
    #expect(
      html.contains("<th scope=\"row\">at least 4 min</th><td>9.4&#160;%</td><td>9.1&#160;%</td><td>14.1&#160;%</td>"))
    #expect(!html.contains("<th scope=\"row\">06:00</th>") && html.contains("<th scope=\"row\">07:00</th><td>40</td>"))
  }

  @Test func aLogWithoutRequestsToReplayDrawsEmptyHeldCharts() {
    var page = Self.page(simulated: false)
    page.holds = Self.holds(requests: 0)
    let html = page.render()
    #expect(html.components(separatedBy: ">no data in the log<").count == 5)
  }
}
