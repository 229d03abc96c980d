import WidgetModel

/// A path into a scenario's JSON, as a sweep parameter names it.
///
/// Keys are joined by `.`; arrays take `[i]` (0-based), `[*]` (every
/// element) or `[name]` (the element whose `name` is `name`; a strategy
/// without a name answers to its preset's, and a plain preset string to
/// itself). A leading `$.` is optional; a name with `.` or `]` in it can be
/// quoted: `segments["a.b"]`.
///
///     let p = try SweepPath.parse("strategies[hybrid].backend.silent_push.coalesce_min")
///     try p.check(against: .object(ScenarioSchema.root))   // keys exist in the format
///     try p.apply(.number(15), to: &json)                  // writes the value
///
/// A path is checked twice: against the format (`check`, once, when the
/// scenario is read: every key must exist there) and against the file
/// (`apply`, at each point: indices and names must exist in it).
struct SweepPath: Equatable, Sendable {
  enum Step: Equatable, Sendable {
    case key(String)
    case index(Int)
    case all
    case named(String)

    var text: String {
      switch self {
      case .key(let k): return "." + k
      case .index(let i): return "[\(i)]"
      case .all: return "[*]"
      case .named(let n): return "[" + n + "]"
      }
    }
  }

  /// A problem with a path: what is wrong and how to fix it.
  struct Problem: Error, Equatable {
    let message: String
    let fix: String
  }

  let steps: [Step]

  /// Top-level keys a sweep may not change: they name the run or the sweep itself.
  static let fixedKeys: Set<String> = ["$schema", "name", "sweep", "objective"]

  /// `$.strategies[hybrid].backend`: the path in the notation of error messages.
  var jsonPath: String { "$" + steps.map(\.text).joined() }

  // MARK: - Parsing

  static func parse(_ text: String) throws(Problem) -> SweepPath {
    var chars = Array(text)
    if chars.first == "$" {
      chars.removeFirst()
      if chars.first == "." { chars.removeFirst() }
    }
    guard !chars.isEmpty else {
      throw Problem(message: "is empty", fix: "name a field, e.g. \"model.budget.max_per_day\"")
    }
    var steps: [Step] = []
    var i = 0
    var expectKey = true
    while i < chars.count {
      let c = chars[i]
      if c == "[" {
        guard let close = Self.closingBracket(chars, from: i) else {
          throw Problem(message: "has an unclosed '['", fix: "close it: [0], [*] or [name]")
        }
        let inner = String(chars[(i + 1)..<close])
        steps.append(try bracket(inner))
        i = close + 1
        expectKey = false
        continue
      }
      if c == "." {
        guard !expectKey else { throw Problem(message: "has an empty key", fix: "remove the extra '.'") }
        guard i + 1 < chars.count else { throw Problem(message: "ends with '.'", fix: "remove the trailing '.'") }
        i += 1
        expectKey = true
        continue
      }
      guard expectKey else {
        throw Problem(
          message: "needs a '.' before \(TerminalText.quoted(String(chars[i...])))", fix: "join keys with '.'")
      }
      var j = i
      while j < chars.count && chars[j] != "." && chars[j] != "[" { j += 1 }
      steps.append(.key(String(chars[i..<j])))
      i = j
      expectKey = false
    }
    guard case .key(let first) = steps[0] else {
      throw Problem(message: "must start with a key", fix: "start at a top-level field, e.g. \"strategies[0]...\"")
    }
    if fixedKeys.contains(first) {
      throw Problem(
        message: "\(TerminalText.quoted(first)) cannot be swept",
        fix: "sweep a field of the scenario, not its name or sweep")
    }
    return SweepPath(steps: steps)
  }

  /// The index of the `]` closing the `[` at `start`, skipping a quoted name.
  static func closingBracket(_ chars: [Character], from start: Int) -> Int? {
    var i = start + 1
    if i < chars.count, chars[i] == "\"" || chars[i] == "'" {
      let quote = chars[i]
      i += 1
      while i < chars.count && chars[i] != quote { i += 1 }
      i += 1
    }
    while i < chars.count && chars[i] != "]" { i += 1 }
    return i < chars.count ? i : nil
  }

  static func bracket(_ inner: String) throws(Problem) -> Step {
    if inner == "*" { return .all }
    if let n = Int(inner) {
      guard n >= 0 else { throw Problem(message: "has a negative index [\(n)]", fix: "indices start at 0") }
      return .index(n)
    }
    var name = inner
    if name.count >= 2, let f = name.first, f == "\"" || f == "'", name.last == f {
      name = String(name.dropFirst().dropLast())
    }
    guard !name.isEmpty else { throw Problem(message: "has an empty '[]'", fix: "write [0], [*] or [name]") }
    return .named(name)
  }

  // MARK: - Checking against the format

  /// Checks that every key exists in the format and that arrays are
  /// indexed, objects keyed, and the end takes a plain value.
  func check(against root: SchemaType) throws(Problem) {
    var type = root
    var at = "$"
    for step in steps {
      switch step {
      case .key(let k):
        let objects = Self.objects(in: type)
        guard !objects.isEmpty else {
          throw Problem(
            message: "\(at) is not an object, so it has no key \(TerminalText.quoted(k))", fix: "end the path at \(at)")
        }
        let fields = objects.compactMap { $0.field(k) }
        guard !fields.isEmpty else {
          var keys: [String] = []
          for o in objects { for f in o.fields where !keys.contains(f.key) { keys.append(f.key) } }
          let hint =
            SchemaValidator.nearest(k, in: keys).map { "did you mean \"\($0)\"?" }
            ?? "keys here: " + keys.joined(separator: ", ")
          throw Problem(message: "\(at) has no key \(TerminalText.quoted(k))", fix: hint)
        }
        type = fields.count == 1 ? fields[0].type : .anyOf(fields.map(\.type))
      case .index, .all, .named:
        guard let item = Self.arrayItem(in: type) else {
          throw Problem(
            message: "\(at) is not an array, so it takes no \(step.text)", fix: "use .key for an object's field")
        }
        if case .named = step, !Self.objects(in: item).contains(where: { $0.field("name") != nil }) {
          throw Problem(message: "the elements of \(at) have no names", fix: "select them by index, e.g. \(at)[0]")
        }
        type = item
      }
      at += step.text
    }
    guard Self.acceptsPlainValue(type) else {
      throw Problem(
        message: "\(at) holds an object or array, not a single value",
        fix: "sweep one of its fields, e.g. \(at).\(Self.objects(in: type).first?.fields.first?.key ?? "field")")
    }
  }

  static func objects(in type: SchemaType) -> [SchemaObject] {
    switch type {
    case .object(let o): return [o]
    case .anyOf(let alts): return alts.flatMap(objects)
    case .tagged(_, let variants): return variants.map(\.object)
    default: return []
    }
  }

  static func arrayItem(in type: SchemaType) -> SchemaType? {
    switch type {
    case .array(let item, _, _): return item
    case .anyOf(let alts): return alts.lazy.compactMap(arrayItem).first
    default: return nil
    }
  }

  static func acceptsPlainValue(_ type: SchemaType) -> Bool {
    switch type {
    case .string, .integer, .number, .boolean, .null, .clockTime: return true
    case .anyOf(let alts): return alts.contains(where: acceptsPlainValue)
    case .object, .array, .tagged: return false
    }
  }

  // MARK: - Applying to a file

  /// Writes `value` at this path in `json`, creating missing objects on
  /// the way (a hand-written file would spell them out).
  ///
  /// A strategy given as a preset name becomes `{"preset": name}` when the
  /// path goes inside it; a push trigger the strategy does not override
  /// starts as its preset's, so sweeping `coalesce_min` keeps the preset's
  /// `on`. Everything else is as the file says.
  /// `strategies` says what a preset name (or a registered strategy's) stands for.
  func apply(_ value: JSONValue, to json: inout JSONValue, strategies: StrategyRegistry) throws(Problem) {
    try Self.set(value, steps[...], in: &json, at: "$", preset: nil, parentKey: nil, strategies: strategies)
  }

  private static func set(
    _ value: JSONValue, _ rest: ArraySlice<Step>, in node: inout JSONValue, at: String, preset: String?,
    parentKey: String?, strategies: StrategyRegistry
  ) throws(Problem) {
    guard let step = rest.first else {
      node = value
      return
    }
    let tail = rest.dropFirst()
    switch step {
    case .key(let k):
      var object: [String: JSONValue]
      switch node {
      case .object(let o): object = o
      case .null: object = [:]
      default:
        throw Problem(
          message:
            "\(at) is \(node.preview(30)) in the scenario, not an object, so it has no \(TerminalText.quoted(k))",
          fix: "write \(at) as an object in the scenario first")
      }
      var child = object[k] ?? .null
      if case .null = child, parentKey == "backend", k == "silent_push" || k == "widget_push", let preset {
        child = presetTrigger(strategies.strategy(named: preset), k)
      }
      try set(value, tail, in: &child, at: at + "." + k, preset: preset, parentKey: k, strategies: strategies)
      object[k] = child
      node = .object(object)
    case .index, .all, .named:
      guard case .array(var items) = node else {
        throw Problem(
          message: "\(at) is not written as an array in the scenario", fix: "write \(at) out in the scenario first")
      }
      let targets: [Int]
      switch step {
      case .index(let i):
        guard items.indices.contains(i) else {
          throw Problem(
            message: "\(at) has \(items.count) element\(items.count == 1 ? "" : "s"), so no [\(i)]",
            fix: items.isEmpty ? "add an element first" : "use an index in 0...\(items.count - 1)")
        }
        targets = [i]
      case .named(let n):
        let names = items.map(elementName)
        guard let i = names.firstIndex(of: n) else {
          let known = names.compactMap { $0 }
          let hint =
            SchemaValidator.nearest(n, in: known).map { "did you mean [\($0)]?" }
            ?? "names here: " + known.joined(separator: ", ")
          throw Problem(message: "\(at) has no element named \(TerminalText.quoted(n))", fix: hint)
        }
        targets = [i]
      default:
        guard !items.isEmpty else { throw Problem(message: "\(at) is empty", fix: "add an element first") }
        targets = Array(items.indices)
      }
      for i in targets {
        var element = items[i]
        var elementPreset = preset
        if at == "$.strategies" {
          if case .string(let s) = element {
            elementPreset = s
            if !tail.isEmpty { element = .object(["preset": .string(s)]) }
          } else if case .object(let o) = element, case .string(let s)? = o["preset"] {
            elementPreset = s
          }
        }
        try set(
          value, tail, in: &element, at: at + "[\(i)]", preset: elementPreset, parentKey: nil, strategies: strategies)
        items[i] = element
      }
      node = .array(items)
    }
  }

  /// What `[name]` matches: an object's `name`, else its `preset`; a string itself.
  static func elementName(_ v: JSONValue) -> String? {
    switch v {
    case .string(let s): return s
    case .object(let o):
      if case .string(let n)? = o["name"] { return n }
      if case .string(let p)? = o["preset"] { return p }
      return nil
    default: return nil
    }
  }

  /// The preset's push trigger `key` as JSON, or null when it has none.
  static func presetTrigger(_ preset: Strategy?, _ key: String) -> JSONValue {
    guard let backend = preset?.backend,
      let t = key == "silent_push" ? backend.silentPush : backend.widgetPush
    else { return .null }
    return .object(["on": .string(t.on.rawValue), "coalesce_min": .number(t.coalesce.minutes)])
  }
}
