import ReloadMetrics
import WidgetModel

/// Checks a JSON value against a `SchemaType`, reporting the first problem
/// with its JSON path and a fix.
enum SchemaValidator {
  static func validate(_ value: JSONValue, _ type: SchemaType, path: String) throws(ScenarioError) {
    switch type {
    case .null:
      guard case .null = value else { throw wrongType(path, "null", value) }
    case .clockTime:
      guard case .string(let s) = value else { throw wrongType(path, "a clock time", value, example: "\"07:30\"") }
      guard ClockTime.minutes(s) != nil else {
        throw ScenarioError(
          path: path, message: "\(TerminalText.quoted(s)) is not a clock time",
          fix: "write \"HH:MM\" on a 24-hour clock, from \"00:00\" to \"23:59\", e.g. \"07:05\"")
      }
    case .boolean:
      guard case .bool = value else { throw wrongType(path, "true or false", value, example: "true") }
    case .string(let choices):
      guard case .string(let s) = value else { throw wrongType(path, "a string", value, example: "\"...\"") }
      if let choices, !choices.contains(s) {
        let hint =
          nearest(s, in: choices).map { "did you mean \"\($0)\"?" }
          ?? "use one of " + choices.map { "\"\($0)\"" }.joined(separator: ", ")
        throw ScenarioError(path: path, message: "\(TerminalText.quoted(s)) is not a valid value", fix: hint)
      }
    case .integer(let lo, let hi):
      guard case .number(let d) = value else { throw wrongType(path, "a whole number", value, example: "10") }
      guard d.isFinite, abs(d) <= 9_007_199_254_740_991 else {
        throw ScenarioError(
          path: path, message: "is too large, got \(d)", fix: "use a whole number" + SchemaType.range(lo, hi, false))
      }
      guard d == d.rounded() else {
        var suggestion = d.rounded(.down)
        if let lo, suggestion < lo { suggestion = lo.rounded(.up) }
        if let hi, suggestion > hi { suggestion = hi.rounded(.down) }
        throw ScenarioError(
          path: path, message: "must be a whole number, got \(format(d))",
          fix: "use an integer such as \(format(suggestion))")
      }
      try checkRange(d, lo, hi, false, path)
    case .number(let lo, let hi, let exclusive):
      guard case .number(let d) = value else { throw wrongType(path, "a number", value, example: "1.5") }
      guard d.isFinite else {
        throw ScenarioError(path: path, message: "must be finite", fix: "use an ordinary number")
      }
      try checkRange(d, lo, hi, exclusive, path)
    case .array(let item, let lo, let hi):
      guard case .array(let items) = value else { throw wrongType(path, "an array", value, example: "[...]") }
      if let lo, items.count < lo {
        throw ScenarioError(
          path: path, message: "has \(items.count) item\(items.count == 1 ? "" : "s"), needs at least \(lo)",
          fix: lo == hi ? "give exactly \(lo) values" : "add \(lo - items.count) more")
      }
      if let hi, items.count > hi {
        throw ScenarioError(
          path: path, message: "has \(items.count) items, allows at most \(hi)",
          fix: lo == hi ? "give exactly \(hi) values" : "remove \(items.count - hi)")
      }
      for (i, v) in items.enumerated() { try validate(v, item, path: "\(path)[\(i)]") }
    case .object(let spec):
      try validateObject(value, spec, path: path)
    case .tagged(let key, let variants):
      guard case .object(let o) = value else { throw wrongType(path, "an object", value, example: "{\"\(key)\": ...}") }
      let tags = variants.map(\.tag)
      guard case .string(let tag)? = o[key] else {
        throw ScenarioError(
          path: "\(path).\(key)", message: "missing or not a string",
          fix: "add \"\(key)\": one of " + tags.map { "\"\($0)\"" }.joined(separator: ", "))
      }
      guard let variant = variants.first(where: { $0.tag == tag }) else {
        let hint =
          nearest(tag, in: tags).map { "did you mean \"\($0)\"?" }
          ?? "use one of " + tags.map { "\"\($0)\"" }.joined(separator: ", ")
        throw ScenarioError(
          path: "\(path).\(key)", message: "\(TerminalText.quoted(tag)) is not a valid value", fix: hint)
      }
      try validateObject(value, variant.object, path: path)
    case .anyOf(let alternatives):
      for alt in alternatives where kindMatches(value, alt) {
        try validate(value, alt, path: path)
        return
      }
      throw ScenarioError(
        path: path, message: "is \(value.kindName); expected " + alternatives.map(kindPhrase).joined(separator: " or "),
        fix: "see the field reference in Scenarios/README.md")
    }
  }

  static func validateObject(_ value: JSONValue, _ spec: SchemaObject, path: String) throws(ScenarioError) {
    guard case .object(let o) = value else { throw wrongType(path, "an object", value, example: "{...}") }
    let keys = spec.fields.map(\.key)
    for key in o.keys.sorted() where spec.field(key) == nil {
      let hint =
        nearest(key, in: keys).map { "did you mean \"\($0)\"?" }
        ?? "valid keys here: " + keys.joined(separator: ", ")
      throw ScenarioError(path: "\(path).\(TerminalText.short(key))", message: "unknown key", fix: hint)
    }
    for field in spec.fields {
      guard let v = o[field.key] else {
        if field.required {
          throw ScenarioError(
            path: "\(path).\(field.key)", message: "is missing",
            fix: "add \"\(field.key)\" (\(field.type.plainSummary))")
        }
        continue
      }
      try validate(v, field.type, path: "\(path).\(field.key)")
    }
  }

  static func kindMatches(_ value: JSONValue, _ type: SchemaType) -> Bool {
    switch (value, type) {
    case (.null, .null), (.bool, .boolean), (.string, .string), (.string, .clockTime), (.number, .integer),
      (.number, .number),
      (.array, .array), (.object, .object), (.object, .tagged):
      return true
    default:
      return false
    }
  }

  static func kindPhrase(_ type: SchemaType) -> String {
    switch type {
    case .null: return "null"
    case .boolean: return "a boolean"
    case .string: return "a string"
    case .clockTime: return "a clock time"
    case .integer, .number: return "a number"
    case .array: return "an array"
    case .object, .tagged: return "an object"
    case .anyOf: return "a value"
    }
  }

  static func checkRange(_ d: Double, _ lo: Double?, _ hi: Double?, _ exclusive: Bool, _ path: String)
    throws(ScenarioError)
  {
    if let lo {
      if exclusive && d <= lo {
        throw ScenarioError(
          path: path, message: "must be greater than \(format(lo)), got \(format(d))",
          fix: lo == 0 ? "use a positive value" : "use a value above \(format(lo))")
      }
      if !exclusive && d < lo {
        throw ScenarioError(
          path: path, message: "must be at least \(format(lo)), got \(format(d))",
          fix: "use a value" + SchemaType.range(lo, hi, false))
      }
    }
    if let hi, d > hi {
      throw ScenarioError(
        path: path, message: "must be at most \(format(hi)), got \(format(d))",
        fix: "use a value" + SchemaType.range(lo, hi, exclusive))
    }
  }

  static func wrongType(_ path: String, _ expected: String, _ value: JSONValue, example: String? = nil) -> ScenarioError
  {
    var fix = "write \(expected)"
    if let example { fix += ", e.g. \(example)" }
    if case .string(let s) = value, Double(s) != nil, expected.contains("number") {
      fix = "remove the quotes: \(TerminalText.short(s))"
    }
    return ScenarioError(
      path: path, message: "expected \(expected), got \(value.kindName) (\(value.preview(40)))", fix: fix)
  }

  static func format(_ d: Double) -> String {
    d == d.rounded() && abs(d) <= 9_007_199_254_740_992 ? String(Int64(d)) : "\(d)"
  }

  /// The closest candidate by edit distance, if close enough to be a typo.
  ///
  /// The work is bounded: a word longer than `maxHintLength` gets no hint
  /// (no candidate is that long, so it is no typo of one), and a
  /// candidate whose length differs by more than the allowed distance is
  /// skipped without computing the distance.
  static func nearest(_ word: String, in candidates: [String]) -> String? {
    if let replacement = renamed[word], candidates.contains(replacement) { return replacement }
    guard word.utf8.count <= maxHintLength else { return nil }
    let w = word.lowercased()
    let allowed = max(2, word.count / 3)
    var best: (String, Int)? = nil
    for c in candidates {
      guard c.utf8.count <= maxHintLength, abs(c.count - word.count) <= allowed else { continue }
      let d = editDistance(w, c.lowercased())
      if best == nil || d < best!.1 { best = (c, d) }
    }
    guard let (c, d) = best else { return nil }
    return d <= allowed ? c : nil
  }

  /// Names of earlier versions (a model parameter's key, a metric's column)
  /// and their replacements, which `nearest` suggests whatever the distance.
  static let renamed: [String: String] =
    ModelParameter.retiredKeys.mapValues(\.declaration.key)
    .merging(SummaryMetric.retiredNames.mapValues(\.name)) { a, _ in a }

  /// Longest word `nearest` compares (bytes).
  static let maxHintLength = 200

  static func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a)
    let b = Array(b)
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous = Array(0...b.count)
    var current = Array(repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      current[0] = i
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
        // Transposition (Damerau): "dya" vs "day".
      }
      swap(&previous, &current)
    }
    return previous[b.count]
  }
}

/// A time of day written `"HH:MM"` (two digits each, 24-hour clock).
enum ClockTime {
  /// Minutes after midnight, or nil for anything but `"00:00"` ... `"23:59"`
  /// ("7:05", "24:00", "12:60" and "07:05:00" are refused).
  static func minutes(_ s: String) -> Int? {
    let u = Array(s.utf8)
    guard u.count == 5, u[2] == UInt8(ascii: ":") else { return nil }
    func digit(_ c: UInt8) -> Int? { c >= 48 && c <= 57 ? Int(c - 48) : nil }
    guard let h1 = digit(u[0]), let h2 = digit(u[1]), let m1 = digit(u[3]), let m2 = digit(u[4]) else { return nil }
    let h = h1 * 10 + h2
    let m = m1 * 10 + m2
    guard h < 24, m < 60 else { return nil }
    return h * 60 + m
  }

  /// `"HH:MM"` for minutes after midnight (wrapped into one day).
  static func text(_ minutes: Int) -> String {
    let m = ((minutes % 1440) + 1440) % 1440
    func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
    return two(m / 60) + ":" + two(m % 60)
  }
}
