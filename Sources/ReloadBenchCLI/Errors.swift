/// A problem in a scenario file: where (JSON path), what, and how to fix it.
struct ScenarioError: Error, Equatable {
  /// `$.model.budget.max_per_day`, `$.segments[0].widgets[1].kind`, ...
  let path: String
  let message: String
  let fix: String

  /// One line for stderr: `FILE: PATH: message (fix: ...)`, with any
  /// control character of a value escaped (a newline in a value cannot
  /// split the line).
  func line(file: String) -> String {
    TerminalText.oneLine(TerminalText.shortWords("\(file): \(path): \(message) (fix: \(fix))"))
  }
}

/// An error the CLI reports on one line of stderr before exiting.
package struct CLIError: Error {
  /// One line: control characters (a newline in a value, an escape
  /// sequence in a name) are escaped.
  package let message: String
  package let exitCode: Int32

  package init(message: String, exitCode: Int32) {
    self.message = TerminalText.oneLine(TerminalText.shortWords(message))
    self.exitCode = exitCode
  }

  /// Bad input: scenario, baseline, flags, paths (exit 2).
  static func badInput(_ message: String) -> CLIError { CLIError(message: message, exitCode: 2) }
  /// A check failed (exit 1).
  static func failure(_ message: String) -> CLIError { CLIError(message: message, exitCode: 1) }
}

/// Exit statuses, documented in `reloadbench --help`.
enum ExitStatus {
  static let success: Int32 = 0
  /// An expectation failed or a metric regressed.
  static let failure: Int32 = 1
  /// Bad input: scenario, baseline, flags or paths.
  static let badInput: Int32 = 2
}

/// User text made safe for messages and the terminal.
enum TerminalText {
  /// Is `s` a control character a terminal acts on, or a bidirectional
  /// control that reorders the text around it?
  static func isControl(_ s: Unicode.Scalar) -> Bool {
    switch s.value {
    case 0x00...0x1F, 0x7F...0x9F: return true
    case 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069, 0x061C: return true
    default: return false
    }
  }

  /// `text` with every control character written as an escape
  /// (`\n`, `\t`, `\u{1B}`), except newlines and tabs when `keepLines`.
  static func escaped(_ text: String, keepLines: Bool) -> String {
    guard text.unicodeScalars.contains(where: isControl) else { return text }
    var out = String.UnicodeScalarView()
    for s in text.unicodeScalars {
      guard isControl(s) else {
        out.append(s)
        continue
      }
      switch s {
      case "\n" where keepLines, "\t" where keepLines: out.append(s)
      case "\n": out.append(contentsOf: "\\n".unicodeScalars)
      case "\r": out.append(contentsOf: "\\r".unicodeScalars)
      case "\t": out.append(contentsOf: "\\t".unicodeScalars)
      default: out.append(contentsOf: "\\u{\(String(s.value, radix: 16, uppercase: true))}".unicodeScalars)
      }
    }
    return String(out)
  }

  /// `text` on one line: every control character escaped.
  static func oneLine(_ text: String) -> String { escaped(text, keepLines: false) }

  /// `s` shortened for a message: at most `max` characters, the rest
  /// replaced by "..." and the full length.
  static func short(_ s: String, max: Int = 60) -> String {
    // Counting characters of a huge string is linear; stop early.
    var end = s.startIndex
    var n = 0
    while end < s.endIndex && n < max {
      s.formIndex(after: &end)
      n += 1
    }
    if end == s.endIndex { return s }
    return String(s[..<end]) + "...(\(s.utf8.count) bytes)"
  }

  /// `text` with each word (a run without spaces: a path, a value) of
  /// more than `max` characters shortened as `short` does, so a value of
  /// 100 KB echoed in an error leaves the line readable.
  static func shortWords(_ text: String, max: Int = 240) -> String {
    guard text.utf8.count > max else { return text }
    let words = text.split(separator: " ", omittingEmptySubsequences: false)
    guard words.contains(where: { $0.utf8.count > max }) else { return text }
    return words.map { $0.utf8.count > max ? short(String($0), max: max / 2) : String($0) }.joined(separator: " ")
  }

  /// `s` in double quotes, shortened (control characters are escaped
  /// where the message is printed).
  static func quoted(_ s: String, max: Int = 60) -> String { "\"" + short(s, max: max) + "\"" }

  /// `names` quoted and shortened, comma-separated; past `max` names, the
  /// count of the rest.
  static func list(_ names: [String], max: Int = 80) -> String {
    let shown = names.prefix(max).map { quoted($0) }.joined(separator: ", ")
    return names.count > max ? shown + " and \(names.count - max) more" : shown
  }
}
