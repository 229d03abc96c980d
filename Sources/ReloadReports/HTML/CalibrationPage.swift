/// `calibration.html`: the model's parameters fitted to reload logs, each
/// with its interval, support and how it was read (or why the log cannot
/// tell it and what to log), the `model` block to paste, and the observed
/// curves against the fitted model's simulation.
///
/// Built like `report.html` and `sweep.html` (same stylesheet, chart
/// toolkit, figures with data tables and escaping; inline CSS and SVG, no
/// script, no URLs), from a plain description of the page that
/// `ReloadCalibration` fills from a fit, so this module needs nothing of
/// the fit or the model:
///
///     var page = CalibrationPage(toolVersion: "0.1.0")
///     page.rows = [CalibrationPage.Row(field: "budget.max_per_day", ...)]
///     let html = page.render()
package struct CalibrationPage {
  /// One fitted parameter or observed quantity, as the table shows it.
  package struct Row {
    /// Its path: `budget.max_per_day`, `observed.lateness_median_s`.
    package var field: String
    package var label: String
    /// The status in words: "identified", "too few data".
    package var status: String
    /// Whether the log gave a number (identified or observed), for the
    /// status's colour.
    package var estimated: Bool
    /// The word the estimate reads as (`token_bucket`), if any.
    package var choice: String?
    /// The estimate with its unit ("71.3 reloads per 24 h"), if any.
    package var estimate: String?
    /// "70.0 – 72.2", if any.
    package var interval: String?
    package var devices: Int
    package var days: Int
    /// How it was read, or why not and what to log.
    package var note: String

    package init(
      field: String, label: String, status: String, estimated: Bool, choice: String?, estimate: String?,
      interval: String?, devices: Int, days: Int, note: String
    ) {
      self.field = field
      self.label = label
      self.status = status
      self.estimated = estimated
      self.choice = choice
      self.estimate = estimate
      self.interval = interval
      self.devices = devices
      self.days = days
      self.note = note
    }
  }

  /// The curves the charts draw, from a log.
  package struct Curves {
    /// Budgeted reloads of each widget on each complete day.
    package var reloadsPerDay: [Double]
    /// Minutes between consecutive budgeted reloads of a widget.
    package var intervalsMinutes: [Double]
    /// Seconds from the date a policy asked for to its reload (negative: early).
    package var latenessSeconds: [Double]

    package init(reloadsPerDay: [Double], intervalsMinutes: [Double], latenessSeconds: [Double]) {
      self.reloadsPerDay = reloadsPerDay
      self.intervalsMinutes = intervalsMinutes
      self.latenessSeconds = latenessSeconds
    }
  }

  /// The held requests, observed against how the leading readings of the
  /// accrual replay them (`CalibrationCharts.holdFigures`).
  package struct Holds {
    /// The log's requests, or one reading's replay of them.
    package struct Series {
      /// "sliding_window (B 50)".
      package var label: String
      /// Requests held at least `Holds.delaysMinutes[k]` after their date, per k.
      package var heldAtLeast: [Int]
      /// Requests dated in each local hour (24) held more than `Holds.thresholdMinutes`.
      package var heldByHour: [Int]

      package init(label: String, heldAtLeast: [Int], heldByHour: [Int]) {
        self.label = label
        self.heldAtLeast = heldAtLeast
        self.heldByHour = heldByHour
      }
    }

    /// A request counts as held beyond this, minutes.
    package var thresholdMinutes: Double
    /// The delays `heldAtLeast` counts at, minutes, increasing.
    package var delaysMinutes: [Double]
    package var requests: Int
    /// Requests dated in each local hour (24).
    package var requestsByHour: [Int]
    package var observed: Series
    /// Best first.
    package var readings: [Series]
    /// A sentence on what the replay rests on (one B or a B per device; decided or not).
    package var note: String

    package init(
      thresholdMinutes: Double, delaysMinutes: [Double], requests: Int, requestsByHour: [Int], observed: Series,
      readings: [Series], note: String
    ) {
      self.thresholdMinutes = thresholdMinutes
      self.delaysMinutes = delaysMinutes
      self.requests = requests
      self.requestsByHour = requestsByHour
      self.observed = observed
      self.readings = readings
      self.note = note
    }
  }

  package var toolVersion: String
  /// The log's file names (without folders), lines, devices and complete device-days.
  package var files: [String] = []
  package var lines = 0
  package var devices = 0
  package var deviceDays = 0
  /// What was left out of the fit, and how much.
  package var dropped: [(what: String, count: Int)] = []
  package var rows: [Row] = []
  /// What the log says of each assumption it can speak to.
  package var verdicts: [Verdict] = []
  /// The held requests against the leading readings of the accrual, if the log has requests to replay.
  package var holds: Holds?
  /// The identified parameters as a scenario's `model` block (JSON text).
  package var modelBlock = "{}"
  package var observed = Curves(reloadsPerDay: [], intervalsMinutes: [], latenessSeconds: [])
  /// The fitted model's simulation of the scenario `scenario`, if one was run.
  package var simulated: Curves?
  package var scenario: String?
  /// calibration.json's content, embedded so that the page is also the data.
  package var data: JSON?

  package init(toolVersion: String) {
    self.toolVersion = toolVersion
  }

  /// The whole page.
  package func render() -> String {
    let figures = CalibrationCharts.figures(observed: observed, simulated: simulated)
    let holdFigures = holds.map(CalibrationCharts.holdFigures) ?? []
    var w = _HTMLWriter(reservingCapacity: 120_000)
    w.pageStart(
      title: "ReloadBench calibration", toolVersion: toolVersion, stylesheets: [HTMLReport.stylesheet, Self.stylesheet])
    w.pageHeader(
      eyebrow: "ReloadBench calibration", title: "Calibration from reload logs", lead: lead,
      description: "Each parameter is estimated with a 95 % bootstrap interval over devices, or reported as beyond "
        + "this log with what to log to identify it.")
    ReportFigure.writeNavigation(
      leading: (verdicts.isEmpty ? [] : [("assumptions", "The model's assumptions")])
        + [("parameters", "Parameters"), ("model", "The model block")], figures: holdFigures + figures,
      trailing: [("log", "The log")], to: &w)
    w.raw("<main>\n")
    writeAssumptions(to: &w)
    writeParameters(to: &w)
    writeModelBlock(to: &w)
    writeHolds(holdFigures, to: &w)
    writeCharts(figures, to: &w)
    writeLog(to: &w)
    w.raw("</main>\n")
    if let data {
      w.raw("<script type=\"application/json\" id=\"calibration-data\">")
      w.raw(data.text(.script))
      w.raw("</script>\n")
    }
    w.pageScript()
    w.raw("</body>\n</html>\n")
    return w.output
  }

  /// The log in one sentence.
  var lead: String {
    "\(NumberFormat.count(lines, "line", text: NumberFormat.grouped(lines))) from "
      + "\(NumberFormat.count(files.count, "file")): \(NumberFormat.count(devices, "device")), "
      + "\(NumberFormat.count(deviceDays, "complete device-day", text: NumberFormat.grouped(deviceDays)))."
  }

  func writeParameters(to w: inout _HTMLWriter) {
    w.raw("<section id=\"parameters\" aria-labelledby=\"parameters-h\"><h2 id=\"parameters-h\">Parameters</h2>\n<p>")
    w.text(
      "Identified parameters go into the model block below; observed ones are properties of your users and "
        + "deployment, for comparison with a run. A parameter with too few data or not identifiable from this log "
        + "has no number: its note says what to log.")
    w.raw("</p>\n<div class=\"scroll\"><table class=\"fit\"><caption>")
    w.text("Parameters fitted to the log, with 95 % intervals and the devices and device-days they rest on")
    w.raw("</caption><thead><tr>")
    for c in ["Parameter", "Status", "Estimate", "95 % interval", "Devices / days", "How read, or what to log"] {
      w.element("th", ["scope": "col"], text: c)
    }
    w.raw("</tr></thead><tbody>\n")
    for row in rows { write(row, to: &w) }
    w.raw("</tbody></table></div>\n</section>\n")
  }

  func write(_ row: Row, to w: inout _HTMLWriter) {
    w.raw("<tr><th scope=\"row\"><code>")
    Self.writeBreakable(row.field, to: &w)
    w.raw("</code><span class=\"what\">")
    w.text(row.label)
    w.raw("</span></th><td data-label=\"status\"><span class=\"st " + (row.estimated ? "ok" : "no") + "\">")
    w.text(row.status)
    w.raw("</span></td><td class=\"num\" data-label=\"estimate\">")
    if let choice = row.choice {
      w.element("b", text: choice)
      if row.estimate != nil { w.raw(" ") }
    }
    if let e = row.estimate { w.text(row.choice == nil ? e : "(" + e + ")") }
    if row.choice == nil && row.estimate == nil { w.raw("–") }
    w.raw("</td><td class=\"num\" data-label=\"95 % interval\">")
    w.text(row.interval ?? "–")
    w.raw("</td><td class=\"num\" data-label=\"devices / days\">")
    w.text("\(row.devices) / \(row.days)")
    w.raw("</td><td class=\"note\">")
    w.text(row.note)
    w.raw("</td></tr>\n")
  }

  /// A field path that may wrap after its dots and underscores (not inside a word).
  static func writeBreakable(_ field: String, to w: inout _HTMLWriter) {
    var part = ""
    for c in field {
      part.append(c)
      if c == "." || c == "_" {
        w.text(part)
        w.raw("<wbr>")
        part = ""
      }
    }
    w.text(part)
  }

  func writeModelBlock(to w: inout _HTMLWriter) {
    w.raw("<section id=\"model\" aria-labelledby=\"model-h\"><h2 id=\"model-h\">The model block</h2>\n<p>")
    if modelBlock == "{}" {
      w.text(
        "The log identifies none of the model's parameters: there is nothing to paste. The notes above say what "
          + "to log.")
      w.raw("</p>\n</section>\n")
      return
    }
    w.text("The identified parameters, to paste into a scenario's ")
    w.element("code", text: "model")
    w.text(" (Scenarios/README.md, \"model\"); everything else keeps the scenario's values.")
    w.raw("</p>\n<pre class=\"model\"><code>")
    w.text(modelBlock)
    w.raw("</code></pre>\n</section>\n")
  }

  func writeCharts(_ figures: [ReportFigure], to w: inout _HTMLWriter) {
    w.raw("<section id=\"charts\" aria-labelledby=\"charts-h\">")
    w.raw("<h2 id=\"charts-h\">Observed against simulated</h2>\n<p>")
    if let scenario {
      w.text("Simulated: ")
      w.element("code", text: scenario)
      w.text(
        " with the fitted model block (its first strategy, at most 200 devices), its log read as the observed "
          + "one is.")
    } else {
      w.text("Observed only: pass ")
      w.element("code", text: "--scenario FILE")
      w.text(" to draw the fitted model's simulation of your users next to it.")
    }
    w.raw("</p>\n")
    for figure in figures {
      figure.write(to: &w)
      w.raw("\n")
    }
    w.raw("</section>\n")
  }

  func writeHolds(_ figures: [ReportFigure], to w: inout _HTMLWriter) {
    guard !figures.isEmpty else { return }
    w.raw("<section id=\"holds\" aria-labelledby=\"holds-h\">")
    w.raw("<h2 id=\"holds-h\">How the budget accrues: observed against replayed</h2>\n<p>")
    w.text(
      "The requests the budget held back, as the log shows them and as the best reading of the accrual and the "
        + "runner-up replay them (and the best reading of the other kind, window or bucket, when neither is), each "
        + "with its own B. "
        + "The held-out scores of the assumptions' table rest on the same replay.")
    w.raw("</p>\n")
    for figure in figures {
      figure.write(to: &w)
      w.raw("\n")
    }
    w.raw("</section>\n")
  }

  func writeLog(to w: inout _HTMLWriter) {
    w.raw("<section id=\"log\" aria-labelledby=\"log-h\"><h2 id=\"log-h\">The log</h2>\n<p>")
    w.text(
      "A device's first and last day and days next to a missing day are partial and left out of per-day figures; "
        + "exact duplicate lines are dropped."
        + (data == nil
          ? ""
          : " This page embeds calibration.json (the log's size, every parameter and the model block) in the "
            + "script element with id \"calibration-data\"; each chart's numbers are in the data table under it."))
    w.raw("</p>\n<dl class=\"facts\">")
    let facts: [(String, String)] =
      [
        ("Files", files.isEmpty ? "–" : files.joined(separator: ", ")), ("Lines", NumberFormat.grouped(lines)),
        ("Devices", NumberFormat.grouped(devices)), ("Complete device-days", NumberFormat.grouped(deviceDays)),
      ] + dropped.map { ($0.what.uppercasedFirst, NumberFormat.grouped($0.count)) }
    w.factItems(facts)
    w.raw("</dl>\n</section>\n")
  }

  /// Rules `report.html` does not need: the parameter table (rows as cards
  /// on a phone), the status chips, the model block, the series swatches.
  static let stylesheet = """
    table.fit{font-size:.88rem;width:100%}
    table.fit tbody th{text-align:left;font-weight:400;min-width:13em}
    table.fit .what{display:block;color:var(--muted);font-size:.8rem}
    table.fit td.num{text-align:right;white-space:nowrap}
    table.fit td.note{color:var(--muted);min-width:34ch;max-width:60ch}
    .st{display:inline-block;font-size:.78rem;font-weight:600;padding:0 6px;border-radius:9px;white-space:nowrap;
    border:1px solid var(--border)}
    .st.ok{background:var(--best);color:var(--bestfg);border-color:transparent}
    .st.no{background:var(--miss);color:var(--fg)}
    pre.model{background:var(--panel);border:1px solid var(--border);border-radius:6px;padding:10px 12px;
    overflow-x:auto;max-width:80ch;font-size:.85rem;line-height:1.4}
    .facts dd{font-weight:600}
    .sw.ser{border-top-color:var(--c);border-top-width:3px}.sw.ser.d1{border-top-style:dashed}
    .sw.ser.d2{border-top-style:dotted}
    ul.readings{margin:4px 0 0;padding-left:1.1em;font-size:.8rem}
    .sw.box{height:10px;width:14px;border:0;background:var(--c);opacity:.85}
    @media (max-width:640px){
    table.fit,table.fit tbody,table.fit tr,table.fit th,table.fit td{display:block;width:auto;text-align:left}
    table.fit caption{display:block}table.fit thead{display:none}
    table.fit tr{border-bottom:1px solid var(--border);padding:6px 0}
    table.fit th,table.fit td{border:0;padding:1px 0}table.fit td.num{text-align:left}
    table.fit td[data-label]::before{content:attr(data-label) ": ";color:var(--muted)}
    table.fit td.note{min-width:0}}

    """
}
