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
    page.dataJSON = "{\"note\": \"</script><b>\"}"
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
    #expect(html.contains("<script type=\"application/json\" id=\"calibration-data\">{\"note\": \"<\\/script>"))
    #expect(html.components(separatedBy: "</script>").count == 2)
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
}
