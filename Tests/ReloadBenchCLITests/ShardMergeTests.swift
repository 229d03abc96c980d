import Foundation
import ReloadBenchCLI
import Testing

/// `run --shard K/N`, `sweep --shard K/N` and `merge`, end to end on the
/// built binary: the merged CSV files are the single run's, byte for byte,
/// for any N; the array jobs' index variables pick the shard; every
/// refusal names the problem and writes nothing.
@Suite struct ShardMergeTests {
  static let csvFiles = ["summary.csv", "timeseries.csv", "staleness.csv"]

  /// The default scenario (its users, kinds and eight strategies), at a
  /// size a debug build simulates in seconds.
  static var defaultScenario: String {
    let base = repositoryRoot.appendingPathComponent("Scenarios/default.json").path
    return #"{"extends": "\#(base)", "name": "default-shards", "devices": 200, "days": 2}"#
  }

  static func write(_ text: String, _ name: String, in dir: URL) throws {
    try text.write(to: dir.appendingPathComponent(name), atomically: true, encoding: .utf8)
  }

  static func bytes(_ path: String, in dir: URL) throws -> Data { try Data(contentsOf: dir.appendingPathComponent(path)) }

  /// Runs shards 1...n of `command` (two at a time) into `folder`; returns the part paths.
  static func shards(_ command: [String], n: Int, folder: String, in dir: URL) throws -> [String] {
    let statuses = StatusBox(n)
    DispatchQueue.concurrentPerform(iterations: 2) { lane in
      for k in stride(from: lane + 1, through: n, by: 2) {
        let r = try? Binary.run(command + ["--shard", "\(k)/\(n)", "--out", folder, "--threads", "1", "--quiet"], in: dir)
        statuses.set(k - 1, r.map { "\($0.status) \($0.stderr)" } ?? "did not start")
      }
    }
    for (k, s) in statuses.values.enumerated() { #expect(s == "0 ", "shard \(k + 1)/\(n): \(s)") }
    return (1...n).map { "\(folder)/shard-\($0)-of-\(n).rbpart" }
  }

  @Test func mergedDefaultScenarioIsTheSingleRunByteForByte() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    try Self.write(Self.defaultScenario, "d.json", in: dir)
    let single = try Binary.run(["run", "d.json", "--out", "single", "--quiet"], in: dir)
    #expect(single.status == 0, "\(single.stderr)")
    for n in [1, 2, 3, 8] {
      let parts = try Self.shards(["run", "d.json"], n: n, folder: "parts\(n)", in: dir)
      // Shards hold different devices: no two parts are alike.
      #expect(Set(try parts.map { try Self.bytes($0, in: dir) }).count == n)
      // Any order of the parts.
      let r = try Binary.run(["merge"] + parts.reversed() + ["--out", "merged\(n)"], in: dir)
      #expect(r.status == 0, "N = \(n): \(r.stderr)")
      // merge simulated nothing: it says what it merged, not a simulation rate.
      #expect(r.stdout.contains("Merged \(n) part\(n == 1 ? "" : "s") of "), "\(r.stdout)")
      #expect(!r.stdout.contains("Simulated") && !r.stdout.contains("widget-days/s"), "\(r.stdout)")
      for f in Self.csvFiles {
        #expect(try Self.bytes("merged\(n)/\(f)", in: dir) == Self.bytes("single/\(f)", in: dir), "N = \(n): \(f) differs")
      }
    }
  }

  @Test func mergedSweepIsTheSingleSweepByteForByte() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let sweep = #"{"parameters": [{"path": "model.budget.max_per_day", "values": [20, 40, 70]}, {"path": "segments[*].low_power_mode.share", "values": [0, 0.5]}]}"#
    try SweepSpecTests.scenario(sweep: sweep).write(to: dir.appendingPathComponent("s.json"))
    let single = try Binary.run(["sweep", "s.json", "--out", "single", "--quiet"], in: dir)
    #expect(single.status == 0, "\(single.stderr)")
    for n in [1, 2, 3, 8] {
      // `run` on a sweep scenario shards its points too.
      let parts = try Self.shards([n == 3 ? "run" : "sweep", "s.json"], n: n, folder: "parts\(n)", in: dir)
      let r = try Binary.run(["merge"] + parts + ["--out", "merged\(n)", "--quiet"], in: dir)
      #expect(r.status == 0, "N = \(n): \(r.stderr)")
      #expect(try Self.bytes("merged\(n)/sweep.csv", in: dir) == Self.bytes("single/sweep.csv", in: dir), "N = \(n)")
    }
  }

  /// Every index variable picks the shard `--shard` names (index + 1), an
  /// empty one counts as unset, and a bad or missing index is refused.
  @Test func arrayJobIndexVariablesPickTheShard() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    try Self.write(smallScenario(devices: 60, days: 1), "s.json", in: dir)
    let unset = ["JOB_COMPLETION_INDEX": "", "SLURM_ARRAY_TASK_ID": "", "AWS_BATCH_JOB_ARRAY_INDEX": ""]
    let flag = try Binary.run(["run", "s.json", "--shard", "2/3", "--out", "flag", "--quiet"], in: dir, environment: unset)
    #expect(flag.status == 0, "\(flag.stderr)")
    let want = try Self.bytes("flag/shard-2-of-3.rbpart", in: dir)
    for variable in unset.keys.sorted() {
      var env = unset
      env[variable] = "1"
      let r = try Binary.run(["run", "s.json", "--shard-count", "3", "--out", variable, "--quiet"], in: dir, environment: env)
      #expect(r.status == 0, "\(variable): \(r.stderr)")
      #expect(try Self.bytes("\(variable)/shard-2-of-3.rbpart", in: dir) == want, "\(variable)")
    }
    // The first variable set wins.
    var both = unset
    both["JOB_COMPLETION_INDEX"] = "0"
    both["AWS_BATCH_JOB_ARRAY_INDEX"] = "2"
    let first = try Binary.run(["run", "s.json", "--shard-count", "3", "--out", "both", "--quiet"], in: dir, environment: both)
    #expect(first.status == 0 && FileManager.default.fileExists(atPath: dir.appendingPathComponent("both/shard-1-of-3.rbpart").path))

    var high = unset
    high["SLURM_ARRAY_TASK_ID"] = "3"
    let cases: [([String], [String: String], [String])] = [
      (["--shard-count", "3"], high, ["SLURM_ARRAY_TASK_ID=3", "0...2", "--array=0-2"]),
      (["--shard-count", "3"], unset, ["JOB_COMPLETION_INDEX", "AWS_BATCH_JOB_ARRAY_INDEX", "--shard K/N"]),
      (["--shard", "0/3"], unset, ["--shard expects K/N", "'0/3'"]),
      (["--shard", "4/3"], unset, ["'4/3'"]),
      (["--shard", "2"], unset, ["'2'"]),
      (["--shard", "1/3", "--shard-count", "3"], unset, ["alternatives"]),
    ]
    for (args, env, words) in cases {
      let r = try Binary.run(["run", "s.json", "--out", "bad", "--quiet"] + args, in: dir, environment: env)
      #expect(r.status == 2 && r.stderr.split(separator: "\n").count == 1, "\(args): \(r.stderr)")
      for w in words { #expect(r.stderr.contains(w), "\(args): \(r.stderr) lacks \(w)") }
      #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("bad").path), "\(args)")
    }
  }

  /// A part's header and body are untrusted (anyone can write a valid
  /// checksum): counts that would size an allocation or a loop are held to
  /// what `run` accepts, and a tally larger than the body left is refused
  /// before it is allocated. Each crashed or ran the machine out of memory
  /// (shared/repro/inputs-2, items 1-3). One line, exit 2, nothing written.
  @Test func forgedCountsAreRefusedBeforeTheySizeAnything() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    try Self.write(smallScenario(devices: 60, days: 1), "s.json", in: dir)
    let parts = try Self.shards(["run", "s.json"], n: 1, folder: "p", in: dir)
    let good = try Self.bytes(parts[0], in: dir)
    // The repro's 644-byte part (1 strategy x 10,000 segments x a ring of
    // 2^20 declared in an 8-byte body), its model version made current.
    let bomb = try Data(contentsOf: repositoryRoot.appendingPathComponent(
      "Tests/ReloadBenchCLITests/Fixtures/repro/merge-tally-alloc-bomb.rbpart"))
    let forged: [(String, Data, String)] = [
      ("shards0.rbpart", Self.forged(good, replacing: #""shard_count":1"#, with: #""shard_count":0"#), "shard 1 of 0"),
      ("shards1e9.rbpart", Self.forged(good, replacing: #""shard_count":1"#, with: #""shard_count":1000000000"#),
        "shard 1 of 1000000000"),
      ("reps.rbpart", Self.forged(good, replacing: #""replications":1"#, with: #""replications":-1"#),
        "-1 replications"),
      // Its format made current too (format 3 added the widget kinds to a tally's shape).
      ("bomb.rbpart", Self.forged(Self.forged(bomb, replacing: #""model_version":"2""#,
        with: #""model_version":"\#(ReloadBenchCLI.modelVersion)""#), replacing: "reloadbench-partial 2\n",
        with: "reloadbench-partial 3\n"), "corrupt: it holds 1 strategies' tallies"),
    ]
    for (name, data, words) in forged {
      try data.write(to: dir.appendingPathComponent(name))
      let r = try Binary.run(["merge", name, "--out", "out", "--quiet"], in: dir)
      #expect(r.status == 2 && r.stderr.split(separator: "\n").count == 1, "\(name): \(r.stderr)")
      #expect(r.stderr.contains(words) && r.stderr.contains("fix:"), "\(name): \(r.stderr)")
      #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("out").path), "\(name)")
    }
  }

  /// A part with its header edited and its checksum made good again: what
  /// a part written by another version of the tool looks like.
  static func forged(_ part: Data, replacing old: String, with new: String) -> Data {
    var bytes = [UInt8](part)
    bytes.removeLast(72)  // "sha256 <64 hex>\n"
    let newline = bytes.firstIndex(of: 0x0A)!
    let headerEnd = bytes[(newline + 1)...].firstIndex(of: 0x0A)!
    let head = String(decoding: bytes[..<headerEnd], as: UTF8.self)
    precondition(head.contains(old), "\(old) is not in the header")
    var out = Array(head.replacingOccurrences(of: old, with: new).utf8) + bytes[headerEnd...]
    out += Array("sha256 \(CLITesting.sha256(out))\n".utf8)
    return Data(out)
  }

  @Test func mergeRefusesPartsThatDoNotMakeOneRunAndWritesNothing() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    try Self.write(smallScenario(devices: 60, days: 1), "s.json", in: dir)
    try Self.write(smallScenario(devices: 61, days: 1), "other.json", in: dir)
    let parts = try Self.shards(["run", "s.json"], n: 3, folder: "p", in: dir)
    _ = try Self.shards(["run", "other.json"], n: 3, folder: "o", in: dir)
    let seeded = try Binary.run(["run", "s.json", "--shard", "2/3", "--seed", "4", "--out", "seed", "--quiet"], in: dir)
    let engine = try Binary.run(
      ["run", "s.json", "--shard", "2/3", "--engine", "event_by_event", "--out", "engine", "--quiet"], in: dir)
    let reps = try Binary.run(["run", "s.json", "--shard", "2/3", "--replications", "2", "--out", "reps", "--quiet"], in: dir)
    let four = try Binary.run(["run", "s.json", "--shard", "2/4", "--out", "four", "--quiet"], in: dir)
    #expect([seeded, engine, reps, four].allSatisfy { $0.status == 0 })
    let good = try Self.bytes(parts[1], in: dir)
    try FileManager.default.createDirectory(at: dir.appendingPathComponent("bad"), withIntermediateDirectories: true)
    func put(_ data: Data, _ name: String) throws { try data.write(to: dir.appendingPathComponent("bad/\(name)")) }
    try put(good.prefix(good.count - 1000), "truncated.rbpart")
    var flipped = good
    flipped[good.count / 2] ^= 0x01
    try put(flipped, "flipped.rbpart")
    try put(Self.forged(good, replacing: #""model_version":"\#(ReloadBenchCLI.modelVersion)""#, with: #""model_version":"0""#), "model.rbpart")
    try put(Self.forged(good, replacing: "reloadbench-partial 3\n", with: "reloadbench-partial 9\n"), "format.rbpart")
    try put(Data(smallScenario().utf8), "scenario.rbpart")

    // An existing good report stays as it is.
    let out = dir.appendingPathComponent("out")
    try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
    try Self.write("keep", "out/summary.csv", in: dir)

    let cases: [([String], [String])] = [
      ([parts[0], parts[2]], ["shard 2/3 is missing", "--shard 2/3"]),
      ([parts[0]], ["2 shards are missing (2-3/3)"]),
      ([parts[0], parts[1], parts[1], parts[2]], ["shard 2/3 is given twice", parts[1]]),
      ([parts[0], "o/shard-2-of-3.rbpart", parts[2]], ["o/shard-2-of-3.rbpart", "scenario content"]),
      ([parts[0], "seed/shard-2-of-3.rbpart", parts[2]], ["seed/shard-2-of-3.rbpart", "seed is 4, not 3"]),
      ([parts[0], "engine/shard-2-of-3.rbpart", parts[2]], ["engine is event_by_event"]),
      ([parts[0], "reps/shard-2-of-3.rbpart", parts[2]], ["replications is 2, not 1"]),
      ([parts[0], "four/shard-2-of-4.rbpart", parts[2]], ["shard count is 4, not 3"]),
      ([parts[0], "bad/model.rbpart", parts[2]], ["bad/model.rbpart", "simulated under model version 0"]),
      ([parts[0], "bad/format.rbpart", parts[2]], ["bad/format.rbpart", "partial format 9"]),
      ([parts[0], "bad/truncated.rbpart", parts[2]], ["bad/truncated.rbpart", "truncated or corrupt"]),
      ([parts[0], "bad/flipped.rbpart", parts[2]], ["bad/flipped.rbpart", "checksum does not match"]),
      ([parts[0], "bad/scenario.rbpart", parts[2]], ["bad/scenario.rbpart", "not a partial result"]),
      ([parts[0], "p/none.rbpart", parts[2]], ["p/none.rbpart", "no such file"]),
      ([], ["merge needs the parts"]),
    ]
    for (args, words) in cases {
      let r = try Binary.run(["merge"] + args + ["--out", "out", "--quiet"], in: dir)
      #expect(r.status == 2 && r.stderr.split(separator: "\n").count == 1, "\(args): \(r.stderr)")
      #expect(r.stderr.contains("fix:"), "\(args): \(r.stderr)")
      for w in words { #expect(r.stderr.contains(w), "\(args): \(r.stderr) lacks \(w)") }
      #expect(try FileManager.default.contentsOfDirectory(atPath: out.path) == ["summary.csv"], "\(args)")
      #expect(try String(contentsOf: out.appendingPathComponent("summary.csv"), encoding: .utf8) == "keep", "\(args)")
    }
    // The same parts, complete, merge.
    let ok = try Binary.run(["merge"] + parts + ["--out", "out", "--quiet"], in: dir)
    #expect(ok.status == 0, "\(ok.stderr)")
  }

  /// A part's size depends on the measured days, segments and strategies,
  /// not on the devices.
  @Test func partSizeDoesNotGrowWithDevices() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    var sizes: [Int] = []
    for devices in [40, 400] {
      try Self.write(smallScenario(name: "d\(devices)", devices: devices, days: 1), "d\(devices).json", in: dir)
      let r = try Binary.run(["run", "d\(devices).json", "--shard", "1/2", "--out", "d\(devices)", "--quiet"], in: dir)
      #expect(r.status == 0, "\(r.stderr)")
      sizes.append(try Self.bytes("d\(devices)/shard-1-of-2.rbpart", in: dir).count)
    }
    // Ten times the devices: bigger counts take a few more bits per second
    // (at most 32), nothing per device.
    #expect(sizes[1] < sizes[0] * 2, "\(sizes)")
  }
}

/// Exit statuses and stderr of shards run on two lanes.
private final class StatusBox: @unchecked Sendable {
  private let lock = NSLock()
  private var items: [String]
  init(_ n: Int) { items = Array(repeating: "not run", count: n) }
  func set(_ i: Int, _ s: String) {
    lock.lock()
    items[i] = s
    lock.unlock()
  }
  var values: [String] {
    lock.lock()
    defer { lock.unlock() }
    return items
  }
}
