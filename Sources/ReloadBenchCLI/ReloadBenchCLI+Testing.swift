import Foundation
import WidgetModel

/// Hooks for the test suite, with `package` access so that
/// `swift test -c release` works without `@testable`.
package enum CLITesting {
  /// The JSON Schema as `reloadbench schema` writes it.
  package static func jsonSchema() -> String { SchemaExport.jsonSchema() }

  /// `readme` with its generated blocks refreshed (nil without markers).
  package static func refreshedReadme(_ readme: String) -> String? { SchemaExport.updatingReadme(readme) }

  /// `doc` (docs/model.md) with its assumption table refreshed (nil without markers).
  package static func refreshedModelDoc(_ doc: String) -> String? { AssumptionReference.updatingModelDoc(doc) }

  /// `patch` as a scenario's `model` block (JSON text): each value as the
  /// format writes it, grouped as the format nests them.
  package static func modelBlock(_ patch: ModelPatch) -> String {
    var groups: [String: [String: JSONValue]] = [:]
    for s in patch.settings {
      groups[s.parameter.declaration.group.path, default: [:]][s.parameter.declaration.key] =
        ScenarioSchema.json(s.value, of: s.parameter)
    }
    var model: [String: JSONValue] = [:]
    for (path, fields) in groups {
      let parts = path.split(separator: ".").map(String.init)
      if parts.count == 1 {
        model[parts[0]] = .object(fields)
      } else {
        var parent: [String: JSONValue] = [:]
        if case .object(let o)? = model[parts[0]] { parent = o }
        parent[parts[1]] = .object(fields)
        model[parts[0]] = .object(parent)
      }
    }
    return JSONValue.object(model).jsonText
  }

  /// Every field of the format, as `Object.key`.
  package static var allFields: Set<String> {
    Set(allObjects(ScenarioSchema.root).flatMap { o in o.fields.map { "\(o.title).\($0.key)" } })
  }

  /// Decodes a scenario and returns the fields the decoder read, or the
  /// error line.
  package static func decodeFields(_ data: Data) -> Result<Set<String>, Error> {
    let log = SchemaAccessLog()
    do {
      _ = try ScenarioDecoder.decode(data, strategies: .presets, log: log)
      return .success(log.fields)
    } catch {
      return .failure(error)
    }
  }

  /// Decodes a scenario file, or returns its one-line error.
  package static func scenario(_ data: Data, file: String = "test.json") -> Result<Scenario, Error> {
    do {
      return .success(try ScenarioDecoder.decode(data, strategies: .presets).0)
    } catch {
      return .failure(CLIError.badInput(error.line(file: file)))
    }
  }

  /// The command line as a team's executable runs it
  /// (`ReloadBenchCLI.main(_:strategies:)`), in this process: the exit
  /// status, and the error line `main` would print (nil on success).
  package static func main(_ arguments: [String], strategies: [Strategy]) -> (status: Int32, error: String?) {
    do {
      return (try ReloadBenchCLI.run(arguments, strategies: strategies), nil)
    } catch {
      return (error.exitCode, error.message)
    }
  }

  /// The run time `--dry-run` estimates for the scenario file at `path`
  /// on `threads` threads, in seconds.
  package static func estimatedSeconds(_ path: String, threads: Int) throws -> Double {
    let loaded = try ScenarioLoader.load(path, strategies: .presets, profile: nil)
    return MemoryEstimate.seconds(loaded.scenario, threads: threads)
  }

  /// SHA-256 of `bytes`, as 64 hex digits.
  package static func sha256(_ bytes: [UInt8]) -> String { SHA256.hex(bytes) }

  /// The content hash `reloadbench baseline save` stores for a scenario file.
  package static func scenarioHash(_ data: Data) throws -> String { ScenarioHash.sha256(try JSONValue.parse(data)) }

  /// The one-line error for `data`, or nil when it decodes.
  /// The one-line error of reading the scenario file at `path` as the
  /// tool does (its `extends` chain resolved), or nil when it decodes.
  package static func fileErrorLine(_ path: String) -> String? {
    do {
      _ = try ScenarioLoader.load(path, strategies: .presets)
      return nil
    } catch {
      return error.message
    }
  }

  /// The scenario file at `path` as the tool reads it (its `extends`
  /// chain resolved) and its model version warning, or the error line.
  package static func loadFile(_ path: String) -> Result<(scenario: Scenario, versionWarning: String?), CLIError> {
    do {
      let l = try ScenarioLoader.load(path, strategies: .presets)
      return .success((l.scenario, l.versionWarning))
    } catch {
      return .failure(error)
    }
  }

  /// The model version warning of a scenario's JSON, read without decoding
  /// the rest (a file whose strategies only a team's executable knows).
  package static func versionWarning(_ data: Data) throws -> String? {
    let json = try JSONValue.parse(data)
    let root = SchemaReader(json, ScenarioSchema.root, path: "$", log: nil)
    return ScenarioDecoder.versionWarning(root, version: try ScenarioDecoder.modelVersion(root))
  }

  package static func errorLine(_ data: Data, file: String = "test.json") -> String? {
    do {
      _ = try ScenarioDecoder.decode(data, strategies: .presets)
      return nil
    } catch {
      return error.line(file: file)
    }
  }

  /// The sweep of a scenario file: each point's swept values (as
  /// sweep.csv writes them) and its decoded scenario, or the one-line error.
  package static func sweepPoints(_ data: Data, file: String = "test.json") -> Result<
    [(values: [String], scenario: Scenario)], CLIError
  > {
    do {
      let f = try ScenarioDecoder.decodeFile(data, strategies: .presets)
      guard let spec = f.sweep else { return .success([]) }
      let points = try spec.points(base: f.json, strategies: .presets)
      return .success(
        points.map { p in (zip(spec.parameters, p.valueIndices).map { SweepSpec.text($0.values[$1]) }, p.scenario) })
    } catch {
      return .failure(CLIError.badInput(error.line(file: file)))
    }
  }

  /// Writes `value` (JSON text) at `path` in `json` (JSON text) and
  /// returns the result as compact sorted JSON, or "message (fix: ...)".
  package static func applySweepPath(_ path: String, value: String, to json: String) -> Result<String, CLIError> {
    do {
      var doc = try JSONValue.parse(Data(json.utf8))
      // Wrapped: Foundation's parser takes no bare scalars.
      guard case .array(let wrapped) = try JSONValue.parse(Data(("[" + value + "]").utf8)), let v = wrapped.first
      else { return .failure(.badInput("not one JSON value: \(value)")) }
      let p = try SweepPath.parse(path)
      try p.check(against: .object(ScenarioSchema.root))
      try p.apply(v, to: &doc, strategies: .presets)
      return .success(doc.jsonText)
    } catch let e as SweepPath.Problem {
      return .failure(.badInput("\(e.message) (fix: \(e.fix))"))
    } catch {
      return .failure(.badInput("\(error)"))
    }
  }
}

/// The pipeline's stages one at a time, for the test suite (`package`
/// access, like `CLITesting`).
package enum PipelineStages {
  static func pipeline(threads: Int, out: String? = nil) -> Pipeline {
    var options = CommonOptions()
    options.threads = threads
    options.quiet = true
    options.reproducible = true
    options.out = out
    return Pipeline(options: options, strategies: .presets)
  }

  /// Stage 1: a scenario file's name and number of expectations, or the
  /// one-line error.
  package static func load(_ path: String) -> Result<(name: String, expectations: Int), CLIError> {
    do {
      let l = try pipeline(threads: 1).load(path)
      return .success((l.scenario.name, l.checkSpec.expectations.count))
    } catch {
      return .failure(error)
    }
  }

  /// Stage 2, paths: files read, folders written (with the file names
  /// written there) and files written, in that order; nil when they fit
  /// together, else the one-line error.
  package static func validatePaths(reads: [String], folders: [(String, [String])], files: [String]) -> String? {
    var uses: [Pipeline.PathUse] = reads.map { .read($0, as: "the scenario") }
    uses += folders.map { .folder($0.0, as: "--out", files: $0.1, fix: "pass --out with another folder") }
    uses += files.map { .file($0, as: "--to", onlyReplacing: .format(Baseline.formatName, what: "baseline")) }
    do {
      try pipeline(threads: 1).validate(paths: uses)
      return nil
    } catch {
      return error.message
    }
  }

  /// Stage 2, memory: the estimate in bytes of the scenario in `data`
  /// on `threads` threads, and the share of it that is drawn device data.
  package static func estimate(_ data: Data, threads: Int) throws -> (bytes: Double, deviceBytes: Double, workers: Int)
  {
    let l = try ScenarioDecoder.decodeFile(data, strategies: .presets)
    let p = MemoryEstimate.parts(l.scenario, threads: threads)
    return (p.total, p.device * Double(p.workers), p.workers)
  }

  /// Stage 3: makes `directory` and removes what killed runs left there.
  package static func prepare(_ directory: String, files: [String]) -> CLIError? {
    do {
      try pipeline(threads: 1).prepare(directory, files: files)
      return nil
    } catch {
      return error
    }
  }

  /// The temporary name of `name` while process `pid` writes it.
  package static func temporaryName(_ name: String, pid: Int32) -> String { OutputWriter.temporaryName(name, pid: pid) }

  /// The names of the files a run writes into its report folder.
  package static var reportFiles: [String] { Pipeline.reportFiles }

  /// Stages 4 and 5 of the first replication: the number of per-thread
  /// parts `simulate` returned, and the events of each part and of the
  /// merged tallies.
  package static func simulateAndMerge(_ data: Data, threads: Int) throws -> (parts: [UInt64], merged: UInt64) {
    let l = try ScenarioDecoder.decodeFile(data, strategies: .presets)
    let prepared = PreparedScenario(l.scenario)
    let parts = ExperimentRunner.simulate(prepared, threads: threads, progress: nil)
    let events = { (tallies: [StrategyTally]) -> UInt64 in
      tallies.reduce(0) { $0 + $1.segments.reduce(0) { $0 + $1.events } }
    }
    let counts = parts.map(events)
    let merged = ExperimentRunner.merge(parts)
    return (counts, events(merged))
  }

  /// Stages 4 to 7 on `threads` threads: the rendered files (name, text).
  package static func render(_ data: Data, threads: Int) throws -> [(name: String, contents: String)] {
    var l = try ScenarioDecoder.decodeFile(data, strategies: .presets)
    l.path = "test.json"
    let p = pipeline(threads: threads)
    let outcome = p.simulate(l.scenario)
    let built = p.buildResults(l, outcome, parameters: ParameterListing.facts(l))
    return Pipeline.render(built.results, objective: l.objective)
  }

  /// Stage 8: writes `files` into `directory`, all or none. With
  /// `failingAt`, writing the file of that index fails ("No space left on
  /// device"), after the ones before it were written.
  package static func write(
    _ files: [(name: String, contents: String)], to directory: String, failingAt: Int? = nil
  ) -> CLIError? {
    let count = Counter()
    do {
      try pipeline(threads: 1).write(files, to: directory) { path, data in
        defer { count.value += 1 }
        return count.value == failingAt ? "No space left on device" : OutputWriter.writeBytes(path, data)
      }
      return nil
    } catch {
      return error
    }
  }

  private final class Counter: @unchecked Sendable { var value = 0 }

  /// The staging folder's name beside report folder `name` while process `pid` writes it.
  package static func stagingName(_ name: String, pid: Int32) -> String { OutputWriter.stagingName(name, pid: pid) }
}
