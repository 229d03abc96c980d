import Foundation
import ReloadBenchCLI
import Testing
import WidgetModel

/// `model.profile` and `model_version` in scenario files
/// (docs/model.md#model-profiles, #model-versions): the profile under the
/// file's own fields, `extends` chains, the one-line errors, and the one
/// warning a file written for an older model version gets.
@Suite struct ModelProfileFormatTests {
  /// `smallScenario` with `fields` (JSON members) added at the top level.
  static func scenario(_ fields: String, name: String = "small") -> String {
    var s = smallScenario(name: name, devices: 20, days: 2, strategies: #"["poll-15m"]"#, modelVersion: nil)
    s.insert(contentsOf: "  \(fields),\n", at: s.index(after: s.startIndex))
    return s
  }

  static func model(_ json: String) throws -> ModelParameters {
    try CLITesting.scenario(Data(json.utf8)).get().model
  }

  @Test func theProfileComesFirstAndTheFilesOwnFieldsOverIt() throws {
    let seeds = try #require(ModelProfile.named("seeds"))
    #expect(try Self.model(Self.scenario(#""model": {"profile": "seeds"}"#)) == seeds.model)
    // A field the file sets wins over the profile's value for it ...
    let m = try Self.model(
      Self.scenario(#""model": {"profile": "seeds", "budget": {"accrual": "token_bucket", "max_per_day": 50}}"#))
    #expect(m.budget.accrual == .tokenBucket)
    #expect(m.budget.maxPerDay == 50)
    // ... and the profile's other settings stay.
    #expect(m.reload.asap == .immediate)
    var expected = seeds.model
    expected.budget.accrual = .tokenBucket
    expected.budget.maxPerDay = 50
    #expect(m == expected)
    // No profile, or the standard one: the defaults.
    #expect(try Self.model(Self.scenario(#""model": {"profile": "evidence"}"#)) == .standard)
    #expect(try Self.model(Self.scenario(#""model": {}"#)) == .standard)
  }

  /// The rule of Scenarios/README.md: the nearest file that names a
  /// profile wins; every file's own fields lie over it, the extending
  /// file's over its base's.
  @Test func anExtendsChainTakesTheNearestProfileAndEveryFilesOwnFields() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let base = Self.scenario(#""model": {"profile": "seeds", "budget": {"max_per_day": 60, "min_interval_s": 60}}"#)
    try base.write(to: dir.appendingPathComponent("base.json"), atomically: true, encoding: .utf8)
    let files: [(String, String)] = [
      ("keeps.json", #"{"extends": "base.json", "model": {"budget": {"max_per_day": 40}}}"#),
      ("switches.json", #"{"extends": "base.json", "model": {"profile": "model_1"}}"#),
    ]
    for (name, text) in files {
      try text.write(to: dir.appendingPathComponent(name), atomically: true, encoding: .utf8)
    }
    let seeds = try #require(ModelProfile.named("seeds"))
    let v1 = try #require(ModelProfile.pinning(version: 1))

    let keeps = try CLITesting.loadFile(dir.appendingPathComponent("keeps.json").path).get().scenario.model
    var expected = seeds.model
    expected.budget.maxPerDay = 40
    expected.budget.minInterval = .seconds(60)
    #expect(keeps == expected)

    let switches = try CLITesting.loadFile(dir.appendingPathComponent("switches.json").path).get().scenario.model
    expected = v1.model
    expected.budget.maxPerDay = 60
    expected.budget.minInterval = .seconds(60)
    #expect(switches == expected)
  }

  @Test func anUnknownProfileIsOneLineListingTheProfilesExitTwo() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    try Self.scenario(#""model": {"profile": "seed"}"#).write(
      to: dir.appendingPathComponent("s.json"), atomically: true, encoding: .utf8)
    let r = try Binary.run(["run", "s.json", "--out", "out", "--quiet"], in: dir)
    #expect(r.status == 2)
    let lines = r.stderr.split(separator: "\n")
    #expect(lines.count == 1, "\(r.stderr)")
    #expect(r.stderr.hasPrefix("error: s.json: $.model.profile: \"seed\" is not a model profile"))
    #expect(r.stderr.contains("did you mean \"seeds\"?"))
    for p in ModelProfile.all { #expect(r.stderr.contains("\"\(p.name)\""), "\(p.name)") }
    #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("out").path))
  }

  /// `--profile` runs files under a profile as if their model named it:
  /// `run` reports it among the parameters; `check` scores the claims, not a
  /// baseline saved under the file's own model; an unknown name is one line.
  @Test func theProfileFlagRunsAFileUnderAProfile() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    var text = Self.scenario(#""model": {"reload": {"lateness_pressure": "none"}}"#, name: "flag")
    text.removeLast(2)  // "}\n"
    text += #", "expect": [{"metric": "reloads_per_widget_day", "max": 999}]}"#
    try text.write(to: dir.appendingPathComponent("s.json"), atomically: true, encoding: .utf8)

    let run = try Binary.run(["run", "s.json", "--profile", "seeds", "--out", "r", "--quiet"], in: dir)
    #expect(run.status == 0, "\(run.stderr)")
    let results = try String(contentsOf: dir.appendingPathComponent("r/results.json"), encoding: .utf8)
    #expect(results.contains("\"model.profile\""))

    let check = try Binary.run(["check", "s.json", "--profile", "seeds", "--out", "c", "--json", "-"], in: dir)
    #expect(check.status == 0, "\(check.stderr)")

    let bad = try Binary.run(["check", "s.json", "--profile", "seed", "--out", "c"], in: dir)
    #expect(bad.status == 2)
    #expect(bad.stderr.split(separator: "\n").count == 1, "\(bad.stderr)")
    #expect(bad.stderr.contains("--profile: 'seed' is not a model profile (fix: did you mean 'seeds'?"))
    let baseline = try Binary.run(
      ["check", "s.json", "--profile", "seeds", "--baseline", "b.json", "--out", "c"], in: dir)
    #expect(baseline.status == 2)
    #expect(baseline.stderr.contains("--baseline and --profile"))
  }

  /// A sweep over `model.profile` runs each reading on the same users.
  @Test func aSweepCanVaryTheProfile() throws {
    let names = ModelProfile.all.map(\.name)
    let values = names.map { "\"\($0)\"" }.joined(separator: ", ")
    let sweep = #""sweep": {"parameters": [{"name": "p", "path": "model.profile", "values": [\#(values)]}]}"#
    let points = try CLITesting.sweepPoints(Data(Self.scenario(sweep).utf8)).get()
    #expect(points.map { $0.values } == names.map { [$0] })
    for (p, name) in zip(points, names) { #expect(p.scenario.model == ModelProfile.named(name)?.model, "\(name)") }
  }

  /// The parameters version 2 changed, as the warning names them.
  static var changedSinceOne: [String] { ModelVersion.changes(since: 1).map(\.parameter.path) }

  @Test func aFileFromAnOlderVersionWarnsOnceNamingTheChangedDefaults() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    // No model_version: written before the field existed, version 1.
    try smallScenario(name: "same", devices: 20, days: 2, strategies: #"["poll-15m"]"#, modelVersion: nil).write(
      to: dir.appendingPathComponent("old.json"), atomically: true, encoding: .utf8)
    try Self.scenario(#""model_version": \#(ModelVersion.current)"#, name: "same").write(
      to: dir.appendingPathComponent("current.json"), atomically: true, encoding: .utf8)

    let old = try Binary.run(["run", "old.json", "--out", "o", "--threads", "1"], in: dir)
    #expect(old.status == 0, "\(old.stderr)")
    let warnings = old.stderr.split(separator: "\n").filter { $0.contains("warning:") }
    #expect(warnings.count == 1, "\(old.stderr)")
    let w = String(warnings.first ?? "")
    #expect(w.hasPrefix("warning: old.json: written for model version 1 (it has no \"model_version\")"))
    for path in Self.changedSinceOne { #expect(w.contains(path), "\(path) in \(w)") }
    #expect(w.contains(#"budget.accrual "sliding_window" -> "token_bucket""#))
    #expect(w.contains(#""model": {"profile": "model_1"}"#))
    #expect(w.contains("\"model_version\": \(ModelVersion.current)"))
    // The run still proceeds; the outputs carry no warning.
    for file in ["summary.csv", "results.json"] {
      let text = try String(contentsOf: dir.appendingPathComponent("o/\(file)"), encoding: .utf8)
      #expect(!text.contains("model version 1"), "\(file)")
    }

    // Results are otherwise those of the same file at the current version.
    let current = try Binary.run(["run", "current.json", "--out", "c", "--threads", "1"], in: dir)
    #expect(current.status == 0)
    #expect(!current.stderr.contains("warning:"), "\(current.stderr)")
    let a = try String(contentsOf: dir.appendingPathComponent("o/summary.csv"), encoding: .utf8)
    let b = try String(contentsOf: dir.appendingPathComponent("c/summary.csv"), encoding: .utf8)
    #expect(a == b)

    // --quiet prints nothing but errors.
    let quiet = try Binary.run(["run", "old.json", "--out", "q", "--quiet"], in: dir)
    #expect(quiet.status == 0)
    #expect(quiet.stderr.isEmpty, "\(quiet.stderr)")
  }

  @Test func aFileThatSetsEveryChangedDefaultItselfDoesNotWarn() throws {
    // Pinned: no default is named; only what later versions changed in the
    // figures (model version 3's budget figures) is said.
    let pinned = #""model_version": 1, "model": {"profile": "model_1"}"#
    let p = try #require(try CLITesting.versionWarning(Data(Self.scenario(pinned).utf8)))
    #expect(!p.contains("defaults changed") && p.contains("changed no default") && p.contains("frozen_"), "\(p)")
    let v2 = #""model_version": 2, "model": {"profile": "model_1"}"#
    let w2 = try #require(try CLITesting.versionWarning(Data(Self.scenario(v2).utf8)))
    #expect(w2.contains("its figures changed") && w2.contains("frozen_after_min"), "\(w2)")
    // Set through another profile and its own fields: only what is left is named.
    let partly = #""model_version": 1, "model": {"profile": "seeds", "reload": {"lateness_pressure": "none"}}"#
    let w = try #require(try CLITesting.versionWarning(Data(Self.scenario(partly).utf8)))
    #expect(!w.contains("budget.accrual") && !w.contains("reload.asap") && !w.contains("lateness_pressure"))
    #expect(w.contains("app_reload.background_latency") && w.contains("app_reload.while_asleep"))
    let current = #""model_version": \#(ModelVersion.current)"#
    #expect(try CLITesting.versionWarning(Data(Self.scenario(current).utf8)) == nil)
  }

  @Test func aFileFromANewerVersionIsOneLineExitTwo() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let newer = ModelVersion.current + 1
    try Self.scenario(#""model_version": \#(newer)"#).write(
      to: dir.appendingPathComponent("new.json"), atomically: true, encoding: .utf8)
    let r = try Binary.run(["run", "new.json", "--out", "out"], in: dir)
    #expect(r.status == 2)
    #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
    #expect(r.stderr.hasPrefix("error: new.json: $.model_version: is \(newer), newer than the model"))
  }

  /// `list --profiles --json` gives each profile's settings as a `model`
  /// block that decodes to the profile's model (scripts run them so).
  @Test func listProfilesPrintsEveryProfileAndItsModelBlockDecodesToIt() throws {
    let text = try Binary.run(["list", "--profiles"], in: repositoryRoot)
    #expect(text.status == 0)
    for p in ModelProfile.all { #expect(text.stdout.contains("  \(p.name): \(p.summary)"), "\(p.name)") }
    let r = try Binary.run(["list", "--profiles", "--json"], in: repositoryRoot)
    #expect(r.status == 0, "\(r.stderr)")
    let doc = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
    #expect(doc["model_version"] as? Int == ModelVersion.current)
    let listed = try #require(doc["profiles"] as? [[String: Any]])
    #expect(listed.compactMap { $0["name"] as? String } == ModelProfile.all.map(\.name))
    for entry in listed {
      let name = try #require(entry["name"] as? String)
      let block = try JSONSerialization.data(withJSONObject: try #require(entry["model"]))
      let m = try Self.model(Self.scenario(#""model": \#(String(decoding: block, as: UTF8.self))"#))
      #expect(m == ModelProfile.named(name)?.model, "\(name)")
    }
    // And the assumptions' alternatives likewise.
    let a = try Binary.run(["list", "--assumptions", "--json"], in: repositoryRoot)
    #expect(a.status == 0)
    let assumptionDoc = try JSONSerialization.jsonObject(with: Data(a.stdout.utf8)) as? [String: Any]
    let assumptions = try #require(assumptionDoc?["assumptions"] as? [[String: Any]])
    #expect(assumptions.count == Assumption.allCases.count)
  }

  /// Every shipped scenario records the model version it was written for:
  /// the current one, or an older one whose changed defaults it pins itself
  /// (R1's variants), so none runs under a changed default unannounced.
  @Test func everyShippedScenarioRecordsItsModelVersion() throws {
    var files: [URL] = []
    for folder in ["Scenarios", "Examples"] {
      let dir = repositoryRoot.appendingPathComponent(folder)
      let paths = try FileManager.default.subpathsOfDirectory(atPath: dir.path)
      files += paths.filter { $0.hasSuffix(".json") && !$0.hasSuffix("schema.json") && !$0.hasPrefix("baselines") }
        .map { dir.appendingPathComponent($0) }
    }
    var older: [String] = []
    for url in files {
      let data = try Data(contentsOf: url)
      guard let top = try JSONSerialization.jsonObject(with: data) as? [String: Any],
        top["segments"] != nil || top["extends"] != nil
      else { continue }
      let name = url.lastPathComponent
      let version = try #require(top["model_version"] as? Int, "\(name) has no model_version")
      if version != ModelVersion.current { older.append(name) }
      #expect(try CLITesting.versionWarning(data) == nil, "\(name) would warn")
    }
    #expect(files.count > 40)
    #expect(older.isEmpty, "\(older)")
  }

  /// R1's variant written for model version 1 (its strategy in Swift) runs
  /// the same model as R1 itself, whose rules are pinned in
  /// Scenarios/r1-polling.json: without the pin its reference figures
  /// ("same results as R1") fail under later defaults.
  @Test func r1sVariantsRunR1sModel() throws {
    let r1 = try CLITesting.loadFile(repositoryRoot.appendingPathComponent("Scenarios/r1-polling.json").path).get()
    #expect(r1.versionWarning == nil)
    let url = repositoryRoot.appendingPathComponent("Examples/CustomStrategy/r1-swift-poll.json")
    var json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
    // Its strategy is registered by the example's executable; the model is what is compared.
    json["strategies"] = ["poll-15m"]
    let variant = try CLITesting.scenario(JSONSerialization.data(withJSONObject: json)).get()
    #expect(variant.model == r1.scenario.model)
    #expect(variant.days == r1.scenario.days && variant.seed == r1.scenario.seed)
  }
}
