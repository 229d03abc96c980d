/// A reload log as the widget extension and the app of a deployment write
/// it (Scenarios/log-format.md), held column by column with every name
/// interned, so millions of lines stay compact and fast to scan.
///
///     var log = ReloadLog()
///     try LogParser.parse(bytes, file: "a.csv", into: &log, maxBadLines: nil)
///     let fit = Calibration.fit(log)
public struct ReloadLog: Sendable {
  /// What a line records (the `type` column).
  public enum LineType: UInt8, Sendable, CaseIterable {
    case timeline, foreground, background, reloadCall, silentPush, bgRefresh

    /// The word in the log.
    public var word: String {
      switch self {
      case .timeline: "timeline"
      case .foreground: "foreground"
      case .background: "background"
      case .reloadCall: "reload_call"
      case .silentPush: "silent_push"
      case .bgRefresh: "bg_refresh"
      }
    }
  }

  /// The provider's reload policy (the `policy` column).
  public enum Policy: UInt8, Sendable, CaseIterable {
    case atEnd, after, never

    public var word: String {
      switch self {
      case .atEnd: "at_end"
      case .after: "after"
      case .never: "never"
      }
    }
  }

  /// `next` when the line has none.
  public static let none = Int64.min
  /// `utcOffset` when the line has none.
  public static let noOffset = Int32.min

  public internal(set) var type: [LineType] = []
  /// Milliseconds since 1970-01-01T00:00:00Z.
  public internal(set) var time: [Int64] = []
  public internal(set) var device: [Int32] = []
  public internal(set) var kind: [Int32] = []
  public internal(set) var family: [Int32] = []
  public internal(set) var instance: [Int32] = []
  public internal(set) var entries: [Int32] = []
  public internal(set) var policy: [Policy] = []
  /// The requested date (`.after`) or the last entry's date (`.atEnd`), ms; `none` otherwise.
  public internal(set) var next: [Int64] = []
  /// -1 unknown, 0 off, 1 on.
  public internal(set) var lowPower: [Int8] = []
  public internal(set) var foreground: [Int8] = []
  public internal(set) var trigger: [Int32] = []
  /// Minutes east of UTC, `noOffset` when not logged.
  public internal(set) var utcOffset: [Int32] = []
  public internal(set) var ios: [Int32] = []

  public internal(set) var devices = Names()
  public internal(set) var kinds = Names()
  public internal(set) var families = Names()
  public internal(set) var instances = Names()
  /// Index 0 is the empty trigger (a reload the system chose).
  public internal(set) var triggers = Names(first: "")
  public internal(set) var iosVersions = Names(first: "")

  /// Lines dropped while parsing (with `--max-bad-lines`), per reason.
  public internal(set) var badLines = 0
  public internal(set) var duplicateLines = 0
  public internal(set) var files: [String] = []

  public init() {}

  public var count: Int { time.count }

  /// Room for `n` lines in every column.
  public mutating func reserveCapacity(_ n: Int) {
    type.reserveCapacity(n)
    time.reserveCapacity(n)
    device.reserveCapacity(n)
    kind.reserveCapacity(n)
    family.reserveCapacity(n)
    instance.reserveCapacity(n)
    entries.reserveCapacity(n)
    policy.reserveCapacity(n)
    next.reserveCapacity(n)
    lowPower.reserveCapacity(n)
    foreground.reserveCapacity(n)
    trigger.reserveCapacity(n)
    utcOffset.reserveCapacity(n)
    ios.reserveCapacity(n)
  }

  /// Interned strings, looked up by their UTF-8 bytes (an open-addressing
  /// table of FNV-1a hashes), so a parser interns a name without making a
  /// String for it unless it is new.
  public struct Names: Sendable {
    public private(set) var values: [String] = []
    /// Each value's bytes, end to end, and where each starts.
    private var bytes: [UInt8] = []
    private var starts: [Int] = [0]
    private var hashes: [UInt64] = []
    /// Index + 1 of the value in each slot (0: empty); a power of two long.
    private var slots = [Int32](repeating: 0, count: 64)

    init(first: String? = nil) {
      if let first { _ = intern(first) }
    }

    public var count: Int { values.count }

    mutating func intern(_ s: String) -> Int32 {
      var s = s
      return s.withUTF8 { intern($0) }
    }

    static func hash(_ b: UnsafeBufferPointer<UInt8>) -> UInt64 {
      var h: UInt64 = 0xcbf2_9ce4_8422_2325
      for x in b { h = (h ^ UInt64(x)) &* 0x100_0000_01b3 }
      return h
    }

    mutating func intern(_ b: UnsafeBufferPointer<UInt8>) -> Int32 {
      let h = Self.hash(b)
      let mask = slots.count - 1
      var k = Int(truncatingIfNeeded: h) & mask
      while slots[k] != 0 {
        let i = Int(slots[k] - 1)
        if hashes[i] == h && equal(i, b) { return Int32(i) }
        k = (k + 1) & mask
      }
      let i = values.count
      values.append(String(decoding: b, as: UTF8.self))
      bytes.append(contentsOf: b)
      starts.append(bytes.count)
      hashes.append(h)
      slots[k] = Int32(i + 1)
      if values.count * 2 > slots.count { grow() }
      return Int32(i)
    }

    private func equal(_ i: Int, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
      let s = starts[i]
      guard starts[i + 1] - s == b.count else { return false }
      for k in 0..<b.count where bytes[s + k] != b[k] { return false }
      return true
    }

    private mutating func grow() {
      slots = [Int32](repeating: 0, count: slots.count * 2)
      let mask = slots.count - 1
      for i in hashes.indices {
        var k = Int(truncatingIfNeeded: hashes[i]) & mask
        while slots[k] != 0 { k = (k + 1) & mask }
        slots[k] = Int32(i + 1)
      }
    }

    public subscript(i: Int32) -> String { values[Int(i)] }
  }

  /// One line, with its names as strings (for writing and for tests).
  public struct Line: Sendable, Equatable {
    public var type: LineType
    public var time: Int64
    public var device: String
    public var kind: String = ""
    public var family: String = ""
    public var instance: String = ""
    public var entries: Int = 0
    public var policy: Policy = .never
    public var next: Int64 = ReloadLog.none
    public var lowPower: Bool? = nil
    public var foreground: Bool? = nil
    public var trigger: String = ""
    public var utcOffsetMinutes: Int? = nil
    public var ios: String = ""

    public init(type: LineType, time: Int64, device: String) {
      self.type = type
      self.time = time
      self.device = device
    }
  }

  /// Adds `line`.
  public mutating func append(_ line: Line) {
    type.append(line.type)
    time.append(line.time)
    device.append(devices.intern(line.device))
    kind.append(line.kind.isEmpty ? -1 : kinds.intern(line.kind))
    family.append(line.family.isEmpty ? -1 : families.intern(line.family))
    instance.append(line.instance.isEmpty ? -1 : instances.intern(line.instance))
    entries.append(Int32(clamping: line.entries))
    policy.append(line.policy)
    next.append(line.next)
    lowPower.append(line.lowPower.map { $0 ? 1 : 0 } ?? -1)
    foreground.append(line.foreground.map { $0 ? 1 : 0 } ?? -1)
    trigger.append(triggers.intern(line.trigger))
    utcOffset.append(line.utcOffsetMinutes.map { Int32(clamping: $0) } ?? Self.noOffset)
    ios.append(iosVersions.intern(line.ios))
  }

  /// Line `i` with its names.
  public func line(_ i: Int) -> Line {
    var l = Line(type: type[i], time: time[i], device: devices[device[i]])
    if kind[i] >= 0 { l.kind = kinds[kind[i]] }
    if family[i] >= 0 { l.family = families[family[i]] }
    if instance[i] >= 0 { l.instance = instances[instance[i]] }
    l.entries = Int(entries[i])
    l.policy = policy[i]
    l.next = next[i]
    l.lowPower = lowPower[i] < 0 ? nil : lowPower[i] == 1
    l.foreground = foreground[i] < 0 ? nil : foreground[i] == 1
    l.trigger = triggers[trigger[i]]
    l.utcOffsetMinutes = utcOffset[i] == Self.noOffset ? nil : Int(utcOffset[i])
    l.ios = iosVersions[ios[i]]
    return l
  }
}
