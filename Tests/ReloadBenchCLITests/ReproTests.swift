import Foundation
import ReloadBenchCLI
import Testing

/// The defects of the fuzzing campaign (issue 18), each through the built
/// binary: bad input gives exit 2 and one line, promptly; nothing traps or
/// hangs.
@Suite struct ReproTests {
  /// A small valid scenario with `extra` top-level keys (JSON text, with a
  /// leading comma when not empty).
  static func scenario(_ name: String = "r", extra: String = "", segment: String = #""name": "s""#, strategies: String = #"["hybrid"]"#) -> String {
    """
    {"name": "\(name)", "days": 2, "warmup_days": 1, "devices": 3,
     "kinds": [{"name": "k", "unpredictable": {"per_day": 5}}],
     "segments": [{\(segment), "widgets": [{"kind": "k"}]}],
     "strategies": \(strategies)\(extra)}
    """
  }

  /// Runs `arguments` on `json` written to `file`; returns the result and
  /// the wall time.
  static func run(_ json: String, file: String = "s.json", _ arguments: [String], timeout: Double = 30) throws -> (
    Binary.Result, Double, URL
  ) {
    let dir = try temporaryDirectory()
    try json.write(to: dir.appendingPathComponent(file), atomically: true, encoding: .utf8)
    let start = Date()
    let r = try Binary.run(arguments, in: dir, timeout: timeout)
    return (r, Date().timeIntervalSince(start), dir)
  }

  /// Exit 2 with exactly one line on stderr that contains every of `mentions`.
  static func expectOneLineRefusal(_ r: Binary.Result, _ mentions: [String], sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(r.status == 2, "status \(r.status): \(r.stderr.prefix(500))", sourceLocation: sourceLocation)
    let lines = r.stderr.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.count == 2 && lines[1].isEmpty, "not one line: \(r.stderr.prefix(500))", sourceLocation: sourceLocation)
    #expect(!r.stderr.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x0D }, sourceLocation: sourceLocation)
    for m in mentions { #expect(r.stderr.contains(m), "\(m) not in: \(r.stderr.prefix(500))", sourceLocation: sourceLocation) }
  }

  // MARK: - Crashes

  /// (1) 7 parameters x 1000 values overflowed the point count and trapped.
  @Test func sweepGridOverflowIsRefused() throws {
    let params = (0..<7).map { i in
      #"{"path": "segments[0].\#(["home_views_per_day", "lock_views_per_day", "app_sessions_per_day", "taps_per_day", "settings_changes_per_30_days", "widget_adds_per_30_days", "audio_sessions_per_day"][i])", "from": 0, "to": 999, "step": 1}"#
    }
    let json = Self.scenario(extra: #", "sweep": {"parameters": [\#(params.joined(separator: ", "))]}"#)
    let (r, seconds, dir) = try Self.run(json, ["run", "s.json", "--dry-run"])
    defer { try? FileManager.default.removeItem(at: dir) }
    Self.expectOneLineRefusal(r, ["$.sweep", "1e+21", "max_points"])
    #expect(seconds < 5)
  }

  /// (2) A huge objective bound trapped while drawing sweep.html, after
  /// every point had run. Now it is refused up front, and the chart code
  /// no longer traps on a huge coordinate (`SVGChart.number`).
  @Test func hugeObjectiveBoundIsRefusedUpFront() throws {
    let json = Self.scenario(
      extra: #", "sweep": {"parameters": [{"path": "energy.fetch_mj", "values": [0, 1]}]}, "objective": {"minimize": "budgeted_reloads_per_widget_day", "subject_to": [{"metric": "fresh_glance_pct", "min": 1e+308}]}"#)
    let (r, _, dir) = try Self.run(json, ["sweep", "s.json", "--out", "out"])
    defer { try? FileManager.default.removeItem(at: dir) }
    Self.expectOneLineRefusal(r, ["$.objective.subject_to[0].min", "at most"])
    #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("out").path))
  }

  /// (2) A bound at the limit is rendered: the sweep writes both files.
  @Test func largestObjectiveBoundRenders() throws {
    let json = Self.scenario(
      extra: #", "sweep": {"parameters": [{"path": "energy.fetch_mj", "values": [0, 1]}]}, "objective": {"minimize": "budgeted_reloads_per_widget_day", "subject_to": [{"metric": "fresh_glance_pct", "min": 1e12}, {"metric": "budgeted_reloads_per_widget_day", "max": -1e12}]}"#)
    let (r, _, dir) = try Self.run(json, ["sweep", "s.json", "--out", "out", "--threads", "1"], timeout: 60)
    defer { try? FileManager.default.removeItem(at: dir) }
    #expect(r.status == 0, "\(r.stderr)")
    for f in ["sweep.csv", "sweep.html"] {
      #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("out/\(f)").path), "\(f)")
    }
  }

  /// (6) A hold case of size 0 or -1 trapped; "devices": 0 was accepted.
  @Test(arguments: [
    (#"{"name":"x","kind":"hold","size":0,"threads":1,"arity":4,"holds":10}"#, "\"size\""),
    (#"{"name":"x","kind":"hold","size":-1,"threads":1,"arity":4,"holds":10}"#, "\"size\""),
    (#"{"name":"x","kind":"hold","size":10,"threads":1,"arity":3,"holds":10}"#, "\"arity\""),
    (#"{"name":"x","kind":"hold","size":10,"threads":0,"arity":4,"holds":10}"#, "\"threads\""),
    (#"{"name":"x","kind":"scenario","path":"s.json","devices":0,"threads":1,"arity":4,"size":0,"holds":0}"#, "\"devices\""),
  ])
  func badBenchCasesAreRefused(_ json: String, _ field: String) throws {
    let (r, _, dir) = try Self.run(Self.scenario(), ["bench", "--run-case", json])
    defer { try? FileManager.default.removeItem(at: dir) }
    Self.expectOneLineRefusal(r, ["--run-case", field])
  }

  @Test func aSmallHoldCaseRuns() throws {
    let (r, _, dir) = try Self.run(
      Self.scenario(), ["bench", "--run-case", #"{"name":"x","kind":"hold","size":1,"threads":1,"arity":2,"holds":10}"#])
    defer { try? FileManager.default.removeItem(at: dir) }
    #expect(r.status == 0 && r.stdout.contains("wallSeconds"), "\(r.stderr)")
  }

  // MARK: - Hang

  /// (3) Intervals of 1e-9 min rounded to 0 ms and repeated forever. Every
  /// interval of something that repeats by itself has a lower bound.
  @Test(arguments: [
    (#""strategies": [{"preset": "poll-60m", "app": {"bg_refresh_min": 1e-09}}], "model": {"background_refresh": {"median_delay_min": 1e-09}}"#, "bg_refresh_min"),
    (#""strategies": [{"preset": "poll-60m", "timeline": {"policy": "after", "after_min": 1e-09}}]"#, "after_min"),
    (#""strategies": [{"preset": "poll-60m", "timeline": {"dating": "spaced", "spacing_min": 0.05}}]"#, "spacing_min"),
  ])
  func tinyRepeatingIntervalsAreRefused(_ fields: String, _ field: String) throws {
    let json = """
      {"name": "bghang", "days": 0.4, "warmup_days": 0, "devices": 1,
       "kinds": [{"name": "k", "unpredictable": {"per_day": 24}}],
       "segments": [{"name": "s", "widgets": [{"kind": "k"}], "app_sessions_per_day": 0}], \(fields)}
      """
    let (r, seconds, dir) = try Self.run(json, ["run", "s.json", "--out", "out"], timeout: 20)
    defer { try? FileManager.default.removeItem(at: dir) }
    Self.expectOneLineRefusal(r, [field, "at least 0.1"])
    #expect(seconds < 5)
  }

  /// The shortest interval allowed runs to the end.
  @Test func shortestBackgroundRefreshIntervalFinishes() throws {
    let json = """
      {"name": "bgfast", "days": 0.4, "warmup_days": 0, "devices": 1,
       "kinds": [{"name": "k", "unpredictable": {"per_day": 24}}],
       "segments": [{"name": "s", "widgets": [{"kind": "k"}], "app_sessions_per_day": 0}],
       "strategies": [{"preset": "poll-60m", "app": {"bg_refresh_min": 0.1}}],
       "model": {"background_refresh": {"median_delay_min": 1e-09}}}
      """
    let (r, _, dir) = try Self.run(json, ["run", "s.json", "--out", "out", "--threads", "1"], timeout: 60)
    defer { try? FileManager.default.removeItem(at: dir) }
    #expect(r.status == 0, "\(r.stderr)")
  }

  // MARK: - Input size

  /// (4) Deep nesting: refused at the depth limit, at once, whatever the size.
  @Test func deepNestingIsRefusedQuickly() throws {
    let depth = 100
    let scope = String(repeating: "[", count: depth) + Array(repeating: "0", count: 30_000).joined(separator: ",")
      + String(repeating: "]", count: depth)
    let json = #"{"name": "jt", "days": 2, "warmup_days": 1, "devices": 3, "kinds": [{"name": "k", "unpredictable": {"per_day": 5}, "scope": "#
      + scope + #"}], "segments": [{"name": "s", "widgets": [{"kind": "k"}]}], "strategies": ["hybrid"]}"#
    let (r, seconds, dir) = try Self.run(json, ["run", "s.json", "--dry-run"])
    defer { try? FileManager.default.removeItem(at: dir) }
    Self.expectOneLineRefusal(r, ["$.kinds[0].scope", "nest more than 32"])
    #expect(seconds < 2, "took \(seconds) s")
  }

  /// (4) Parsing is linear: 1 MB nested 30 deep (under the limit) is read
  /// and refused promptly. (Foundation's parser took time in size x depth:
  /// 10 s for 600 KB at depth 100 in a release build; the limit here is
  /// loose because the tests run a debug build on a busy machine.)
  @Test func largeDeepFileIsReadInLinearTime() throws {
    let item = String(repeating: "[", count: 29) + "0,1,2,3,4,5,6,7,8,9" + String(repeating: "]", count: 29)
    let items = Array(repeating: item, count: 12_000).joined(separator: ",")
    let json = Self.scenario(extra: #", "description": [\#(items)]"#)
    #expect(json.utf8.count > 900_000)
    let (r, seconds, dir) = try Self.run(json, ["run", "s.json", "--dry-run"])
    defer { try? FileManager.default.removeItem(at: dir) }
    Self.expectOneLineRefusal(r, ["$.description", "expected a string"])
    #expect(seconds < 8, "took \(seconds) s")
  }

  /// (5, 9) A file over the size limit is refused before it is read.
  @Test func scenarioOverTheSizeLimitIsRefused() throws {
    let limit = 4 << 20
    let json = Self.scenario(extra: #", "description": "\#(String(repeating: "x", count: limit))""#)
    let (r, seconds, dir) = try Self.run(json, ["run", "s.json", "--dry-run"])
    defer { try? FileManager.default.removeItem(at: dir) }
    Self.expectOneLineRefusal(r, ["s.json", "over the 4 MiB", "Limits"])
    #expect(seconds < 2, "took \(seconds) s")
  }

  @Test func baselineOverTheSizeLimitIsRefused() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    try Self.scenario().write(to: dir.appendingPathComponent("s.json"), atomically: true, encoding: .utf8)
    let big = Data(count: (32 << 20) + 1)
    try big.write(to: dir.appendingPathComponent("b.json"))
    let start = Date()
    let r = try Binary.run(["check", "s.json", "--baseline", "b.json", "--out", "out"], in: dir, timeout: 30)
    Self.expectOneLineRefusal(r, ["b.json", "over the 32 MiB"])
    #expect(Date().timeIntervalSince(start) < 2)
  }

  /// (5) A long unknown enum value: no slow "did you mean", and the value
  /// is quoted shortened.
  @Test func longUnknownValueIsShortenedAndFast() throws {
    let long = String(repeating: "x", count: 3_000_000)
    let json = Self.scenario(extra: #", "expect": [{"metric": "\#(long)", "min": 0}]"#)
    let (r, seconds, dir) = try Self.run(json, ["run", "s.json", "--dry-run"])
    defer { try? FileManager.default.removeItem(at: dir) }
    Self.expectOneLineRefusal(r, ["$.expect[0].metric", "is not a valid value", "(3000000 bytes)"])
    #expect(r.stderr.utf8.count < 4000, "\(r.stderr.utf8.count) bytes")
    // The unbounded hint took about 14 s on this (95 s on 20 MB).
    #expect(seconds < 5, "took \(seconds) s")
  }

  // MARK: - Messages

  /// (12) A newline in a value stays inside the one line, escaped.
  @Test func newlineInValueStaysOnOneLine() throws {
    let json = Self.scenario().replacingOccurrences(of: #"{"kind": "k"}"#, with: #"{"kind": "k", "placement": "line\nbreak"}"#)
    let (r, _, dir) = try Self.run(json, ["run", "s.json", "--dry-run"])
    defer { try? FileManager.default.removeItem(at: dir) }
    Self.expectOneLineRefusal(r, [#""line\nbreak""#, "placement"])
  }

  /// (13) Escape sequences in names are escaped on stdout and stderr.
  @Test func controlCharactersInNamesAreEscaped() throws {
    let json = Self.scenario(
      segment: #""name": "s\u001b]0;PWNED\u0007\u001b[2J""#,
      strategies: #"[{"name": "st\u001b[1;31mRED\r\u001b[Kfake", "preset": "hybrid"}]"#)
    let (r, _, dir) = try Self.run(json, ["run", "s.json", "--out", "out", "--threads", "1"], timeout: 60)
    defer { try? FileManager.default.removeItem(at: dir) }
    #expect(r.status == 0, "\(r.stderr)")
    for text in [r.stdout, r.stderr] {
      #expect(!text.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x0D }, "\(text)")
    }
    #expect(r.stdout.contains(#"st\u{1B}[1;31mRED"#), "\(r.stdout)")
    // Refused names are escaped in the error too.
    let bad = Self.scenario(strategies: #"["hybrid\u001b[2J"]"#)
    let (e, _, dir2) = try Self.run(bad, ["run", "s.json", "--dry-run"])
    defer { try? FileManager.default.removeItem(at: dir2) }
    Self.expectOneLineRefusal(e, [#"\u{1B}[2J"#])
  }

  /// (14) An unterminated right-to-left override in a name cannot reverse
  /// the report's own text: it is shown, not obeyed.
  @Test func bidiOverrideInNamesIsNeutralisedInHTML() throws {
    let json = Self.scenario(segment: "\"name\": \"s\u{202E}evil\"", strategies: "[{\"name\": \"p\u{2067}x\", \"preset\": \"hybrid\"}]")
    let (r, _, dir) = try Self.run(json, ["run", "s.json", "--out", "out", "--threads", "1"], timeout: 60)
    defer { try? FileManager.default.removeItem(at: dir) }
    #expect(r.status == 0, "\(r.stderr)")
    let html = try String(contentsOf: dir.appendingPathComponent("out/report.html"), encoding: .utf8)
    let body = html.components(separatedBy: "<script").first ?? html
    #expect(!body.unicodeScalars.contains { (0x202A...0x202E).contains($0.value) || (0x2066...0x2069).contains($0.value) })
    #expect(body.contains("s[U+202E]evil"))
    #expect(body.contains("p[U+2067]x"))
  }

  /// (15) A key given twice is refused, naming the key and its path.
  @Test func duplicateKeysAreRefused() throws {
    let json = Self.scenario().replacingOccurrences(of: #""per_day": 5"#, with: #""per_day": 5, "per_day": 6"#)
    let (r, _, dir) = try Self.run(json, ["run", "s.json", "--dry-run"])
    defer { try? FileManager.default.removeItem(at: dir) }
    Self.expectOneLineRefusal(r, ["$.kinds[0].unpredictable.per_day", "\"per_day\" is given twice"])
  }

  @Test func duplicateKeysInABaselineAreRefused() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    try Self.scenario().write(to: dir.appendingPathComponent("s.json"), atomically: true, encoding: .utf8)
    try #"{"format": "reloadbench-baseline", "format": "x"}"#.write(
      to: dir.appendingPathComponent("b.json"), atomically: true, encoding: .utf8)
    let r = try Binary.run(["check", "s.json", "--baseline", "b.json", "--out", "out"], in: dir, timeout: 30)
    Self.expectOneLineRefusal(r, ["b.json", "\"format\" is given twice"])
  }

  /// (15) Markdown in an expectation's note shows as written in check.md.
  @Test func markdownInNotesIsEscaped() throws {
    let json = Self.scenario(
      extra: #", "expect": [{"metric": "fresh_glance_pct", "min": 101, "note": "see ![x](http://e.invalid/t.png) **now** [link](http://e.invalid)"}]"#)
    let (r, _, dir) = try Self.run(json, ["check", "s.json", "--out", "out", "--markdown", "check.md", "--threads", "1"], timeout: 60)
    defer { try? FileManager.default.removeItem(at: dir) }
    #expect(r.status == 1, "\(r.stderr)")
    let md = try String(contentsOf: dir.appendingPathComponent("check.md"), encoding: .utf8)
    #expect(md.contains(#"\!\[x\](http://e.invalid/t.png) \*\*now\*\* \[link\](http://e.invalid)"#), "\(md)")
    #expect(!md.contains("![x]"))
  }

  // MARK: - The fuzz entry points over the seed corpus

  /// Replays the committed seed corpus through every fuzz entry point (a
  /// trap fails the suite), so a change that breaks them shows here too.
  @Test func fuzzEntryPointsAcceptTheSeedCorpus() throws {
    let corpus = repositoryRoot.appendingPathComponent("Fuzz/corpus")
    let fm = FileManager.default
    var count = 0
    for target in ["scenario", "sweep", "baseline"] {
      let dir = corpus.appendingPathComponent(target)
      for name in (try? fm.contentsOfDirectory(atPath: dir.path)) ?? [] {
        let data = try Data(contentsOf: dir.appendingPathComponent(name))
        switch target {
        case "scenario": FuzzEntryPoints.decodeScenario(data)
        case "sweep": FuzzEntryPoints.expandSweep(data)
        default: FuzzEntryPoints.loadBaseline(data)
        }
        count += 1
      }
    }
    #expect(count >= 20, "only \(count) seed files")
  }
}
