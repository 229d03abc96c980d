import Foundation
import Testing

/// `"extends"` and `"evidence"` end to end on the built binary: a scenario
/// built on another file, evidence scored by `reloadbench check`, and
/// `--min-agreement` as CI's gate.
@Suite struct EvidenceCheckTests {
  static func write(_ text: String, _ name: String, in dir: URL) throws {
    try CheckCommandTests.write(text, name, in: dir)
  }

  /// `small` (smallScenario) in base/small.json and a file extending it.
  static func setUp(_ evidence: String, extra: String = "") throws -> URL {
    let dir = try temporaryDirectory()
    try write(smallScenario(name: "small", devices: 40), "base/small.json", in: dir)
    try write(
      #"{"extends": "../base/small.json", "name": "small-evidence", \#(extra) "evidence": \#(evidence)}"#,
      "evidence/small.json", in: dir)
    return dir
  }

  @Test func aFileExtendingAnotherRunsAsTheMergedScenario() throws {
    let dir = try Self.setUp("[]", extra: #""model": {"budget": {"max_per_day": 20}}, "#)
    defer { try? FileManager.default.removeItem(at: dir) }
    let base = try Binary.run(["run", "base/small.json", "--out", "a", "--quiet"], in: dir)
    let over = try Binary.run(["run", "evidence/small.json", "--out", "b", "--quiet"], in: dir)
    #expect(base.status == 0 && over.status == 0, "\(base.stderr) \(over.stderr)")
    let a = try CheckCommandTests.read("a/summary.csv", in: dir)
    let b = try CheckCommandTests.read("b/summary.csv", in: dir)
    // The name comes from the top file, the rest from the base, and the one
    // model parameter it names changes the budget (a smaller one: fewer reloads).
    #expect(b.contains("small-evidence,poll-15m,all,"))
    #expect(a != b.replacingOccurrences(of: "small-evidence,", with: "small,"))
    // The same merge without the override gives the base's bytes.
    try Self.write(#"{"extends": "../base/small.json"}"#, "evidence/plain.json", in: dir)
    let plain = try Binary.run(["run", "evidence/plain.json", "--out", "c", "--quiet"], in: dir)
    #expect(plain.status == 0, "\(plain.stderr)")
    #expect(try CheckCommandTests.read("c/summary.csv", in: dir) == a)
  }

  @Test func brokenExtendsChainsAreBadInputNamingTheFile() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    try Self.write(#"{"extends": "b.json"}"#, "a.json", in: dir)
    try Self.write(#"{"extends": "./a.json"}"#, "b.json", in: dir)
    try Self.write(#"{"extends": "missing.json"}"#, "c.json", in: dir)
    try Self.write(#"{"extends": 3}"#, "d.json", in: dir)
    try Self.write(#"{"extends": "../x.json", "name": }"#, "e.json", in: dir)
    let cases: [(String, String)] = [
      ("a.json", "b.json: $.extends: ./a.json extends, directly or through other files, b.json itself"),
      ("c.json", "c.json: $.extends: cannot read missing.json: no such file"),
      ("d.json", "d.json: $.extends: is a number, not a file name"),
      ("e.json", "e.json: $: not valid JSON"),
    ]
    for (file, message) in cases {
      let r = try Binary.run(["run", file, "--out", "o", "--quiet"], in: dir)
      #expect(r.status == 2, "\(file)")
      #expect(r.stderr.contains(message), "\(file): \(r.stderr)")
      #expect(r.stderr.split(separator: "\n").count == 1 && r.stderr.contains("(fix: "), "\(r.stderr)")
    }
    #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("o").path))
  }

  @Test func checkScoresEvidenceAndGatesOnMinAgreement() throws {
    // on-demand never reloads on its own: its glances are stale, and it never runs dry.
    let evidence = #"""
      [{"policy": "on-demand", "reported": "stale", "strength": "reported", "source": "a/b#1"},
       {"policy": "on-demand", "segment": "a", "reported": "exhausted", "strength": "weak", "source": "a/b PR #2"},
       {"policy": "hybrid", "reported": "fine", "strength": "weak", "source": "none found"}]
      """#
    let dir = try Self.setUp(evidence)
    defer { try? FileManager.default.removeItem(at: dir) }
    let r = try Binary.run(["check", "evidence/small.json", "--json", "c.json", "--markdown", "c.md"], in: dir)
    #expect(r.status == 0, "\(r.stderr)")
    let md = try CheckCommandTests.read("c.md", in: dir)
    #expect(md.contains("| small-evidence | on-demand | all | stale | stale |"), "\(md)")
    // Weak evidence of an outcome other than fine is a title, not an absence of complaints.
    #expect(md.contains("| small-evidence | on-demand | a | exhausted (weak: a title only) | stale |"), "\(md)")
    #expect(md.contains("fine (weak: no complaint found)"))
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(CheckCommandTests.read("c.json", in: dir).utf8)) as? [String: Any])
    #expect(json["evidence_claims"] as? Int == 3)
    let agreeing = try #require(json["evidence_agreeing"] as? Int)
    #expect(md.contains("Evidence: \(agreeing) of 3 reported outcomes agree"))
    let claims = try #require((json["scenarios"] as? [[String: Any]])?.first?["evidence"] as? [[String: Any]])
    #expect(claims.map { $0["agrees"] as? Bool } == [true, false, claims[2]["agrees"] as? Bool])

    let enough = try Binary.run(["check", "evidence/small.json", "--quiet", "--min-agreement", "\(agreeing)"], in: dir)
    #expect(enough.status == 0, "\(enough.stderr)")
    let tooFew = try Binary.run(
      ["check", "evidence/small.json", "--min-agreement", "\(agreeing + 1)", "--markdown", "f.md"], in: dir)
    #expect(tooFew.status == 1)
    #expect(tooFew.stdout.contains("fewer than the \(agreeing + 1) --min-agreement asks"), "\(tooFew.stdout)")
    let impossible = try Binary.run(["check", "evidence/small.json", "--min-agreement", "4"], in: dir)
    #expect(impossible.status == 2)
    #expect(impossible.stderr.contains("--min-agreement 4 asks more claims to agree than the 3"))
  }

  @Test func evidenceNamingWhatTheScenarioLacksIsBadInput() throws {
    let cases: [(String, String)] = [
      (#"[{"policy": "polling", "reported": "stale", "strength": "weak", "source": "x"}]"#,
       "$.evidence[0].policy: \"polling\" is not a strategy of this scenario"),
      (#"[{"policy": "hybrid", "segment": "c", "reported": "stale", "strength": "weak", "source": "x"}]"#,
       "$.evidence[0].segment: \"c\" is not a segment of this scenario"),
      (#"[{"policy": "hybrid", "reported": "frozen", "strength": "weak", "source": "x"}]"#, "$.evidence[0].reported"),
      (#"[{"policy": "hybrid", "reported": "fine", "strength": "weak", "source": " "}]"#, "$.evidence[0].source: is empty"),
    ]
    for (evidence, message) in cases {
      let dir = try Self.setUp(evidence)
      defer { try? FileManager.default.removeItem(at: dir) }
      let r = try Binary.run(["check", "evidence/small.json", "--quiet"], in: dir)
      #expect(r.status == 2)
      #expect(r.stderr.contains("evidence/small.json: " + message), "\(r.stderr)")
    }
  }

  @Test func theShippedEvidenceFilesStateOnlyClaimsOnTheirApp() throws {
    let folder = repositoryRoot.appendingPathComponent("Scenarios/evidence")
    let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }.sorted()
    // `example-*.json`: small examples of a construct of the strategy
    // language, not apps with a reported outcome.
    let appsFolder = repositoryRoot.appendingPathComponent("Scenarios/apps").path
    let apps = try FileManager.default.contentsOfDirectory(atPath: appsFolder)
      .filter { $0.hasSuffix(".json") && !$0.hasPrefix("example-") }.sorted()
    #expect(files == apps, "one evidence file per app of Scenarios/apps")
    for f in files {
      let doc = try #require(
        try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent(f))) as? [String: Any])
      #expect(doc["extends"] as? String == "../apps/\(f)", "\(f)")
      // One claim per report: an app whose reports concern two of its versions (TellTime,
      // Unstoppable Wallet) has two, each on its own strategy.
      let claims = try #require(doc["evidence"] as? [[String: Any]])
      let strategies = claims.compactMap { $0["policy"] as? String }
      #expect(!claims.isEmpty && Set(strategies).count == claims.count, "\(f)")
      // The model version it was written for changes no result.
      #expect(
        Set(doc.keys).isSubset(of: ["$schema", "model_version", "extends", "evidence"]),
        "\(f) states only evidence, not model changes")
    }
  }
}
