import ReloadReports

/// The text of the reload log: CSV with a header, or JSON Lines
/// (Scenarios/log-format.md). Writing is here; reading is `LogParser`.
public enum LogFormat: String, Sendable {
  case csv
  case jsonLines = "jsonl"

  /// The format a file name asks for: `.csv`, or `.jsonl` / `.ndjson`.
  public static func forPath(_ path: String) -> LogFormat? {
    let lower = path.lowercased()
    if lower.hasSuffix(".csv") { return .csv }
    if lower.hasSuffix(".jsonl") || lower.hasSuffix(".ndjson") { return .jsonLines }
    return nil
  }

  /// The columns, in the order the CSV header lists them when written.
  public static let columns = [
    "type", "time", "device", "kind", "family", "instance", "entries", "policy", "next", "low_power", "foreground",
    "trigger", "utc_offset_min", "ios",
  ]

  /// The CSV header line (with its newline).
  public static var header: String { columns.joined(separator: ",") + "\n" }

  /// JSON Lines: one object per line, its keys in the columns' order.
  static let jsonLineStyle = JSONStyle(colon: ":", comma: ",", lines: .none, sortedKeys: false)

  /// Appends `line` in this format (with its newline) to `out`.
  public func write(_ line: ReloadLog.Line, to out: inout String) {
    let values = Self.values(line)
    switch self {
    case .csv:
      for (i, v) in values.enumerated() {
        if i > 0 { out += "," }
        out += v.text
      }
      out += "\n"
    case .jsonLines:
      var members: [(key: String, value: JSON)] = []
      for (i, v) in values.enumerated() {
        if let json = v.json { members.append((key: Self.columns[i], value: json)) }
      }
      out += JSON.object(members).text(Self.jsonLineStyle)
      out += "\n"
    }
  }

  /// One column's value: a word, a whole number, a flag, or nothing.
  enum Value {
    case word(String)
    case number(Int)
    case flag(Bool)
    case none

    /// As a CSV field (empty for none).
    var text: String {
      switch self {
      case .word(let s): return s
      case .number(let n): return String(n)
      case .flag(let b): return b ? "true" : "false"
      case .none: return ""
      }
    }

    /// As a JSON value (nil for none, or an empty word: the key is left out).
    var json: JSON? {
      switch self {
      case .word(let s): return s.isEmpty ? nil : .string(s)
      case .number(let n): return .integer(n)
      case .flag(let b): return .bool(b)
      case .none: return nil
      }
    }
  }

  private static func values(_ l: ReloadLog.Line) -> [Value] {
    let timeline = l.type == .timeline
    func flag(_ b: Bool?) -> Value { b.map(Value.flag) ?? .none }
    return [
      .word(l.type.word),
      .word(LogTime.format(l.time)),
      .word(l.device),
      .word(l.kind),
      .word(l.family),
      .word(l.instance),
      timeline ? .number(l.entries) : .none,
      timeline ? .word(l.policy.word) : .none,
      l.next == ReloadLog.none ? .none : .word(LogTime.format(l.next)),
      flag(l.lowPower),
      flag(l.foreground),
      .word(l.trigger),
      l.utcOffsetMinutes.map(Value.number) ?? .none,
      .word(l.ios),
    ]
  }
}

/// UTC timestamps of the log: `2026-01-05T07:13:02.123Z` (milliseconds optional).
public enum LogTime {
  /// The days of `month` (1...12) in `year` (proleptic Gregorian).
  public static func daysIn(year: Int, month: Int) -> Int {
    switch month {
    case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }

  /// Days since 1970-01-01 of a proleptic Gregorian date.
  public static func days(year y0: Int, month m: Int, day d: Int) -> Int {
    let y = m <= 2 ? y0 - 1 : y0
    let era = (y >= 0 ? y : y - 399) / 400
    let yoe = y - era * 400
    let doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
    return era * 146_097 + doe - 719_468
  }

  /// The date of a day count.
  public static func civil(_ z0: Int) -> (year: Int, month: Int, day: Int) {
    let z = z0 + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let doe = z - era * 146_097
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
    let y = yoe + era * 400
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
    let mp = (5 * doy + 2) / 153
    let d = doy - (153 * mp + 2) / 5 + 1
    let m = mp < 10 ? mp + 3 : mp - 9
    return (m <= 2 ? y + 1 : y, m, d)
  }

  /// `ms` since the epoch as `YYYY-MM-DDTHH:MM:SS.sssZ`.
  public static func format(_ ms: Int64) -> String {
    let dayMs: Int64 = 86_400_000
    var day = ms / dayMs
    var rest = ms % dayMs
    if rest < 0 {
      rest += dayMs
      day -= 1
    }
    let (y, m, d) = civil(Int(day))
    let h = Int(rest / 3_600_000)
    let mi = Int(rest / 60_000 % 60)
    let s = Int(rest / 1000 % 60)
    let f = Int(rest % 1000)
    func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
    let frac = f < 10 ? "00\(f)" : f < 100 ? "0\(f)" : "\(f)"
    return "\(y)-\(two(m))-\(two(d))T\(two(h)):\(two(mi)):\(two(s)).\(frac)Z"
  }

  /// The start of the simulated calendar: day 0 of an emitted log
  /// (2026-01-05, a Monday, the default `start_weekday`).
  public static let simulationEpoch = Int64(days(year: 2026, month: 1, day: 5)) * 86_400_000
}
