/// A malformed line of a reload log: where it is and how to fix it.
public struct LogError: Error, Sendable, Equatable {
  public let file: String
  public let line: Int
  public let column: Int
  public let message: String
  public let fix: String

  /// `FILE:LINE:COLUMN: message (fix: ...)`.
  public var description: String { "\(file):\(line):\(column): \(message) (fix: \(fix))" }
}

/// Too many malformed lines (`--max-bad-lines`): the count and the first few.
public struct TooManyBadLines: Error, Sendable {
  public let file: String
  public let limit: Int
  public let first: [LogError]

  public var description: String {
    let shown = first.prefix(3).map { "\($0.line):\($0.column) \($0.message)" }.joined(separator: "; ")
    return "\(file): more than \(limit) malformed lines, stopped at line \(first.last?.line ?? 0) "
      + "(first: \(shown)) (fix: repair or drop those lines, or raise --max-bad-lines)"
  }
}

/// Reads the CSV or JSON Lines text of a reload log (Scenarios/log-format.md).
///
/// Strict: a malformed line is an error naming the file, line and column
/// (1-based), unless `maxBadLines` allows skipping up to that many, which
/// are then counted in `ReloadLog.badLines`.
public enum LogParser {
  public enum Failure: Error, Sendable {
    case line(LogError)
    case tooMany(TooManyBadLines)

    public var description: String {
      switch self {
      case .line(let e): e.description
      case .tooMany(let t): t.description
      }
    }
  }

  /// Adds the lines of `bytes` (the contents of `file`) to `log`.
  public static func parse(_ bytes: [UInt8], file: String, into log: inout ReloadLog, maxBadLines: Int?) throws(Failure) {
    var bad: [LogError] = []
    log.files.append(file)
    var start = 0
    var lineNo = 0
    var columns: [Int]? = nil  // CSV: column index per field position
    var isJSON: Bool? = nil
    let n = bytes.count
    while start < n {
      var end = start
      while end < n && bytes[end] != 0x0A { end += 1 }
      lineNo += 1
      var stop = end
      if stop > start && bytes[stop - 1] == 0x0D { stop -= 1 }
      defer { start = end + 1 }
      // Blank lines are allowed (a log rotated mid-line leaves none; editors add them).
      var first = start
      while first < stop && (bytes[first] == 0x20 || bytes[first] == 0x09) { first += 1 }
      if first == stop { continue }
      if isJSON == nil { isJSON = bytes[first] == UInt8(ascii: "{") }
      do throws(LogError) {
        if isJSON! {
          let fields = try jsonFields(bytes, first, stop, file: file, line: lineNo)
          try add(fields, to: &log, file: file, line: lineNo)
        } else if columns == nil {
          columns = try header(bytes, first, stop, file: file, line: lineNo)
        } else {
          let raw = try csvFields(bytes, start, stop, file: file, line: lineNo)
          if raw.count != columns!.count {
            throw LogError(
              file: file, line: lineNo, column: 1,
              message: "\(raw.count) fields, the header has \(columns!.count)",
              fix: "write one value (or nothing) per header column, separated by commas")
          }
          var fields: [Field] = []
          fields.reserveCapacity(raw.count)
          for (i, f) in raw.enumerated() where !f.text.isEmpty { fields.append(Field(column: columns![i], text: f.text, at: f.at, quoted: false)) }
          try add(fields, to: &log, file: file, line: lineNo)
        }
      } catch {
        guard let limit = maxBadLines else { throw .line(error) }
        bad.append(error)
        log.badLines += 1
        if bad.count > limit { throw .tooMany(TooManyBadLines(file: file, limit: limit, first: bad)) }
      }
    }
    if isJSON == false && columns == nil || isJSON == nil {
      throw .line(
        LogError(
          file: file, line: max(1, lineNo), column: 1, message: "no log lines",
          fix: "a CSV log starts with the header '\(LogFormat.columns.joined(separator: ","))'"))
    }
  }

  struct Field {
    var column: Int
    var text: String
    var at: Int  // 1-based column in the line
    var quoted: Bool
  }

  static func header(_ b: [UInt8], _ s: Int, _ e: Int, file: String, line: Int) throws(LogError) -> [Int] {
    let raw = try csvFields(b, s, e, file: file, line: line)
    var out: [Int] = []
    var seen = Set<Int>()
    for f in raw {
      let name = f.text.trimmingSpaces
      guard let i = LogFormat.columns.firstIndex(of: name) else {
        throw LogError(
          file: file, line: line, column: f.at, message: "unknown column '\(String(name.prefix(40)))'",
          fix: "the columns are \(LogFormat.columns.joined(separator: ", "))")
      }
      guard seen.insert(i).inserted else {
        throw LogError(file: file, line: line, column: f.at, message: "column '\(name)' twice", fix: "list each column once")
      }
      out.append(i)
    }
    for required in ["type", "time", "device"] where !seen.contains(LogFormat.columns.firstIndex(of: required)!) {
      throw LogError(
        file: file, line: line, column: 1, message: "the header has no '\(required)' column",
        fix: "start the file with '\(LogFormat.columns.joined(separator: ","))'")
    }
    return out
  }

  /// CSV fields of one line (RFC 4180 quotes allowed).
  static func csvFields(_ b: [UInt8], _ s: Int, _ e: Int, file: String, line: Int) throws(LogError) -> [(text: String, at: Int)] {
    var out: [(String, Int)] = []
    var i = s
    while true {
      let at = i - s + 1
      if i < e && b[i] == UInt8(ascii: "\"") {
        var text: [UInt8] = []
        i += 1
        var closed = false
        while i < e {
          if b[i] == UInt8(ascii: "\"") {
            if i + 1 < e && b[i + 1] == UInt8(ascii: "\"") {
              text.append(b[i])
              i += 2
              continue
            }
            closed = true
            i += 1
            break
          }
          text.append(b[i])
          i += 1
        }
        if !closed {
          throw LogError(file: file, line: line, column: at, message: "unterminated quoted field", fix: "close the quote")
        }
        out.append((String(decoding: text, as: UTF8.self), at))
        if i < e && b[i] != UInt8(ascii: ",") {
          throw LogError(file: file, line: line, column: i - s + 1, message: "text after a closing quote", fix: "put a comma after the closing quote")
        }
      } else {
        var j = i
        while j < e && b[j] != UInt8(ascii: ",") { j += 1 }
        out.append((String(decoding: b[i..<j], as: UTF8.self), at))
        i = j
      }
      if i >= e { break }
      i += 1  // the comma
      if i == e {
        out.append(("", i - s + 1))
        break
      }
    }
    return out
  }

  /// The members of a flat JSON object on one line.
  static func jsonFields(_ b: [UInt8], _ s: Int, _ e: Int, file: String, line: Int) throws(LogError) -> [Field] {
    var i = s
    func fail(_ message: String, _ fix: String) -> LogError {
      LogError(file: file, line: line, column: i - s + 1, message: message, fix: fix)
    }
    func skip() { while i < e && (b[i] == 0x20 || b[i] == 0x09) { i += 1 } }
    func string() throws(LogError) -> String {
      guard i < e && b[i] == UInt8(ascii: "\"") else { throw fail("expected a string", "quote names and text values") }
      i += 1
      var out: [UInt8] = []
      while i < e && b[i] != UInt8(ascii: "\"") {
        if b[i] == UInt8(ascii: "\\") {
          i += 1
          guard i < e else { break }
          switch b[i] {
          case UInt8(ascii: "n"): out.append(0x0A)
          case UInt8(ascii: "t"): out.append(0x09)
          case UInt8(ascii: "u"):
            // \uXXXX: kept as written (names in the log are ASCII).
            out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u")])
          default: out.append(b[i])
          }
        } else {
          out.append(b[i])
        }
        i += 1
      }
      guard i < e else { throw fail("unterminated string", "close the string with \"") }
      i += 1
      return String(decoding: out, as: UTF8.self)
    }
    skip()
    guard i < e && b[i] == UInt8(ascii: "{") else { throw fail("expected '{'", "write one JSON object per line") }
    i += 1
    var fields: [Field] = []
    var seen = Set<Int>()
    skip()
    if i < e && b[i] == UInt8(ascii: "}") {
      i += 1
    } else {
      while true {
        skip()
        let keyAt = i - s + 1
        let key = try string()
        guard let column = LogFormat.columns.firstIndex(of: key) else {
          i = s + keyAt - 1
          throw fail("unknown key '\(String(key.prefix(40)))'", "the keys are \(LogFormat.columns.joined(separator: ", "))")
        }
        guard seen.insert(column).inserted else {
          i = s + keyAt - 1
          throw fail("key '\(key)' twice", "give each key once")
        }
        skip()
        guard i < e && b[i] == UInt8(ascii: ":") else { throw fail("expected ':'", "write \"key\": value") }
        i += 1
        skip()
        let at = i - s + 1
        if i < e && b[i] == UInt8(ascii: "\"") {
          fields.append(Field(column: column, text: try string(), at: at, quoted: true))
        } else {
          var j = i
          while j < e && b[j] != UInt8(ascii: ",") && b[j] != UInt8(ascii: "}") && b[j] != 0x20 { j += 1 }
          let word = String(decoding: b[i..<j], as: UTF8.self)
          guard !word.isEmpty else { throw fail("expected a value", "write a string, number, true, false or null") }
          if word != "null" { fields.append(Field(column: column, text: word, at: at, quoted: false)) }
          i = j
        }
        skip()
        guard i < e else { throw fail("unterminated object", "end the line with '}'") }
        if b[i] == UInt8(ascii: ",") {
          i += 1
          continue
        }
        guard b[i] == UInt8(ascii: "}") else { throw fail("expected ',' or '}'", "separate members with commas") }
        i += 1
        break
      }
    }
    skip()
    guard i == e else { throw fail("text after the object", "write one JSON object per line") }
    return fields
  }

  static let typeWords = Dictionary(uniqueKeysWithValues: ReloadLog.LineType.allCases.map { ($0.word, $0) })
  static let policyWords = Dictionary(uniqueKeysWithValues: ReloadLog.Policy.allCases.map { ($0.word, $0) })

  /// Checks the fields of one line and adds it.
  static func add(_ fields: [Field], to log: inout ReloadLog, file: String, line: Int) throws(LogError) {
    func fail(_ f: Field, _ message: String, _ fix: String) -> LogError {
      LogError(file: file, line: line, column: f.at, message: message, fix: fix)
    }
    var type: ReloadLog.LineType? = nil
    var time: Int64? = nil
    var device = ""
    var l = ReloadLog.Line(type: .timeline, time: 0, device: "")
    var sawPolicy = false, sawEntries = false
    for f in fields {
      let name = LogFormat.columns[f.column]
      switch name {
      case "type":
        guard let t = typeWords[f.text] else {
          throw fail(f, "unknown type '\(String(f.text.prefix(40)))'", "one of \(typeWords.keys.sorted().joined(separator: ", "))")
        }
        type = t
      case "time":
        guard let t = parseTime(f.text) else {
          throw fail(f, "'\(String(f.text.prefix(40)))' is not a UTC timestamp", "write 2026-01-05T07:13:02.123Z")
        }
        time = t
      case "device": device = f.text
      case "kind": l.kind = f.text
      case "family": l.family = f.text
      case "instance": l.instance = f.text
      case "entries":
        guard let n = Int(f.text), n >= 0, n <= 100_000 else {
          throw fail(f, "entries must be a whole number in 0...100000, got '\(String(f.text.prefix(40)))'", "log the timeline's entry count")
        }
        l.entries = n
        sawEntries = true
      case "policy":
        guard let p = policyWords[f.text] else {
          throw fail(f, "unknown policy '\(String(f.text.prefix(40)))'", "one of at_end, after, never")
        }
        l.policy = p
        sawPolicy = true
      case "next":
        guard let t = parseTime(f.text) else {
          throw fail(f, "'\(String(f.text.prefix(40)))' is not a UTC timestamp", "write 2026-01-05T07:13:02.123Z")
        }
        l.next = t
      case "low_power", "foreground":
        guard let v = parseBool(f.text) else {
          throw fail(f, "\(name) must be true or false, got '\(String(f.text.prefix(40)))'", "write true, false, 1, 0 or nothing")
        }
        if name == "low_power" { l.lowPower = v } else { l.foreground = v }
      case "trigger": l.trigger = f.text
      case "utc_offset_min":
        guard let n = Int(f.text), (-840...840).contains(n) else {
          throw fail(f, "utc_offset_min must be a whole number in -840...840, got '\(String(f.text.prefix(40)))'", "log TimeZone.current.secondsFromGMT() / 60")
        }
        l.utcOffsetMinutes = n
      default: l.ios = f.text
      }
    }
    let at1 = Field(column: 0, text: "", at: 1, quoted: false)
    guard let type else { throw fail(at1, "no type", "every line needs type, time and device") }
    guard let time else { throw fail(at1, "no time", "every line needs type, time and device") }
    guard !device.isEmpty else { throw fail(at1, "no device", "every line needs type, time and device") }
    if type == .timeline {
      guard !l.instance.isEmpty, !l.kind.isEmpty else {
        throw fail(at1, "a timeline line needs kind and instance", "log the widget's kind and an instance id")
      }
      guard sawPolicy, sawEntries else {
        throw fail(at1, "a timeline line needs entries and policy", "log what getTimeline returned")
      }
      if l.policy != .never && l.next == ReloadLog.none {
        throw fail(at1, "policy \(l.policy.word) needs next", "log the .after date or the last entry's date")
      }
    }
    l.type = type
    l.time = time
    l.device = device
    log.append(l)
  }

  static func parseBool(_ s: String) -> Bool? {
    switch s {
    case "true", "1": true
    case "false", "0": false
    default: nil
    }
  }

  /// `YYYY-MM-DDTHH:MM:SS[.fff]` then `Z` or `±HH:MM`, as ms since the epoch.
  public static func parseTime(_ s: String) -> Int64? {
    let b = Array(s.utf8)
    guard b.count >= 20 else { return nil }
    func num(_ i: Int, _ n: Int) -> Int? {
      var v = 0
      for k in i..<(i + n) {
        guard k < b.count, b[k] >= 48, b[k] <= 57 else { return nil }
        v = v * 10 + Int(b[k] - 48)
      }
      return v
    }
    guard let y = num(0, 4), b[4] == 45, let mo = num(5, 2), b[7] == 45, let d = num(8, 2),
      b[10] == UInt8(ascii: "T") || b[10] == UInt8(ascii: " "), let h = num(11, 2), b[13] == 58, let mi = num(14, 2),
      b[16] == 58, let sec = num(17, 2), (1...12).contains(mo), (1...31).contains(d), h < 24, mi < 60, sec < 61
    else { return nil }
    var i = 19
    var ms = 0
    if i < b.count && b[i] == UInt8(ascii: ".") {
      i += 1
      var digits = 0
      while i < b.count, b[i] >= 48, b[i] <= 57 {
        if digits < 3 { ms = ms * 10 + Int(b[i] - 48) }
        digits += 1
        i += 1
      }
      guard digits > 0 else { return nil }
      var k = digits
      while k < 3 {
        ms *= 10
        k += 1
      }
    }
    var offset = 0
    guard i < b.count else { return nil }
    if b[i] == UInt8(ascii: "Z") {
      i += 1
    } else if b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") {
      guard let oh = num(i + 1, 2), i + 3 < b.count, b[i + 3] == 58, let om = num(i + 4, 2) else { return nil }
      offset = (oh * 60 + om) * (b[i] == UInt8(ascii: "-") ? -1 : 1)
      i += 6
    } else {
      return nil
    }
    guard i == b.count else { return nil }
    let days = LogTime.days(year: y, month: mo, day: d)
    let secs = Int64(days) * 86_400 + Int64(h * 3600 + mi * 60 + sec) - Int64(offset * 60)
    return secs * 1000 + Int64(ms)
  }
}

extension String {
  var trimmingSpaces: String {
    var s = Substring(self)
    while s.first == " " { s = s.dropFirst() }
    while s.last == " " { s = s.dropLast() }
    return String(s)
  }
}
