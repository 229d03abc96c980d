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
}
