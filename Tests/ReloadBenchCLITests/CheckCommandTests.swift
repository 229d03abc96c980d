import Foundation
import ReloadBenchCLI
import ReloadMetrics
import Testing

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// `reloadbench check` and `reloadbench baseline save`, end to end on the
/// built binary: each exit status, the Markdown, JUnit and JSON outputs,
/// and the GitHub job summary.
@Suite struct CheckCommandTests {
  /// `smallScenario` with an `expect` list (JSON array text).
  static func scenario(_ name: String, expect: String? = nil, devices: Int = 60) -> String {
    let base = smallScenario(name: name, devices: devices)
    guard let expect, let end = base.lastIndex(of: "}") else { return base }
    return String(base[..<end]) + ", \"expect\": \(expect)\n}\n"
  }

  /// Rows x metrics of `smallScenario`: 3 strategies x (2 segments + all) x every summary column.
  static let comparedMetrics = 3 * 3 * SummaryMetrics.all.count

  static func write(_ text: String, _ name: String, in dir: URL) throws {
    let url = dir.appendingPathComponent(name)
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try text.write(to: url, atomically: true, encoding: .utf8)
  }

  static func read(_ name: String, in dir: URL) throws -> String {
    try String(contentsOf: dir.appendingPathComponent(name), encoding: .utf8)
  }

  /// Edits a saved baseline's values with `edit(policy, segment, values)`.
  static func doctor(_ path: String, in dir: URL, _ edit: (String, String, inout [String: Any]) -> Void) throws {
    let url = dir.appendingPathComponent(path)
    var root = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
    var rows = try #require(root["rows"] as? [[String: Any]])
    for i in rows.indices {
      var values = try #require(rows[i]["values"] as? [String: Any])
      edit(rows[i]["policy"] as? String ?? "", rows[i]["segment"] as? String ?? "", &values)
      rows[i]["values"] = values
    }
    root["rows"] = rows
    try JSONSerialization.data(withJSONObject: root, options: [.prettyPrinted, .sortedKeys]).write(to: url)
  }

  @Test func aPassingCheckExitsZeroAndWritesEveryOutput() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let expect = #"[{"policy": "hybrid", "metric": "fresh_glance_pct", "min": 50}, {"metric": "frozen_widget_day_pct", "max": 100}]"#
    try Self.write(Self.scenario("pass", expect: expect), "s.json", in: dir)
    let save = try Binary.run(["baseline", "save", "s.json"], in: dir)
    #expect(save.status == 0, "\(save.stderr)")
    #expect(save.stdout.contains("saved Scenarios/baselines/pass.json"))
    let saved = try Self.read("Scenarios/baselines/pass.json", in: dir)
    // Saving again gives the same bytes (no dates, sorted keys).
    _ = try Binary.run(["baseline", "save", "s.json", "--quiet"], in: dir)
    #expect(try Self.read("Scenarios/baselines/pass.json", in: dir) == saved)

    let r = try Binary.run(["check", "s.json", "--junit", "out/junit.xml", "--json", "out/check.json"], in: dir)
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stderr.isEmpty)
    #expect(r.stdout.hasPrefix("## ReloadBench check: ✅ passed"))
    #expect(r.stdout.contains("Unchanged: \(Self.comparedMetrics) of \(Self.comparedMetrics) metrics within tolerance"))
    #expect(r.stdout.contains("| hybrid | all | `fresh_glance_pct` | ≥ 50 |"))
    // The usual reports, for CI to upload.
    for f in ["summary.csv", "timeseries.csv", "staleness.csv", "report.html", "results.json"] {
      #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("Reports/pass/\(f)").path), "\(f)")
    }
    let junit = try XMLCounts(Self.read("out/junit.xml", in: dir))
    // 1 + 3 expectation checks (the second names no strategy) and every metric.
    #expect(junit.testcases == 4 + Self.comparedMetrics)
    #expect(junit.failures == 0)
    #expect(junit.root["tests"] == String(junit.testcases) && junit.root["failures"] == "0")
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(Self.read("out/check.json", in: dir).utf8)) as? [String: Any])
    #expect(json["passed"] as? Bool == true)
    let scenarios = try #require(json["scenarios"] as? [[String: Any]])
    #expect((scenarios.first?["metrics"] as? [Any])?.count == Self.comparedMetrics)
  }

  /// Foundation on Linux traps on `deletingLastPathComponent` of a
  /// one-character relative path; every path option must survive one.
  @Test func oneCharacterPathsInTheCurrentFolderWork() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    try Self.write(Self.scenario("tiny"), "s.json", in: dir)
    let save = try Binary.run(["baseline", "save", "s.json", "--to", "b", "--quiet"], in: dir)
    #expect(save.status == 0, "\(save.stderr)")
    let r = try Binary.run(
      ["check", "s.json", "--baseline", "b", "--out", "o", "--json", "j", "--junit", "u", "--markdown", "m"], in: dir)
    #expect(r.status == 0, "\(r.stderr)")
    for f in ["b", "j", "u", "m", "o/summary.csv"] {
      #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent(f).path), "\(f) not written")
    }
    let run = try Binary.run(["run", "s.json", "--out", "r", "--quiet"], in: dir)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("r/report.html").path))
  }

  @Test func aFailedExpectationExitsOne() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let expect = #"[{"policy": "hybrid", "metric": "fresh_glance_pct", "min": 99.5, "note": "the promise"}]"#
    try Self.write(Self.scenario("strict", expect: expect), "s.json", in: dir)
    // No baseline: the expectations alone decide.
    let r = try Binary.run(["check", "s.json"], in: dir)
    #expect(r.status == 1, "\(r.stderr)")
    #expect(r.stdout.hasPrefix("## ReloadBench check: ❌ failed"))
    #expect(r.stdout.contains("1 of 1 expectation check failed"))
    #expect(r.stdout.contains("| hybrid | all | `fresh_glance_pct` | ≥ 99.5 |"))
    #expect(r.stdout.contains("❌ failed (the promise)"))
    #expect(r.stdout.contains("no baseline at Scenarios/baselines/strict.json: only the expectations were checked"))
  }

  /// A re-save prints what moved against the file it replaces: the two
  /// doctored metrics and nothing else, regressions first.
  @Test func baselineSavePrintsWhatMoved() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    try Self.write(Self.scenario("doc"), "s.json", in: dir)
    let first = try Binary.run(["baseline", "save", "s.json"], in: dir)
    #expect(first.status == 0 && !first.stdout.contains("against the baseline it replaces"), "\(first.stdout)")
    try Self.doctor("Scenarios/baselines/doc.json", in: dir) { policy, segment, values in
      guard segment == "all" else { return }
      if policy == "hybrid", let v = values["fresh_glance_pct"] as? Double { values["fresh_glance_pct"] = v + 3 }
      if policy == "poll-15m", let v = values["budgeted_reloads_per_widget_day"] as? Double {
        values["budgeted_reloads_per_widget_day"] = v * 1.5
      }
    }
    let again = try Binary.run(["baseline", "save", "s.json"], in: dir)
    #expect(again.status == 0, "\(again.stderr)")
    #expect(again.stdout.contains("\(Self.comparedMetrics - 2) of \(Self.comparedMetrics) metrics within tolerance; 2 moved"))
    let fresher = try #require(again.stdout.range(of: "| hybrid | all | `fresh_glance_pct` |"))
    let cheaper = try #require(again.stdout.range(of: "| poll-15m | all | `budgeted_reloads_per_widget_day` |"))
    // Now hybrid is less fresh than the doctored file said: the re-save regresses it.
    #expect(fresher.lowerBound < cheaper.lowerBound, "regressions first: \(again.stdout)")
    #expect(again.stdout.contains("| -3.00 pts | ±0.50 pts | regressed |"), "\(again.stdout)")
  }

  /// A merged shard run is checked from its results.json, with nothing rerun:
  /// the same verdict as checking a rerun.
  @Test func aMergedShardRunIsCheckedFromItsResults() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    try Self.write(Self.scenario("sharded"), "s.json", in: dir)
    #expect(try Binary.run(["baseline", "save", "s.json", "--quiet"], in: dir).status == 0)
    for k in 1...2 {
      #expect(try Binary.run(["run", "s.json", "--shard", "\(k)/2", "--out", "parts", "--quiet"], in: dir).status == 0)
    }
    let merge = try Binary.run(
      ["merge", "parts/shard-1-of-2.rbpart", "parts/shard-2-of-2.rbpart", "--out", "merged", "--quiet"], in: dir)
    #expect(merge.status == 0, "\(merge.stderr)")
    let r = try Binary.run(["check", "s.json", "--results", "merged", "--tolerance", "0", "--fail-on-change"], in: dir)
    #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
    #expect(r.stdout.contains("Unchanged: \(Self.comparedMetrics) of \(Self.comparedMetrics) metrics"), "\(r.stdout)")
    #expect(!r.stderr.contains("progress") && !FileManager.default.fileExists(atPath: dir.appendingPathComponent("Reports").path),
      "nothing reruns, nothing is written")
    // Another scenario's run is refused.
    try Self.write(Self.scenario("other", expect: #"[{"metric": "fresh_glance_pct", "min": 1}]"#), "o.json", in: dir)
    let other = try Binary.run(["check", "o.json", "--results", "merged/results.json"], in: dir)
    #expect(other.status == 2 && other.stderr.contains("is a run of \"sharded\""), "\(other.stderr)")
  }

  @Test func aRegressedMetricAgainstADoctoredBaselineExitsOne() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    try Self.write(Self.scenario("doc"), "s.json", in: dir)
    #expect(try Binary.run(["baseline", "save", "s.json"], in: dir).status == 0)
    // The baseline was fresher for hybrid (so now is a regression) and
    // spent more budget for poll-15m (so now is an improvement).
    try Self.doctor("Scenarios/baselines/doc.json", in: dir) { policy, segment, values in
      guard segment == "all" else { return }
      if policy == "hybrid", let v = values["fresh_glance_pct"] as? Double { values["fresh_glance_pct"] = v + 3 }
      if policy == "poll-15m", let v = values["budgeted_reloads_per_widget_day"] as? Double {
        values["budgeted_reloads_per_widget_day"] = v * 1.5
      }
    }
    let r = try Binary.run(["check", "s.json", "--markdown", "out/check.md", "--junit", "out/junit.xml"], in: dir)
    #expect(r.status == 1, "\(r.stderr)")
    // With --markdown FILE, stdout gets a brief summary.
    #expect(r.stdout.contains("❌ doc: 1 regressed"))
    #expect(r.stdout.contains("hybrid / all: fresh_glance_pct regressed"))
    #expect(r.stdout.contains("check failed (exit status 1)"))
    let md = try Self.read("out/check.md", in: dir)
    let regressed = try #require(md.range(of: "| hybrid | all | `fresh_glance_pct` |"))
    let improved = try #require(md.range(of: "| poll-15m | all | `budgeted_reloads_per_widget_day` |"))
    #expect(regressed.lowerBound < improved.lowerBound, "regressions come first")
    #expect(md.contains("-3.00 pts | ±0.50 pts | ❌ regressed |"))
    #expect(md.contains("Unchanged: \(Self.comparedMetrics - 2) of \(Self.comparedMetrics) metrics"))
    let junit = try XMLCounts(Self.read("out/junit.xml", in: dir))
    #expect(junit.testcases == Self.comparedMetrics && junit.failures == 1 && junit.root["failures"] == "1")
    #expect(junit.failureMessages.first?.contains("fresh_glance_pct regressed") == true)

    // Improvements fail too with --fail-on-change.
    let strict = try Binary.run(["check", "s.json", "--fail-on-change", "--junit", "out/strict.xml"], in: dir)
    #expect(strict.status == 1)
    #expect(try XMLCounts(Self.read("out/strict.xml", in: dir)).failures == 2)
    // A loose enough tolerance lets both pass.
    let loose = try Binary.run(["check", "s.json", "--tolerance", "60", "--quiet"], in: dir)
    #expect(loose.status == 0, "\(loose.stderr)")
    #expect(loose.stdout.isEmpty)
  }

  @Test func aCorruptBaselineExitsTwoNamingTheFile() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    try Self.write(Self.scenario("corrupt"), "s.json", in: dir)
    #expect(try Binary.run(["baseline", "save", "s.json"], in: dir).status == 0)
    let good = try Self.read("Scenarios/baselines/corrupt.json", in: dir)
    try Self.write(String(good.prefix(good.count / 2)), "Scenarios/baselines/corrupt.json", in: dir)
    let summary = dir.appendingPathComponent("summary.md")
    let r = try Binary.run(
      ["check", "s.json", "--junit", "out/junit.xml"], in: dir, environment: ["GITHUB_STEP_SUMMARY": summary.path])
    #expect(r.status == 2)
    #expect(r.stderr.hasPrefix("error: Scenarios/baselines/corrupt.json: not a reloadbench baseline"))
    #expect(r.stderr.contains("re-save it: reloadbench baseline save s.json"))
    #expect(r.stdout.isEmpty)
    // Nothing ran, nothing was written; the job summary says why.
    #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("out/junit.xml").path))
    #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("Reports").path))
    let note = try String(contentsOf: summary, encoding: .utf8)
    #expect(note.hasPrefix("## ReloadBench check: ⚠️ not run (exit status 2)"))
    #expect(note.contains("error: Scenarios/baselines/corrupt.json: not a reloadbench baseline"))
    // Valid JSON of the wrong shape is refused the same way.
    try Self.write(#"{"format": "reloadbench-baseline", "rows": 3}"#, "other.json", in: dir)
    let shape = try Binary.run(["check", "s.json", "--baseline", "other.json"], in: dir)
    #expect(shape.status == 2 && shape.stderr.hasPrefix("error: other.json: not a reloadbench baseline"))
    let missing = try Binary.run(["check", "s.json", "--baseline", "nope.json"], in: dir)
    #expect(missing.status == 2 && missing.stderr.contains("nope.json: no such file"))
  }

  @Test func aBaselineFromAnotherScenarioOrModelExitsTwo() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    try Self.write(Self.scenario("mine"), "mine.json", in: dir)
    try Self.write(Self.scenario("theirs"), "theirs.json", in: dir)
    #expect(try Binary.run(["baseline", "save", "mine.json", "theirs.json", "--quiet"], in: dir).status == 0)
    let other = try Binary.run(["check", "mine.json", "--baseline", "Scenarios/baselines/theirs.json"], in: dir)
    #expect(other.status == 2)
    #expect(other.stderr.contains(#"is the baseline of scenario "theirs", not of "mine""#))
    // The fix never re-saves over the other scenario's (good) baseline:
    // mine's own exists, so it is named, and a new one goes to a free name.
    #expect(!other.stderr.contains("--to Scenarios/baselines/theirs.json"), "\(other.stderr)")
    #expect(
      other.stderr.contains(
        "drop --baseline to compare with Scenarios/baselines/mine.json, or save a new one: "
          + "reloadbench baseline save mine.json --to Scenarios/baselines/mine-2.json"), "\(other.stderr)")
    // Without mine's own, the fix saves it at its default path; following
    // the fix leaves theirs byte-identical.
    let theirs = try Data(contentsOf: dir.appendingPathComponent("Scenarios/baselines/theirs.json"))
    try FileManager.default.removeItem(at: dir.appendingPathComponent("Scenarios/baselines/mine.json"))
    let noOwn = try Binary.run(["check", "mine.json", "--baseline", "Scenarios/baselines/theirs.json"], in: dir)
    #expect(noOwn.status == 2 && noOwn.stderr.contains("(fix: save mine's own: reloadbench baseline save mine.json)"), "\(noOwn.stderr)")
    #expect(try Binary.run(["baseline", "save", "mine.json", "--quiet"], in: dir).status == 0)
    #expect(try Data(contentsOf: dir.appendingPathComponent("Scenarios/baselines/theirs.json")) == theirs)
    // A file at mine's default path that holds theirs: a new name.
    try theirs.write(to: dir.appendingPathComponent("Scenarios/baselines/mine.json"))
    let misnamed = try Binary.run(["check", "mine.json"], in: dir)
    #expect(misnamed.status == 2)
    #expect(
      misnamed.stderr.contains("save mine's baseline under another name: reloadbench baseline save mine.json --to Scenarios/baselines/mine-2.json"),
      "\(misnamed.stderr)")
    try FileManager.default.removeItem(at: dir.appendingPathComponent("Scenarios/baselines/mine.json"))
    #expect(try Binary.run(["baseline", "save", "mine.json", "--quiet"], in: dir).status == 0)

    // The same name, edited: compared where comparable, with the changed
    // fields named, and judged by the same rules (0 or 1, never 2).
    try Self.write(Self.scenario("mine", devices: 61), "mine.json", in: dir)
    let edited = try Binary.run(["check", "mine.json", "--json", "c.json"], in: dir)
    #expect(edited.status == 0 || edited.status == 1, "\(edited.stderr)")
    #expect(edited.stdout.contains("**Changed scenario:** the scenario changed since the baseline was saved"))
    #expect(edited.stdout.contains("): devices; compared by strategy, segment and metric name"), "\(edited.stdout)")
    let json = try String(contentsOf: dir.appendingPathComponent("c.json"), encoding: .utf8)
    #expect(json.contains("\"scenario_change\""))
    // A baseline saved before the scenario's fields were recorded still compares, and says how to name them.
    let saved = dir.appendingPathComponent("Scenarios/baselines/mine.json")
    let withFields = try String(contentsOf: saved, encoding: .utf8)
    let old = withFields.split(separator: "\n").filter { !$0.contains("\"scenario_canonical\"") }.joined(separator: "\n")
    try old.write(to: saved, atomically: true, encoding: .utf8)
    let predates = try Binary.run(["check", "mine.json"], in: dir)
    #expect(predates.status != 2 && predates.stdout.contains("re-save it to name them"), "\(predates.stderr)")
    try withFields.write(to: saved, atomically: true, encoding: .utf8)
    // Editing only the expectations or the description is no change at all.
    try Self.write(
      Self.scenario("mine", expect: #"[{"metric": "fresh_glance_pct", "min": 1}]"#)
        .replacingOccurrences(of: #""seed": 3,"#, with: #""seed": 3, "description": "now documented","#),
      "mine.json", in: dir)
    #expect(try Binary.run(["check", "mine.json", "--quiet"], in: dir).status == 0)

    // Another model version.
    let path = dir.appendingPathComponent("Scenarios/baselines/mine.json")
    let text = try String(contentsOf: path, encoding: .utf8)
    try text.replacingOccurrences(of: "\"model_version\" : \"\(ReloadBenchCLI.modelVersion)\"", with: "\"model_version\" : \"0-old\"")
      .write(to: path, atomically: true, encoding: .utf8)
    let model = try Binary.run(["check", "mine.json"], in: dir)
    #expect(model.status == 2)
    #expect(model.stderr.contains("saved with model version 0-old"))
    #expect(model.stderr.contains("re-save the baseline: reloadbench baseline save mine.json"))
  }

  /// The engine and the rows are part of what was saved: a baseline whose
  /// engine is unknown or not the scenario's, or whose rows are not one
  /// per strategy and segment, is refused naming the file and the re-save;
  /// another tool version alone (same model version) is accepted.
  @Test func aBaselineWithAnotherEngineOrOtherRowsExitsTwo() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    try Self.write(Self.scenario("rows"), "s.json", in: dir)
    #expect(try Binary.run(["baseline", "save", "s.json", "--to", "b.json", "--quiet"], in: dir).status == 0)
    let good = try #require(
      try JSONSerialization.jsonObject(with: Data(Self.read("b.json", in: dir).utf8)) as? [String: Any])
    let rows = try #require(good["rows"] as? [[String: Any]])
    var renamed = rows[0]
    renamed["policy"] = "poll-1m"
    var reSegmented = rows[0]
    reSegmented["segment"] = "c"
    let cases: [(name: String, edit: (inout [String: Any]) -> Void, says: String)] = [
      ("engine-x", { $0["engine"] = "x" }, #""engine" is "x", which is not an engine"#),
      ("engine-other", { $0["engine"] = "event_by_event" }, "records engine event_by_event, the scenario runs engine elided"),
      ("duplicate", { $0["rows"] = rows + [rows[0]] }, "row \(rows[0]["policy"]!) / \(rows[0]["segment"]!) is listed twice"),
      ("missing", { $0["rows"] = Array(rows.dropLast()) }, "has no row for on-demand / all of s.json"),
      ("strategy", { $0["rows"] = rows + [renamed] }, #"s.json has no strategy "poll-1m""#),
      ("segment", { $0["rows"] = rows + [reSegmented] }, #"s.json has no segment "c""#),
      ("format", { $0["format_version"] = 1e300 }, "is newer than this reloadbench reads"),
    ]
    for (name, edit, says) in cases {
      var doc = good
      edit(&doc)
      try JSONSerialization.data(withJSONObject: doc, options: [.prettyPrinted, .sortedKeys])
        .write(to: dir.appendingPathComponent("\(name).json"))
      let r = try Binary.run(["check", "s.json", "--baseline", "\(name).json"], in: dir)
      #expect(r.status == 2, "\(name): exit \(r.status) \(r.stderr)")
      #expect(r.stderr.hasPrefix("error: \(name).json") && r.stderr.contains(says), "\(name): \(r.stderr)")
      #expect(r.stderr.contains("reloadbench baseline save s.json --to \(name).json"), "\(name): \(r.stderr)")
      #expect(r.stderr.split(separator: "\n").count == 1 && r.stdout.isEmpty, "\(name): \(r.stderr)")
    }
    #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("Reports").path))

    var older = good
    older["tool_version"] = "0.0.1"
    try JSONSerialization.data(withJSONObject: older, options: [.prettyPrinted, .sortedKeys])
      .write(to: dir.appendingPathComponent("older.json"))
    let r = try Binary.run(["check", "s.json", "--baseline", "older.json"], in: dir)
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout.contains("baseline saved by reloadbench 0.0.1"))
  }

  @Test func theMarkdownIsAppendedToTheGitHubStepSummary() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    try Self.write(Self.scenario("gh", expect: #"[{"metric": "fresh_glance_pct", "min": 1}]"#), "s.json", in: dir)
    let summary = dir.appendingPathComponent("step-summary.md")
    try "# Earlier step\n".write(to: summary, atomically: true, encoding: .utf8)
    let r = try Binary.run(["check", "s.json", "--quiet"], in: dir, environment: ["GITHUB_STEP_SUMMARY": summary.path])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout.isEmpty)
    let first = try String(contentsOf: summary, encoding: .utf8)
    #expect(first.hasPrefix("# Earlier step\n## ReloadBench check: ✅ passed"))
    // A second step appends again.
    _ = try Binary.run(["check", "s.json", "--quiet"], in: dir, environment: ["GITHUB_STEP_SUMMARY": summary.path])
    let second = try String(contentsOf: summary, encoding: .utf8)
    #expect(second.hasPrefix(first) && second.components(separatedBy: "## ReloadBench check").count == 3)
  }

  @Test func overridesThatBreakTheComparisonAreRefused() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    try Self.write(Self.scenario("seeded", expect: #"[{"metric": "fresh_glance_pct", "min": 1}]"#), "s.json", in: dir)
    for args in [["--seed", "4"], ["--replications=3"], ["--engine", "event_by_event"]] {
      let r = try Binary.run(["check", "s.json"] + args, in: dir)
      #expect(r.status == 2, "\(args)")
      #expect(r.stderr.contains("check does not take \(args[0].split(separator: "=")[0])"), "\(r.stderr)")
      #expect(r.stderr.contains("re-save its baseline"))
    }
    let save = try Binary.run(["baseline", "save", "s.json", "--seed", "4"], in: dir)
    #expect(save.status == 2 && save.stderr.contains("baseline save does not take --seed"))
    let nothing = try Binary.run(["check", "s.json", "s.json"], in: dir)
    #expect(nothing.status == 2 && nothing.stderr.contains("same folder"))
  }

  @Test func helpDocumentsTheCommandsAndExitStatuses() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let top = try Binary.run(["--help"], in: dir)
    #expect(top.stdout.contains("  check ") && top.stdout.contains("  baseline "))
    for status in ["0  success", "1  check: an expectation failed or a metric regressed", "2  bad input"] {
      #expect(top.stdout.contains(status), "\(status)")
    }
    let check = try Binary.run(["check", "--help"], in: dir)
    #expect(check.status == 0)
    for text in [
      "EXIT STATUS", "0  every expectation holds, no metric regressed", "--min-agreement N", "1  an expectation failed or a metric regressed",
      "2  bad input", "--baseline FILE", "--tolerance PCT", "--markdown FILE", "--junit FILE", "--json FILE", "--out DIR",
      "$GITHUB_STEP_SUMMARY", "bench --baseline",
    ] {
      #expect(check.stdout.contains(text), "check --help lacks \(text)")
    }
    let baseline = try Binary.run(["baseline", "--help"], in: dir)
    #expect(baseline.status == 0 && baseline.stdout.contains("reloadbench baseline save SCENARIO"))
  }
}

/// What a JUnit document holds, counted by parsing it as XML.
struct XMLCounts {
  var root: [String: String] = [:]
  var testcases = 0
  var failures = 0
  var failureMessages: [String] = []

  init(_ xml: String) throws {
    let delegate = Delegate()
    let parser = XMLParser(data: Data(xml.utf8))
    parser.delegate = delegate
    guard parser.parse() else { throw parser.parserError ?? CocoaError(.coderReadCorrupt) }
    root = delegate.root
    testcases = delegate.testcases
    failures = delegate.failures
    failureMessages = delegate.failureMessages
  }

  final class Delegate: NSObject, XMLParserDelegate {
    var root: [String: String] = [:]
    var testcases = 0
    var failures = 0
    var failureMessages: [String] = []

    func parser(
      _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
      attributes: [String: String] = [:]
    ) {
      switch name {
      case "testsuites": root = attributes
      case "testcase": testcases += 1
      case "failure":
        failures += 1
        failureMessages.append(attributes["message"] ?? "")
      default: break
      }
    }
  }
}
