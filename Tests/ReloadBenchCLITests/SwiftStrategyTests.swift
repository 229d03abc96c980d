import Foundation
import ReloadBenchCLI
import ReloadEngine
import Testing
import WidgetModel

/// Strategies written in Swift and registered with
/// `ReloadBenchCLI.main(_:strategies:)`: they give what the same strategy
/// written in JSON gives, and bad registrations and unknown names are
/// refused with one line and exit status 2.
@Suite struct SwiftStrategyTests {
  /// Polling every 20 minutes, and the app's `reloadAllTimelines()` on
  /// each return to the foreground (the provider's own call).
  struct Poll20WithForeground: TimelineProvider {
    func timeline(for request: TimelineRequest) -> Timeline {
      Timeline(entries: .spaced(count: 1, every: .minutes(20)), policy: .after(.minutes(20)))
    }
    func firstRequestSpread(kind: Int) -> SimDuration { .minutes(20) }
    func reloadCalls(after event: AppEvent, _ app: AppSnapshot) -> ReloadCalls {
      event == .foreground ? ReloadCalls(kinds: .all) : .none
    }
  }

  /// `.after(00:15 local)`; on a failed fetch, retry after 10 then 30
  /// minutes plus up to 20 s.
  struct AfterQuarterPastMidnight: TimelineProvider {
    func timeline(for request: TimelineRequest) -> Timeline {
      if request.fetch == .failed {
        let delay: SimDuration = request.previousFailures == 0 ? .minutes(10) : .minutes(30)
        return Timeline(
          entries: .now, policy: .after(delay + SimDuration(milliseconds: Int64(request.random * 20_000))))
      }
      return Timeline(entries: .spaced(count: 1, every: .minutes(15)), policy: .atLocalTime(ClockWindow(at: 0, 15)))
    }
    func firstRequestSpread(kind: Int) -> SimDuration { .days(1) }
    static var makesReloadCalls: Bool { false }
  }

  static let swiftStrategies = [
    Strategy(name: "poll-20m-fg-swift", code: Poll20WithForeground()),
    Strategy(name: "after-0015-swift", code: AfterQuarterPastMidnight()),
  ]

  /// The JSON twins first, interleaved with the Swift ones (so the
  /// report's order follows the scenario's), and a Swift strategy started
  /// from by an object.
  static let scenario = """
    {
      "name": "swift-vs-json",
      "seed": 11,
      "days": 3,
      "warmup_days": 0.5,
      "devices": 150,
      "kinds": [
        { "name": "forecast", "scheduled": { "every_min": 60 }, "unpredictable": { "per_day": 6 },
          "fetch_failure": { "probability": 0.15 } },
        { "name": "news", "scope": "shared", "unpredictable": { "per_day": 12 } }
      ],
      "segments": [
        { "name": "a", "utc_offsets": [{ "hours": 1 }, { "hours": -5 }, { "hours": 9.5 }], "app_sessions_per_day": 4,
          "low_power_mode": { "share": 0.3 },
          "widgets": [{ "kind": "forecast" }, { "kind": "news", "probability": 0.5 }] },
        { "name": "b", "app_sessions_per_day": 1, "home_views_per_day": 10,
          "widgets": [{ "kind": "forecast", "placement": "smart_stack" }] }
      ],
      "strategies": [
        { "name": "poll-20m-fg-json", "timeline": { "entries": 1, "dating": "spaced", "spacing_min": 20, "policy": "after", "after_min": 20 },
          "triggers": [{ "on": "foreground" }] },
        "poll-20m-fg-swift",
        { "name": "after-0015-json", "timeline": { "entries": 1, "dating": "spaced", "spacing_min": 15, "policy": "after_time", "at": "00:15",
          "on_failure": { "retry_min": [10, 30], "jitter_s": 20 } } },
        "after-0015-swift",
        { "name": "poll-20m-fg-swift-again", "preset": "poll-20m-fg-swift" }
      ]
    }
    """

  /// summary.csv as rows of (strategy, the rest of the row); the strategy
  /// column is `policy`.
  static func summaryRows(_ url: URL) throws -> [(strategy: String, rest: [String])] {
    let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map(String.init)
    let header = lines[0].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    let column = try #require(header.firstIndex(of: "policy"))
    return lines.dropFirst().map { line in
      var cells = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
      let name = cells.remove(at: column)
      return (name, cells)
    }
  }

  /// Every summary metric of every segment is the same, to the last
  /// digit, for each Swift strategy and its JSON twin (same seed, same
  /// devices; only the name differs), through the real command line.
  @Test func aSwiftStrategyGivesTheSameSummaryAsItsJSONTwin() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let file = dir.appendingPathComponent("swift-vs-json.json")
    try Self.scenario.write(to: file, atomically: true, encoding: .utf8)
    let out = dir.appendingPathComponent("out")
    let r = CLITesting.main(
      ["run", file.path, "--out", out.path, "--quiet", "--threads", "2"], strategies: Self.swiftStrategies)
    #expect(r.status == 0, "\(r.error ?? "")")
    let rows = try Self.summaryRows(out.appendingPathComponent("summary.csv"))
    func of(_ name: String) -> [[String]] { rows.filter { $0.strategy == name }.map(\.rest) }
    // In scenario order: json, swift, json, swift, swift again.
    var order: [String] = []
    for row in rows where order.last != row.strategy { order.append(row.strategy) }
    #expect(
      order == ["poll-20m-fg-json", "poll-20m-fg-swift", "after-0015-json", "after-0015-swift", "poll-20m-fg-swift-again"])
    for (json, swift) in [("poll-20m-fg-json", "poll-20m-fg-swift"), ("after-0015-json", "after-0015-swift")] {
      #expect(of(json).count == 9)  // segments a, b and all, each for both kinds together and each kind
      #expect(of(json) == of(swift), "\(json) and \(swift) differ")
    }
    #expect(of("poll-20m-fg-swift-again") == of("poll-20m-fg-swift"))
    // The two strategies differ (the comparison is not of defaults).
    #expect(of("poll-20m-fg-json") != of("after-0015-json"))
  }

  // MARK: - Refusals

  @Test func aStrategyRegisteredTwiceIsRefusedBeforeAnyScenarioIsRead() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let out = dir.appendingPathComponent("out")
    let twice = [Self.swiftStrategies[0], Self.swiftStrategies[1], Self.swiftStrategies[0]]
    for command in [["run", "no-such-file.json", "--out", out.path], ["list"], ["--help"]] {
      let r = CLITesting.main(command, strategies: twice)
      #expect(r.status == 2)
      #expect(
        r.error
          == "ReloadBenchCLI.main(strategies:)[2].name: \"poll-20m-fg-swift\" is registered twice "
          + "(also ReloadBenchCLI.main(strategies:)[0]) (fix: give each strategy its own name, or register it once)")
    }
    #expect(!FileManager.default.fileExists(atPath: out.path))
    // The public entry point exits 2 too.
    #expect(ReloadBenchCLI.main(["run", "no-such-file.json"], strategies: twice) == 2)
  }

  @Test func aStrategyUnderAPresetsNameIsRefused() {
    let clash = [Strategy(name: "poll-15m", code: Poll20WithForeground())]
    let r = CLITesting.main(["run", "no-such-file.json"], strategies: clash)
    #expect(r.status == 2)
    #expect(
      r.error
        == "ReloadBenchCLI.main(strategies:)[0].name: \"poll-15m\" is the name of a preset (fix: give the Swift "
        + "strategy another name, e.g. \"my-poll-15m\"; scenarios name the preset by \"poll-15m\")")
    let empty = CLITesting.main(["list"], strategies: [Strategy(name: "", code: Poll20WithForeground())])
    #expect(empty.status == 2)
    #expect(empty.error?.hasPrefix("ReloadBenchCLI.main(strategies:)[0].name: is empty (fix: ") == true)
  }

  /// A scenario naming no preset and no registered strategy: the usual
  /// line, with the registered names among the suggestions; the same file
  /// with the right name runs in the team's executable and is refused by
  /// plain `reloadbench`, which knows the presets only.
  @Test func anUnknownNameInAScenarioIsRefusedWithTheRegisteredNamesSuggested() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let file = dir.appendingPathComponent("s.json")
    let out = dir.appendingPathComponent("out")
    try smallScenario(name: "typo", strategies: #"["poll-15m", "after-0015-swfit"]"#)
      .write(to: file, atomically: true, encoding: .utf8)
    let r = CLITesting.main(["run", file.path, "--out", out.path, "--quiet"], strategies: Self.swiftStrategies)
    #expect(r.status == 2)
    #expect(
      r.error == "\(file.path): $.strategies[1]: \"after-0015-swfit\" is not a valid value (fix: did you mean \"after-0015-swift\"?)")
    #expect(!FileManager.default.fileExists(atPath: out.path))

    try smallScenario(name: "named", devices: 20, strategies: #"["poll-15m", "after-0015-swift"]"#)
      .write(to: file, atomically: true, encoding: .utf8)
    let ok = CLITesting.main(["run", file.path, "--out", out.path, "--quiet"], strategies: Self.swiftStrategies)
    #expect(ok.status == 0, "\(ok.error ?? "")")
    #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("summary.csv").path))

    let plain = try Binary.run(["run", "s.json", "--out", "plain", "--quiet"], in: dir)
    #expect(plain.status == 2)
    #expect(plain.stderr.hasPrefix("error: s.json: $.strategies[1]: \"after-0015-swift\" is not a valid value (fix: "))
    #expect(plain.stderr.split(separator: "\n").count == 1)
    #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("plain").path))
  }

  /// A Swift strategy's code returns the timelines: an object starting
  /// from it may change the app and backend, not the timeline.
  @Test func anObjectStartingFromASwiftStrategyCannotOverrideItsTimeline() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let file = dir.appendingPathComponent("s.json")
    try smallScenario(
      name: "override",
      strategies: #"[{ "name": "x", "preset": "after-0015-swift", "timeline": { "entries": 2 } }]"#
    ).write(to: file, atomically: true, encoding: .utf8)
    let r = CLITesting.main(["run", file.path, "--out", dir.appendingPathComponent("out").path], strategies: Self.swiftStrategies)
    #expect(r.status == 2)
    #expect(
      r.error == "\(file.path): $.strategies[0].timeline: \"after-0015-swift\" is written in Swift: its code returns "
        + "the timelines (fix: remove \"timeline\", or change the strategy's Swift code)")
  }
}
