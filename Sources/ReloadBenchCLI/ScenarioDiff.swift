/// Where two versions of a scenario differ, as the fields a reviewer would
/// name: `devices`, `strategies[hybrid].timeline.policy`. Arrays whose
/// elements all have names (strategies, kinds, segments, preset names) are
/// matched by name, so a strategy added in the middle names one field, not
/// every later index.
enum ScenarioDiff {
  /// At most this many paths are named in a one-line summary.
  static let namedInSummary = 6

  static func paths(from old: JSONValue, to new: JSONValue, at path: String = "") -> [String] {
    switch (old, new) {
    case (.object(let a), .object(let b)):
      return Set(a.keys).union(b.keys).sorted().flatMap { key -> [String] in
        let p = path.isEmpty ? key : "\(path).\(key)"
        switch (a[key], b[key]) {
        case (let x?, let y?): return paths(from: x, to: y, at: p)
        case (nil, _?): return ["\(p) (added)"]
        case (_?, nil): return ["\(p) (removed)"]
        case (nil, nil): return []
        }
      }
    case (.array(let a), .array(let b)):
      if let named = byName(a), let namedNew = byName(b) {
        let order = a.compactMap(name) + b.compactMap(name).filter { named[$0] == nil }
        return order.flatMap { n -> [String] in
          let p = "\(path)[\(n)]"
          switch (named[n], namedNew[n]) {
          case (let x?, let y?): return paths(from: x, to: y, at: p)
          case (nil, _?): return ["\(p) (added)"]
          case (_?, nil): return ["\(p) (removed)"]
          case (nil, nil): return []
          }
        }
      }
      if a.count != b.count { return [path] }
      return zip(a, b).enumerated().flatMap { i, pair in paths(from: pair.0, to: pair.1, at: "\(path)[\(i)]") }
    default:
      return old == new ? [] : [path]
    }
  }

  /// One line: the changed fields, the first few named.
  static func summary(_ paths: [String]) -> String {
    let shown = paths.prefix(namedInSummary).joined(separator: ", ")
    return paths.count > namedInSummary ? "\(shown) and \(paths.count - namedInSummary) more" : shown
  }

  private static func name(_ v: JSONValue) -> String? {
    switch v {
    case .string(let s): return s
    case .object(let o): if case .string(let s)? = o["name"] { return s } else { return nil }
    default: return nil
    }
  }

  /// The elements by name, or nil when one has no name or two share one.
  private static func byName(_ a: [JSONValue]) -> [String: JSONValue]? {
    var out: [String: JSONValue] = [:]
    for v in a {
      guard let n = name(v), out[n] == nil else { return nil }
      out[n] = v
    }
    return out.isEmpty ? nil : out
  }
}
