extension CalibrationPage {
  /// What the log says of one of the model's assumptions: the reading it
  /// supports (or that it cannot tell them apart), the runner-up and its
  /// margin, what it rules out, and why or what to log.
  package struct Verdict {
    /// The assumption's key (`budget_accrual`), as `reloadbench list --assumptions` names it.
    package var assumption: String
    /// What is assumed, in a line.
    package var summary: String
    /// "supported", "narrowed" or "cannot tell apart".
    package var verdict: String
    /// The reading the log supports, if any.
    package var supported: String?
    /// The next best reading with its margin ("default: +0.190 [0.170, 0.210] per request"), if scored.
    package var runnerUp: String?
    package var allowed: [String]
    package var ruledOut: [String]
    /// Each reading's fit in a line, best first.
    package var readings: [String]
    package var note: String

    package init(
      assumption: String, summary: String, verdict: String, supported: String?, runnerUp: String?,
      allowed: [String], ruledOut: [String], readings: [String], note: String
    ) {
      self.assumption = assumption
      self.summary = summary
      self.verdict = verdict
      self.supported = supported
      self.runnerUp = runnerUp
      self.allowed = allowed
      self.ruledOut = ruledOut
      self.readings = readings
      self.note = note
    }
  }

  func writeAssumptions(to w: inout _HTMLWriter) {
    guard !verdicts.isEmpty else { return }
    w.raw(
      "<section id=\"assumptions\" aria-labelledby=\"assumptions-h\"><h2 id=\"assumptions-h\">"
        + "The model's assumptions</h2>\n<p>")
    w.text(
      "For each assumption the log can speak to (docs/model.md#assumptions), the reading it supports, the "
        + "runner-up with its margin (a held-out score per request: more is a worse fit; the 95 % interval is a "
        + "bootstrap over devices), and the readings it rules out. ")
    w.element("code", text: "robustness --calibration calibration.json")
    w.text(" runs only the readings allowed.")
    w.raw("</p>\n<div class=\"scroll\"><table class=\"fit\"><caption>")
    w.text("What the log says of the model's assumptions, by the readings' names in reloadbench list --assumptions")
    w.raw("</caption><thead><tr>")
    for c in ["Assumption", "Verdict", "Runner-up (margin, 95 %)", "Ruled out", "How read, or what to log"] {
      w.element("th", ["scope": "col"], text: c)
    }
    w.raw("</tr></thead><tbody>\n")
    for v in verdicts { write(v, to: &w) }
    w.raw("</tbody></table></div>\n</section>\n")
  }

  func write(_ v: Verdict, to w: inout _HTMLWriter) {
    w.raw("<tr><th scope=\"row\"><code>")
    Self.writeBreakable(v.assumption, to: &w)
    w.raw("</code><span class=\"what\">")
    w.text(v.summary)
    w.raw("</span></th><td data-label=\"verdict\"><span class=\"st " + (v.supported != nil ? "ok" : "no") + "\">")
    w.text(v.verdict)
    w.raw("</span>")
    if let s = v.supported {
      w.raw(" ")
      w.element("b", text: s)
    }
    w.raw("</td><td data-label=\"runner-up\">")
    w.text(v.runnerUp ?? "–")
    w.raw("</td><td data-label=\"ruled out\">")
    w.text(v.ruledOut.isEmpty ? "none" : v.ruledOut.joined(separator: ", "))
    w.raw("</td><td class=\"note\">")
    w.text(v.note)
    if !v.readings.isEmpty {
      w.raw("<ul class=\"readings\">")
      for r in v.readings { w.element("li", text: r) }
      w.raw("</ul>")
    }
    w.raw("</td></tr>\n")
  }
}
