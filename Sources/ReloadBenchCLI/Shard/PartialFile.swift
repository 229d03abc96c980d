import Foundation
import ReloadMetrics
import WidgetModel

/// A shard's partial result (`shard-K-of-N.rbpart`): every accumulator the
/// reports are built from, as exact integers, with what ties it to its run.
///
/// Layout (`formatVersion` 1):
///
///     reloadbench-partial 1\n
///     {header as one line of JSON}\n            (PartialHeader)
///     body: `bodyBytes` bytes of LEB128 varints  (TallyCoder)
///     sha256 <64 hex digits of every byte above>\n
///
/// The body holds, per replication and strategy, each segment's counter
/// block (scalars, histograms, per-local-hour tallies) and per-second
/// backend requests, and the strategy's per-hour series: its size grows
/// with the measured days, segments and strategies, never with the devices.
/// A sweep's part holds the tallies of each of its points.
struct PartialHeader: Codable, Equatable {
  enum Kind: String, Codable { case run, sweep }
  var kind: Kind
  var modelVersion: String
  var toolVersion: String
  /// The scenario's name, and the hash of its content (`ScenarioHash`).
  var scenario: String
  var scenarioSHA256: String
  /// The values the runs used, after the command line's overrides.
  var seed: UInt64
  var replications: Int
  var engine: String
  var shard: Int
  var shardCount: Int
  /// Devices this shard simulated (a run), or the sweep points it holds.
  var devices: Int?
  var points: [Int]?
  /// The scenario as it ran (its `extends` resolved, before the overrides):
  /// `merge` rebuilds the reports from it.
  var scenarioJSON: String
  var bodyBytes: Int

  enum CodingKeys: String, CodingKey {
    case kind, scenario, seed, replications, engine, shard, devices, points
    case modelVersion = "model_version"
    case toolVersion = "tool_version"
    case scenarioSHA256 = "scenario_sha256"
    case shardCount = "shard_count"
    case scenarioJSON = "scenario_json"
    case bodyBytes = "body_bytes"
  }
}

enum PartialFile {
  static let magic = "reloadbench-partial"
  /// Bump when the layout or the body's encoding changes.
  static let formatVersion = 3
  static let trailerPrefix = "sha256 "
  static let trailerLength = 7 + 64 + 1

  /// The file's bytes.
  static func encode(_ header: PartialHeader, body: [UInt8]) -> [UInt8] {
    var h = header
    h.bodyBytes = body.count
    var bytes = Array("\(magic) \(formatVersion)\n".utf8)
    bytes += Array(JSONFiles.text(h, pretty: false).utf8)
    bytes.append(0x0A)
    bytes += body
    let digest = SHA256.hex(bytes)
    bytes += Array("\(trailerPrefix)\(digest)\n".utf8)
    return bytes
  }

  /// A part read back: its header and body.
  struct Part {
    let path: String
    let header: PartialHeader
    let body: ArraySlice<UInt8>
  }

  /// Reads and checks `path`: what it is, its format version, its checksum,
  /// its header. Every failure is bad input naming the file and a fix.
  /// Without `body`, the part's body is checked and dropped (so checking
  /// many parts holds one in memory at a time).
  static func read(_ path: String, body keepBody: Bool = true) throws(CLIError) -> Part {
    var isDir: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else {
      throw .badInput("cannot read \(path): no such file (fix: check the path of the part)")
    }
    guard !isDir.boolValue else {
      throw .badInput(
        "\(path) is a folder, not a part (fix: pass the shard-K-of-N.rbpart files, e.g. \(path)/shard-*.rbpart)")
    }
    // A device or a pipe (/dev/null, /dev/zero) is no part: it is never read.
    var info = stat()
    guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
      throw .badInput(
        "\(path) is not a regular file (a device, pipe or socket), so not a part (fix: pass the "
          + "shard-K-of-N.rbpart files that 'run --shard' writes)")
    }
    guard let data = FileManager.default.contents(atPath: path) else {
      throw .badInput(
        access(path, R_OK) == 0
          ? "cannot read \(path) (fix: check the disk and the file)"
          : "cannot read \(path): permission denied (fix: make it readable)")
    }
    return try parse([UInt8](data), path: path, body: keepBody)
  }

  /// Checks the bytes of the part at `path` (read by `read`, or made by a
  /// fuzz target) as `read` does.
  static func parse(_ bytes: [UInt8], path: String, body keepBody: Bool = true) throws(CLIError) -> Part {
    let rerun = "fix: copy the part again, or rerun its shard"
    let newline = bytes.firstIndex(of: 0x0A) ?? bytes.count
    let first = String(decoding: bytes[..<min(newline, 64)], as: UTF8.self)
    guard first.hasPrefix(magic + " ") else {
      throw .badInput(
        "\(path) is not a partial result of reloadbench (fix: pass the shard-K-of-N.rbpart files that 'run --shard' "
          + "writes)"
      )
    }
    guard let version = Int(first.dropFirst(magic.count + 1)) else {
      throw .badInput("\(path): truncated or corrupt: its first line is not '\(magic) N' (\(rerun))")
    }
    guard version == formatVersion else {
      throw .badInput(
        "\(path) is in partial format \(version); this reloadbench \(ReloadBenchCLI.version) reads format "
          + "\(formatVersion) "
          + "(fix: merge with the reloadbench that wrote the parts, or rerun every shard with this one)")
    }
    let end = bytes.count - trailerLength
    let trailer = end > newline ? String(decoding: bytes[end...], as: UTF8.self) : ""
    guard trailer.hasPrefix(trailerPrefix), trailer.hasSuffix("\n") else {
      throw .badInput("\(path): truncated or corrupt: no checksum at its end (\(rerun))")
    }
    guard SHA256.hex(Array(bytes[..<end])) == trailer.dropFirst(trailerPrefix.count).dropLast() else {
      throw .badInput("\(path): truncated or corrupt: its checksum does not match its contents (\(rerun))")
    }
    let headerEnd = bytes[(newline + 1)..<end].firstIndex(of: 0x0A) ?? end
    let header: PartialHeader
    do {
      header = try JSONFiles.decode(PartialHeader.self, from: Data(bytes[(newline + 1)..<headerEnd]))
    } catch {
      throw .badInput("\(path): corrupt header (\(Baseline.describe(error))) (\(rerun))")
    }
    guard headerEnd < end, header.bodyBytes == end - headerEnd - 1 else {
      throw .badInput("\(path): corrupt: the body is not the \(header.bodyBytes) bytes its header says (\(rerun))")
    }
    try check(header, path: path)
    return Part(path: path, header: header, body: keepBody ? bytes[(headerEnd + 1)..<end] : [])
  }

  /// The header is untrusted like the body (anyone can write a valid
  /// checksum): its counts are held to what `run` accepts before they size
  /// anything, and its versions and engine to what this tool merges.
  static func check(_ header: PartialHeader, path: String) throws(CLIError) {
    let rerun = "fix: copy the part again, or rerun its shard"
    guard (1...ShardSpec.maxCount).contains(header.shardCount), (1...header.shardCount).contains(header.shard),
      (1...ScenarioSchema.maxReplications).contains(header.replications)
    else {
      throw .badInput(
        "\(path): corrupt header: shard \(header.shard) of \(header.shardCount), \(header.replications) "
          + "replications (\(rerun))")
    }
    guard header.modelVersion == ReloadBenchCLI.modelVersion else {
      throw .badInput(
        "\(path) was simulated under model version \(TerminalText.short(header.modelVersion)); this reloadbench "
          + "\(ReloadBenchCLI.version) merges model version \(ReloadBenchCLI.modelVersion) (fix: merge with the "
          + "reloadbench that wrote the parts, or rerun every shard with this one)")
    }
    guard EngineMode(rawValue: header.engine) != nil else {
      throw .badInput(
        "\(path): corrupt header: engine \(TerminalText.quoted(header.engine)) is not one of "
          + "\(EngineMode.allCases.map(\.rawValue).joined(separator: ", ")) (\(rerun))")
    }
    switch header.kind {
    case .run:
      guard let devices = header.devices, devices >= 0, header.points == nil else {
        throw .badInput("\(path): corrupt header: a run's part names its devices and no sweep points (\(rerun))")
      }
    case .sweep:
      guard let points = header.points, header.devices == nil, points.count <= ScenarioSchema.maxPointsLimit else {
        throw .badInput("\(path): corrupt header: a sweep's part names its points and no devices (\(rerun))")
      }
    }
  }
}

/// What a part's tallies must be for the scenario it carries, checked
/// before a tally is allocated: the scenario's strategies, segments, ring
/// capacity and measured seconds (a part whose scenario says 366 days and
/// whose tallies hold 1 is refused, not merged into rates 366 times too small).
struct TallyShape {
  var segments: Int
  var ringCapacity: Int
  var measuredSeconds: Int
  /// Per strategy: whether it counts pushes per second.
  var countsPushes: [Bool]

  init(_ scenario: Scenario) {
    segments = scenario.segments.count
    ringCapacity = PreparedScenario.ringCapacity(scenario)
    measuredSeconds = StrategyTally.measuredSeconds(from: scenario.measureStart, to: scenario.end)
    countsPushes = scenario.strategies.map(\.backend.sendsPushes)
  }
}

/// The body's encoding: counters as LEB128 varints, each block preceded
/// by its length; per-second counts bit-packed in runs of 64 (one byte for
/// the run's bit width, then 64 values of that width: a quiet minute takes
/// one byte).
enum TallyCoder {
  static let run = 64

  /// A body that does not decode, or not to what the part's scenario says.
  struct Corrupt: Error {
    var what = "its tallies do not decode"
  }

  static func put(_ v: UInt64, _ out: inout [UInt8]) {
    var v = v
    while v >= 0x80 {
      out.append(UInt8(truncatingIfNeeded: v) | 0x80)
      v >>= 7
    }
    out.append(UInt8(v))
  }

  static func put<T: FixedWidthInteger & UnsignedInteger>(_ block: CounterBlock<T>, _ out: inout [UInt8]) {
    put(UInt64(block.count), &out)
    for i in 0..<block.count { put(UInt64(block.value(at: i)), &out) }
  }

  /// One replication's tallies (one per strategy): each with its shape
  /// (segments, ring capacity, widget kinds, measured seconds, whether it
  /// counts pushes), then its blocks (the pushes per second last).
  /// Format 3 added the widget kinds (each kind's counters are in the
  /// segment's block).
  static func encode(_ tallies: [StrategyTally], into out: inout [UInt8]) {
    put(UInt64(tallies.count), &out)
    for t in tallies {
      let first = t.segments[0]
      put(UInt64(t.segments.count), &out)
      put(UInt64(first.budgetLeftWidth - 1), &out)
      put(UInt64(first.kindCount), &out)
      put(UInt64(first.perSecond.count), &out)
      put(t.pushesPerSecond.count > 0 ? 1 : 0, &out)
      for g in t.segments {
        put(g.counters, &out)
        pack(g.perSecond, &out)
      }
      put(t.series.block, &out)
      pack(t.pushesPerSecond, &out)
    }
  }

  /// `block`'s count, then its values bit-packed in runs of `run`.
  static func pack(_ block: CounterBlock<UInt32>, _ out: inout [UInt8]) {
    put(UInt64(block.count), &out)
    var start = 0
    while start < block.count {
      let end = min(block.count, start + run)
      var all: UInt32 = 0
      for i in start..<end { all |= block.value(at: i) }
      let width = 32 - all.leadingZeroBitCount
      out.append(UInt8(width))
      if width > 0 {
        var acc: UInt64 = 0
        var bits = 0
        for i in start..<end {
          acc |= UInt64(block.value(at: i)) << UInt64(bits)
          bits += width
          while bits >= 8 {
            out.append(UInt8(truncatingIfNeeded: acc))
            acc >>= 8
            bits -= 8
          }
        }
        if bits > 0 { out.append(UInt8(truncatingIfNeeded: acc)) }
      }
      start = end
    }
  }

  /// Reads what `encode` wrote, from `bytes[at...]`, advancing `at`.
  struct Reader {
    let bytes: ArraySlice<UInt8>
    var at: Int

    init(_ bytes: ArraySlice<UInt8>) {
      self.bytes = bytes
      at = bytes.startIndex
    }

    var atEnd: Bool { at == bytes.endIndex }

    mutating func next() throws(Corrupt) -> UInt64 {
      var v: UInt64 = 0
      var shift: UInt64 = 0
      while true {
        guard at < bytes.endIndex, shift < 64 else { throw Corrupt() }
        let b = bytes[at]
        at += 1
        v |= UInt64(b & 0x7F) << shift
        if b < 0x80 { return v }
        shift += 7
      }
    }

    mutating func int(max: Int) throws(Corrupt) -> Int {
      let v = try next()
      guard v <= UInt64(max) else { throw Corrupt() }
      return Int(v)
    }

    mutating func fill<T: FixedWidthInteger & UnsignedInteger>(_ block: CounterBlock<T>) throws(Corrupt) {
      guard try next() == UInt64(block.count) else { throw Corrupt() }
      for i in 0..<block.count {
        let v = try next()
        guard v <= UInt64(T.max) else { throw Corrupt() }
        block[i] = T(v)
      }
    }

    mutating func unpack(_ block: CounterBlock<UInt32>) throws(Corrupt) {
      guard try next() == UInt64(block.count) else { throw Corrupt() }
      var start = 0
      while start < block.count {
        let end = min(block.count, start + TallyCoder.run)
        guard at < bytes.endIndex else { throw Corrupt() }
        let width = Int(bytes[at])
        at += 1
        guard width <= 32 else { throw Corrupt() }
        if width > 0 {
          let length = ((end - start) * width + 7) / 8
          guard bytes.endIndex - at >= length else { throw Corrupt() }
          let mask = (UInt64(1) << UInt64(width)) - 1
          var acc: UInt64 = 0
          var bits = 0
          for i in start..<end {
            while bits < width {
              acc |= UInt64(bytes[at]) << UInt64(bits)
              at += 1
              bits += 8
            }
            block[i] = UInt32(truncatingIfNeeded: acc & mask)
            acc >>= UInt64(width)
            bits -= width
          }
        } else {
          for i in start..<end { block[i] = 0 }
        }
        start = end
      }
    }

    /// One replication's tallies, each checked against `shape` (when
    /// given) before it is allocated.
    mutating func tallies(_ shape: TallyShape? = nil) throws(Corrupt) -> [StrategyTally] {
      let n = try int(max: 10_000)
      if let shape, n != shape.countsPushes.count {
        throw Corrupt(what: "it holds \(n) strategies' tallies, its scenario has \(shape.countsPushes.count)")
      }
      var out: [StrategyTally] = []
      for s in 0..<n {
        let segments = try int(max: 10_000)
        let ring = try int(max: 1 << 20)
        let kinds = try int(max: 10_000)
        let seconds = try int(max: 1 << 34)
        // Every counter takes at least a byte, every run of `run` seconds
        // too: a tally larger than the body left is corrupt, and is
        // refused before it is allocated.
        let perSegment =
          TallyLayout(ringCapacity: ring, kinds: kinds).count + (seconds + TallyCoder.run - 1) / TallyCoder.run
        guard segments > 0, seconds <= bytes.count * TallyCoder.run, segments <= (bytes.endIndex - at) / perSegment
        else { throw Corrupt() }
        let countsPushes = try int(max: 1) == 1
        if let shape {
          if segments != shape.segments {
            throw Corrupt(what: "its tallies have \(segments) segments, its scenario has \(shape.segments)")
          }
          if seconds != shape.measuredSeconds {
            throw Corrupt(
              what: "its tallies measure \(seconds) s, its scenario \(shape.measuredSeconds) s (days, warmup_days)")
          }
          if ring != shape.ringCapacity || countsPushes != shape.countsPushes[s] {
            throw Corrupt(what: "its tallies are not shaped for its scenario's budget and strategies")
          }
        }
        let t = StrategyTally(
          segments: segments, ringCapacity: ring, kinds: kinds, measuredSeconds: seconds,
          countsPushes: countsPushes)
        for g in t.segments {
          try fill(g.counters)
          try unpack(g.perSecond)
        }
        try fill(t.series.block)
        try unpack(t.pushesPerSecond)
        out.append(t)
      }
      return out
    }
  }
}
