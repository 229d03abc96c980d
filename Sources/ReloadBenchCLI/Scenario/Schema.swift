/// A declarative description of a JSON format: the one table from which
/// the scenario decoder validates input, `Scenarios/scenario.schema.json`
/// is generated, and `Scenarios/README.md`'s field reference is written.
/// Keeping all three on one table is what keeps them in step.
indirect enum SchemaType: Sendable {
  case string(choices: [String]?)
  case integer(min: Double?, max: Double?)
  /// `exclusiveMin`: the value must be greater than `min`.
  case number(min: Double?, max: Double?, exclusiveMin: Bool)
  case boolean
  case object(SchemaObject)
  case array(of: SchemaType, minItems: Int?, maxItems: Int?)
  /// The first alternative whose JSON kind matches is used.
  case anyOf([SchemaType])
  /// An object whose `key` picks its shape.
  case tagged(key: String, variants: [(tag: String, object: SchemaObject)])
  case null
  /// A local (or UTC) time of day, `"HH:MM"` on a 24-hour clock
  /// (`ClockTime`).
  case clockTime

  /// A short human description of the type ("number > 0", "one of a, b").
  /// `summary` without its Markdown (links and code spans), for one-line
  /// error messages on a terminal.
  var plainSummary: String {
    var out = ""
    var rest = Substring(summary)
    while let open = rest.firstIndex(of: "[") {
      out += rest[..<open]
      let afterOpen = rest.index(after: open)
      guard let close = rest[afterOpen...].firstIndex(of: "]"),
        rest[rest.index(after: close)...].hasPrefix("(#"),
        let end = rest[close...].firstIndex(of: ")")
      else {
        out += "["
        rest = rest[afterOpen...]
        continue
      }
      out += rest[afterOpen..<close]
      rest = rest[rest.index(after: end)...]
    }
    out += rest
    return out.replacingOccurrences(of: "`", with: "")
  }

  var summary: String {
    switch self {
    case .string(let choices):
      guard let choices else { return "string" }
      // A long list (the summary.csv columns) reads better abridged; the
      // JSON Schema keeps it whole for editors.
      if choices.count > 16, let first = choices.first, let last = choices.last {
        return "one of \(choices.count) names: `\(first)`, `\(choices[1])`, ..., `\(last)`"
      }
      return choices.map { "`\($0)`" }.joined(separator: ", ")
    case .integer(let lo, let hi): return "integer" + SchemaType.range(lo, hi, false)
    case .number(let lo, let hi, let ex): return "number" + SchemaType.range(lo, hi, ex)
    case .boolean: return "boolean"
    case .object(let o): return "object ([\(o.title)](#\(o.anchor)))"
    case .array(let item, let lo, let hi):
      var s = "array of \(item.summary)"
      if let lo, let hi, lo == hi { s += ", exactly \(lo)" } else if let lo { s += ", at least \(lo)" }
      return s
    case .anyOf(let alts): return alts.map(\.summary).joined(separator: " or ")
    case .tagged(let key, let variants):
      return "object selected by `\(key)`: "
        + variants.map { "[\($0.tag)](#\($0.object.anchor))" }.joined(separator: ", ")
    case .null: return "null"
    case .clockTime: return "clock time `\"HH:MM\"`"
    }
  }

  static func range(_ lo: Double?, _ hi: Double?, _ exclusive: Bool) -> String {
    func f(_ x: Double) -> String { x == x.rounded() && abs(x) < 1e15 ? String(Int64(x)) : "\(x)" }
    switch (lo, hi) {
    case (let lo?, let hi?): return " in \(exclusive ? "(" : "[")\(f(lo)), \(f(hi))]"
    case (let lo?, nil): return exclusive ? " > \(f(lo))" : " >= \(f(lo))"
    case (nil, let hi?): return " <= \(f(hi))"
    default: return ""
    }
  }
}

/// One object shape of the format.
final class SchemaObject: Sendable {
  let title: String
  let doc: String
  let fields: [SchemaField]
  /// What the field reference says for an optional field without a default.
  let absentDefault: String

  init(_ title: String, doc: String, absentDefault: String = "preset's / none", _ fields: [SchemaField]) {
    self.title = title
    self.doc = doc
    self.absentDefault = absentDefault
    self.fields = fields
  }

  var anchor: String { title.lowercased().replacingOccurrences(of: " ", with: "-") }
  func field(_ key: String) -> SchemaField? { fields.first { $0.key == key } }
}

/// One key of an object.
struct SchemaField: Sendable {
  let key: String
  let type: SchemaType
  let doc: String
  /// The unit, spelled out ("minutes", "per day").
  let unit: String?
  /// The value used when the key is absent; `nil` means "no default"
  /// (then `required` says whether the key may be absent).
  let defaultValue: JSONValue?
  let required: Bool
  /// Source tag (docs/model.md#source-tags) for model assumptions: A, T, S, M, F, assumed.
  let source: String?
  /// For a model parameter that only matters to widgets at one placement
  /// (`watch_complication`): a report lists it only when the scenario has
  /// such a widget or sets it, so adding a placement leaves the reports of
  /// scenarios without it unchanged.
  let placement: String?
  /// For a model parameter that only matters to one construct of the
  /// strategy language (`StrategyConstruct`): a report lists it only when a
  /// strategy uses the construct or the file sets it.
  let construct: String?

  init(
    _ key: String, _ type: SchemaType, _ doc: String, unit: String? = nil, default defaultValue: JSONValue? = nil,
    required: Bool = false, source: String? = nil, placement: String? = nil, construct: String? = nil
  ) {
    self.key = key
    self.type = type
    self.doc = doc
    self.unit = unit
    self.defaultValue = defaultValue
    self.required = required
    self.source = source
    self.placement = placement
    self.construct = construct
  }
}

/// Every object reachable from `root`, depth first, each once.
func allObjects(_ root: SchemaObject) -> [SchemaObject] {
  var seen: [ObjectIdentifier: Bool] = [:]
  var out: [SchemaObject] = []
  func visit(_ o: SchemaObject) {
    guard seen[ObjectIdentifier(o)] == nil else { return }
    seen[ObjectIdentifier(o)] = true
    out.append(o)
    for f in o.fields { visitType(f.type) }
  }
  func visitType(_ t: SchemaType) {
    switch t {
    case .object(let o): visit(o)
    case .array(let item, _, _): visitType(item)
    case .anyOf(let alts): alts.forEach(visitType)
    case .tagged(_, let variants): variants.forEach { visit($0.object) }
    default: break
    }
  }
  visit(root)
  return out
}
