extension JSON {
  /// `value` as JSON through its `Encodable` conformance: a keyed container
  /// is an object (members in the order encoded; `JSONStyle.sortedKeys`
  /// sorts them), an unkeyed one an array. As with Foundation's encoder, a
  /// nil optional that a synthesized conformance encodes is left out, and
  /// `encodeNil` writes `null`; numbers follow `number(_:)`.
  ///
  ///     JSON(encoding: baseline).text(.pretty) + "\n"
  package init(encoding value: some Encodable) throws {
    if let scalar = JSON.scalar(value) {
      self = scalar
      return
    }
    let root = _JSONBuilder()
    try value.encode(to: _JSONEncoder(builder: root, codingPath: []))
    self = root.finished()
  }

  /// The value of a standard scalar type without going through an encoder
  /// (most values of the results model are one: a builder each would be
  /// most of the work).
  static func scalar<T>(_ value: T) -> JSON? {
    switch value {
    case let d as Double: return .number(d)
    case let s as String: return .string(s)
    case let i as Int: return .integer(i)
    case let u as UInt64: return .integer(u)
    case let b as Bool: return .bool(b)
    case let f as Float: return .number(Double(f))
    case let i as Int64: return .integer(i)
    case let i as Int32: return .integer(i)
    case let u as UInt32: return .integer(u)
    case let u as UInt: return .integer(u)
    default: return nil
    }
  }
}

/// A value being encoded: empty, a scalar, or a container whose members
/// may still be open (a nested container is written to after it is handed
/// out, so it is finished only with its parent).
final class _JSONBuilder {
  enum Member {
    case done(JSON)
    case open(_JSONBuilder)

    var finished: JSON {
      switch self {
      case .done(let v): return v
      case .open(let b): return b.finished()
      }
    }
  }

  enum Content {
    case empty
    case value(JSON)
    case array([Member])
    case object([(String, Member)])
  }

  var content: Content = .empty

  func finished() -> JSON {
    switch content {
    // Foundation's encoder writes an object for a value that encoded nothing.
    case .empty: return .object([])
    case .value(let v): return v
    case .array(let items): return .array(items.map(\.finished))
    case .object(let members): return .object(members.map { (key: $0.0, value: $0.1.finished) })
    }
  }

  func makeObject() {
    if case .object = content { return }
    content = .object([])
  }

  func makeArray() {
    if case .array = content { return }
    content = .array([])
  }

  func append(_ key: String, _ member: Member) {
    guard case .object(var members) = content else { return }
    content = .empty  // no second reference while appending, so the array is not copied
    members.append((key, member))
    content = .object(members)
  }

  func append(_ member: Member) {
    guard case .array(var items) = content else { return }
    content = .empty
    items.append(member)
    content = .array(items)
  }

  var count: Int {
    if case .array(let items) = content { return items.count }
    return 0
  }

  /// `value` finished: a scalar directly, anything else through its own builder.
  static func member(_ value: some Encodable, codingPath: [any CodingKey]) throws -> Member {
    if let scalar = JSON.scalar(value) { return .done(scalar) }
    let b = _JSONBuilder()
    try value.encode(to: _JSONEncoder(builder: b, codingPath: codingPath))
    return .done(b.finished())
  }
}

struct _JSONEncoder: Encoder {
  let builder: _JSONBuilder
  var codingPath: [any CodingKey]
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    builder.makeObject()
    return KeyedEncodingContainer(_JSONKeyedContainer<Key>(builder: builder, codingPath: codingPath))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    builder.makeArray()
    return _JSONUnkeyedContainer(builder: builder, codingPath: codingPath)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    _JSONSingleContainer(builder: builder, codingPath: codingPath)
  }
}

struct _JSONSingleContainer: SingleValueEncodingContainer {
  let builder: _JSONBuilder
  var codingPath: [any CodingKey]

  mutating func encodeNil() throws { builder.content = .value(.null) }
  mutating func encode(_ value: Bool) throws { builder.content = .value(.bool(value)) }
  mutating func encode(_ value: String) throws { builder.content = .value(.string(value)) }
  mutating func encode(_ value: Double) throws { builder.content = .value(.number(value)) }
  mutating func encode(_ value: Int) throws { builder.content = .value(.integer(value)) }
  mutating func encode(_ value: UInt64) throws { builder.content = .value(.integer(value)) }
  mutating func encode<T: Encodable>(_ value: T) throws {
    if let scalar = JSON.scalar(value) {
      builder.content = .value(scalar)
    } else {
      try value.encode(to: _JSONEncoder(builder: builder, codingPath: codingPath))
    }
  }
}

struct _JSONKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let builder: _JSONBuilder
  var codingPath: [any CodingKey]

  mutating func encodeNil(forKey key: Key) throws { builder.append(key.stringValue, .done(.null)) }
  mutating func encode(_ value: Bool, forKey key: Key) throws {
    builder.append(key.stringValue, .done(.bool(value)))
  }
  mutating func encode(_ value: String, forKey key: Key) throws {
    builder.append(key.stringValue, .done(.string(value)))
  }
  mutating func encode(_ value: Double, forKey key: Key) throws {
    builder.append(key.stringValue, .done(.number(value)))
  }
  mutating func encode(_ value: Int, forKey key: Key) throws {
    builder.append(key.stringValue, .done(.integer(value)))
  }
  mutating func encode(_ value: UInt64, forKey key: Key) throws {
    builder.append(key.stringValue, .done(.integer(value)))
  }
  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    builder.append(key.stringValue, try _JSONBuilder.member(value, codingPath: codingPath + [key]))
  }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
    -> KeyedEncodingContainer<NestedKey>
  {
    let child = _JSONBuilder()
    child.makeObject()
    builder.append(key.stringValue, .open(child))
    return KeyedEncodingContainer(_JSONKeyedContainer<NestedKey>(builder: child, codingPath: codingPath + [key]))
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    let child = _JSONBuilder()
    child.makeArray()
    builder.append(key.stringValue, .open(child))
    return _JSONUnkeyedContainer(builder: child, codingPath: codingPath + [key])
  }

  mutating func superEncoder() -> any Encoder {
    let child = _JSONBuilder()
    builder.append("super", .open(child))
    return _JSONEncoder(builder: child, codingPath: codingPath)
  }

  mutating func superEncoder(forKey key: Key) -> any Encoder {
    let child = _JSONBuilder()
    builder.append(key.stringValue, .open(child))
    return _JSONEncoder(builder: child, codingPath: codingPath + [key])
  }
}

struct _JSONUnkeyedContainer: UnkeyedEncodingContainer {
  let builder: _JSONBuilder
  var codingPath: [any CodingKey]
  var count: Int { builder.count }

  mutating func encodeNil() throws { builder.append(.done(.null)) }
  mutating func encode(_ value: Double) throws { builder.append(.done(.number(value))) }
  mutating func encode(_ value: UInt64) throws { builder.append(.done(.integer(value))) }
  mutating func encode<T: Encodable>(_ value: T) throws {
    builder.append(try _JSONBuilder.member(value, codingPath: codingPath))
  }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
    -> KeyedEncodingContainer<NestedKey>
  {
    let child = _JSONBuilder()
    child.makeObject()
    builder.append(.open(child))
    return KeyedEncodingContainer(_JSONKeyedContainer<NestedKey>(builder: child, codingPath: codingPath))
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    let child = _JSONBuilder()
    child.makeArray()
    builder.append(.open(child))
    return _JSONUnkeyedContainer(builder: child, codingPath: codingPath)
  }

  mutating func superEncoder() -> any Encoder {
    let child = _JSONBuilder()
    builder.append(.open(child))
    return _JSONEncoder(builder: child, codingPath: codingPath)
  }
}

extension JSON {
  /// `value` as JSON text in `style`: how results.json, sweep.json and the
  /// pages' data are written (`.script`, `.compact`).
  package static func text(_ value: some Encodable, _ style: JSONStyle = .compact) -> String {
    // The results models encode plain values: nothing in them throws.
    ((try? JSON(encoding: value)) ?? [:]).text(style)
  }
}
