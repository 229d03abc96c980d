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

  /// An estimate as calibration.json writes it: `Fitter.decimals` digits, null for none.
  static func estimate(_ v: Double?) -> JSON {
    guard let v, v.isFinite else { return .null }
    return .number(v, decimals: Fitter.decimals(v))
  }

  /// calibration.json: the log's size, the model block, every parameter
  /// (one per line) and whether a simulation was compared.
  public static func json(_ c: Calibration, simulated: Calibration.Curves?) -> String {
    document(c, simulated: simulated).text(.document) + "\n"
  }

  static func document(_ c: Calibration, simulated: Calibration.Curves?) -> JSON {
    let log = JSON.object(
      [
        (key: "files", value: .array(c.files.map(JSON.string))), (key: "lines", value: .integer(c.lines)),
        (key: "devices", value: .integer(c.devices)), (key: "device_days", value: .integer(c.deviceDays)),
        (key: "dropped", value: .object(c.dropped.map { (key: $0.what, value: .integer($0.count)) })),
      ], layout: .inline)
    let parameters = c.parameters.map { p -> JSON in
      var members: [(key: String, value: JSON)] = [
        (key: "field", value: .string(p.field.path)), (key: "label", value: .string(p.label)),
        (key: "status", value: .string(p.status.rawValue)),
      ]
      if let choice = p.choice { members.append((key: "choice", value: .string(choice))) }
      members += [
        (key: "estimate", value: estimate(p.estimate)), (key: "low", value: estimate(p.low)),
        (key: "high", value: estimate(p.high)), (key: "unit", value: .string(p.unit)),
        (key: "devices", value: .integer(p.devices)), (key: "device_days", value: .integer(p.days)),
        (key: "note", value: .string(p.note)),
      ]
      return .object(members, layout: .inline)
    }
    return [
      "format": "reloadbench-calibration",
      "version": 1,
      "log": log,
      "model": c.model.scenarioBlock,
      "parameters": .array(parameters, layout: .lines),
      "assumptions": .array(c.verdicts.map(verdict), layout: .lines),
      "simulated": .bool(simulated != nil),
    ]
  }

  /// One assumption's verdict: keyed by `Assumption.key` and its readings'
  /// names, so `robustness` can keep only the `allowed` readings.
  static func verdict(_ v: AssumptionVerdict) -> JSON {
    let readings = v.readings.map { r -> JSON in
      var m: [(key: String, value: JSON)] = [(key: "name", value: .string(r.name))]
      if let s = r.score { m.append((key: "score", value: .number(s, decimals: 4))) }
      if let s = r.margin {
        m.append((key: "margin", value: .number(s, decimals: 4)))
        m.append((key: "margin_low", value: .number(r.marginLow ?? .nan, decimals: 4)))
        m.append((key: "margin_high", value: .number(r.marginHigh ?? .nan, decimals: 4)))
      }
      if r.perDay != nil {
        m += [
          (key: "value", value: estimate(r.perDay)), (key: "low", value: estimate(r.perDayLow)),
          (key: "high", value: estimate(r.perDayHigh)),
        ]
      }
      m.append((key: "ruled_out", value: .bool(r.ruledOut)))
      return .object(m, layout: .inline)
    }
    return .object(
      [
        (key: "assumption", value: .string(v.assumption.key)),
        (key: "allowed", value: .array(v.allowed.map(JSON.string))),
        (key: "ruled_out", value: .array(v.ruledOut.map(JSON.string))),
        (key: "supported", value: v.supported.map(JSON.string) ?? .null),
        (key: "readings", value: .array(readings)),
        (key: "note", value: .string(v.note)),
      ], layout: .inline)
  }

  /// One row per parameter: its path, status, the choice it decides, the
  /// estimate and interval, unit, support and note; then one row per
  /// assumption's verdict (`verdictRow`).
  public static func csv(_ c: Calibration) -> String {
    var s = CSVReport.line(
      ["field", "status", "choice", "estimate", "low", "high", "unit", "devices", "device_days", "note"])
    for p in c.parameters {
      s += CSVReport.line([
        p.field.path, p.status.rawValue, p.choice ?? "", num(p.estimate), num(p.low), num(p.high), p.unit,
        String(p.devices), String(p.days), p.note,
      ])
    }
    for v in c.verdicts { s += CSVReport.line(verdictRow(v)) }
    return s
  }

  /// A verdict in calibration.csv's columns: `assumptions.KEY`; its status
  /// (`supported`, `narrowed`: some readings ruled out but none singled out,
  /// `cannot_tell_apart`); the supported reading as the choice; the
  /// runner-up's held-out margin and its interval as the estimate; the
  /// readings allowed, ruled out and the runner-up, then how it was read, as the note.
  static func verdictRow(_ v: AssumptionVerdict) -> [String] {
    let up = runnerUp(v)
    var note = "allowed: " + (v.allowed.isEmpty ? "none" : v.allowed.joined(separator: " "))
    note += "; ruled out: " + (v.ruledOut.isEmpty ? "none" : v.ruledOut.joined(separator: " "))
    if let up { note += "; runner-up: " + up.name }
    note += ". " + v.note
    return [
      "assumptions." + v.assumption.key, status(v).rawValue, v.supported ?? "", num(up?.margin), num(up?.marginLow),
      num(up?.marginHigh), up == nil ? "" : "score per request", "", "", note,
    ]
  }

  /// What a verdict says, in a word.
  enum VerdictStatus: String {
    case supported
    case narrowed
    case cannotTellApart = "cannot_tell_apart"

    var words: String { self == .cannotTellApart ? "cannot tell apart" : rawValue }
  }

  static func status(_ v: AssumptionVerdict) -> VerdictStatus {
    v.supported != nil ? .supported : v.ruledOut.isEmpty ? .cannotTellApart : .narrowed
  }

  /// The scored reading next to the best (least score), if the readings were scored.
  static func runnerUp(_ v: AssumptionVerdict) -> AssumptionVerdict.Reading? {
    let scored = v.readings.filter { $0.score != nil }.sorted { ($0.score ?? 0) < ($1.score ?? 0) }
    return scored.count > 1 ? scored[1] : nil
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
    page.verdicts = c.verdicts.map(verdictOnPage)
    page.holds = c.holdReplay.map(holds)
    page.modelBlock = c.model.scenarioBlock.text(.document)
    page.observed = curves(c.curves)
    page.simulated = simulated.map(curves)
    page.scenario = scenario
    page.data = document(c, simulated: simulated)
    return page
  }

  static func row(_ p: Calibration.Parameter) -> CalibrationPage.Row {
    CalibrationPage.Row(
      field: p.field.path, label: p.label, status: p.status.words,
      estimated: p.status == .identified || p.status == .observed, choice: p.choice,
      estimate: p.estimate.map { num($0) + (p.unit.isEmpty ? "" : " " + p.unit) },
      interval: p.low.map { "\(num($0)) – \(num(p.high))" }, devices: p.devices, days: p.days, note: p.note)
  }

  static func verdictOnPage(_ v: AssumptionVerdict) -> CalibrationPage.Verdict {
    let up = runnerUp(v)
    let readings = v.readings.map { r -> String in
      var parts: [String] = []
      if let score = r.score {
        parts.append("score " + Fitter.fmt(score))
        if let m = r.margin, m > 0 {
          parts.append("margin +\(Fitter.fmt(m)) [\(num(r.marginLow)), \(num(r.marginHigh))]")
        }
      }
      if let value = r.perDay, value.isFinite {
        let interval = r.perDayLow.map { lo in lo == r.perDayHigh ? "" : " [\(num(lo)), \(num(r.perDayHigh))]" } ?? ""
        parts.append((r.score == nil ? "value " : "B ") + num(value) + interval)
      }
      return r.name + (parts.isEmpty ? "" : ": " + parts.joined(separator: ", ")) + (r.ruledOut ? " (ruled out)" : "")
    }
    return CalibrationPage.Verdict(
      assumption: v.assumption.key, summary: v.assumption.summary, verdict: status(v).words, supported: v.supported,
      runnerUp: up.map {
        "\($0.name): +\(num($0.margin)) [\(num($0.marginLow)), \(num($0.marginHigh))] per request"
          + ($0.ruledOut ? ", ruled out" : ", not ruled out")
      }, allowed: v.allowed, ruledOut: v.ruledOut, readings: readings, note: v.note)
  }

  static func holds(_ r: HoldReplay) -> CalibrationPage.Holds {
    func label(_ s: HoldReplay.Series) -> String {
      s.name + " (B " + (r.perDevice ? "per device, median " : "") + num(s.perDay) + ")"
    }
    func series(_ s: HoldReplay.Series, label: String) -> CalibrationPage.Holds.Series {
      .init(label: label, heldAtLeast: s.heldAtLeast, heldByHour: s.heldByHour)
    }
    var note =
      r.perDevice
      ? "Each reading replays each device with its own B (one B for the log explained no hold). "
      : "Each reading replays every device with its one B for the log. "
    note +=
      r.decided
      ? "The log's holds decide the accrual: the other kind is ruled out."
      : "The log's holds do not decide the accrual: the readings' margins reach zero or too few requests were held."
    return CalibrationPage.Holds(
      thresholdMinutes: r.thresholdMinutes, delaysMinutes: r.delaysMinutes, requests: r.requests,
      requestsByHour: r.requestsByHour, observed: series(r.observed, label: "observed"),
      readings: r.readings.map { series($0, label: label($0)) }, note: note)
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
