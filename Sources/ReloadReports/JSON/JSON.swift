/// A JSON value as the tool writes it: the one way the tool writes JSON.
///
/// Every JSON file and message is a `JSON` value written by `text(_:)`:
/// results.json and sweep.json (and the data the pages embed), the check
/// report, baselines, shard part headers, `bench --json`, the JSON Schema,
/// a scenario's canonical text. A value is built by hand, objects keeping
/// their members in the order given, or from an `Encodable`
/// (`JSON(encoding:)`).
///
///     let doc: JSON = [
///       "format": "reloadbench-calibration",
///       "version": 1,
///       "files": ["a.csv", "b.csv"],
///       "estimate": .number(0.4512, decimals: 3),
///       "log": .object([("lines", 1200), ("devices", 40)], layout: .inline),
///     ]
///     doc.text(.document)
///     // {
///     //   "format": "reloadbench-calibration",
///     //   "version": 1,
///     //   "files": ["a.csv", "b.csv"],
///     //   "estimate": 0.451,
///     //   "log": {"lines": 1200, "devices": 40}
///     // }
///
/// Numbers (`number(_:)`): whole numbers up to 2^53 are written as integers
/// (`-0` as `0`), others in Swift's shortest form that reads back exactly
/// (`0.1`, `1e-05`, `1e+16`), non-finite ones as the strings "nan", "inf" and
/// "-inf"; `number(_:decimals:)` writes a stated count of decimals.
/// Strings escape `"`, `\` and control characters (`\n`, `\r`, `\t`, others
/// as `\u00XX`); `/` and everything else is written as it is (UTF-8), but
/// `<` in `JSONStyle.scriptSafe` text.
package struct JSON: Sendable {
  /// How a container (an array or an object) is laid out.
  package enum Layout: Sendable {
    /// As the style says (`JSONStyle.lines`).
    case auto
    /// On one line, everything inside it too.
    case inline
    /// One member per line, indented two spaces deeper than the container
    /// (unless an enclosing container is on one line).
    case lines
  }

  enum Node: Sendable {
    /// `null`, `true`, `false` or a number: written as it is.
    case literal(String)
    case string(String)
    case array([JSON], Layout)
    case object([(key: String, value: JSON)], Layout)
  }

  let node: Node

  init(_ node: Node) { self.node = node }

  package static let null = JSON(.literal("null"))

  package static func bool(_ b: Bool) -> JSON { JSON(.literal(b ? "true" : "false")) }

  package static func string(_ s: String) -> JSON { JSON(.string(s)) }

  /// `d` by the number rule (whole numbers up to 2^53 as integers, others
  /// in their shortest exact form, non-finite ones as "nan", "inf", "-inf").
  package static func number(_ d: Double) -> JSON {
    if d.isNaN { return .string("nan") }
    if d.isInfinite { return .string(d > 0 ? "inf" : "-inf") }
    if d == d.rounded() && abs(d) <= 9_007_199_254_740_992 { return JSON(.literal(String(Int64(d)))) }
    return JSON(.literal(d.description))
  }

  /// `d` with exactly `decimals` digits after the point (`NumberFormat.fixed`),
  /// for values whose precision is stated; non-finite ones as by `number(_:)`.
  package static func number(_ d: Double, decimals: Int) -> JSON {
    d.isFinite ? JSON(.literal(NumberFormat.fixed(d, decimals: decimals))) : number(d)
  }

  /// An integer, exactly.
  package static func integer(_ i: some BinaryInteger) -> JSON { JSON(.literal(String(i))) }

  package static func array(_ items: [JSON], layout: Layout = .auto) -> JSON { JSON(.array(items, layout)) }

  /// An object with `members` in the order given (`JSONStyle.sortedKeys`
  /// sorts them when written).
  package static func object(_ members: [(key: String, value: JSON)], layout: Layout = .auto) -> JSON {
    JSON(.object(members, layout))
  }

  /// `x` written by `json`, or `null`.
  ///
  ///     JSON.optional(row.value, JSON.number)
  package static func optional<T>(_ x: T?, _ json: (T) -> JSON) -> JSON { x.map(json) ?? .null }

  /// The same container laid out by `layout` (a scalar is unchanged).
  package func laidOut(_ layout: Layout) -> JSON {
    switch node {
    case .array(let items, _): return .array(items, layout: layout)
    case .object(let members, _): return .object(members, layout: layout)
    case .literal, .string: return self
    }
  }
}

extension JSON: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
  ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
  package init(stringLiteral s: String) { self = .string(s) }
  package init(integerLiteral i: Int) { self = .integer(i) }
  package init(floatLiteral d: Double) { self = .number(d) }
  package init(booleanLiteral b: Bool) { self = .bool(b) }
  package init(arrayLiteral items: JSON...) { self = .array(items) }
  /// The members in the order written.
  package init(dictionaryLiteral members: (String, JSON)...) {
    self = .object(members.map { (key: $0.0, value: $0.1) })
  }
  package init(nilLiteral: ()) { self = .null }
}

/// How `JSON.text(_:)` writes: separators, which containers go over
/// lines, and the order of keys.
package struct JSONStyle: Sendable {
  /// Which containers of `.auto` layout go over lines.
  package enum Lines: Sendable {
    case none
    case objects
    case all
  }

  /// Between a key and its value.
  package var colon: String
  /// Between the members of a container on one line.
  package var comma: String
  package var lines: Lines
  /// Object keys in order of their Unicode scalars (else in the order given).
  package var sortedKeys: Bool
  /// Text that can stand inside an HTML `<script>` element: in strings,
  /// `</` is written `<\/` and every other `<` `\u003c` (both JSON escapes),
  /// so nothing in it can end the element early (`</script`) or switch
  /// the HTML parser into its double-escaped state (`<!--`, `<script`).
  package var scriptSafe = false

  package init(colon: String, comma: String, lines: Lines, sortedKeys: Bool, scriptSafe: Bool = false) {
    self.colon = colon
    self.comma = comma
    self.lines = lines
    self.sortedKeys = sortedKeys
    self.scriptSafe = scriptSafe
  }

  /// `{"a":1,"b":[1,2]}`, keys sorted: results.json, sweep.json, the check
  /// report, the pages' embedded data, shard part headers, messages
  /// between processes.
  package static let compact = JSONStyle(colon: ":", comma: ",", lines: .none, sortedKeys: true)
  /// `.compact`, safe inside an HTML `<script>` element (`scriptSafe`): the
  /// data report.html and sweep.html embed, and results.json.
  package static let script = JSONStyle(colon: ":", comma: ",", lines: .none, sortedKeys: true, scriptSafe: true)
  /// `{"a": 1, "b": [1, 2]}`, keys sorted: a scenario's canonical text
  /// (its hash), values in messages.
  package static let line = JSONStyle(colon: ": ", comma: ", ", lines: .none, sortedKeys: true)
  /// Every container over lines, `"a" : 1`, keys sorted (the layout of
  /// Foundation's `.prettyPrinted`, `.sortedKeys`, but an empty container
  /// is `[]` or `{}`): baselines, `bench --json`.
  package static let pretty = JSONStyle(colon: " : ", comma: ", ", lines: .all, sortedKeys: true)
  /// Objects over lines, arrays on one line, `"a": 1`, keys in the order
  /// given: documents people read (the JSON Schema).
  package static let document = JSONStyle(colon: ": ", comma: ", ", lines: .objects, sortedKeys: false)
}

extension JSON {
  /// The value as JSON text in `style` (no final newline).
  package func text(_ style: JSONStyle) -> String {
    var out = ""
    write(to: &out, style, depth: 0, inline: false)
    return out
  }

  /// `s` as a JSON string literal, quotes included.
  package static func quoted(_ s: String) -> String {
    var out = ""
    writeString(s, to: &out)
    return out
  }

  func write(to out: inout String, _ style: JSONStyle, depth: Int, inline: Bool) {
    switch node {
    case .literal(let text): out += text
    case .string(let s): JSON.writeString(s, to: &out, scriptSafe: style.scriptSafe)
    case .array(let items, let layout):
      let expand = !inline && (layout == .lines || (layout == .auto && style.lines == .all))
      out += "["
      for (i, item) in items.enumerated() {
        JSON.separate(i, expand: expand, style, depth: depth, to: &out)
        item.write(to: &out, style, depth: depth + 1, inline: !expand)
      }
      if expand && !items.isEmpty { JSON.newline(depth, to: &out) }
      out += "]"
    case .object(let members, let layout):
      let expand = !inline && (layout == .lines || (layout == .auto && style.lines != .none))
      out += "{"
      // Swift's `<` on strings is the order of their Unicode scalars here
      // (keys are ASCII), as Foundation's `.sortedKeys` orders them.
      let ordered = style.sortedKeys ? members.sorted { $0.key < $1.key } : members
      for (i, member) in ordered.enumerated() {
        JSON.separate(i, expand: expand, style, depth: depth, to: &out)
        JSON.writeString(member.key, to: &out, scriptSafe: style.scriptSafe)
        out += style.colon
        member.value.write(to: &out, style, depth: depth + 1, inline: !expand)
      }
      if expand && !members.isEmpty { JSON.newline(depth, to: &out) }
      out += "}"
    }
  }

  /// What goes before the `i`th member of a container.
  static func separate(_ i: Int, expand: Bool, _ style: JSONStyle, depth: Int, to out: inout String) {
    if expand {
      if i > 0 { out += "," }
      newline(depth + 1, to: &out)
    } else if i > 0 {
      out += style.comma
    }
  }

  static func newline(_ depth: Int, to out: inout String) {
    out += "\n"
    for _ in 0..<depth { out += "  " }
  }

  static func writeString(_ s: String, to out: inout String, scriptSafe: Bool = false) {
    out += "\""
    var plain = true
    for u in s.utf8 where u < 0x20 || u == 0x22 || u == 0x5C || (scriptSafe && u == 0x3C) {
      plain = false
      break
    }
    if plain {
      out += s
    } else {
      // With `scriptSafe`, a `<` waits for the next character: `</` is `<\/`.
      var less = false
      for u in s.unicodeScalars {
        if less {
          less = false
          if u == "/" {
            out += "<\\/"
            continue
          }
          out += "\\u003c"
        }
        switch u {
        case "<" where scriptSafe: less = true
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        default:
          if u.value < 0x20 {
            let hex = String(u.value, radix: 16)
            out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
          } else {
            out.unicodeScalars.append(u)
          }
        }
      }
      if less { out += "\\u003c" }
    }
    out += "\""
  }
}
