/// The three files `reloadbench calibrate` writes: calibration.json (with
/// the `model` block), calibration.csv (one row per parameter) and
/// calibration.html (each parameter with its interval and support, and the
/// observed curves against the fitted model's simulation when one was run).
public enum CalibrationReport {
  public static let files = ["calibration.json", "calibration.csv", "calibration.html"]

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
      var f = "    {\"field\": \(jsonString(p.field.path)), \"label\": \(jsonString(p.label)), \"status\": \"\(p.status.rawValue)\", "
      if let choice = p.choice { f += "\"choice\": \(jsonString(choice)), " }
      f += "\"estimate\": \(jsonNumber(p.estimate)), \"low\": \(jsonNumber(p.low)), \"high\": \(jsonNumber(p.high)), "
      f += "\"unit\": \(jsonString(p.unit)), \"devices\": \(p.devices), \"device_days\": \(p.days), \"note\": \(jsonString(p.note))}"
      return f
    }.joined(separator: ",\n")
    s += "\n  ],\n  \"simulated\": \(simulated == nil ? "false" : "true")\n}\n"
    return s
  }

  public static func csv(_ c: Calibration) -> String {
    func q(_ s: String) -> String { s.contains(",") || s.contains("\"") ? "\"" + s.replacingAll("\"", "\"\"") + "\"" : s }
    var s = "field,status,choice,estimate,low,high,unit,devices,device_days,note\n"
    for p in c.parameters {
      s += [p.field.path, p.status.rawValue, p.choice ?? "", num(p.estimate), num(p.low), num(p.high), q(p.unit), String(p.devices), String(p.days), q(p.note)]
        .joined(separator: ",") + "\n"
    }
    return s
  }

  // MARK: - HTML

  static func esc(_ s: String) -> String {
    var out = ""
    for ch in s {
      switch ch {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      default: out.append(ch)
      }
    }
    return out
  }

  public static func html(_ c: Calibration, simulated: Calibration.Curves?, scenario: String?) -> String {
    var h = """
      <!doctype html>
      <html lang="en"><head><meta charset="utf-8">
      <meta name="viewport" content="width=device-width, initial-scale=1">
      <title>Calibration</title>
      <style>
      :root { color-scheme: light dark; --fg:#1d1d1f; --muted:#5f6368; --bg:#fff; --line:#d0d4da; --obs:#1f6feb; --sim:#d1495b; --ok:#1a7f37; --warn:#9a6700; --card:#f6f8fa; }
      @media (prefers-color-scheme: dark) { :root { --fg:#e6edf3; --muted:#9da7b3; --bg:#0d1117; --line:#30363d; --obs:#58a6ff; --sim:#ff7b72; --ok:#3fb950; --warn:#d29922; --card:#161b22; } }
      body { font: 15px/1.45 -apple-system, system-ui, sans-serif; color: var(--fg); background: var(--bg); margin: 0 auto; padding: 16px; max-width: 1100px; }
      h1 { font-size: 1.5em; margin: 0.2em 0; } h2 { font-size: 1.15em; margin-top: 1.6em; }
      .muted { color: var(--muted); }
      .table-wrap { overflow-x: auto; }
      table { border-collapse: collapse; width: 100%; font-size: 0.92em; }
      th, td { text-align: left; padding: 6px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
      table.params td:first-child { min-width: 15em; }
      td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
      .identified, .observed { color: var(--ok); } .too_few_data, .not_identifiable { color: var(--warn); }
      pre { background: var(--card); padding: 10px; overflow-x: auto; border-radius: 6px; }
      .charts { display: grid; grid-template-columns: repeat(auto-fit, minmax(320px, 1fr)); gap: 16px; }
      figure { margin: 0; background: var(--card); border-radius: 6px; padding: 8px; }
      figcaption { font-size: 0.9em; margin-bottom: 4px; }
      svg { width: 100%; height: auto; display: block; }
      svg text { fill: var(--muted); font-size: 11px; }
      code { overflow-wrap: break-word; }
      @media (max-width: 700px) {
        table.params, table.params tbody, table.params tr, table.params td { display: block; width: auto; }
        table.params thead { display: none; }
        table.params tr { border-bottom: 1px solid var(--line); padding: 6px 0; }
        table.params td { border: 0; padding: 2px 4px; text-align: left; }
        table.params td[data-label]::before { content: attr(data-label) ": "; color: var(--muted); }
      }
      .legend span { display: inline-block; margin-right: 12px; font-size: 0.88em; }
      .sw { display: inline-block; width: 12px; height: 3px; vertical-align: middle; margin-right: 4px; }
      </style></head><body>
      <h1>Calibration from reload logs</h1>

      """
    h += "<p class=\"muted\">\(Fitter.count(c.lines, "line")) from \(Fitter.count(c.files.count, "file")): \(Fitter.count(c.devices, "device")), \(Fitter.count(c.deviceDays, "complete device-day")). "
    h += "Intervals are 95 % bootstrap intervals over devices.</p>\n"
    let dropped = c.dropped.filter { $0.count > 0 }
    if !dropped.isEmpty {
      h += "<p>Dropped: " + dropped.map { "\($0.count) \(esc($0.what))" }.joined(separator: "; ") + ".</p>\n"
    }
    h += "<h2>Parameters</h2>\n<div class=\"table-wrap\"><table class=\"params\"><thead><tr><th>parameter</th><th>status</th><th>estimate</th><th>95 % interval</th><th>devices / days</th><th>how read, or what to log</th></tr></thead><tbody>\n"
    for p in c.parameters {
      let choice = p.choice
      var est = p.estimate.map { num($0) + (p.unit.isEmpty ? "" : " " + esc(p.unit)) } ?? "—"
      if let choice { est = "<b>\(esc(choice))</b> (" + est + ")" }
      let interval = p.low.map { "\(num($0)) – \(num(p.high))" } ?? "—"
      h += "<tr><td><code>\(breakable(p.field.path))</code><br><span class=\"muted\">\(esc(p.label))</span></td>"
      h += "<td class=\"\(p.status.rawValue)\" data-label=\"status\">\(p.status.rawValue.replacingAll("_", " "))</td>"
      h += "<td class=\"num\" data-label=\"estimate\">\(est)</td><td class=\"num\" data-label=\"95 % interval\">\(interval)</td>"
      h += "<td class=\"num\" data-label=\"devices / days\">\(p.devices) / \(p.days)</td><td>\(esc(p.note))</td></tr>\n"
    }
    h += "</tbody></table></div>\n"
    h += "<h2>The model block</h2>\n<p>Paste into a scenario's <code>model</code> (only identified parameters):</p>\n<pre>\(esc(c.model.scenarioJSON()))</pre>\n"
    h += "<h2>Observed against simulated</h2>\n"
    if let scenario {
      h += "<p class=\"muted\">Simulated: <code>\(esc(scenario))</code> with the fitted model block.</p>\n"
    } else {
      h += "<p class=\"muted\">Observed only: pass <code>--scenario FILE</code> to draw the fitted model's simulation of your users next to it.</p>\n"
    }
    h += "<p class=\"legend\"><span><i class=\"sw\" style=\"background:var(--obs)\"></i>observed</span>"
    if simulated != nil { h += "<span><i class=\"sw\" style=\"background:var(--sim)\"></i>simulated (fitted model)</span>" }
    h += "</p>\n<div class=\"charts\">\n"
    h += figure("Budgeted reloads per widget-day", histogram(c.curves.reloadsPerDay, simulated?.reloadsPerDay, log: false, unit: "reloads"))
    h += figure("Intervals between budgeted reloads (minutes, log scale)", histogram(c.curves.intervalsMin, simulated?.intervalsMin, log: true, unit: "min"))
    h += figure("Lateness of .after / .atEnd reloads (CDF, minutes)", cdf(c.curves.latenessS.map { $0 / 60 }, simulated?.latenessS.map { $0 / 60 }))
    h += "</div>\n</body></html>\n"
    return h
  }

  /// A field name that may wrap after its dots and underscores (not inside a word).
  static func breakable(_ field: String) -> String {
    var out = ""
    for c in esc(field) {
      out.append(c)
      if c == "." || c == "_" { out += "<wbr>" }
    }
    return out
  }

  /// An axis label: whole numbers from 10, else at most two decimals, no trailing zeros.
  static func tick(_ v: Double) -> String {
    if abs(v) >= 10 { return String(Int(v.rounded())) }
    var s = String(Int((abs(v) * 100).rounded()))
    while s.count < 3 { s = "0" + s }
    s.insert(".", at: s.index(s.endIndex, offsetBy: -2))
    while s.hasSuffix("0") { s.removeLast() }
    if s.hasSuffix(".") { s.removeLast() }
    return (v < 0 && s != "0" ? "-" : "") + s
  }

  static func figure(_ caption: String, _ svg: String) -> String {
    "<figure><figcaption>\(esc(caption))</figcaption>\(svg)</figure>\n"
  }

  static let width = 360.0, height = 200.0, left = 40.0, bottom = 28.0, top = 8.0, right = 10.0

  /// Share of values per bin, observed and simulated.
  static func histogram(_ obs: [Double], _ sim: [Double]?, log: Bool, unit: String) -> String {
    let all = obs + (sim ?? [])
    guard !all.isEmpty else { return empty() }
    let positive = all.filter { $0 > 0 }
    let lo0 = log ? max(0.1, positive.min() ?? 0.1) : 0
    let hi0 = Stats.quantile(all, 0.995)
    let lo = log ? Double.log(lo0) : lo0
    let hi = max(lo + 1e-9, log ? Double.log(max(hi0, lo0 * 1.5)) : max(hi0, 1))
    let bins = 30
    func shares(_ v: [Double]) -> [Double] {
      var c = Array(repeating: 0.0, count: bins)
      for x in v {
        let t = log ? Double.log(max(x, lo0)) : x
        let b = Int(((t - lo) / (hi - lo) * Double(bins)).rounded(.down))
        c[min(bins - 1, max(0, b))] += 1
      }
      return c.map { $0 / Double(max(1, v.count)) }
    }
    let o = shares(obs), s = sim.map(shares)
    let ymax = max(o.max() ?? 0, s?.max() ?? 0, 1e-9)
    let pw = width - left - right, ph = height - top - bottom
    var svg = frame()
    func x(_ b: Double) -> Double { left + b / Double(bins) * pw }
    func y(_ v: Double) -> Double { top + ph - v / ymax * ph }
    for (i, v) in o.enumerated() where v > 0 {
      svg += "<rect x=\"\(f(x(Double(i)) + 0.5))\" y=\"\(f(y(v)))\" width=\"\(f(pw / Double(bins) - 1))\" height=\"\(f(top + ph - y(v)))\" fill=\"var(--obs)\" opacity=\"0.75\"/>"
    }
    if let s {
      var path = ""
      for (i, v) in s.enumerated() {
        path += (i == 0 ? "M" : "L") + "\(f(x(Double(i)))),\(f(y(v)))L\(f(x(Double(i + 1)))),\(f(y(v)))"
      }
      svg += "<path d=\"\(path)\" fill=\"none\" stroke=\"var(--sim)\" stroke-width=\"2\"/>"
    }
    // Axis labels: ends and middle.
    for k in 0...2 {
      let t = lo + (hi - lo) * Double(k) / 2
      let v = log ? Double.exp(t) : t
      let anchor = k == 0 ? "start" : k == 2 ? "end" : "middle"
      svg += "<text x=\"\(f(x(Double(bins) * Double(k) / 2)))\" y=\"\(f(height - 10))\" text-anchor=\"\(anchor)\">\(tick(v)) \(unit)</text>"
    }
    svg += "<text x=\"\(f(left - 4))\" y=\"\(f(top + 10))\" text-anchor=\"end\">\(Int((ymax * 100).rounded())) %</text>"
    return svg + "</svg>"
  }

  static func cdf(_ obs: [Double], _ sim: [Double]?) -> String {
    let all = obs + (sim ?? [])
    guard !all.isEmpty else { return empty() }
    let lo = min(0, Stats.quantile(all, 0.005)), hi = max(lo + 1e-9, Stats.quantile(all, 0.995))
    let pw = width - left - right, ph = height - top - bottom
    func x(_ v: Double) -> Double { left + (min(max(v, lo), hi) - lo) / (hi - lo) * pw }
    func y(_ p: Double) -> Double { top + ph - p * ph }
    func path(_ v: [Double]) -> String {
      let s = v.sorted()
      let step = max(1, s.count / 200)
      var d = "M\(f(x(s[0]))),\(f(y(0)))"
      var i = 0
      while i < s.count {
        d += "L\(f(x(s[i]))),\(f(y(Double(i + 1) / Double(s.count))))"
        i += step
      }
      d += "L\(f(x(s[s.count - 1]))),\(f(y(1)))"
      return d
    }
    var svg = frame()
    if !obs.isEmpty { svg += "<path d=\"\(path(obs))\" fill=\"none\" stroke=\"var(--obs)\" stroke-width=\"2\"/>" }
    if let sim, !sim.isEmpty { svg += "<path d=\"\(path(sim))\" fill=\"none\" stroke=\"var(--sim)\" stroke-width=\"2\" stroke-dasharray=\"5 3\"/>" }
    for k in 0...2 {
      let v = lo + (hi - lo) * Double(k) / 2
      let anchor = k == 0 ? "start" : k == 2 ? "end" : "middle"
      svg += "<text x=\"\(f(x(v)))\" y=\"\(f(height - 10))\" text-anchor=\"\(anchor)\">\(tick(v)) min</text>"
    }
    svg += "<text x=\"\(f(left - 4))\" y=\"\(f(top + 10))\" text-anchor=\"end\">100 %</text>"
    svg += "<text x=\"\(f(left - 4))\" y=\"\(f(top + ph))\" text-anchor=\"end\">0 %</text>"
    return svg + "</svg>"
  }

  static func frame() -> String {
    let ph = height - top - bottom
    return "<svg viewBox=\"0 0 \(Int(width)) \(Int(height))\" role=\"img\">"
      + "<line x1=\"\(f(left))\" y1=\"\(f(top + ph))\" x2=\"\(f(width - right))\" y2=\"\(f(top + ph))\" stroke=\"var(--line)\"/>"
      + "<line x1=\"\(f(left))\" y1=\"\(f(top))\" x2=\"\(f(left))\" y2=\"\(f(top + ph))\" stroke=\"var(--line)\"/>"
  }

  static func empty() -> String {
    frame() + "<text x=\"\(f(width / 2))\" y=\"\(f(height / 2))\" text-anchor=\"middle\">no data in the log</text></svg>"
  }

  static func f(_ v: Double) -> String { String(Int((v * 10).rounded()) / 10) + "." + String(abs(Int((v * 10).rounded())) % 10) }
}

extension String {
  func replacingAll(_ a: Character, _ b: String) -> String {
    var out = ""
    for c in self { if c == a { out += b } else { out.append(c) } }
    return out
  }
}
