import ReloadMetrics

/// The scenario's parameters and the model's assumptions, grouped by the
/// part of the model they set, each with its source tag (docs/model.md#source-tags), so a
/// reader sees what is documented and what is assumed.
extension HTMLReport {
  /// The source tags of docs/model.md#source-tags, in legend order, with their meaning.
  static let sourceTags: [(tag: String, meaning: String)] = [
    ("A", "Apple documentation"),
    ("T", "a WWDC talk"),
    ("S", "Apple staff on the developer forums"),
    ("M", "measured by developers"),
    ("F", "folklore: repeated, not verified"),
    ("assumed", "a modelling assumption: a parameter you can change or sweep"),
    ("scenario", "set by the scenario itself"),
  ]

  /// The tags a source string cites, in legend order: "A (depends on
  /// views), value assumed" -> ["A", "assumed"].
  static func tags(in source: String) -> [String] {
    var found = Set<String>()
    for part in source.split(separator: ",") {
      let words = part.split(whereSeparator: { $0 == " " || $0 == "(" || $0 == ")" })
      if let first = words.first, ["A", "T", "S", "M", "F"].contains(String(first)) {
        found.insert(String(first))
      }
      if words.contains("assumed") { found.insert("assumed") }
      if words.contains("scenario") { found.insert("scenario") }
    }
    return sourceTags.map(\.tag).filter(found.contains)
  }

  static func writeParameters(_ results: ScenarioResults, to w: inout _HTMLWriter) {
    let parameters = results.parameters
    w.raw(
      "<section id=\"parameters\" aria-labelledby=\"parameters-h\">"
        + "<h2 id=\"parameters-h\">Parameters and sources</h2>\n<p>"
    )
    w.text(
      "What iOS does with reload requests is only partly documented. Every rule the simulator applies is a "
        + "parameter below, with where its value comes from. Values marked assumed are the model's guesses: "
        + "change them in the scenario file to see whether the recommendation still holds.")
    w.raw("</p>\n<dl class=\"legend\">")
    // Each parameter's tags, found once (the legend counts them per tag).
    let cited = parameters.map { tags(in: $0.source) }
    for (tag, meaning) in sourceTags {
      let count = cited.filter { $0.contains(tag) }.count
      w.raw("<div><dt>")
      writeChip(tag, to: &w)
      w.raw("</dt><dd>")
      w.text(meaning + (parameters.isEmpty ? "" : " (\(count) of \(parameters.count))"))
      w.raw("</dd></div>")
    }
    w.raw("</dl>\n")
    if parameters.isEmpty { w.raw("<p>The results list no parameters.</p>") }
    for (group, items) in grouped(parameters) {
      w.raw("<h3>")
      w.text(group)
      w.raw("</h3><div class=\"scroll\"><table class=\"params\"><thead><tr>")
      w.raw(
        "<th scope=\"col\">Parameter</th><th scope=\"col\">Value</th>"
          + "<th scope=\"col\">Source</th><th scope=\"col\">Notes</th>"
      )
      w.raw("</tr></thead><tbody>")
      for p in items {
        let (status, doc) = splitNote(p.note)
        w.raw("<tr><th scope=\"row\"><code>")
        w.text(p.path.split(separator: ".").last.map(String.init) ?? p.path)
        w.raw("</code></th><td class=\"val\">")
        w.text(p.value)
        if status == "set in scenario" { w.raw(" <span class=\"badge\">set in scenario</span>") }
        w.raw("</td><td class=\"src\">")
        let pTags = tags(in: p.source)
        for tag in pTags { writeChip(tag, to: &w) }
        if p.source != pTags.joined(separator: ", ") {
          w.raw("<span class=\"srcnote\">")
          w.text(p.source)
          w.raw("</span>")
        }
        w.raw("</td><td>")
        writeWithCode(doc, to: &w)
        w.raw("</td></tr>")
      }
      w.raw("</tbody></table></div>\n")
    }
    w.raw("</section>\n")
  }

  /// Writes `text` escaped, with `backticked` spans as `<code>` (the
  /// schema's notes use Markdown-style code spans).
  static func writeWithCode(_ text: String, to w: inout _HTMLWriter) {
    let parts = text.split(separator: "`", omittingEmptySubsequences: false)
    // An odd number of backticks: not code spans, write as is.
    guard parts.count % 2 == 1 else {
      w.text(text)
      return
    }
    for (i, part) in parts.enumerated() {
      if i % 2 == 1 {
        w.raw("<code>")
        w.text(String(part))
        w.raw("</code>")
      } else {
        w.text(String(part))
      }
    }
  }

  static func writeChip(_ tag: String, to w: inout _HTMLWriter) {
    let known = sourceTags.contains { $0.tag == tag }
    w.raw("<span class=\"chip" + (known ? " t-" + tag : "") + "\">")
    w.text(tag)
    w.raw("</span>")
  }

  /// Parameters grouped by path without its last component
  /// ("model.budget"), groups in first-seen order.
  static func grouped(_ parameters: [ParameterFact]) -> [(String, [ParameterFact])] {
    var order: [String] = []
    var groups: [String: [ParameterFact]] = [:]
    for p in parameters {
      var parts = p.path.split(separator: ".").map(String.init)
      if parts.count > 1 { parts.removeLast() }
      let key = parts.joined(separator: ".")
      if groups[key] == nil { order.append(key) }
      groups[key, default: []].append(p)
    }
    return order.map { ($0, groups[$0] ?? []) }
  }

  /// "default: B for ..." -> ("default", "B for ..."); notes without a
  /// known prefix are returned whole.
  static func splitNote(_ note: String) -> (status: String, doc: String) {
    for status in ["default", "set in scenario"] where note.hasPrefix(status + ": ") {
      return (status, String(note.dropFirst(status.count + 2)))
    }
    return ("", note)
  }
}
