import Foundation
import Testing

/// Each class of bad input is refused with exit status 2, one line on
/// stderr naming the file, the field and a fix, and no report written.
@Suite struct BadInputTests {
  struct Case: CustomTestStringConvertible, Sendable {
    let label: String
    let json: String
    /// Text the error line must contain (the JSON path, the hint).
    let mentions: [String]
    var testDescription: String { label }
  }

  static let base = smallScenario(name: "bad")

  static func replacing(_ a: String, _ b: String) -> String {
    precondition(base.contains(a), "fixture lacks \(a)")
    return base.replacingOccurrences(of: a, with: b)
  }

  static let cases: [Case] = [
    Case(label: "malformed JSON", json: replacing(#""seed": 3,"#, #""seed": 3"#), mentions: ["not valid JSON", "line"]),
    Case(label: "unknown key with a suggestion", json: replacing(#""devices": 60"#, #""devicez": 60"#),
      mentions: ["$.devicez", "unknown key", "did you mean \"devices\"?"]),
    Case(label: "unknown nested key", json: replacing(#""force_quit_share": 0.2"#, #""force_quit_shar": 0.2"#),
      mentions: ["$.segments[0].force_quit_shar", "force_quit_share"]),
    Case(label: "wrong type", json: replacing(#""days": 2"#, #""days": "2""#), mentions: ["$.days", "expected a number", "remove the quotes"]),
    Case(label: "negative rate", json: replacing(#""per_day": 4"#, #""per_day": -4"#),
      mentions: ["$.kinds[0].unpredictable.per_day", "greater than 0"]),
    Case(label: "zero rate", json: replacing(#""per_day": 12"#, #""per_day": 0"#),
      mentions: ["$.kinds[1].unpredictable.per_day", "greater than 0"]),
    Case(label: "zero devices", json: replacing(#""devices": 60"#, #""devices": 0"#), mentions: ["$.devices", "at least 1"]),
    Case(label: "zero widgets", json: replacing(#"{ "kind": "forecast", "placement": "smart_stack" }"#, #"{ "kind": "forecast", "probability": 0 }"#)
      .replacingOccurrences(of: #"[{ "kind": "forecast" }, { "kind": "news", "probability": 0.5 }]"#, with: #"[{ "kind": "forecast", "probability": 0 }]"#),
      mentions: ["$.segments", "no device can have a widget"]),
    Case(label: "duration over the limit", json: replacing(#""days": 2"#, #""days": 5000"#), mentions: ["$.days", "at most 366"]),
    Case(label: "a model parameter of an earlier model version", json: replacing(#""days": 2,"#, #""days": 2, "model": { "budget": { "dry_after_min": 15 } },"#),
      mentions: ["$.model.budget.dry_after_min", "did you mean \"frozen_after_min\"?"]),
    Case(label: "a metric of an earlier model version", json: replacing(#""days": 2,"#, #""days": 2, "expect": [{ "metric": "dry_widget_day_pct", "max": 5 }],"#),
      mentions: ["$.expect[0].metric", "did you mean \"frozen_widget_day_pct\"?"]),
    Case(label: "unknown policy name", json: replacing(#""poll-15m""#, #""poll-10m""#),
      mentions: ["$.strategies[0]", "did you mean \"poll-15m\"?"]),
    Case(label: "unknown kind in a widget slot", json: replacing(#"{ "kind": "forecast" }"#, #"{ "kind": "forcast" }"#),
      mentions: ["$.segments[0].widgets[0].kind", "did you mean \"forecast\"?"]),
    Case(label: "missing required field", json: #"{ "name": "m", "seed": 1, "days": 2, "devices": 10, "strategies": ["poll-15m"] }"#,
      mentions: ["$.kinds", "is missing", #"add "kinds" (array of object (Kind), at least 1)"#]),
    Case(label: "huge weight", json: replacing(#""weight": 2"#, #""weight": 1e308"#),
      mentions: ["$.segments[0].weight", "at most 1000000000"]),
    Case(label: "huge fleet size", json: replacing(#""devices": 60,"#, #""devices": 60, "fleet_devices": 1e19,"#),
      mentions: ["$.fleet_devices", "at most 10000000000"]),
    Case(label: "huge burst rate", json: replacing(#""per_day": 12 }"#, #""per_day": 12, "bursts": { "daily_probability": 1, "per_hour": 1e9 } }"#),
      mentions: ["$.kinds[1].unpredictable.bursts.per_hour", "at most 3600"]),
    Case(label: "integer too large", json: replacing(#""seed": 3,"#, #""seed": 1e300,"#), mentions: ["$.seed", "too large"]),
    Case(label: "sweep step too small", json: replacing(#""seed": 3,"#, #""seed": 3, "sweep": { "parameters": [{ "path": "days", "from": 2, "to": 3, "step": 1e-300 }] },"#),
      mentions: ["$.sweep.parameters[0].step", "more than 1000 values"]),
    Case(label: "warm-up as long as the run", json: replacing(#""warmup_days": 0.5"#, #""warmup_days": 2"#), mentions: ["$.warmup_days"]),
    // The strategy language (issue 13).
    Case(label: "trigger naming an unknown kind",
      json: replacing(#""poll-15m""#, #"{ "preset": "poll-15m", "triggers": [{ "on": "background", "kinds": ["forcast"] }] }"#),
      mentions: ["$.strategies[0].triggers[0].kinds[0]", "did you mean \"forecast\"?"]),
    Case(label: "clock time 25:00",
      json: replacing(#""poll-15m""#, #"{ "preset": "poll-15m", "timeline": { "policy": "after_time", "at": "25:00" } }"#),
      mentions: ["$.strategies[0].timeline.at", "\"25:00\" is not a clock time", "HH:MM"]),
    Case(label: "clock window with a bad end",
      json: replacing(#""poll-15m""#, #"{ "preset": "poll-15m", "timeline": { "policy": "after_time", "at": ["00:00", "0:30"] } }"#),
      mentions: ["$.strategies[0].timeline.at[1]", "HH:MM"]),
    Case(label: "a burst of 0 calls",
      json: replacing(#""poll-15m""#, #"{ "preset": "poll-15m", "triggers": [{ "on": "foreground", "calls": 0 }] }"#),
      mentions: ["$.strategies[0].triggers[0].calls", "at least 1"]),
    Case(label: "an empty backoff list",
      json: replacing(#""poll-15m""#, #"{ "preset": "poll-15m", "timeline": { "on_failure": { "retry_min": [] } } }"#),
      mentions: ["$.strategies[0].timeline.on_failure.retry_min", "at least 1"]),
    Case(label: "a failure branch with neither retry nor policy",
      json: replacing(#""poll-15m""#, #"{ "preset": "poll-15m", "timeline": { "on_failure": { "jitter_s": 5 } } }"#),
      mentions: ["$.strategies[0].timeline.on_failure", "retry_min"]),
    Case(label: "an in-app trigger without a rate",
      json: replacing(#""poll-15m""#, #"{ "preset": "poll-15m", "triggers": [{ "on": "in_app" }] }"#),
      mentions: ["$.strategies[0].triggers[0]", "per_session"]),
    Case(label: "a wake trigger naming an unknown source",
      json: replacing(#""poll-15m""#, #"{ "preset": "poll-15m", "wakes": [{ "name": "geo", "type": "location", "per_day": 4 }], "triggers": [{ "on": "wake", "source": "gps" }] }"#),
      mentions: ["$.strategies[0].triggers[0].source", "\"gps\" is not a wake source"]),
    Case(label: "a wake source with no rate",
      json: replacing(#""poll-15m""#, #"{ "preset": "poll-15m", "wakes": [{ "name": "geo", "type": "location" }] }"#),
      mentions: ["$.strategies[0].wakes[0]", "per_day", "every_min"]),
    Case(label: "a per-kind timeline for an unknown kind",
      json: replacing(#""poll-15m""#, #"{ "preset": "poll-15m", "kinds": [{ "kind": "newz", "data": "app_cache" }] }"#),
      mentions: ["$.strategies[0].kinds[0].kind", "did you mean \"news\"?"]),
    Case(label: "an outage longer than a day",
      json: replacing(#""per_day": 12 }"#, #""per_day": 12 }, "fetch_failure": { "outage_from_hour": 2, "outage_to_hour": 30 }"#),
      mentions: ["$.kinds[1].fetch_failure.outage_to_hour", "24 h"]),
  ] + calendarCases

  static func schedule(_ fields: String) -> String {
    replacing(#""scheduled": { "every_min": 60 }"#, #""scheduled": { "# + fields + " }")
  }

  /// Clock times, weekdays, publication and the new placements (docs/model.md#clock-times).
  static let calendarCases: [Case] = [
    Case(label: "clock time 25:00", json: schedule(#""at": ["06:00", "25:00"]"#),
      mentions: ["$.kinds[0].scheduled.at[1]", #""25:00" is not a clock time"#, "HH:MM"]),
    Case(label: "clock time 7:5", json: schedule(#""at": ["7:5"]"#),
      mentions: ["$.kinds[0].scheduled.at[0]", #""7:5" is not a clock time"#, "24-hour clock"]),
    Case(label: "clock time not a string", json: schedule(#""at": [600]"#),
      mentions: ["$.kinds[0].scheduled.at[0]", "expected a clock time"]),
    Case(label: "no clock times", json: schedule(#""at": []"#), mentions: ["$.kinds[0].scheduled.at", "at least 1"]),
    Case(label: "every_min and at", json: schedule(#""every_min": 60, "at": ["06:00"]"#),
      mentions: ["$.kinds[0].scheduled.at", "not both"]),
    Case(label: "neither every_min nor at", json: schedule(#""horizon_h": 12"#),
      mentions: ["$.kinds[0].scheduled.every_min", "is missing", "at"]),
    Case(label: "clock times out of order", json: schedule(#""at": ["13:10", "06:00"]"#),
      mentions: ["$.kinds[0].scheduled.at[1]", "comes before", "increasing order"]),
    Case(label: "a clock time twice", json: schedule(#""at": ["06:00", "06:00"]"#),
      mentions: ["$.kinds[0].scheduled.at[1]", "repeats"]),
    Case(label: "grid key with clock times", json: schedule(#""at": ["06:00"], "from_hour": 6"#),
      mentions: ["$.kinds[0].scheduled.from_hour", "every_min only"]),
    Case(label: "drift out of the day", json: schedule(#""at": ["23:30"], "drift_min_per_day": 30"#),
      mentions: ["$.kinds[0].scheduled.drift_min_per_day", #""23:30" out of its day"#]),
    Case(label: "drift without clock times", json: schedule(#""every_min": 60, "drift_min_per_day": 2"#),
      mentions: ["$.kinds[0].scheduled.drift_min_per_day", "no \"at\""]),
    Case(label: "unknown days", json: schedule(#""every_min": 60, "days": "weekday""#),
      mentions: ["$.kinds[0].scheduled.days", "did you mean \"weekdays\"?"]),
    Case(label: "weekend schedule on weekdays only", json: schedule(#""every_min": 60, "days": "weekdays", "weekend": { "at": ["10:00"] }"#),
      mentions: ["$.kinds[0].scheduled.weekend", "every_day"]),
    Case(label: "bad weekend clock time", json: schedule(#""every_min": 60, "weekend": { "at": ["10:60"] }"#),
      mentions: ["$.kinds[0].scheduled.weekend.at[0]", "is not a clock time"]),
    Case(label: "publication at 24:00", json: schedule(#""at": ["00:00"], "published_at_utc": "24:00""#),
      mentions: ["$.kinds[0].scheduled.published_at_utc", "is not a clock time"]),
    Case(label: "publication days without a time", json: schedule(#""at": ["00:00"], "published_days_ahead": 1"#),
      mentions: ["$.kinds[0].scheduled.published_days_ahead", "without published_at_utc"]),
    Case(label: "negative weekend factor", json: replacing(#""per_day": 4"#, #""per_day": 4, "weekend_factor": -1"#),
      mentions: ["$.kinds[0].unpredictable.weekend_factor", "at least 0"]),
    Case(label: "unknown weekday", json: replacing(#""seed": 3,"#, #""seed": 3, "start_weekday": "mondy","#),
      mentions: ["$.start_weekday", "did you mean \"monday\"?"]),
    Case(label: "unknown placement", json: replacing(#"{ "kind": "forecast" }"#, #"{ "kind": "forecast", "placement": "watch" }"#),
      mentions: ["$.segments[0].widgets[0].placement", "is not a valid value"]),
    Case(label: "weekend views factor over the limit", json: replacing(#""force_quit_share": 0.2"#, #""force_quit_share": 0.2, "weekend_views_factor": 11"#),
      mentions: ["$.segments[0].weekend_views_factor", "at most 10"]),
    Case(label: "StandBy window backwards", json: replacing(#""force_quit_share": 0.2"#, #""force_quit_share": 0.2, "standby": { "from_hour": 22, "to_hour": 6 }"#),
      mentions: ["$.segments[0].standby.to_hour", "within 24 hours"]),
    Case(label: "watch budget of 0", json: replacing(#""seed": 3,"#, #""seed": 3, "model": { "budget": { "watch_complication_per_day": 0 } },"#),
      mentions: ["$.model.budget.watch_complication_per_day", "at least 1"]),
    Case(label: "StandBy visibility over 1", json: replacing(#""seed": 3,"#, #""seed": 3, "model": { "visibility": { "standby": 1.5 } },"#),
      mentions: ["$.model.visibility.standby", "at most 1"]),
  ]

  @Test(arguments: cases)
  func refusedWithExitTwoAndNoOutput(_ c: Case) throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    try c.json.write(to: dir.appendingPathComponent("bad.json"), atomically: true, encoding: .utf8)
    let r = try Binary.run(["run", "bad.json", "--quiet"], in: dir)
    #expect(r.status == 2)
    let lines = r.stderr.split(separator: "\n")
    #expect(lines.count == 1, "one line on stderr, got: \(r.stderr)")
    #expect(r.stderr.hasPrefix("error: bad.json: "), "names the file: \(r.stderr)")
    #expect(r.stderr.contains("(fix: "), "offers a fix: \(r.stderr)")
    for m in c.mentions { #expect(r.stderr.contains(m), "'\(m)' not in: \(r.stderr)") }
    #expect(!r.stderr.contains("](#") && !r.stderr.contains("`"), "Markdown in a terminal message: \(r.stderr)")
    #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("Reports").path), "wrote a report")
    #expect(r.stdout.isEmpty)
  }

  @Test func unwritableOutputPathIsRefusedBeforeRunning() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    try Self.base.write(to: dir.appendingPathComponent("ok.json"), atomically: true, encoding: .utf8)
    try "not a folder".write(to: dir.appendingPathComponent("file"), atomically: true, encoding: .utf8)
    let r = try Binary.run(["run", "ok.json", "--out", "file/sub", "--quiet"], in: dir)
    #expect(r.status == 2)
    #expect(r.stderr.contains("file/sub"), "names the path: \(r.stderr)")
    #expect(r.stderr.contains("fix:"))
    let r2 = try Binary.run(["run", "ok.json", "--out", "file", "--quiet"], in: dir)
    #expect(r2.status == 2 && r2.stderr.contains("is a file"))
    // The good file next to it is untouched.
    #expect(try String(contentsOf: dir.appendingPathComponent("file"), encoding: .utf8) == "not a folder")
  }

  @Test func aRejectedScenarioLeavesAnEarlierGoodReportAlone() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    try Self.base.write(to: dir.appendingPathComponent("s.json"), atomically: true, encoding: .utf8)
    #expect(try Binary.run(["run", "s.json", "--quiet", "--out", "out"], in: dir).status == 0)
    let before = try Data(contentsOf: dir.appendingPathComponent("out/summary.csv"))
    let broken = Self.replacing(#""devices": 60"#, #""devices": -1"#)
    try broken.write(to: dir.appendingPathComponent("s.json"), atomically: true, encoding: .utf8)
    #expect(try Binary.run(["run", "s.json", "--quiet", "--out", "out"], in: dir).status == 2)
    #expect(try Data(contentsOf: dir.appendingPathComponent("out/summary.csv")) == before)
  }

  @Test func unknownFlagGetsExitTwoAndASuggestion() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let r = try Binary.run(["run", "--thread", "2"], in: dir)
    #expect(r.status == 2)
    #expect(r.stderr.contains("unknown option '--thread'") && r.stderr.contains("did you mean --threads?"))
    let r2 = try Binary.run(["rnu"], in: dir)
    #expect(r2.status == 2 && r2.stderr.contains("did you mean 'run'?"))
    let r3 = try Binary.run(["run", "--threads", "zero"], in: dir)
    #expect(r3.status == 2 && r3.stderr.contains("--threads"))
  }

  @Test func missingScenarioFileIsBadInput() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let r = try Binary.run(["run", "nope.json"], in: dir)
    #expect(r.status == 2 && r.stderr.contains("nope.json") && r.stderr.contains("no such file"))
    let r2 = try Binary.run([], in: dir)
    #expect(r2.status == 2 && r2.stderr.contains("Scenarios/default.json"))
  }
}
