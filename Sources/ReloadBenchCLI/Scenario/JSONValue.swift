import Foundation
import ReloadReports

/// A JSON document as plain values, from Foundation's `JSONSerialization`.
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

  /// Parses `data`, turning Foundation's error into one line with a
  /// line and column.
  static func parse(_ data: Data) throws(JSONParseError) -> JSONValue {
    let any: Any
    do {
      any = try JSONSerialization.jsonObject(with: data, options: [])
    } catch {
      let text = (error as NSError).userInfo["NSDebugDescription"] as? String ?? "\(error)"
      var where_ = ""
      if let r = text.range(of: #"character (\d+)"#, options: .regularExpression),
        let offset = Int(text[r].dropFirst("character ".count))
      {
        let prefix = data.prefix(offset)
        let line = prefix.filter { $0 == 0x0A }.count + 1
        let column = offset - (prefix.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0) + 1
        where_ = "line \(line), column \(column)"
      }
      throw JSONParseError(location: where_, detail: text)
    }
    return JSONValue(any)
  }

  init(_ any: Any) {
    switch any {
    case is NSNull:
      self = .null
    case let n as NSNumber:
      if String(cString: n.objCType) == "c" {
        self = .bool(n.boolValue)
      } else {
        self = .number(n.doubleValue)
      }
    case let s as String:
      self = .string(s)
    case let a as [Any]:
      self = .array(a.map(JSONValue.init))
    case let o as [String: Any]:
      self = .object(o.mapValues(JSONValue.init))
    default:
      self = .string("\(any)")
    }
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

  /// Compact JSON text of the value (for messages and the JSON Schema).
  var jsonText: String {
    switch self {
    case .null: return "null"
    case .bool(let b): return b ? "true" : "false"
    case .number(let d):
      if d == d.rounded() && abs(d) <= 9_007_199_254_740_992 { return String(Int64(d)) }
      return "\(d)"
    case .string(let s): return JSONValue.quote(s)
    case .array(let a): return "[" + a.map(\.jsonText).joined(separator: ", ") + "]"
    case .object(let o):
      return "{" + o.keys.sorted().map { JSONValue.quote($0) + ": " + o[$0]!.jsonText }.joined(separator: ", ") + "}"
    }
  }

  /// `s` as a JSON string literal (the same escaping as the reports' JSON).
  static func quote(_ s: String) -> String { JSONText.quoted(s) }
}

struct JSONParseError: Error {
  let location: String
  let detail: String
}
