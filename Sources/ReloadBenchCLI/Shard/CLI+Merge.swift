import Foundation
import ReloadReports
import WidgetModel

/// `reloadbench merge PART ...`: the reports of a run (or a sweep) from the
/// partial results of its shards, byte for byte those of a single run.
struct MergeCommand: Command {
  static let configuration = CommandConfiguration(
    name: "merge",
    abstract: "Join the parts that 'run --shard K/N' wrote into the reports of a single run.",
    usage: "PART ... [OPTIONS]",
    discussion: """
      Reads the N parts of one run (shard-1-of-N.rbpart ... shard-N-of-N.rbpart,
      written by 'reloadbench run SCENARIO --shard K/N' or 'sweep --shard K/N',
      in any order) and writes what the single run writes: summary.csv,
      timeseries.csv, staleness.csv, report.html and results.json (a sweep:
      sweep.csv and sweep.html). The CSV files are byte-identical to a single
      run's of the same scenario and seed, whatever N. Each part carries its
      scenario, so merge needs no scenario file. See "Beyond one machine" in
      README.md for array jobs on CI, Kubernetes and Slurm.
      """,
    arguments: [("PART", "A part file (shard-K-of-N.rbpart); give all N.")],
    notes: """
      Refused, before anything is written: parts of different scenarios, seeds,
      replications, engines, model or part-format versions; a shard missing or
      given twice (named; missing shards as ranges); a part that is truncated or
      corrupt (its SHA-256 checksum does not match). A part is untrusted input
      (anyone can write a valid checksum): every header field and every count
      of its body is checked, against its size and the scenario it carries,
      before anything is allocated.
      """,
    exitStatus:
      "0 success; 2 bad input (a part: unreadable, corrupt, from another run, missing or duplicated; unwritable --out)."
  )

  static let common: [CommonOptions.Key: String?] = [
    .out: "Write the reports to DIR (default Reports/<scenario name>).", .threads: nil, .quiet: nil, .reproducible: nil,
  ]

  var paths: [String]
  var options: CommonOptions
  let strategies: StrategyRegistry

  init(_ parsed: ParsedArguments, strategies: StrategyRegistry) throws(CLIError) {
    paths = parsed.positionals
    options = try CommonOptions(parsed, command: "merge")
    self.strategies = strategies
  }

  func validate() throws(CLIError) {
    guard !paths.isEmpty else {
      throw .badInput(
        "merge needs the parts to join (fix: reloadbench merge Reports/NAME/shard-*-of-N.rbpart --out DIR)")
    }
  }

  func run() throws(CLIError) -> Int32 {
    // Every part checked (checksum, header) before any is decoded.
    let parts = try paths.map { p throws(CLIError) in try PartialFile.read(p, body: false) }
    try Self.checkSameRun(parts)
    try Self.checkShards(parts)
    let header = parts[0].header
    let pipeline = Pipeline(options: options, overrides: Self.overrides(header), strategies: strategies)
    let loaded = try Self.scenario(parts[0], pipeline: pipeline)
    let dir = pipeline.reportDirectory(for: loaded.scenario, several: false)
    let files = header.kind == .run ? Pipeline.reportFiles : Pipeline.sweepFiles
    try pipeline.validate(
      paths: parts.map { .read($0.path, as: "the part") }
        + [
          .folder(
            dir, as: options.out == nil ? "the report folder" : "the --out folder", files: files,
            fix: "pass --out with another folder")
        ])
    switch header.kind {
    case .run:
      let outcome = try Self.mergeRun(parts, scenario: loaded.scenario)
      try pipeline.prepare(dir, files: files)
      let report = pipeline.report(loaded, merged: outcome)
      try pipeline.write(report.files, to: dir)
      if !options.quiet { RunCommand.printSummary(report, dir: dir, mergedParts: parts.count) }
    case .sweep:
      let plans = try pipeline.sweepPoints(loaded)
      let outcomes = try Self.mergeSweep(parts, plans: plans)
      try pipeline.prepare(dir, files: files)
      try SweepCommand.execute(loaded, plans, pipeline: pipeline, dir: dir, merged: outcomes)
    }
    return ExitStatus.success
  }

  /// The command line the shards ran with, as their header says.
  static func overrides(_ header: PartialHeader) -> ScenarioOverrides {
    var overrides = ScenarioOverrides()
    overrides.seed = header.seed
    overrides.replications = header.replications
    overrides.engine = EngineMode(rawValue: header.engine)
    return overrides
  }

  static let sameRunFix =
    "fix: merge the N parts of one run: the same scenario file, seed, --replications and --engine, "
    + "from the same reloadbench; rerun the odd shard"

  /// Every part belongs to the first part's run.
  static func checkSameRun(_ parts: [PartialFile.Part]) throws(CLIError) {
    let a = parts[0]
    for b in parts.dropFirst() {
      let fields: [(String, String, String)] = [
        ("kind (run or sweep)", a.header.kind.rawValue, b.header.kind.rawValue),
        ("scenario", a.header.scenario, b.header.scenario),
        (
          "scenario content (sha256)", String(a.header.scenarioSHA256.prefix(12)),
          String(b.header.scenarioSHA256.prefix(12))
        ),
        ("seed", String(a.header.seed), String(b.header.seed)),
        ("replications", String(a.header.replications), String(b.header.replications)),
        ("engine", a.header.engine, b.header.engine),
        ("model version", a.header.modelVersion, b.header.modelVersion),
        ("shard count", String(a.header.shardCount), String(b.header.shardCount)),
      ]
      if let (name, x, y) = fields.first(where: { $0.1 != $0.2 }) {
        throw .badInput(
          "\(b.path) is a part of another run than \(a.path): its \(name) is \(TerminalText.short(y)), not "
            + "\(TerminalText.short(x)) (\(sameRunFix))"
        )
      }
    }
  }

  /// Shards 1...N each given once.
  static func checkShards(_ parts: [PartialFile.Part]) throws(CLIError) {
    let n = parts[0].header.shardCount
    var seen: [Int: String] = [:]
    for p in parts {
      let k = p.header.shard
      guard (1...max(1, n)).contains(k) else {
        throw .badInput("\(p.path): corrupt: shard \(k) of \(n) (fix: copy the part again, or rerun its shard)")
      }
      if let other = seen[k] {
        throw .badInput(
          "shard \(k)/\(n) is given twice: \(other) and \(p.path) (fix: pass each shard's part once)")
      }
      seen[k] = p.path
    }
    let missing = missingRanges(given: seen.keys.sorted(), count: n)
    if let first = missing.first {
      let total = missing.reduce(0) { $0 + $1.count }
      let list =
        missing.prefix(8).map { $0.count == 1 ? "\($0.lowerBound)/\(n)" : "\($0.lowerBound)-\($0.upperBound)/\(n)" }
        .joined(separator: ", ") + (missing.count > 8 ? ", ..." : "")
      throw .badInput(
        (total == 1 ? "shard \(list) is missing " : "\(total) shards are missing (\(list)) ")
          + "(fix: run 'reloadbench run \(TerminalText.short(parts[0].header.scenario)).json "
          + "--shard \(first.lowerBound)/\(n)' with the same options, and pass its part too)")
    }
  }

  /// The shards of 1...`count` not in `given` (ascending), as ranges: a
  /// million missing shards are a few ranges, never a million names.
  static func missingRanges(given: [Int], count: Int) -> [ClosedRange<Int>] {
    var out: [ClosedRange<Int>] = []
    var next = 1
    for k in given where k >= next {
      if k > next { out.append(next...(k - 1)) }
      next = k + 1
    }
    if next <= count { out.append(next...count) }
    return out
  }

  /// The scenario a part carries, decoded with the parts' overrides; its
  /// content must be the one the header's hash names.
  static func scenario(_ part: PartialFile.Part, pipeline: Pipeline) throws(CLIError) -> LoadedScenario {
    let corrupt = "\(part.path): corrupt: the scenario it carries"
    guard let json = try? JSONValue.parse(Data(part.header.scenarioJSON.utf8)),
      ScenarioHash.sha256(json) == part.header.scenarioSHA256
    else { throw .badInput("\(corrupt) does not match its hash (fix: copy the part again, or rerun its shard)") }
    var loaded: LoadedScenario
    do {
      loaded = try ScenarioDecoder.decode(json: json, strategies: pipeline.strategies)
    } catch {
      throw .badInput(
        "\(corrupt) does not decode here: \(error.message) at \(error.path) "
          + "(fix: merge with the reloadbench, and the strategies registered in Swift, that ran the shards)")
    }
    loaded.path = part.path
    pipeline.apply(to: &loaded.scenario)
    return loaded
  }

  /// `part` with its body, read again (one part in memory at a time); it
  /// must still be the part that was checked.
  static func body(_ part: PartialFile.Part) throws(CLIError) -> PartialFile.Part {
    // A part read with its body (the fuzz target's) is not read again.
    guard part.body.isEmpty else { return part }
    let full = try PartialFile.read(part.path)
    guard full.header == part.header else {
      throw .badInput("\(part.path) changed while merging (fix: merge once every shard has finished writing)")
    }
    return full
  }

  static func corrupt(_ path: String, _ what: String) -> CLIError {
    .badInput("\(path): corrupt: \(what) (fix: copy the part again, or rerun its shard)")
  }

  /// Reads one replication per `replications` from `reader`.
  static func tallies(
    _ reader: inout TallyCoder.Reader, _ part: PartialFile.Part, replications: Int, shape: TallyShape
  ) throws(CLIError) -> [[StrategyTally]] {
    var out: [[StrategyTally]] = []
    for _ in 0..<replications {
      do {
        out.append(try reader.tallies(shape))
      } catch {
        throw corrupt(part.path, error.what)
      }
    }
    return out
  }

  /// Do `a` and `b` have the same blocks (so they can be added)?
  static func sameShape(_ a: [[StrategyTally]], _ b: [[StrategyTally]]) -> Bool {
    guard a.count == b.count else { return false }
    for (x, y) in zip(a, b) {
      guard x.count == y.count else { return false }
      for (s, t) in zip(x, y) {
        guard s.segments.count == t.segments.count, s.series.block.count == t.series.block.count else { return false }
        for (g, h) in zip(s.segments, t.segments)
        where g.counters.count != h.counters.count || g.perSecond.count != h.perSecond.count {
          return false
        }
      }
    }
    return true
  }

  /// The sum of the parts' tallies, in shard order (integer addition:
  /// exactly the single run's), with the shape the scenario gives.
  static func mergeRun(_ parts: [PartialFile.Part], scenario: Scenario) throws(CLIError) -> RunOutcome {
    var total: [[StrategyTally]]? = nil
    let shape = TallyShape(scenario)
    for checked in parts.sorted(by: { $0.header.shard < $1.header.shard }) {
      let part = try body(checked)
      let shard = ShardSpec(number: part.header.shard, count: part.header.shardCount)
      let devices = shard.deviceBlocks(devices: scenario.devices).reduce(0) { $0 + $1.count }
      guard part.header.devices == devices else {
        throw corrupt(
          part.path,
          "it says \(NumberFormat.count(part.header.devices ?? 0, "device")), shard \(shard.text) has \(devices)")
      }
      var reader = TallyCoder.Reader(part.body)
      let reps = try tallies(&reader, part, replications: scenario.replications, shape: shape)
      guard reader.atEnd,
        reps.allSatisfy({
          $0.count == scenario.strategies.count
            && $0.allSatisfy {
              $0.segments.count == scenario.segments.count && $0.segments[0].kindCount == scenario.kinds.count
            }
        })
      else { throw corrupt(part.path, "its tallies are not the scenario's") }
      if let t = total {
        guard sameShape(t, reps) else { throw corrupt(part.path, "its tallies differ in shape from the other parts'") }
        for (x, y) in zip(t, reps) { for s in x.indices { x[s].merge(y[s]) } }
      } else {
        total = reps
      }
    }
    let reps = total ?? []
    var events: UInt64 = 0
    for r in reps { for s in r { for g in s.segments { events &+= g.events } } }
    return RunOutcome(replications: reps, events: events, setupSeconds: 0, simulationSeconds: 0, mergeSeconds: 0)
  }

  /// Each point's tallies, by point index: every point in exactly the part
  /// of its shard.
  static func mergeSweep(_ parts: [PartialFile.Part], plans: [SweepPointPlan]) throws(CLIError) -> [RunOutcome] {
    let points = plans.count
    var outcomes = [RunOutcome?](repeating: nil, count: points)
    for checked in parts {
      let part = try body(checked)
      let shard = ShardSpec(number: part.header.shard, count: part.header.shardCount)
      let mine = shard.points(of: points)
      guard part.header.points == mine else {
        throw corrupt(part.path, "its points are not those of shard \(shard.text) of a \(points)-point sweep")
      }
      var reader = TallyCoder.Reader(part.body)
      for p in mine {
        guard (try? reader.next()) == UInt64(p) else {
          throw corrupt(part.path, "point \(p + 1) is not where it belongs")
        }
        let reps = try tallies(
          &reader, part, replications: plans[p].scenario.replications, shape: TallyShape(plans[p].scenario))
        var events: UInt64 = 0
        for r in reps { for s in r { for g in s.segments { events &+= g.events } } }
        outcomes[p] = RunOutcome(
          replications: reps, events: events, setupSeconds: 0, simulationSeconds: 0, mergeSeconds: 0)
      }
      guard reader.atEnd else { throw corrupt(part.path, "it holds more than its points") }
    }
    var out: [RunOutcome] = []
    for (p, o) in outcomes.enumerated() {
      guard let o else {
        throw .badInput("no part holds sweep point \(p + 1) (fix: merge the N parts of one sweep, each once)")
      }
      out.append(o)
    }
    return out
  }
}
