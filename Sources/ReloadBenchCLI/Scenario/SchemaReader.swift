/// Reads typed values from an object that already passed validation,
/// filling absent keys with the schema's defaults.
///
/// Reading a key the schema does not declare is a programming error (it
/// traps), and every read is logged when `log` is set: the test that keeps
/// decoder and schema in step checks that a scenario using every field
/// reads every field.
struct SchemaReader {
  let object: [String: JSONValue]
  let spec: SchemaObject
  let path: String
  let log: SchemaAccessLog?

  init(_ value: JSONValue, _ spec: SchemaObject, path: String, log: SchemaAccessLog?) {
    if case .object(let o) = value { object = o } else { object = [:] }
    self.spec = spec
    self.path = path
    self.log = log
  }

  func value(_ key: String) -> JSONValue {
    guard let field = spec.field(key) else {
      preconditionFailure("schema object \(spec.title) has no field \(key)")
    }
    log?.record(spec, key)
    return object[key] ?? field.defaultValue ?? .null
  }

  /// `true` when the file sets `key` (even to null).
  func has(_ key: String) -> Bool {
    precondition(spec.field(key) != nil, "schema object \(spec.title) has no field \(key)")
    log?.record(spec, key)
    return object[key] != nil
  }

  func number(_ key: String) -> Double {
    if case .number(let d) = value(key) { return d }
    preconditionFailure("\(path).\(key) has no number and no default")
  }

  func optionalNumber(_ key: String) -> Double? {
    if case .number(let d) = value(key) { return d }
    return nil
  }

  func int(_ key: String) -> Int { Int(number(key)) }

  func bool(_ key: String) -> Bool {
    if case .bool(let b) = value(key) { return b }
    preconditionFailure("\(path).\(key) has no boolean and no default")
  }

  func optionalBool(_ key: String) -> Bool? {
    if case .bool(let b) = value(key) { return b }
    return nil
  }

  func string(_ key: String) -> String {
    if case .string(let s) = value(key) { return s }
    preconditionFailure("\(path).\(key) has no string and no default")
  }

  func optionalString(_ key: String) -> String? {
    if case .string(let s) = value(key) { return s }
    return nil
  }

  func array(_ key: String) -> [JSONValue] {
    if case .array(let a) = value(key) { return a }
    return []
  }

  /// A nested object whose field defaults to `{}` (so never null after
  /// validation): its reader, absent keys at their defaults.
  func defaultedObject(_ key: String, _ nested: SchemaObject) -> SchemaReader {
    object(key, nested) ?? SchemaReader(.object([:]), nested, path: "\(path).\(key)", log: log)
  }

  /// A nested object (or nil when null / absent without default).
  func object(_ key: String, _ nested: SchemaObject) -> SchemaReader? {
    let v = value(key)
    if case .object = v { return SchemaReader(v, nested, path: "\(path).\(key)", log: log) }
    return nil
  }
}

/// Which schema fields a decode read.
final class SchemaAccessLog: @unchecked Sendable {
  private(set) var fields: Set<String> = []
  func record(_ spec: SchemaObject, _ key: String) { fields.insert("\(spec.title).\(key)") }
}
