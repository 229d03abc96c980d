import Foundation
import WidgetModel

/// Hooks for the test suite, with `package` access so that
/// `swift test -c release` works without `@testable`.
package enum CLITesting {
  /// The JSON Schema as `reloadbench schema` writes it.
  package static func jsonSchema() -> String { SchemaExport.jsonSchema() }

  /// `readme` with its generated blocks refreshed (nil without markers).
  package static func refreshedReadme(_ readme: String) -> String? { SchemaExport.updatingReadme(readme) }

  /// Every field of the format, as `Object.key`.
  package static var allFields: Set<String> {
    Set(allObjects(ScenarioSchema.root).flatMap { o in o.fields.map { "\(o.title).\($0.key)" } })
  }

  /// Decodes a scenario and returns the fields the decoder read, or the
  /// error line.
  package static func decodeFields(_ data: Data) -> Result<Set<String>, Error> {
    let log = SchemaAccessLog()
    do {
      _ = try ScenarioDecoder.decode(data, log: log)
      return .success(log.fields)
    } catch {
      return .failure(error)
    }
  }

  /// Decodes a scenario file, or returns its one-line error.
  package static func scenario(_ data: Data, file: String = "test.json") -> Result<Scenario, Error> {
    do {
      return .success(try ScenarioDecoder.decode(data).0)
    } catch {
      return .failure(CLIError.badInput(error.line(file: file)))
    }
  }

  /// SHA-256 of `bytes`, as 64 hex digits.
  package static func sha256(_ bytes: [UInt8]) -> String { SHA256.hex(bytes) }

  /// The content hash `reloadbench baseline save` stores for a scenario file.
  package static func scenarioHash(_ data: Data) throws -> String { ScenarioHash.sha256(try JSONValue.parse(data)) }

  /// The one-line error for `data`, or nil when it decodes.
  package static func errorLine(_ data: Data, file: String = "test.json") -> String? {
    do {
      _ = try ScenarioDecoder.decode(data)
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
      let f = try ScenarioDecoder.decodeFile(data)
      guard let spec = f.sweep else { return .success([]) }
      let points = try spec.points(base: f.json)
      return .success(points.map { p in (zip(spec.parameters, p.valueIndices).map { SweepSpec.text($0.values[$1]) }, p.scenario) })
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
      try p.apply(v, to: &doc)
      return .success(doc.jsonText)
    } catch let e as SweepPath.Problem {
      return .failure(.badInput("\(e.message) (fix: \(e.fix))"))
    } catch {
      return .failure(.badInput("\(error)"))
    }
  }
}

