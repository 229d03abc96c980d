import Foundation
import ReloadBenchCLI
import Testing

/// `expect` and `check` are validated with the scenario, like every other
/// field: a path, a message and a fix, before anything runs.
@Suite struct ExpectationValidationTests {
  static func error(expect: String = "[]", check: String = "{}", replications: Int = 1) -> String? {
    let base = smallScenario(name: "v")
    let end = base.lastIndex(of: "}")!
    let json = String(base[..<end]) + #", "replications": \#(replications), "expect": \#(expect), "check": \#(check)}"#
    return CLITesting.errorLine(Data(json.utf8))
  }

  @Test func validExpectationsAndTolerancesDecode() {
    #expect(
      Self.error(
        expect: #"[{"policy": "hybrid", "segment": "a", "metric": "fresh_glance_pct", "min": 90, "max": 100}, {"metric": "fresh_glance_pct_ci95", "max": 2}]"#,
        check: #"{"tolerance_pct": 1, "metrics": [{"metric": "backend_peak_rps", "relative_pct": 10}]}"#,
        replications: 2) == nil)
  }

  @Test func unknownNamesGetTheNearestSuggestion() throws {
    let metric = try #require(Self.error(expect: #"[{"metric": "fresh_glances_pct", "min": 90}]"#))
    #expect(metric.contains("$.expect[0].metric") && metric.contains(#"did you mean "fresh_glance_pct"?"#))
    let policy = try #require(Self.error(expect: #"[{"policy": "hybird", "metric": "fresh_glance_pct", "min": 90}]"#))
    #expect(policy.contains("$.expect[0].policy") && policy.contains("not a strategy of this scenario"))
    #expect(policy.contains(#"did you mean "hybrid"?"#))
    let segment = try #require(Self.error(expect: #"[{"segment": "everyone", "metric": "fresh_glance_pct", "min": 90}]"#))
    #expect(segment.contains("$.expect[0].segment") && segment.contains(#"use one of "all", "a", "b""#))
    let tolerance = try #require(Self.error(check: #"{"metrics": [{"metric": "backend_peak_rsp", "relative_pct": 5}]}"#))
    #expect(tolerance.contains("$.check.metrics[0].metric") && tolerance.contains(#"did you mean "backend_peak_rps"?"#))
  }

  @Test func boundsMustMakeSense() throws {
    let none = try #require(Self.error(expect: #"[{"metric": "fresh_glance_pct"}]"#))
    #expect(none.contains(#"$.expect[0]: has neither "min" nor "max""#))
    let crossed = try #require(Self.error(expect: #"[{"metric": "fresh_glance_pct", "min": 90, "max": 80}]"#))
    #expect(crossed.contains("$.expect[0].min: 90 is above max 80"))
    let ci = try #require(Self.error(expect: #"[{"metric": "frozen_widget_day_pct_ci95", "max": 1}]"#))
    #expect(ci.contains("exists only with 2 or more replications"))
    let negative = try #require(Self.error(check: #"{"tolerance_pct": -1}"#))
    #expect(negative.contains("$.check.tolerance_pct"))
    let empty = try #require(Self.error(check: #"{"metrics": [{"metric": "glances"}]}"#))
    #expect(empty.contains("sets no tolerance"))
    let twice = try #require(
      Self.error(check: #"{"metrics": [{"metric": "glances", "absolute": 1}, {"metric": "glances", "absolute": 2}]}"#))
    #expect(twice.contains("$.check.metrics[1].metric") && twice.contains("two entries"))
  }
}

/// The content hash that ties a baseline to its scenario.
@Suite struct ScenarioHashTests {
  /// FIPS 180-4 examples (one block, two blocks, many blocks).
  @Test func sha256MatchesTheStandardsExamples() {
    #expect(CLITesting.sha256([]) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    #expect(CLITesting.sha256(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    #expect(
      CLITesting.sha256(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
        == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    #expect(
      CLITesting.sha256([UInt8](repeating: 0x61, count: 1_000_000))
        == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
  }

  @Test func onlyChangesThatCanChangeResultsChangeTheHash() throws {
    let a = #"{"name": "x", "devices": 10, "kinds": [{"name": "k", "scheduled": {"every_min": 60}}]}"#
    let hash = try CLITesting.scenarioHash(Data(a.utf8))
    // Layout and key order do not matter.
    let b = "{\n  \"kinds\": [ { \"scheduled\": { \"every_min\": 60.0 }, \"name\": \"k\" } ],\n  \"devices\": 10, \"name\": \"x\"\n}"
    #expect(try CLITesting.scenarioHash(Data(b.utf8)) == hash)
    // Neither do the schema link, the description, expectations and tolerances.
    let c = #"{"$schema": "s.json", "description": "d", "expect": [], "check": {"tolerance_pct": 1}, "#
      + String(a.dropFirst())
    #expect(try CLITesting.scenarioHash(Data(c.utf8)) == hash)
    // Anything else does.
    #expect(try CLITesting.scenarioHash(Data(a.replacingOccurrences(of: "10", with: "11").utf8)) != hash)
    #expect(try CLITesting.scenarioHash(Data(a.replacingOccurrences(of: "\"x\"", with: "\"y\"").utf8)) != hash)
  }
}

/// The baselines `.ci/run` checks against belong to today's scenarios and
/// model: editing a golden scenario or bumping the model version without
/// re-saving fails here, in seconds, rather than in CI.
@Suite struct CommittedBaselineTests {
  @Test func everyCommittedBaselineMatchesItsScenarioAndTheModel() throws {
    let scenarios = repositoryRoot.appendingPathComponent("Scenarios")
    let golden = try FileManager.default.contentsOfDirectory(atPath: scenarios.appendingPathComponent("golden").path)
      .filter { $0.hasSuffix(".json") }.map { "golden/\($0)" }
    #expect(golden.count >= 10)
    for file in golden + ["example.json"] {
      let data = try Data(contentsOf: scenarios.appendingPathComponent(file))
      let scenario = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
      let name = try #require(scenario["name"] as? String)
      let url = scenarios.appendingPathComponent("baselines/\(name).json")
      guard let baselineData = try? Data(contentsOf: url) else {
        Issue.record("no Scenarios/baselines/\(name).json for \(file): run 'reloadbench baseline save Scenarios/\(file)'")
        continue
      }
      let baseline = try #require(try JSONSerialization.jsonObject(with: baselineData) as? [String: Any])
      let fix = "re-save it: reloadbench baseline save Scenarios/\(file)"
      #expect(baseline["scenario_sha256"] as? String == (try CLITesting.scenarioHash(data)), "\(name): \(fix)")
      #expect(baseline["model_version"] as? String == ReloadBenchCLI.modelVersion, "\(name): \(fix)")
    }
  }
}
