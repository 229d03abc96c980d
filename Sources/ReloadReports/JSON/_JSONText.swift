import ReloadMetrics

/// A small `Encoder` that writes compact JSON text with sorted keys, for
/// the report's embedded data and `results.json`.
///
/// Foundation's `JSONEncoder` took about 30 ms for the default scenario's
/// results on Linux, a fifth of the report phase; this writer takes a few.
/// It follows `JSONEncoder`'s conventions that matter to `JSONDecoder`:
/// sorted keys, absent optionals omitted, non-finite doubles as the strings
/// "nan", "inf", "-inf", `/` unescaped.
/// JSON text helpers shared with the CLI (package access).
package enum JSONText {
  /// `value` as compact sorted-key JSON through `Encodable` (the reference
  /// the results writer is tested against).
  package static func encode<T: Encodable>(_ value: T) throws -> String { try _JSONText.encode(value) }

  /// The results JSON as the report embeds it (before script escaping).
  package static func results(_ r: ScenarioResults) -> String { _ResultsJSONWriter.write(r) }

  /// `s` as a JSON string literal, quotes included.
  package static func quoted(_ s: String) -> String {
    var out = ""
    _JSONNode.writeString(s, to: &out)
    return out
  }
}

struct _JSONText {
  static func encode<T: Encodable>(_ value: T) throws -> String {
    let root = _JSONNode.Box()
    try value.encode(to: _JSONNodeEncoder(box: root, codingPath: []))
    var out = ""
    out.reserveCapacity(1 << 20)
    root.node.write(to: &out)
    return out
  }
}

/// The tree the encoder builds, written out once complete.
indirect enum _JSONNode {
  case null
  case bool(Bool)
  case number(String)
  case string(String)
  case array([Box])
  case object([(String, Box)])

  final class Box {
    var node: _JSONNode = .null
  }

  func write(to out: inout String) {
    switch self {
    case .null: out += "null"
    case .bool(let b): out += b ? "true" : "false"
    case .number(let n): out += n
    case .string(let s): _JSONNode.writeString(s, to: &out)
    case .array(let items):
      out += "["
      for (i, item) in items.enumerated() {
        if i > 0 { out += "," }
        item.node.write(to: &out)
      }
      out += "]"
    case .object(let members):
      out += "{"
      for (i, (key, box)) in members.sorted(by: { $0.0 < $1.0 }).enumerated() {
        if i > 0 { out += "," }
        _JSONNode.writeString(key, to: &out)
        out += ":"
        box.node.write(to: &out)
      }
      out += "}"
    }
  }

  static func writeString(_ s: String, to out: inout String) {
    out += "\""
    var plain = true
    for u in s.utf8 where u < 0x20 || u == 0x22 || u == 0x5C { plain = false; break }
    if plain {
      out += s
    } else {
      for u in s.unicodeScalars {
        switch u {
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
    }
    out += "\""
  }

  static func number(_ d: Double) -> _JSONNode {
    if d.isNaN { return .string("nan") }
    if d.isInfinite { return .string(d > 0 ? "inf" : "-inf") }
    if d == d.rounded(), abs(d) < 1e15 { return .number(String(Int64(d))) }
    return .number(d.description)
  }
}

struct _JSONNodeEncoder: Encoder {
  let box: _JSONNode.Box
  var codingPath: [any CodingKey]
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    if case .object = box.node {} else { box.node = .object([]) }
    return KeyedEncodingContainer(_KeyedContainer<Key>(box: box, codingPath: codingPath))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    if case .array = box.node {} else { box.node = .array([]) }
    return _UnkeyedContainer(box: box, codingPath: codingPath)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    _SingleContainer(box: box, codingPath: codingPath)
  }
}

struct _SingleContainer: SingleValueEncodingContainer {
  let box: _JSONNode.Box
  var codingPath: [any CodingKey]

  mutating func encodeNil() throws { box.node = .null }
  mutating func encode(_ value: Bool) throws { box.node = .bool(value) }
  mutating func encode(_ value: String) throws { box.node = .string(value) }
  mutating func encode(_ value: Double) throws { box.node = _JSONNode.number(value) }
  mutating func encode(_ value: Float) throws { box.node = _JSONNode.number(Double(value)) }
  mutating func encode(_ value: Int) throws { box.node = .number(String(value)) }
  mutating func encode(_ value: Int8) throws { box.node = .number(String(value)) }
  mutating func encode(_ value: Int16) throws { box.node = .number(String(value)) }
  mutating func encode(_ value: Int32) throws { box.node = .number(String(value)) }
  mutating func encode(_ value: Int64) throws { box.node = .number(String(value)) }
  mutating func encode(_ value: UInt) throws { box.node = .number(String(value)) }
  mutating func encode(_ value: UInt8) throws { box.node = .number(String(value)) }
  mutating func encode(_ value: UInt16) throws { box.node = .number(String(value)) }
  mutating func encode(_ value: UInt32) throws { box.node = .number(String(value)) }
  mutating func encode(_ value: UInt64) throws { box.node = .number(String(value)) }
  mutating func encode<T: Encodable>(_ value: T) throws {
    try value.encode(to: _JSONNodeEncoder(box: box, codingPath: codingPath))
  }
}

struct _KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let box: _JSONNode.Box
  var codingPath: [any CodingKey]

  func child(_ key: Key) -> _JSONNode.Box {
    let child = _JSONNode.Box()
    if case .object(var members) = box.node {
      box.node = .null  // drop the reference before appending, so the array is not copied
      members.append((key.stringValue, child))
      box.node = .object(members)
    }
    return child
  }

  mutating func encodeNil(forKey key: Key) throws { child(key).node = .null }
  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    var single = _SingleContainer(box: child(key), codingPath: codingPath + [key])
    try single.encode(value)
  }
  mutating func encode(_ value: Bool, forKey key: Key) throws { child(key).node = .bool(value) }
  mutating func encode(_ value: String, forKey key: Key) throws { child(key).node = .string(value) }
  mutating func encode(_ value: Double, forKey key: Key) throws { child(key).node = _JSONNode.number(value) }
  mutating func encode(_ value: Int, forKey key: Key) throws { child(key).node = .number(String(value)) }
  mutating func encode(_ value: UInt64, forKey key: Key) throws { child(key).node = .number(String(value)) }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
    -> KeyedEncodingContainer<NestedKey>
  {
    let c = child(key)
    c.node = .object([])
    return KeyedEncodingContainer(_KeyedContainer<NestedKey>(box: c, codingPath: codingPath + [key]))
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    let c = child(key)
    c.node = .array([])
    return _UnkeyedContainer(box: c, codingPath: codingPath + [key])
  }

  mutating func superEncoder() -> any Encoder { _JSONNodeEncoder(box: box, codingPath: codingPath) }
  mutating func superEncoder(forKey key: Key) -> any Encoder {
    _JSONNodeEncoder(box: child(key), codingPath: codingPath + [key])
  }
}

struct _UnkeyedContainer: UnkeyedEncodingContainer {
  let box: _JSONNode.Box
  var codingPath: [any CodingKey]
  var count: Int {
    if case .array(let items) = box.node { return items.count }
    return 0
  }

  func next() -> _JSONNode.Box {
    let child = _JSONNode.Box()
    if case .array(var items) = box.node {
      box.node = .null
      items.append(child)
      box.node = .array(items)
    }
    return child
  }

  mutating func encodeNil() throws { next().node = .null }
  mutating func encode<T: Encodable>(_ value: T) throws {
    var single = _SingleContainer(box: next(), codingPath: codingPath)
    try single.encode(value)
  }
  mutating func encode(_ value: Double) throws { next().node = _JSONNode.number(value) }
  mutating func encode(_ value: UInt64) throws { next().node = .number(String(value)) }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
    -> KeyedEncodingContainer<NestedKey>
  {
    let c = next()
    c.node = .object([])
    return KeyedEncodingContainer(_KeyedContainer<NestedKey>(box: c, codingPath: codingPath))
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    let c = next()
    c.node = .array([])
    return _UnkeyedContainer(box: c, codingPath: codingPath)
  }

  mutating func superEncoder() -> any Encoder { _JSONNodeEncoder(box: next(), codingPath: codingPath) }
}
