/// Path arithmetic on strings, without Foundation's `NSString` path
/// methods: on Linux (swift-corelibs-foundation, Swift 6.3)
/// `deletingLastPathComponent` traps on a one-character relative path such
/// as `--json j`, so the CLI does this small job itself.
enum PathText {
  /// The folder part of `path`: `"a/b/c"` → `"a/b"`, `"/a"` → `"/"`,
  /// `"c"` → `""` (the current folder). Trailing slashes are ignored.
  static func parent(_ path: String) -> String {
    var p = Substring(path)
    while p.count > 1, p.last == "/" { p.removeLast() }
    guard let slash = p.lastIndex(of: "/") else { return "" }
    var parent = p[..<slash]
    while parent.count > 1, parent.last == "/" { parent.removeLast() }
    return parent.isEmpty ? "/" : String(parent)
  }

  /// The last component of `path`: `"a/b/c.json"` → `"c.json"`.
  static func name(_ path: String) -> String {
    var p = Substring(path)
    while p.count > 1, p.last == "/" { p.removeLast() }
    guard let slash = p.lastIndex(of: "/") else { return String(p) }
    return String(p[p.index(after: slash)...])
  }

  /// `parent(path)`, or `"."` when that is the current folder.
  static func folder(of path: String) -> String {
    let dir = parent(path)
    return dir.isEmpty ? "." : dir
  }

  /// `relative` read from `folder`: `join("a/b", "../c")` → `"a/b/../c"`
  /// (`standardized` folds the `..`); `join(".", "c")` → `"c"`.
  static func join(_ folder: String, _ relative: String) -> String {
    if folder.isEmpty || folder == "." { return relative }
    return folder.hasSuffix("/") ? folder + relative : folder + "/" + relative
  }

  /// `path` with `.` and `folder/..` folded away, by the text alone (no
  /// symbolic links are followed): `"a/./b/../c"` → `"a/c"`,
  /// `"../x/../y"` → `"../y"`. For telling two names of one file apart.
  static func standardized(_ path: String) -> String {
    let absolute = path.hasPrefix("/")
    var parts: [Substring] = []
    for part in path.split(separator: "/", omittingEmptySubsequences: true) {
      if part == "." { continue }
      if part == "..", let last = parts.last, last != ".." {
        parts.removeLast()
        continue
      }
      if part == "..", absolute { continue }
      parts.append(part)
    }
    let body = parts.joined(separator: "/")
    return absolute ? "/" + body : (body.isEmpty ? "." : body)
  }
}
