import ReloadReports
import WidgetModel

/// The three files `reloadbench calibrate` writes: calibration.json (with
/// the `model` block), calibration.csv (one row per parameter) and
/// calibration.html (each parameter with its interval and support, and the
/// observed curves against the fitted model's simulation when one was run),
/// the page drawn by ReloadReports' `CalibrationPage`.
public enum CalibrationReport {
  public static let files = ["calibration.json", "calibration.csv", "calibration.html"]

  /// An estimate as the reports write it (`Fitter.fmt`), "" for none.
  static func num(_ v: Double?) -> String {
    guard let v, v.isFinite else { return "" }
    return Fitter.fmt(v)
  }

  static func jsonNumber(_ v: Double?) -> String {
    guard let v, v.isFinite else { return "null" }
    return Fitter.fmt(v)
  }

  static func jsonString(_ s: String) -> String { "\"" + LogFormat.escaped(s) + "\"" }

  public static func json(_ c: Calibration, simulated: Calibration.Curves?) -> String {
    var s = "{\n  \"format\": \"reloadbench-calibration\",\n  \"version\": 1,\n"
    s += "  \"log\": {\"files\": [\(c.files.map(jsonString).joined(separator: ", "))], \"lines\": \(c.lines), "
    s += "\"devices\": \(c.devices), \"device_days\": \(c.deviceDays),\n    \"dropped\": {"
    s += c.dropped.map { "\(jsonString($0.what)): \($0.count)" }.joined(separator: ", ") + "}},\n"
    s += "  \"model\": " + c.model.scenarioJSON(indent: 2) + ",\n"
    s += "  \"parameters\": [\n"
    s += c.parameters.map { p in
      var f = "    {\"field\": \(jsonString(p.field.path)), \"label\": \(jsonString(p.label)), "
      f += "\"status\": \"\(p.status.rawValue)\", "
      if let choice = p.choice { f += "\"choice\": \(jsonString(choice)), " }
      f += "\"estimate\": \(jsonNumber(p.estimate)), \"low\": \(jsonNumber(p.low)), \"high\": \(jsonNumber(p.high)), "
      f += "\"unit\": \(jsonString(p.unit)), \"devices\": \(p.devices), \"device_days\": \(p.days), "
      f += "\"note\": \(jsonString(p.note))}"
      return f
    }.joined(separator: ",\n")
    s += "\n  ],\n  \"simulated\": \(simulated == nil ? "false" : "true")\n}\n"
    return s
  }

  /// One row per parameter: its path, status, the choice it decides, the
  /// estimate and interval, unit, support and note.
  public static func csv(_ c: Calibration) -> String {
    var s = CSVReport.line(
      ["field", "status", "choice", "estimate", "low", "high", "unit", "devices", "device_days", "note"])
    for p in c.parameters {
      s += CSVReport.line([
        p.field.path, p.status.rawValue, p.choice ?? "", num(p.estimate), num(p.low), num(p.high), p.unit,
        String(p.devices), String(p.days), p.note,
      ])
    }
    return s
  }

  /// calibration.html: the fit, the model block and, with `simulated`, the
  /// scenario `scenario` simulated with the fitted model against the log.
  public static func html(
    _ c: Calibration, simulated: Calibration.Curves?, scenario: String?, toolVersion: String
  ) -> String {
    page(c, simulated: simulated, scenario: scenario, toolVersion: toolVersion).render()
  }

  /// What the page shows of `c`.
  static func page(
    _ c: Calibration, simulated: Calibration.Curves?, scenario: String?, toolVersion: String
  ) -> CalibrationPage {
    var page = CalibrationPage(toolVersion: toolVersion)
    page.files = c.files.map { String($0.split(separator: "/").last ?? Substring($0)) }
    page.lines = c.lines
    page.devices = c.devices
    page.deviceDays = c.deviceDays
    page.dropped = c.dropped.filter { $0.count > 0 }
    page.rows = c.parameters.map(row)
    page.modelBlock = c.model.scenarioJSON()
    page.observed = curves(c.curves)
    page.simulated = simulated.map(curves)
    page.scenario = scenario
    page.dataJSON = json(c, simulated: simulated)
    return page
  }

  static func row(_ p: Calibration.Parameter) -> CalibrationPage.Row {
    CalibrationPage.Row(
      field: p.field.path, label: p.label, status: p.status.words,
      estimated: p.status == .identified || p.status == .observed, choice: p.choice,
      estimate: p.estimate.map { num($0) + (p.unit.isEmpty ? "" : " " + p.unit) },
      interval: p.low.map { "\(num($0)) – \(num(p.high))" }, devices: p.devices, days: p.days, note: p.note)
  }

  static func curves(_ c: Calibration.Curves) -> CalibrationPage.Curves {
    CalibrationPage.Curves(
      reloadsPerDay: c.reloadsPerDay, intervalsMinutes: c.intervalsMin, latenessSeconds: c.latenessS)
  }
}

extension Calibration.Parameter.Status {
  /// The status in words: "too few data".
  public var words: String {
    switch self {
    case .identified: return "identified"
    case .tooFewData: return "too few data"
    case .notIdentifiable: return "not identifiable"
    case .observed: return "observed"
    }
  }
}
