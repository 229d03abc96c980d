import Foundation
import ReloadReports

/// A JSON document as plain values, from `JSONParser` (RFC 8259, strict).
///
/// Object keys keep no order (JSON has none); code that reports on keys
/// sorts them, so error messages are deterministic.
enum JSONValue: Equatable, Sendable {
  case null
  case bool(Bool)
  case number(Double)
  case string(String)
  case array([JSONValue])
  case object([String: JSONValue])

  /// Parses `data` in one linear pass. Refuses a key given twice in one
  /// object, nesting deeper than `JSONLimits.maxDepth`, numbers beyond a
  /// Double, and anything that is not strict JSON; the error has a line
  /// and a column.
  static func parse(_ data: Data) throws(JSONParseError) -> JSONValue {
    try JSONParser.parse(Array(data))
  }

  /// The JSON kind, as error messages name it.
  var kindName: String {
    switch self {
    case .null: return "null"
    case .bool: return "a boolean"
    case .number: return "a number"
    case .string: return "a string"
    case .array: return "an array"
    case .object: return "an object"
    }
  }

  /// The value as the JSON writer takes it, objects' keys sorted (JSON
  /// gives them no order; sorted, the text is deterministic).
  var json: JSON {
    switch self {
    case .null: return .null
    case .bool(let b): return .bool(b)
    case .number(let d): return .number(d)
    case .string(let s): return .string(s)
    case .array(let a): return .array(a.map(\.json))
    case .object(let o): return .object(o.sorted { $0.key < $1.key }.map { (key: $0.key, value: $0.value.json) })
    }
  }

  /// The value as JSON text on one line with sorted keys (`JSONStyle.line`):
  /// a scenario's canonical text, values in messages.
  var jsonText: String { json.text(.line) }

  /// The start of `jsonText`, at most about `limit` characters, without
  /// writing out the whole of a large value.
  func preview(_ limit: Int) -> String {
    var out = ""
    appendPreview(to: &out, limit: limit)
    return out.count > limit ? String(out.prefix(limit)) : out
  }

  private func appendPreview(to out: inout String, limit: Int) {
    guard out.count <= limit else { return }
    switch self {
    case .null, .bool, .number: out += jsonText
    case .string(let s): out += JSONValue.quote(TerminalText.short(s, max: limit))
    case .array(let a):
      out += "["
      for (i, v) in a.enumerated() {
        if out.count > limit { return }
        if i > 0 { out += ", " }
        v.appendPreview(to: &out, limit: limit)
      }
      out += "]"
    case .object(let o):
      out += "{"
      for (i, (k, v)) in o.sorted(by: { $0.key < $1.key }).enumerated() {
        if out.count > limit { return }
        if i > 0 { out += ", " }
        out += JSONValue.quote(TerminalText.short(k, max: limit)) + ": "
        v.appendPreview(to: &out, limit: limit)
      }
      out += "}"
    }
  }

  /// `s` as a JSON string literal (the same escaping as the reports' JSON).
  static func quote(_ s: String) -> String { JSON.quoted(s) }
}

/// The limits on input files, checked before and while parsing so that no
/// file can take much time or memory before it is refused. Documented in
/// Scenarios/README.md ("Limits").
enum JSONLimits {
  /// Largest scenario file (the shipped ones are under 5 KB).
  static let maxScenarioBytes = 4 << 20
  /// Largest baseline file (a baseline of 100 strategies x 100 segments
  /// is about 10 MB).
  static let maxBaselineBytes = 32 << 20
  /// Deepest nesting of arrays and objects (a scenario needs 6).
  static let maxDepth = 32

  /// "4 MiB" for messages.
  static func size(_ bytes: Int) -> String { "\(bytes >> 20) MiB" }

  /// Reads the file at `path` if it is at most `max` bytes; never reads
  /// more than `max + 1` bytes, so a huge file costs nothing.
  enum ReadResult {
    case data(Data)
    case tooLarge(Int)
    case unreadable
  }

  static func read(_ path: String, max: Int) -> ReadResult {
    if let attrs = try? FileManager.default.attributesOfItem(atPath: path),
      attrs[.type] as? FileAttributeType == .typeRegular,
      let size = (attrs[.size] as? NSNumber)?.intValue, size > max
    {
      return .tooLarge(size)
    }
    guard let handle = FileHandle(forReadingAtPath: path) else { return .unreadable }
    defer { try? handle.close() }
    guard let data = try? handle.read(upToCount: max + 1) else { return .unreadable }
    if data.count > max { return .tooLarge(data.count) }
    return .data(data)
  }
}

/// Why a text is not accepted JSON.
struct JSONParseError: Error {
  enum Kind: Equatable {
    case syntax
    /// The key given twice (the path is the second one's).
    case duplicateKey(String)
    case tooDeep
    case notRepresentable
  }
  let kind: Kind
  /// "line 3, column 14".
  let location: String
  /// JSON path of the value being read (`$.segments[0]`).
  let path: String
  let detail: String
}

/// A strict RFC 8259 parser in one pass over the bytes: time and memory
/// linear in the input, nesting bounded by `JSONLimits.maxDepth`.
struct JSONParser {
  private let bytes: [UInt8]
  private var i = 0
  private var depth = 0
  /// The path of the value being read, for errors only.
  private var pathParts: [PathPart] = []

  private enum PathPart {
    case key(String)
    case index(Int)
  }

  static func parse(_ bytes: [UInt8], maxDepth: Int = JSONLimits.maxDepth) throws(JSONParseError) -> JSONValue {
    var p = JSONParser(bytes: bytes, maxDepth: maxDepth)
    // A UTF-8 byte order mark is allowed before the text.
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { p.i = 3 }
    p.skipSpace()
    let v = try p.value()
    p.skipSpace()
    if p.i < bytes.count { throw p.error(.syntax, "unexpected text after the JSON value") }
    return v
  }

  private let maxDepth: Int

  private init(bytes: [UInt8], maxDepth: Int) {
    self.bytes = bytes
    self.maxDepth = maxDepth
  }

  private var path: String {
    var s = "$"
    for part in pathParts {
      switch part {
      case .key(let k):
        let plain =
          !k.isEmpty
          && k.utf8.allSatisfy {
            ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x5F
          }
        let short = TerminalText.short(k)
        s += plain ? "." + short : "[" + JSONValue.quote(short) + "]"
      case .index(let n): s += "[\(n)]"
      }
    }
    return s
  }

  private func error(_ kind: JSONParseError.Kind, _ detail: String, at offset: Int? = nil) -> JSONParseError {
    let offset = min(offset ?? i, bytes.count)
    var line = 1
    var lineStart = 0
    for k in 0..<offset where bytes[k] == 0x0A {
      line += 1
      lineStart = k + 1
    }
    // Column in characters: count the bytes that start a UTF-8 scalar.
    var column = 1
    for k in lineStart..<offset where bytes[k] & 0xC0 != 0x80 { column += 1 }
    return JSONParseError(kind: kind, location: "line \(line), column \(column)", path: path, detail: detail)
  }

  private mutating func skipSpace() {
    while i < bytes.count {
      switch bytes[i] {
      case 0x20, 0x09, 0x0A, 0x0D: i += 1
      default: return
      }
    }
  }

  private func describeByte(_ offset: Int) -> String {
    guard offset < bytes.count else { return "the end of the file" }
    let b = bytes[offset]
    if b >= 0x21 && b < 0x7F { return "'\(Character(Unicode.Scalar(b)))'" }
    return String(format: "byte 0x%02X", b)
  }

  private mutating func value() throws(JSONParseError) -> JSONValue {
    guard i < bytes.count else { throw error(.syntax, "expected a value, found the end of the file") }
    switch bytes[i] {
    case UInt8(ascii: "{"): return try object()
    case UInt8(ascii: "["): return try array()
    case UInt8(ascii: "\""): return .string(try string())
    case UInt8(ascii: "t"):
      try literal("true")
      return .bool(true)
    case UInt8(ascii: "f"):
      try literal("false")
      return .bool(false)
    case UInt8(ascii: "n"):
      try literal("null")
      return .null
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
    default: throw error(.syntax, "expected a value, found \(describeByte(i))")
    }
  }

  private mutating func literal(_ word: String) throws(JSONParseError) {
    let w = word.utf8
    guard i + w.count <= bytes.count, bytes[i..<(i + w.count)].elementsEqual(w) else {
      throw error(.syntax, "expected a value, found \(describeByte(i))")
    }
    i += w.count
  }

  private mutating func enter() throws(JSONParseError) {
    depth += 1
    if depth > maxDepth {
      throw error(.tooDeep, "arrays and objects nest more than \(maxDepth) deep")
    }
  }

  private mutating func object() throws(JSONParseError) -> JSONValue {
    try enter()
    i += 1
    var o: [String: JSONValue] = [:]
    skipSpace()
    if i < bytes.count, bytes[i] == UInt8(ascii: "}") {
      i += 1
      depth -= 1
      return .object(o)
    }
    while true {
      skipSpace()
      guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else {
        throw error(.syntax, "expected a key in double quotes, found \(describeByte(i))")
      }
      let keyStart = i
      let key = try string()
      skipSpace()
      guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else {
        throw error(.syntax, "expected ':' after the key, found \(describeByte(i))")
      }
      i += 1
      skipSpace()
      pathParts.append(.key(key))
      if o[key] != nil {
        throw error(.duplicateKey(key), "the key \(JSONValue.quote(key)) is given twice", at: keyStart)
      }
      o[key] = try value()
      pathParts.removeLast()
      skipSpace()
      guard i < bytes.count else { throw error(.syntax, "the object is not closed (expected ',' or '}')") }
      if bytes[i] == UInt8(ascii: ",") {
        i += 1
        continue
      }
      if bytes[i] == UInt8(ascii: "}") {
        i += 1
        depth -= 1
        return .object(o)
      }
      throw error(.syntax, "expected ',' or '}' in the object, found \(describeByte(i))")
    }
  }

  private mutating func array() throws(JSONParseError) -> JSONValue {
    try enter()
    i += 1
    var a: [JSONValue] = []
    skipSpace()
    if i < bytes.count, bytes[i] == UInt8(ascii: "]") {
      i += 1
      depth -= 1
      return .array(a)
    }
    pathParts.append(.index(0))
    while true {
      pathParts[pathParts.count - 1] = .index(a.count)
      skipSpace()
      a.append(try value())
      skipSpace()
      guard i < bytes.count else { throw error(.syntax, "the array is not closed (expected ',' or ']')") }
      if bytes[i] == UInt8(ascii: ",") {
        i += 1
        continue
      }
      if bytes[i] == UInt8(ascii: "]") {
        i += 1
        depth -= 1
        pathParts.removeLast()
        return .array(a)
      }
      throw error(.syntax, "expected ',' or ']' in the array, found \(describeByte(i))")
    }
  }

  private static func hex(_ b: UInt8) -> UInt32? {
    switch b {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(b - UInt8(ascii: "0"))
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(b - UInt8(ascii: "a") + 10)
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(b - UInt8(ascii: "A") + 10)
    default: return nil
    }
  }

  private mutating func hex4() throws(JSONParseError) -> UInt32 {
    guard i + 4 <= bytes.count else { throw error(.syntax, "\\u needs four hex digits") }
    var v: UInt32 = 0
    for k in 0..<4 {
      guard let h = Self.hex(bytes[i + k]) else { throw error(.syntax, "\\u needs four hex digits", at: i + k) }
      v = v << 4 | h
    }
    i += 4
    return v
  }

  /// A string literal starting at the quote at `i`.
  private mutating func string() throws(JSONParseError) -> String {
    let start = i
    i += 1
    var runStart = i
    var out: [UInt8] = []
    var escaped = false
    while true {
      guard i < bytes.count else { throw error(.syntax, "the string is not closed (missing '\"')", at: start) }
      let b = bytes[i]
      if b == UInt8(ascii: "\"") { break }
      if b < 0x20 {
        throw error(
          .syntax,
          "a control character (byte 0x\(String(b, radix: 16, uppercase: true))) inside a string; write it as an "
            + "escape such as \\n"
        )
      }
      if b != UInt8(ascii: "\\") {
        i += 1
        continue
      }
      escaped = true
      out.append(contentsOf: bytes[runStart..<i])
      i += 1
      guard i < bytes.count else { throw error(.syntax, "the string is not closed (missing '\"')", at: start) }
      let e = bytes[i]
      i += 1
      switch e {
      case UInt8(ascii: "\""): out.append(0x22)
      case UInt8(ascii: "\\"): out.append(0x5C)
      case UInt8(ascii: "/"): out.append(0x2F)
      case UInt8(ascii: "b"): out.append(0x08)
      case UInt8(ascii: "f"): out.append(0x0C)
      case UInt8(ascii: "n"): out.append(0x0A)
      case UInt8(ascii: "r"): out.append(0x0D)
      case UInt8(ascii: "t"): out.append(0x09)
      case UInt8(ascii: "u"):
        var scalar = try hex4()
        if scalar >= 0xD800 && scalar < 0xDC00 {
          guard i + 2 <= bytes.count, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u") else {
            throw error(.syntax, "\\u escape of a lone high surrogate (a UTF-16 pair needs both halves)")
          }
          i += 2
          let low = try hex4()
          guard low >= 0xDC00 && low < 0xE000 else {
            throw error(.syntax, "\\u escape of a high surrogate not followed by a low one")
          }
          scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
        } else if scalar >= 0xDC00 && scalar < 0xE000 {
          throw error(.syntax, "\\u escape of a lone low surrogate")
        }
        // Not a surrogate, so a valid scalar.
        guard let s = Unicode.Scalar(scalar) else { throw error(.syntax, "\\u escape of no Unicode scalar") }
        out.append(contentsOf: String(Character(s)).utf8)
      default:
        throw error(.syntax, "unknown escape \\\(describeByte(i - 1)) in a string", at: i - 2)
      }
      runStart = i
    }
    let end = i
    i += 1
    let text: String?
    if escaped {
      out.append(contentsOf: bytes[runStart..<end])
      text = String(validating: out, as: UTF8.self)
    } else {
      text = String(validating: bytes[(start + 1)..<end], as: UTF8.self)
    }
    guard let text else { throw error(.syntax, "a string is not valid UTF-8", at: start) }
    return text
  }

  private mutating func number() throws(JSONParseError) -> Double {
    let start = i
    func digit(_ k: Int) -> Bool { k < bytes.count && bytes[k] >= 0x30 && bytes[k] <= 0x39 }
    if bytes[i] == UInt8(ascii: "-") { i += 1 }
    guard digit(i) else { throw error(.syntax, "expected a digit in the number") }
    if bytes[i] == UInt8(ascii: "0") {
      i += 1
      if digit(i) { throw error(.syntax, "a number cannot start with 0 (write 7, not 07)", at: start) }
    } else {
      while digit(i) { i += 1 }
    }
    var integral = true
    if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
      integral = false
      i += 1
      guard digit(i) else { throw error(.syntax, "expected a digit after the decimal point") }
      while digit(i) { i += 1 }
    }
    if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
      integral = false
      i += 1
      if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
      guard digit(i) else { throw error(.syntax, "expected a digit in the exponent") }
      while digit(i) { i += 1 }
    }
    let text = String(decoding: bytes[start..<i], as: UTF8.self)
    // Whole numbers read as integers first (so "-0" is 0, as before).
    if integral, let n = Int64(text) { return Double(n) }
    guard let d = Double(text), d.isFinite else {
      throw error(
        .notRepresentable,
        "the number \(text.count > 40 ? text.prefix(40) + "..." : text) is not representable as a double", at: start)
    }
    return d
  }
}
