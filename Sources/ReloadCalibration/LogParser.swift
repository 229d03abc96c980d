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
///
/// Fast: it scans the bytes in place. A field is a range of the line (or,
/// for a quoted CSV field or a JSON string with escapes, of a scratch
/// buffer it is decoded into); numbers and timestamps are read from the
/// bytes, and names are interned from them (`ReloadLog.Names`), so a line
/// allocates nothing unless it brings a new name or an error.
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

  /// Adds the lines of `bytes` (the whole contents of `file`) to `log`.
  public static func parse(_ bytes: [UInt8], file: String, into log: inout ReloadLog, maxBadLines: Int?) throws(Failure)
  {
    var reader = Reader(file: file, maxBadLines: maxBadLines)
    _ = try reader.feed(bytes, into: &log, final: true)
    try reader.finish(into: &log)
  }

  /// Reads one file in blocks (the caller need not hold it whole): `feed`
  /// parses the complete lines of a block and says how many bytes it used;
  /// the rest goes in front of the next block.
  public struct Reader {
    let file: String
    let maxBadLines: Int?
    var lineNo = 0
    /// CSV: the column index of each field position.
    var columns: [Int]? = nil
    var isJSON: Bool? = nil
    /// The first few malformed lines skipped, and the last (a log of
    /// millions of bad lines keeps only these, and their count).
    var bad: [LogError] = []
    var lastBad: LogError? = nil
    var badCount = 0
    /// Inside a line longer than `maxLineBytes`, already counted: its rest
    /// is skipped up to the next newline, never held.
    var skippingLongLine = false
    /// Nothing read yet (a UTF-8 byte-order mark may come first).
    var atFileStart = true
    var scratch: [UInt8] = []
    var fields: [Field] = []

    public init(file: String, maxBadLines: Int?) {
      self.file = file
      self.maxBadLines = maxBadLines
    }

    /// Parses the complete lines of `bytes` (all of them when `final`) and
    /// returns the number of bytes read.
    public mutating func feed(_ bytes: [UInt8], into log: inout ReloadLog, final: Bool) throws(Failure) -> Int {
      var result: Result<Int, Failure> = .success(0)
      bytes.withUnsafeBufferPointer { b in
        do throws(Failure) {
          result = .success(try feed(b, into: &log, final: final))
        } catch {
          result = .failure(error)
        }
      }
      return try result.get()
    }

    public mutating func feed(_ b: UnsafeBufferPointer<UInt8>, into log: inout ReloadLog, final: Bool) throws(Failure)
      -> Int
    {
      let n = b.count
      var start = 0
      if atFileStart {
        // A UTF-8 byte-order mark (Excel and some Windows editors write one) is not part of the first line.
        guard n >= LogParser.byteOrderMark.count || final else { return 0 }
        atFileStart = false
        if n >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF { start = 3 }
      }
      while start < n {
        var end = start
        if skippingLongLine {
          while end < n && b[end] != 0x0A { end += 1 }
          if end == n { return n }
          skippingLongLine = false
          start = end + 1
          continue
        }
        while end < n && b[end] != 0x0A && end - start <= LogParser.maxLineBytes { end += 1 }
        if end - start > LogParser.maxLineBytes {
          // Over the limit: one bad line, named; its rest is skipped, never buffered.
          lineNo += 1
          try reject(
            error(
              LogParser.maxLineBytes + 1, "line longer than \(LogParser.maxLineBytes) bytes",
              "one log record per line (is this a log? a file without newlines is not)"), log: &log)
          skippingLongLine = true
          start = end
          continue
        }
        if end == n && !final { break }
        lineNo += 1
        var stop = end
        if stop > start && b[stop - 1] == 0x0D { stop -= 1 }
        let lineStart = start
        start = end + 1
        // Blank lines are allowed (a log rotated mid-line leaves none; editors add them).
        var first = lineStart
        while first < stop && (b[first] == 0x20 || b[first] == 0x09) { first += 1 }
        if first == stop { continue }
        if isJSON == nil { isJSON = b[first] == UInt8(ascii: "{") }
        if isJSON == false && columns == nil {
          // A CSV log's first line is its header: a malformed one stops the
          // read even with maxBadLines (every later line would be read against it).
          do throws(LogError) {
            columns = try header(b, first, stop)
          } catch {
            throw .line(error)
          }
          continue
        }
        do throws(LogError) {
          if isJSON! {
            try jsonFields(b, first, stop)
            try add(b, to: &log)
          } else {
            try csvFields(b, lineStart, stop)
            try add(b, to: &log)
          }
        } catch {
          try reject(error, log: &log)
        }
      }
      return min(start, n)
    }

    /// A malformed line: the error, or (with `maxBadLines`) one more
    /// skipped line, until there are more than that.
    mutating func reject(_ e: LogError, log: inout ReloadLog) throws(Failure) {
      guard let limit = maxBadLines else { throw .line(e) }
      badCount += 1
      log.badLines += 1
      if bad.count < 3 { bad.append(e) } else { lastBad = e }
      if badCount > limit {
        throw .tooMany(TooManyBadLines(file: file, limit: limit, first: bad + (lastBad.map { [$0] } ?? [])))
      }
    }

    /// After the last block: a file without lines is refused.
    public mutating func finish(into log: inout ReloadLog) throws(Failure) {
      log.files.append(file)
      if isJSON == false && columns == nil || isJSON == nil {
        let skipped =
          bad.first.map {
            ": its \(badCount) non-blank line\(badCount == 1 ? " is" : "s are") malformed (first: line \($0.line), "
              + "\($0.message))"
          } ?? ""
        throw .line(
          LogError(
            file: file, line: max(1, lineNo), column: 1, message: "no log lines" + skipped,
            fix: "a CSV log starts with the header '\(LogFormat.columns.joined(separator: ","))'"))
      }
    }

    func error(_ at: Int, _ message: String, _ fix: String) -> LogError {
      LogError(file: file, line: lineNo, column: at, message: message, fix: fix)
    }

    mutating func header(_ b: UnsafeBufferPointer<UInt8>, _ s: Int, _ e: Int) throws(LogError) -> [Int] {
      columns = nil
      try splitCSV(b, s, e, named: false)
      // The names are looked up in the bytes; text is made only for an
      // error (a file of millions of bad lines tries each as the header).
      var out: [Int] = []
      var unknown: Int? = nil
      scratch.withUnsafeBufferPointer { sc in
        for (k, f) in fields.enumerated() {
          var from = f.from
          var to = f.to
          let source = f.inScratch ? sc : b
          while from < to && source[from] == 0x20 { from += 1 }
          while to > from && source[to - 1] == 0x20 { to -= 1 }
          guard let i = LogParser.column(UnsafeBufferPointer(rebasing: source[from..<to])) else {
            unknown = k
            return
          }
          out.append(i)
        }
      }
      if let k = unknown {
        resolve(b)
        let name = fields[k].text.trimmingSpaces
        throw error(fields[k].at, "unknown column '\(String(name.prefix(40)))'", LogParser.columnsFix)
      }
      var seen: UInt32 = 0
      for (k, i) in out.enumerated() {
        guard seen & (1 << i) == 0 else {
          resolve(b)
          throw error(fields[k].at, "column '\(fields[k].text.trimmingSpaces)' twice", "list each column once")
        }
        seen |= 1 << i
      }
      for required in [LogParser.cType, LogParser.cTime, LogParser.cDevice] where seen & (1 << required) == 0 {
        throw error(
          1, "the header has no '\(LogFormat.columns[required])' column",
          "start the file with '\(LogFormat.columns.joined(separator: ","))'")
      }
      return out
    }

    /// The non-empty fields of a CSV line, with their header columns.
    mutating func csvFields(_ b: UnsafeBufferPointer<UInt8>, _ s: Int, _ e: Int) throws(LogError) {
      try splitCSV(b, s, e, named: true)
    }

    /// Splits a CSV line (RFC 4180 quotes allowed) into `fields`: every
    /// field when `!named` (the header), else the non-empty ones with
    /// their column, after checking the count against the header.
    mutating func splitCSV(_ b: UnsafeBufferPointer<UInt8>, _ s: Int, _ e: Int, named: Bool) throws(LogError) {
      fields.removeAll(keepingCapacity: true)
      scratch.removeAll(keepingCapacity: true)
      var count = 0
      let width = columns?.count ?? 0
      var i = s
      while true {
        let at = i - s + 1
        var field: Field
        if i < e && b[i] == UInt8(ascii: "\"") {
          let from = scratch.count
          i += 1
          var closed = false
          while i < e {
            if b[i] == UInt8(ascii: "\"") {
              if i + 1 < e && b[i + 1] == UInt8(ascii: "\"") {
                scratch.append(b[i])
                i += 2
                continue
              }
              closed = true
              i += 1
              break
            }
            scratch.append(b[i])
            i += 1
          }
          guard closed else { throw error(at, "unterminated quoted field", "close the quote") }
          if i < e && b[i] != UInt8(ascii: ",") {
            throw error(i - s + 1, "text after a closing quote", "put a comma after the closing quote")
          }
          field = Field(column: 0, from: from, to: scratch.count, inScratch: true, at: at)
        } else {
          var j = i
          while j < e && b[j] != UInt8(ascii: ",") { j += 1 }
          field = Field(column: 0, from: i, to: j, inScratch: false, at: at)
          i = j
        }
        if named {
          if count < width && field.to > field.from {
            field.column = columns![count]
            fields.append(field)
          }
        } else {
          fields.append(field)
        }
        count += 1
        if i >= e { break }
        i += 1  // the comma
        if i == e {
          if !named { fields.append(Field(column: 0, from: i, to: i, inScratch: false, at: i - s + 1)) }
          count += 1
          break
        }
      }
      if named && count != width {
        throw error(
          1, "\(count) fields, the header has \(width)",
          "write one value (or nothing) per header column, separated by commas")
      }
    }

    /// The members of a flat JSON object on one line, into `fields`.
    mutating func jsonFields(_ b: UnsafeBufferPointer<UInt8>, _ s: Int, _ e: Int) throws(LogError) {
      fields.removeAll(keepingCapacity: true)
      scratch.removeAll(keepingCapacity: true)
      var i = s
      let file = self.file
      let line = lineNo
      func fail(_ message: String, _ fix: String) -> LogError {
        LogError(file: file, line: line, column: i - s + 1, message: message, fix: fix)
      }
      func skip() { while i < e && (b[i] == 0x20 || b[i] == 0x09) { i += 1 } }
      /// A string into the scratch buffer: its range there.
      func string(_ scratch: inout [UInt8]) throws(LogError) -> Range<Int> {
        guard i < e && b[i] == UInt8(ascii: "\"") else {
          throw fail("expected a string", "quote names and text values")
        }
        i += 1
        let from = scratch.count
        while i < e && b[i] != UInt8(ascii: "\"") {
          if b[i] == UInt8(ascii: "\\") {
            i += 1
            guard i < e else { break }
            switch b[i] {
            case UInt8(ascii: "n"): scratch.append(0x0A)
            case UInt8(ascii: "t"): scratch.append(0x09)
            case UInt8(ascii: "u"):
              // \uXXXX: kept as written (names in the log are ASCII).
              scratch.append(UInt8(ascii: "\\"))
              scratch.append(UInt8(ascii: "u"))
            default: scratch.append(b[i])
            }
          } else {
            scratch.append(b[i])
          }
          i += 1
        }
        guard i < e else { throw fail("unterminated string", "close the string with \"") }
        i += 1
        return from..<scratch.count
      }
      skip()
      guard i < e && b[i] == UInt8(ascii: "{") else { throw fail("expected '{'", "write one JSON object per line") }
      i += 1
      var seen: UInt32 = 0
      skip()
      if i < e && b[i] == UInt8(ascii: "}") {
        i += 1
      } else {
        while true {
          skip()
          let keyAt = i
          let keyRange = try string(&scratch)
          let column = scratch.withUnsafeBufferPointer { LogParser.column(UnsafeBufferPointer(rebasing: $0[keyRange])) }
          let key = String(decoding: scratch[keyRange], as: UTF8.self)
          scratch.removeSubrange(keyRange)
          guard let column else {
            i = keyAt
            throw fail(
              "unknown key '\(String(key.prefix(40)))'", LogParser.keysFix)
          }
          guard seen & (1 << column) == 0 else {
            i = keyAt
            throw fail("key '\(key)' twice", "give each key once")
          }
          seen |= 1 << column
          skip()
          guard i < e && b[i] == UInt8(ascii: ":") else { throw fail("expected ':'", "write \"key\": value") }
          i += 1
          skip()
          let at = i - s + 1
          if i < e && b[i] == UInt8(ascii: "\"") {
            let r = try string(&scratch)
            do { fields.append(Field(column: column, from: r.lowerBound, to: r.upperBound, inScratch: true, at: at)) }
          } else {
            var j = i
            while j < e && b[j] != UInt8(ascii: ",") && b[j] != UInt8(ascii: "}") && b[j] != 0x20 { j += 1 }
            guard j > i else { throw fail("expected a value", "write a string, number, true, false or null") }
            let isNull =
              j - i == 4 && b[i] == UInt8(ascii: "n") && b[i + 1] == UInt8(ascii: "u") && b[i + 2] == UInt8(ascii: "l")
              && b[i + 3] == UInt8(ascii: "l")
            if !isNull { fields.append(Field(column: column, from: i, to: j, inScratch: false, at: at)) }
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
    }

    /// Gives the header's fields their text (it is read once per file).
    mutating func resolve(_ b: UnsafeBufferPointer<UInt8>) {
      for k in fields.indices {
        let f = fields[k]
        fields[k].text =
          f.inScratch
          ? String(decoding: scratch[f.from..<f.to], as: UTF8.self)
          : String(decoding: UnsafeBufferPointer(rebasing: b[f.from..<f.to]), as: UTF8.self)
      }
    }

    /// Checks the fields of one line and adds it.
    mutating func add(_ b: UnsafeBufferPointer<UInt8>, to log: inout ReloadLog) throws(LogError) {
      var failure: LogError? = nil
      scratch.withUnsafeBufferPointer { sc in
        do throws(LogError) {
          try LogParser.add(fields, line: b, scratch: sc, to: &log, file: file, lineNo: lineNo)
        } catch {
          failure = error
        }
      }
      if let failure { throw failure }
    }
  }

  struct Field {
    var column: Int
    var from: Int
    var to: Int
    var inScratch: Bool
    var at: Int  // 1-based column in the line
    var text = ""  // the header's only
  }

  /// The longest line read (a log line is a few hundred bytes): a longer
  /// one is one malformed line, so a file without newlines is never held whole.
  public static let maxLineBytes = 65_536
  static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]
  /// The columns, for error messages (made once: a log may have millions of bad lines).
  static let columnsFix = "the columns are " + LogFormat.columns.joined(separator: ", ")
  static let keysFix = "the keys are " + LogFormat.columns.joined(separator: ", ")

  static let typeWords = ReloadLog.LineType.allCases.map { Array($0.word.utf8) }
  static let policyWords = ReloadLog.Policy.allCases.map { Array($0.word.utf8) }
  static let columnWords = LogFormat.columns.map { Array($0.utf8) }

  /// The index of `bytes` in `words`.
  static func lookup(_ bytes: UnsafeBufferPointer<UInt8>, _ words: [[UInt8]]) -> Int? {
    outer: for (k, w) in words.enumerated() where w.count == bytes.count {
      for i in 0..<w.count where w[i] != bytes[i] { continue outer }
      return k
    }
    return nil
  }

  static func column(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? { lookup(bytes, columnWords) }

  // Columns by index (LogFormat.columns' order).
  static let cType = 0, cTime = 1, cDevice = 2, cKind = 3, cFamily = 4, cInstance = 5, cEntries = 6, cPolicy = 7,
    cNext = 8, cLowPower = 9, cForeground = 10, cTrigger = 11, cOffset = 12, cIOS = 13

  /// Checks the fields of one line and appends it to `log`.
  static func add(
    _ fields: [Field], line b: UnsafeBufferPointer<UInt8>, scratch: UnsafeBufferPointer<UInt8>, to log: inout ReloadLog,
    file: String, lineNo line: Int
  ) throws(LogError) {
    func bytes(_ f: Field) -> UnsafeBufferPointer<UInt8> {
      UnsafeBufferPointer(rebasing: (f.inScratch ? scratch : b)[f.from..<f.to])
    }
    func text(_ f: Field) -> String { String(decoding: bytes(f), as: UTF8.self) }
    func fail(_ at: Int, _ message: String, _ fix: String) -> LogError {
      LogError(file: file, line: line, column: at, message: message, fix: fix)
    }
    var type: ReloadLog.LineType? = nil
    var time: Int64? = nil
    var device: Field? = nil
    var kind: Field? = nil
    var family: Field? = nil
    var instance: Field? = nil
    var trigger: Field? = nil
    var ios: Field? = nil
    var entries = 0
    var policy = ReloadLog.Policy.never
    var next = ReloadLog.none
    var lowPower: Int8 = -1
    var foreground: Int8 = -1
    var offset = ReloadLog.noOffset
    var sawPolicy = false
    var sawEntries = false
    for f in fields {
      let v = bytes(f)
      switch f.column {
      case cType:
        guard let t = lookup(v, typeWords) else {
          throw fail(
            f.at, "unknown type '\(String(text(f).prefix(40)))'",
            "one of \(ReloadLog.LineType.allCases.map(\.word).sorted().joined(separator: ", "))")
        }
        type = ReloadLog.LineType.allCases[t]
      case cTime, cNext:
        guard let t = parseTime(v) else {
          throw fail(f.at, "'\(String(text(f).prefix(40)))' is not a UTC timestamp", "write 2026-01-05T07:13:02.123Z")
        }
        if f.column == cTime { time = t } else { next = t }
      // An empty JSON string is no name.
      case cDevice: device = v.isEmpty ? nil : f
      case cKind: kind = v.isEmpty ? nil : f
      case cFamily: family = v.isEmpty ? nil : f
      case cInstance: instance = v.isEmpty ? nil : f
      case cEntries:
        guard let n = integer(v), n >= 0, n <= 100_000 else {
          throw fail(
            f.at, "entries must be a whole number in 0...100000, got '\(String(text(f).prefix(40)))'",
            "log the timeline's entry count")
        }
        entries = n
        sawEntries = true
      case cPolicy:
        guard let p = lookup(v, policyWords) else {
          throw fail(f.at, "unknown policy '\(String(text(f).prefix(40)))'", "one of at_end, after, never")
        }
        policy = ReloadLog.Policy.allCases[p]
        sawPolicy = true
      case cLowPower, cForeground:
        guard let flag = bool(v) else {
          throw fail(
            f.at, "\(LogFormat.columns[f.column]) must be true or false, got '\(String(text(f).prefix(40)))'",
            "write true, false, 1, 0 or nothing")
        }
        if f.column == cLowPower { lowPower = flag ? 1 : 0 } else { foreground = flag ? 1 : 0 }
      case cTrigger: trigger = v.isEmpty ? nil : f
      case cOffset:
        guard let n = integer(v), (-840...840).contains(n) else {
          throw fail(
            f.at, "utc_offset_min must be a whole number in -840...840, got '\(String(text(f).prefix(40)))'",
            "log TimeZone.current.secondsFromGMT() / 60")
        }
        offset = Int32(n)
      default: ios = v.isEmpty ? nil : f
      }
    }
    guard let type else { throw fail(1, "no type", "every line needs type, time and device") }
    guard let time else { throw fail(1, "no time", "every line needs type, time and device") }
    guard let device else { throw fail(1, "no device", "every line needs type, time and device") }
    if type == .timeline {
      guard instance != nil, kind != nil else {
        throw fail(1, "a timeline line needs kind and instance", "log the widget's kind and an instance id")
      }
      guard sawPolicy, sawEntries else {
        throw fail(1, "a timeline line needs entries and policy", "log what getTimeline returned")
      }
      if policy != .never && next == ReloadLog.none {
        throw fail(1, "policy \(policy.word) needs next", "log the .after date or the last entry's date")
      }
    }
    log.type.append(type)
    log.time.append(time)
    log.device.append(log.devices.intern(bytes(device)))
    log.kind.append(kind.map { log.kinds.intern(bytes($0)) } ?? -1)
    log.family.append(family.map { log.families.intern(bytes($0)) } ?? -1)
    log.instance.append(instance.map { log.instances.intern(bytes($0)) } ?? -1)
    log.entries.append(Int32(entries))
    log.policy.append(policy)
    log.next.append(next)
    log.lowPower.append(lowPower)
    log.foreground.append(foreground)
    log.trigger.append(trigger.map { log.triggers.intern(bytes($0)) } ?? 0)
    log.utcOffset.append(offset)
    log.ios.append(ios.map { log.iosVersions.intern(bytes($0)) } ?? 0)
  }

  static func bool(_ v: UnsafeBufferPointer<UInt8>) -> Bool? {
    if v.count == 1 { return v[0] == UInt8(ascii: "1") ? true : v[0] == UInt8(ascii: "0") ? false : nil }
    if v.count == 4 && v[0] == UInt8(ascii: "t") && v[1] == UInt8(ascii: "r") && v[2] == UInt8(ascii: "u")
      && v[3] == UInt8(ascii: "e")
    {
      return true
    }
    if v.count == 5 && v[0] == UInt8(ascii: "f") && v[1] == UInt8(ascii: "a") && v[2] == UInt8(ascii: "l")
      && v[3] == UInt8(ascii: "s")
      && v[4] == UInt8(ascii: "e")
    {
      return false
    }
    return nil
  }

  /// A whole number as `Int(_: String)` reads it (optional sign, digits), up to 18 digits.
  static func integer(_ v: UnsafeBufferPointer<UInt8>) -> Int? {
    var i = 0
    var negative = false
    if i < v.count && (v[i] == UInt8(ascii: "+") || v[i] == UInt8(ascii: "-")) {
      negative = v[i] == UInt8(ascii: "-")
      i += 1
    }
    guard i < v.count, v.count - i <= 18 else { return nil }
    var n = 0
    while i < v.count {
      guard v[i] >= 48, v[i] <= 57 else { return nil }
      n = n * 10 + Int(v[i] - 48)
      i += 1
    }
    return negative ? -n : n
  }

  /// `YYYY-MM-DDTHH:MM:SS[.fff]` then `Z` or `±HH:MM`, as ms since the epoch.
  public static func parseTime(_ s: String) -> Int64? {
    let b = Array(s.utf8)
    return b.withUnsafeBufferPointer { parseTime($0) }
  }

  static func parseTime(_ b: UnsafeBufferPointer<UInt8>) -> Int64? {
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
      b[16] == 58, let sec = num(17, 2), (1...12).contains(mo), (1...LogTime.daysIn(year: y, month: mo)).contains(d),
      h < 24, mi < 60, sec < 61
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
      // At most 14:00 either way (UTC-12:00 ... UTC+14:00, as utc_offset_min's -840...840).
      guard let oh = num(i + 1, 2), i + 3 < b.count, b[i + 3] == 58, let om = num(i + 4, 2), om < 60,
        oh * 60 + om <= 840
      else { return nil }
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
