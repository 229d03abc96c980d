/// A ridiculously simple HTML/SVG writer: one growing buffer, escaping in
/// one place.
///
/// Every string that reaches the page from a scenario (names, descriptions,
/// segment labels, parameter values) goes through `text(_:)` or an attribute
/// value, both escaped here; `raw(_:)` is only for markup this module writes
/// itself. Appending to one buffer keeps rendering linear in the page size
/// (no nested string concatenation in loops).
///
///     var w = _HTMLWriter()
///     w.open("p", ["class": "lead"])
///     w.text("<script>alert(1)</script>")
///     w.close("p")
///     w.output   // <p class="lead">&lt;script&gt;alert(1)&lt;/script&gt;</p>
struct _HTMLWriter {
  /// The markup written so far.
  private(set) var output: String = ""

  init(reservingCapacity capacity: Int = 0) {
    output.reserveCapacity(capacity)
  }

  /// Appends markup as is. Only for text this module wrote: never scenario data.
  mutating func raw(_ markup: String) {
    output += markup
  }

  /// Appends `string` escaped for element content.
  mutating func text(_ string: String) {
    _HTMLWriter.appendEscaped(string, to: &output)
  }

  /// Opens `<name attr="value" ...>`; attributes are written in the given
  /// order (an array, not a dictionary, so output is deterministic).
  mutating func open(_ name: String, _ attributes: KeyValuePairs<String, String> = [:]) {
    output += "<"
    output += name
    for (key, value) in attributes { attribute(key, value) }
    output += ">"
  }

  /// Writes `<name ...>text</name>` with `text` escaped.
  mutating func element(_ name: String, _ attributes: KeyValuePairs<String, String> = [:], text: String) {
    open(name, attributes)
    self.text(text)
    close(name)
  }

  /// Writes a void or self-closed element: `<name ... />`.
  mutating func empty(_ name: String, _ attributes: KeyValuePairs<String, String> = [:]) {
    output += "<"
    output += name
    for (key, value) in attributes { attribute(key, value) }
    output += "/>"
  }

  /// Closes the element `name`.
  mutating func close(_ name: String) {
    output += "</"
    output += name
    output += ">"
  }

  /// Writes ` key="value"` with `value` escaped. An empty key is skipped,
  /// which lets callers make an attribute optional inside a literal.
  mutating func attribute(_ key: String, _ value: String) {
    guard !key.isEmpty else { return }
    output += " "
    output += key
    output += "=\""
    _HTMLWriter.appendEscaped(value, to: &output)
    output += "\""
  }

  /// `string` escaped for element content and quoted attribute values.
  /// The items of a `<dl class="facts">`: each a term and its value, escaped.
  mutating func factItems(_ facts: [(String, String)]) {
    for (term, value) in facts {
      raw("<div><dt>")
      text(term)
      raw("</dt><dd>")
      text(value)
      raw("</dd></div>")
    }
  }

  static func escape(_ string: String) -> String {
    var out = ""
    out.reserveCapacity(string.utf8.count)
    appendEscaped(string, to: &out)
    return out
  }

  /// Appends `string` with `& < > " '` replaced by character references,
  /// and the space before a `%` made a no-break space (`&#160;`), so a
  /// narrow screen never wraps "95 %" between the number and its sign.
  ///
  /// Escaping all five makes the result safe both as text and inside a
  /// single- or double-quoted attribute value.
  ///
  /// - Complexity: O(n) in the UTF-8 length of `string`.
  static func appendEscaped(_ string: String, to out: inout String) {
    // NOTE: scan UTF-8 and copy clean runs whole, for performance: most
    // strings need no escaping at all.
    let utf8 = string.utf8
    var runStart = utf8.startIndex
    var i = runStart
    while i != utf8.endIndex {
      let replacement: String?
      switch utf8[i] {
      case UInt8(ascii: "&"): replacement = "&amp;"
      case UInt8(ascii: "<"): replacement = "&lt;"
      case UInt8(ascii: ">"): replacement = "&gt;"
      case UInt8(ascii: "\""): replacement = "&quot;"
      case UInt8(ascii: "'"): replacement = "&#39;"
      // Explicit bidirectional embeddings, overrides and isolates
      // (U+202A-U+202E, U+2066-U+2069: E2 80 AA-AE, E2 81 A6-A9) are
      // shown, not obeyed: an unterminated U+202E in a name would
      // otherwise reverse the rest of the report's sentence around it.
      case 0xE2: replacement = bidiControl(utf8, at: i)
      case UInt8(ascii: " "):
        let next = utf8.index(after: i)
        replacement = next != utf8.endIndex && utf8[next] == UInt8(ascii: "%") ? "&#160;" : nil
      default: replacement = nil
      }
      if let replacement {
        out += string[runStart..<i]
        out += replacement
        // A bidi control is three bytes; the others one.
        if utf8[i] == 0xE2 { i = utf8.index(i, offsetBy: 2) }
        runStart = utf8.index(after: i)
      }
      i = utf8.index(after: i)
    }
    if runStart == utf8.startIndex {
      out += string
    } else {
      out += string[runStart..<utf8.endIndex]
    }
  }

  /// The visible form of the bidirectional control starting at `i`
  /// (`[U+202E]`), or nil when the bytes there are not one.
  private static func bidiControl(_ utf8: String.UTF8View, at i: String.UTF8View.Index) -> String? {
    guard let j = utf8.index(i, offsetBy: 1, limitedBy: utf8.endIndex), j != utf8.endIndex,
      let k = utf8.index(j, offsetBy: 1, limitedBy: utf8.endIndex), k != utf8.endIndex
    else { return nil }
    let b1 = utf8[j]
    let b2 = utf8[k]
    let isControl = (b1 == 0x80 && (0xAA...0xAE).contains(b2)) || (b1 == 0x81 && (0xA6...0xA9).contains(b2))
    guard isControl else { return nil }
    let scalar = 0x2000 | (UInt32(b1 & 0x3F) << 6) | UInt32(b2 & 0x3F)
    return "[U+" + String(scalar, radix: 16, uppercase: true) + "]"
  }

  /// The page's header: an eyebrow line, the title, one lead sentence and
  /// the scenario's own description (all escaped).
  mutating func pageHeader(eyebrow: String, title: String, lead: String, description: String) {
    raw("<header class=\"top\"><p class=\"eyebrow\">")
    text(eyebrow)
    raw("</p><h1>")
    text(title)
    raw("</h1>\n<p class=\"lead\">")
    text(lead)
    raw("</p>\n")
    if !description.isEmpty {
      raw("<p class=\"desc\">")
      text(description)
      raw("</p>\n")
    }
    raw("</header>\n")
  }
}
