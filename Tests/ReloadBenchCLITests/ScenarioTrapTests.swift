import Foundation
import Testing

/// Keys that would do nothing are refused, and defaults a scenario probably
/// did not mean are named (issue 40's "no silent traps").
@Suite struct ScenarioTrapTests {
  /// A market feed that changes at 09:30 on its exchange's clock, for users who all live in New York.
  static func market(scope: String, offset: String?, zones: String = #"[{ "hours": -5 }]"#) -> String {
    let clock = offset.map { #", "utc_offset_h": \#($0)"# } ?? ""
    return """
      {
        "model_version": 4, "name": "market", "seed": 1, "days": 1, "warmup_days": 0.5, "devices": 20,
        "kinds": [{ "name": "quotes", "scope": "\(scope)",
                    "scheduled": { "at": ["09:30", "16:00"]\(clock) } }],
        "segments": [{ "name": "traders", "utc_offsets": \(zones), "widgets": [{ "kind": "quotes" }] }],
        "strategies": ["poll-15m"]
      }
      """
  }

  static func dryRun(_ text: String) throws -> (status: Int32, stdout: String, stderr: String) {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    try text.write(to: dir.appendingPathComponent("s.json"), atomically: true, encoding: .utf8)
    let r = try Binary.run(["run", "s.json", "--dry-run"], in: dir)
    return (r.status, r.stdout, r.stderr)
  }

  @Test func perUserContentRefusesAFeedClock() throws {
    for offset in ["-5", "0"] {
      let r = try Self.dryRun(Self.market(scope: "per_user", offset: offset))
      #expect(r.status == 2)
      let lines = r.stderr.split(separator: "\n")
      #expect(lines.count == 1, "\(r.stderr)")
      #expect(r.stderr.contains("$.kinds[0].scheduled.utc_offset_h") && r.stderr.contains("per_user"))
      #expect(r.stderr.contains("\"scope\": \"shared\""), "the fix names the alternative: \(r.stderr)")
    }
    // Shared content reads it: accepted.
    #expect(try Self.dryRun(Self.market(scope: "shared", offset: "-5")).status == 0)
  }

  @Test func sharedContentOnUTCForUsersElsewhereWarns() throws {
    let r = try Self.dryRun(Self.market(scope: "shared", offset: nil))
    #expect(r.status == 0, "a warning, not an error: \(r.stderr)")
    let warnings = r.stderr.split(separator: "\n").filter { $0.hasPrefix("warning: ") }
    #expect(warnings.count == 1, "\(r.stderr)")
    #expect(r.stderr.contains("$.kinds[0].scheduled") && r.stderr.contains("UTC-5"))
    #expect(r.stderr.contains("04:00 at UTC-5"), "the hour the users see: \(r.stderr)")
    // Saying the clock, even UTC, silences it; so does any device living at UTC.
    for quiet in [
      Self.market(scope: "shared", offset: "0"), Self.market(scope: "shared", offset: "-5"),
      Self.market(scope: "shared", offset: nil, zones: #"[{ "hours": -5 }, { "hours": 0 }]"#),
    ] {
      let q = try Self.dryRun(quiet)
      #expect(q.status == 0 && !q.stderr.contains("warning"), "\(q.stderr)")
    }
  }

  /// `backend.silent_push.kinds` limits the pushes to those kinds' changes:
  /// on the same devices, the pushes for each kind alone add up to those for every kind.
  @Test func silentPushesCanBeLimitedToKinds() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    func pushing(_ name: String, _ kinds: String?) -> String {
      let only = kinds.map { #", "kinds": \#($0)"# } ?? ""
      return #"{ "name": "\#(name)", "preset": "silent-push", "backend": { "silent_push": { "on": "all"\#(only) } } }"#
    }
    let scenario = """
      {
        "model_version": 4, "name": "pushes", "seed": 5, "days": 2, "warmup_days": 0.5, "devices": 40,
        "kinds": [{ "name": "scores", "unpredictable": { "per_day": 20 } },
                  { "name": "news", "unpredictable": { "per_day": 5 } }],
        "segments": [{ "name": "fans", "widgets": [{ "kind": "scores" }, { "kind": "news" }] }],
        "strategies": [\(pushing("every", nil)), \(pushing("scores-only", #"["scores"]"#)),
                       \(pushing("news-only", #"["news"]"#))]
      }
      """
    try scenario.write(to: dir.appendingPathComponent("s.json"), atomically: true, encoding: .utf8)
    let r = try Binary.run(["run", "s.json", "--out", "o", "--quiet"], in: dir)
    #expect(r.status == 0, "\(r.stderr)")
    let csv = try String(contentsOf: dir.appendingPathComponent("o/summary.csv"), encoding: .utf8)
    let lines = csv.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false) }
    let column = try #require(lines[0].firstIndex(of: "silent_pushes_sent"))
    let policy = try #require(lines[0].firstIndex(of: "policy"))
    let segment = try #require(lines[0].firstIndex(of: "segment"))
    func sent(_ strategy: String) throws -> Double {
      let row = try #require(lines.first { $0[policy] == strategy && $0[segment] == "all" })
      return try #require(Double(row[column]))
    }
    let every = try sent("every")
    let scores = try sent("scores-only")
    let news = try sent("news-only")
    #expect(scores > 3 * news && news > 0, "scores change four times as often: \(scores) vs \(news)")
    #expect(scores + news == every, "each kind's pushes alone add up to every kind's: \(scores) + \(news) vs \(every)")
    // A kind the scenario does not have is named.
    let bad = scenario.replacingOccurrences(of: #"["news"]"#, with: #"["weather"]"#)
    try bad.write(to: dir.appendingPathComponent("bad.json"), atomically: true, encoding: .utf8)
    let b = try Binary.run(["run", "bad.json", "--dry-run"], in: dir)
    #expect(b.status == 2 && b.stderr.contains("backend.silent_push.kinds[0]"), "\(b.stderr)")
  }

  /// `--dry-run` prints the derived plan: a shared feed's changes on each
  /// zone's clock, the budget, and each strategy's parts per kind.
  @Test func dryRunPrintsTheDerivedPlan() throws {
    let r = try Self.dryRun(Self.market(scope: "shared", offset: "-4", zones: #"[{ "hours": -5 }, { "hours": 1 }]"#))
    #expect(r.status == 0, "\(r.stderr)")
    // 09:30 and 16:00 on UTC-4 are 08:30 and 15:00 at UTC-5, 14:30 and 21:00 at UTC+1.
    #expect(r.stdout.contains("first day at UTC-5 (devices' clock): 08:30, 15:00"), "\(r.stdout)")
    #expect(r.stdout.contains("first day at UTC+1 (devices' clock): 14:30, 21:00"), "\(r.stdout)")
    #expect(r.stdout.contains("quotes: shared, on UTC-4"))
    #expect(r.stdout.contains("budget: accrual") && r.stdout.contains("max_per_day"))
    #expect(r.stdout.contains("strategy poll-15m:") && r.stdout.contains(".after(+15 min)"), "\(r.stdout)")
  }

  /// The report opens with the scenario's human title, the answer and the
  /// comparison; the run's facts and engine statistics come last; print shows
  /// the answer, the table and the first figure only.
  @Test func theReportLeadsWithTheTitleAndTheAnswer() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let titled = Self.market(scope: "shared", offset: "-5")
      .replacingOccurrences(of: #""name": "market","#, with: #""name": "market", "title": "Quotes: which strategy?","#)
    try titled.write(to: dir.appendingPathComponent("s.json"), atomically: true, encoding: .utf8)
    let r = try Binary.run(["run", "s.json", "--out", "o", "--quiet"], in: dir)
    #expect(r.status == 0, "\(r.stderr)")
    let html = try String(contentsOf: dir.appendingPathComponent("o/report.html"), encoding: .utf8)
    #expect(html.contains("<title>Quotes: which strategy?</title>") && html.contains(">Quotes: which strategy?</h1>"))
    func at(_ s: String) throws -> String.Index { try #require(html.range(of: s)).lowerBound }
    #expect(try at("id=\"summary\"") < at("id=\"comparison\""))
    #expect(try at("id=\"comparison\"") < at("id=\"charts\""))
    #expect(try at("id=\"parameters\"") < at("id=\"run\""), "engine statistics at the end")
    #expect(html.contains("#charts>.fig~.fig,#parameters,#run,#data"), "print: the answer, the table, one figure")
    // The title is not part of the scenario's hash: a baseline stays valid when it changes.
    let untitled = try Binary.run(["baseline", "save", "s.json", "--to", "b.json", "--quiet"], in: dir)
    #expect(untitled.status == 0)
    try titled.replacingOccurrences(of: "Quotes: which strategy?", with: "Quotes")
      .write(to: dir.appendingPathComponent("s.json"), atomically: true, encoding: .utf8)
    let check = try Binary.run(["check", "s.json", "--baseline", "b.json", "--out", "c"], in: dir)
    #expect(check.status == 0 && !check.stdout.contains("Changed scenario"), "\(check.stdout)")
  }
}
