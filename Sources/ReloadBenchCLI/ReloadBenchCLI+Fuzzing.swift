import Foundation
import ReloadCalibration

/// Entry points for the fuzz targets of `Fuzz/` (a separate package, so
/// these are `public`), and for the test that replays the seed corpus.
///
/// Each takes arbitrary bytes, must never trap, hang or touch memory it
/// does not own, and checks what every error must be: one line, no
/// control character, of bounded length. A broken rule traps, which the
/// fuzzer records as a crash with its input.
public enum FuzzEntryPoints {
  /// The longest one-line error a fuzzed input may produce.
  public static let maxErrorLength = 12_000

  /// Parses, validates and decodes a scenario file (and its `expect`,
  /// `check`, `sweep` and `objective`).
  public static func decodeScenario(_ data: Data) {
    let file: ScenarioDecoder.File
    do {
      file = try ScenarioDecoder.decodeFile(data, strategies: .presets)
      _ = try ScenarioDecoder.checkSpec(
        SchemaReader(file.json, ScenarioSchema.root, path: "$", log: nil), scenario: file.scenario)
    } catch {
      checkLine(error.line(file: "fuzz.json"))
      return
    }
    // The content hash must not depend on layout: re-parsing the
    // canonical text gives the same text.
    let canonical = ScenarioHash.canonicalText(file.json)
    let again = try? JSONValue.parse(Data(canonical.utf8))
    precondition(again.map(ScenarioHash.canonicalText) == canonical, "canonical text is not stable")
  }

  /// Decodes a scenario with a sweep and expands every point of its grid.
  public static func expandSweep(_ data: Data) {
    do {
      let file = try ScenarioDecoder.decodeFile(data, strategies: .presets)
      guard let spec = file.sweep else { return }
      precondition(spec.pointCount >= 1 && spec.pointCount <= spec.maxPoints, "grid size not checked")
      let points = try spec.points(base: file.json, strategies: .presets)
      precondition(points.count == spec.pointCount, "grid expanded to \(points.count), not \(spec.pointCount)")
      for p in points { _ = spec.describe(p.valueIndices) }
      _ = spec.resultParameters
    } catch {
      checkLine(error.line(file: "fuzz.json"))
    }
  }

  /// Reads a baseline file's bytes.
  public static func loadBaseline(_ data: Data) {
    do {
      let b = try Baseline.decode(data, path: "fuzz.json", save: "reloadbench baseline save fuzz.json")
      _ = b.table
      _ = b.rendered()
    } catch {
      checkLine(error.message)
    }
  }

  /// Decodes a scenario, shrinks it to a tiny run (a few devices, at most
  /// two days, at most four sweep points), and runs it through the
  /// command line in `scratch` (a folder it may fill): `run`, `baseline
  /// save`, `check` against that baseline, and `sweep` when the file has
  /// one, so every report (CSV, HTML, JSON, check Markdown and JUnit,
  /// sweep CSV and HTML) is rendered.
  public static func simulateAndRender(_ data: Data, scratch: String) {
    guard case .some(let json) = try? JSONValue.parse(data), case .object(var o) = json else { return }
    guard (try? ScenarioDecoder.decode(json: json, strategies: .presets)) != nil else { return }
    func number(_ key: String) -> Double? { if case .number(let d)? = o[key] { return d } else { return nil } }
    o["devices"] = .number(min(number("devices") ?? 1000, 4))
    let days = min(number("days") ?? 7, 2)
    o["days"] = .number(days)
    if let w = number("warmup_days"), w >= days { o["warmup_days"] = .number(days / 2) }
    if o["warmup_days"] == nil && days <= 1 { o["warmup_days"] = .number(days / 2) }
    o["replications"] = .number(min(number("replications") ?? 1, 2))
    if case .object(var sweep)? = o["sweep"] {
      sweep["max_points"] = .number(4)
      o["sweep"] = .object(sweep)
    }
    let tiny = JSONValue.object(o)
    guard (try? ScenarioDecoder.decode(json: tiny, strategies: .presets)) != nil else { return }
    let fm = FileManager.default
    try? fm.removeItem(atPath: scratch)
    try? fm.createDirectory(atPath: scratch, withIntermediateDirectories: true)
    let file = scratch + "/scenario.json"
    guard fm.createFile(atPath: file, contents: Data(tiny.jsonText.utf8)) else { return }
    let common = ["--threads", "1", "--quiet"]
    let run = ReloadBenchCLI.main(["run", file, "--out", scratch + "/run", "--reproducible"] + common)
    precondition(run == 0 || run == 2, "run exited \(run)")
    let save = ReloadBenchCLI.main(["baseline", "save", file, "--to", scratch + "/baseline.json"] + common)
    precondition(save == 0 || save == 2, "baseline save exited \(save)")
    if save == 0 {
      let check = ReloadBenchCLI.main(
        [
          "check", file, "--baseline", scratch + "/baseline.json", "--out", scratch + "/check",
          "--markdown", scratch + "/check.md", "--junit", scratch + "/check.xml", "--json", scratch + "/check.json",
        ] + common)
      precondition(check == 0 || check == 1, "check of an unchanged scenario exited \(check)")
    }
    if o["sweep"] != nil, o["sweep"] != .null {
      let sweep = ReloadBenchCLI.main(["sweep", file, "--out", scratch + "/sweep"] + common)
      precondition(sweep == 0 || sweep == 2, "sweep exited \(sweep)")
    }
  }

  /// Reads the bytes as a reload log (CSV or JSON Lines), whole and in
  /// blocks split where the input's last byte says: both must give the same
  /// lines or the same error. The lines read with a few bad lines skipped
  /// are then fitted (with a small bootstrap), which must not trap.
  public static func calibrateLog(_ data: Data) {
    let bytes = [UInt8](data)
    func parse(split: Int?, maxBadLines: Int?) -> (ReloadLog, String?) {
      var log = ReloadLog()
      var reader = LogParser.Reader(file: "fuzz.csv", maxBadLines: maxBadLines)
      do throws(LogParser.Failure) {
        if let split {
          let used = try reader.feed(Array(bytes[..<split]), into: &log, final: false)
          _ = try reader.feed(Array(bytes[used...]), into: &log, final: true)
        } else {
          _ = try reader.feed(bytes, into: &log, final: true)
        }
        try reader.finish(into: &log)
        return (log, nil)
      } catch {
        // As `calibrate` prints it (control characters of the log escaped).
        checkLine(CLIError.badInput(error.description).message)
        return (log, error.description)
      }
    }
    let (whole, wholeError) = parse(split: nil, maxBadLines: nil)
    let split = bytes.isEmpty ? 0 : Int(bytes[bytes.count - 1]) * bytes.count / 256
    let (blocks, blocksError) = parse(split: split, maxBadLines: nil)
    precondition(wholeError == blocksError, "whole: \(wholeError ?? "ok"); in blocks: \(blocksError ?? "ok")")
    precondition(
      whole.count == blocks.count && whole.time == blocks.time && whole.device == blocks.device
        && whole.type == blocks.type, "the log read in blocks differs from the log read whole")
    let (lenient, _) = parse(split: nil, maxBadLines: 3)
    guard lenient.count > 0 else { return }
    _ = Calibration.fit(lenient, seed: 1, replicates: 2)
  }

  /// Decodes a part made of the input and a valid checksum (so every input
  /// reaches the header and body decoding, as a part anyone can write
  /// would) as `merge` does, in memory: header, scenario, tallies, then the
  /// results built from them (no report written). Must not trap; an error
  /// must be one bounded line.
  public static func mergePart(_ data: Data) {
    var bytes = [UInt8](data)
    bytes += Array("\(PartialFile.trailerPrefix)\(SHA256.hex(bytes))\n".utf8)
    do {
      let part = try PartialFile.parse(bytes, path: "shard-1-of-1.rbpart")
      try MergeCommand.checkSameRun([part])
      try MergeCommand.checkShards([part])
      var options = CommonOptions()
      options.threads = 1
      let pipeline = Pipeline(options: options, overrides: MergeCommand.overrides(part.header), strategies: .presets)
      let loaded = try MergeCommand.scenario(part, pipeline: pipeline)
      switch part.header.kind {
      case .run:
        let outcome = try MergeCommand.mergeRun([part], scenario: loaded.scenario)
        _ = pipeline.buildResults(loaded, outcome, parameters: [])
      case .sweep:
        let plans = try pipeline.sweepPoints(loaded)
        let outcomes = try MergeCommand.mergeSweep([part], plans: plans)
        if let first = outcomes.first, let plan = plans.first {
          var point = loaded
          point.scenario = plan.scenario
          _ = pipeline.buildResults(point, first, parameters: [])
        }
      }
    } catch {
      checkLine(error.message)
    }
  }

  /// Traps unless `line` is one bounded line without control characters.
  static func checkLine(_ line: String) {
    precondition(
      !line.unicodeScalars.contains(where: TerminalText.isControl), "control character in: \(line.prefix(200))")
    precondition(line.utf8.count <= maxErrorLength, "error of \(line.utf8.count) bytes: \(line.prefix(200))")
  }
}
