import Foundation
import Testing

/// The model reference, `docs/model.md`, is what code, tests and READMEs
/// cite for each rule (`docs/model.md#budget-size`, or several anchors in
/// one citation: `docs/model.md#silent-push-throttle, #force-quit`). These
/// tests fail when a citation names an anchor the page does not define, or
/// when something still cites the old out-of-repository notes.
@Suite struct ModelReferenceTests {
  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  static let referencePath = "docs/model.md"

  /// Files that may cite the model: all sources and tests, the READMEs, the
  /// generated scenario schema and the package manifest.
  static func citingFiles() throws -> [String] {
    var paths: [String] = []
    for folder in ["Sources", "Tests"] {
      let base = root.appendingPathComponent(folder)
      guard let walk = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil) else { continue }
      for case let url as URL in walk where ["swift", "md"].contains(url.pathExtension) {
        paths.append(String(url.path.dropFirst(root.path.count + 1)))
      }
    }
    paths += [
      "README.md", "Reports/README.md", "Scenarios/README.md", "Scenarios/scenario.schema.json",
      "Package.swift", referencePath,
    ]
    return paths.sorted()
  }

  static func read(_ path: String) throws -> String {
    try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
  }

  @Test func everyCitedRuleAnchorExists() throws {
    let defined = try Self.definedAnchors(in: Self.read(Self.referencePath))
    #expect(defined.count >= 20, "docs/model.md defines only \(defined.count) rule anchors")
    var citations = 0
    var missing: [String] = []
    for path in try Self.citingFiles() {
      let text = try Self.read(path)
      var anchors = Self.citedAnchors(in: text)
      if path == Self.referencePath { anchors += Self.localLinks(in: text) }
      citations += anchors.count
      for a in anchors where !defined.contains(a) { missing.append("\(path): #\(a)") }
    }
    #expect(missing.isEmpty, "cited rule anchors missing from docs/model.md: \(missing)")
    // The code does cite the reference (a scanner that finds nothing proves nothing).
    #expect(citations >= 30, "only \(citations) citations of docs/model.md found")
  }

  @Test func nothingCitesTheOldNotes() throws {
    // Built from parts so this file does not match itself.
    let old = ["MODEL" + ".md", "MODEL" + " §"]
    var offenders: [String] = []
    for path in try Self.citingFiles() {
      let text = try Self.read(path)
      for needle in old where text.contains(needle) { offenders.append("\(path): \(needle)") }
    }
    #expect(offenders.isEmpty, "cite docs/model.md#<rule> instead: \(offenders)")
  }

  @Test func anchorsAreDefinedOnce() throws {
    let text = try Self.read(Self.referencePath)
    let all = Self.anchorDefinitions(in: text)
    let duplicates = Dictionary(grouping: all, by: { $0 }).filter { $0.value.count > 1 }.keys.sorted()
    #expect(duplicates.isEmpty, "anchors defined twice in docs/model.md: \(duplicates)")
  }

  @Test func theScannerFindsAMisspelledAnchor() {
    let defined: Set<String> = ["budget-size", "force-quit", "lateness"]
    let m = Self.referencePath  // not written out, so the scan of this file does not see these
    let text = """
      /// The budget (\(m)#budget-size) and pushes (\(m)#silent-push-throttel, #force-quit).
      See [the rule](../\(m)#lateness) and \(m)#budget-size to #learning-period.
      """
    let cited = Self.citedAnchors(in: text)
    #expect(cited == ["budget-size", "silent-push-throttel", "force-quit", "lateness", "budget-size", "learning-period"])
    #expect(cited.filter { !defined.contains($0) } == ["silent-push-throttel", "learning-period"])
    #expect(Self.definedAnchors(in: "<a id=\"budget-size\"></a>\n## x\n<a id=\"when-empty\"></a>") == ["budget-size", "when-empty"])
  }

  // MARK: - Scanning

  static func isAnchorCharacter(_ c: Character) -> Bool {
    c.isASCII && (c.isLowercase || c.isNumber || c == "-")
  }

  /// The anchor starting right after a `#` at `i`, if any.
  static func anchor(in text: String, after i: String.Index) -> (String, String.Index)? {
    guard i < text.endIndex, text[i] == "#" else { return nil }
    var j = text.index(after: i)
    while j < text.endIndex, isAnchorCharacter(text[j]) { j = text.index(after: j) }
    var name = String(text[text.index(after: i)..<j])
    while name.hasSuffix("-") { name.removeLast() }
    return name.isEmpty ? nil : (name, j)
  }

  /// Anchors cited as `docs/model.md#<anchor>`, followed by any `, #<anchor>`,
  /// ` and #<anchor>` or ` to #<anchor>` that continue the same citation.
  static func citedAnchors(in text: String) -> [String] {
    var out: [String] = []
    var search = text.startIndex
    while let hit = text.range(of: referencePath, range: search..<text.endIndex) {
      search = hit.upperBound
      guard var (name, i) = anchor(in: text, after: hit.upperBound) else { continue }
      out.append(name)
      continuing: while true {
        for joiner in [", ", " and ", " to "] {
          if text[i...].hasPrefix(joiner + "#"), let next = anchor(in: text, after: text.index(i, offsetBy: joiner.count)) {
            out.append(next.0)
            (name, i) = next
            continue continuing
          }
        }
        break
      }
      search = i
    }
    return out
  }

  /// Markdown links within the reference itself: `](#anchor)`.
  static func localLinks(in text: String) -> [String] {
    var out: [String] = []
    var search = text.startIndex
    while let hit = text.range(of: "](#", range: search..<text.endIndex) {
      if let (name, _) = anchor(in: text, after: text.index(before: hit.upperBound)) { out.append(name) }
      search = hit.upperBound
    }
    return out
  }

  static func anchorDefinitions(in text: String) -> [String] {
    var out: [String] = []
    var search = text.startIndex
    while let hit = text.range(of: "<a id=\"", range: search..<text.endIndex) {
      guard let close = text.range(of: "\"", range: hit.upperBound..<text.endIndex) else { break }
      out.append(String(text[hit.upperBound..<close.lowerBound]))
      search = close.upperBound
    }
    return out
  }

  static func definedAnchors(in text: String) -> Set<String> { Set(anchorDefinitions(in: text)) }
}
