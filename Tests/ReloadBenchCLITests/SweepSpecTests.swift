import Foundation
import ReloadBenchCLI
import Testing

/// Sweep paths and grids, through the decoder: where values land, how
/// ranges expand, and every refusal naming its JSON path.
@Suite struct SweepSpecTests {
  // MARK: - Paths

  static let base = #"{"name": "x", "strategies": ["hybrid", {"name": "poll", "preset": "poll-15m"}], "segments": [{"name": "a"}, {"name": "b"}]}"#

  static func apply(_ path: String, _ value: String, to json: String = base) -> Result<String, CLIError> {
    CLITesting.applySweepPath(path, value: value, to: json)
  }

  @Test func createsMissingObjectsOnTheWay() throws {
    let out = try Self.apply("model.budget.max_per_day", "40").get()
    #expect(out.contains(#""model": {"budget": {"max_per_day": 40}}"#))
    #expect(try Self.apply("$.model.budget.max_per_day", "40").get() == out, "a leading $. is optional")
  }

  @Test func starWritesEveryElement() throws {
    let out = try Self.apply("segments[*].low_power_mode.share", "0.3").get()
    #expect(out.contains(#"{"low_power_mode": {"share": 0.3}, "name": "a"}"#))
    #expect(out.contains(#"{"low_power_mode": {"share": 0.3}, "name": "b"}"#))
  }

  /// A preset string becomes an object, and the preset's push trigger is
  /// kept, so sweeping the coalescing window leaves `on` as hybrid has it.
  @Test func namedPresetKeepsItsTrigger() throws {
    let out = try Self.apply("strategies[hybrid].backend.silent_push.coalesce_min", "15").get()
    #expect(out.contains(#"{"backend": {"silent_push": {"coalesce_min": 15, "on": "unpredictable"}}, "preset": "hybrid"}"#))
    let named = try Self.apply("strategies[poll].timeline.after_min", "45").get()
    #expect(named.contains(#"{"name": "poll", "preset": "poll-15m", "timeline": {"after_min": 45}}"#))
    let indexed = try Self.apply("strategies[1].timeline.after_min", "45").get()
    #expect(indexed == named)
  }

  @Test func wholeValuesCanBeStringsOrNull() throws {
    #expect(try Self.apply("strategies[0]", #""poll-60m""#).get().contains(#"["poll-60m", {"#))
    #expect(try Self.apply("model.reload.first_request_spread_min", "null").get().contains(#""first_request_spread_min": null"#))
  }

  struct BadPath: CustomTestStringConvertible, Sendable {
    let path: String
    let mentions: [String]
    var testDescription: String { path }
  }

  static let badPaths: [BadPath] = [
    BadPath(path: "model.budget.max_per_dya", mentions: ["$.model.budget has no key \"max_per_dya\"", "did you mean \"max_per_day\"?"]),
    BadPath(path: "strategies[7].timeline.after_min", mentions: ["$.strategies has 2 elements, so no [7]", "0...1"]),
    BadPath(path: "strategies[hybrd].timeline.entries", mentions: ["no element named \"hybrd\"", "did you mean [hybrid]?"]),
    BadPath(path: "days.value", mentions: ["$.days is not an object"]),
    BadPath(path: "model.budget", mentions: ["holds an object or array", "model.budget.accrual"]),
    BadPath(path: "name", mentions: ["\"name\" cannot be swept"]),
    BadPath(path: "sweep.max_points", mentions: ["\"sweep\" cannot be swept"]),
    BadPath(path: "segments[0].wake_hour[first]", mentions: ["elements of $.segments[0].wake_hour have no names"]),
    BadPath(path: "model..budget", mentions: ["empty key"]),
    BadPath(path: "segments[0", mentions: ["unclosed"]),
    BadPath(path: "segments[-1].weight", mentions: ["negative index"]),
    BadPath(path: "model.budget.", mentions: ["ends with '.'"]),
  ]

  @Test(arguments: badPaths)
  func badPathsAreRefusedWithAFix(_ c: BadPath) {
    switch Self.apply(c.path, "1") {
    case .success(let json): Issue.record("\(c.path) applied: \(json)")
    case .failure(let e):
      #expect(e.message.contains("(fix: "), "\(e.message)")
      for m in c.mentions { #expect(e.message.contains(m), "'\(m)' not in: \(e.message)") }
    }
  }

  // MARK: - Grids

  /// `smallScenario` with a sweep and optional objective.
  static func scenario(sweep: String, objective: String? = nil) -> Data {
    var text = smallScenario(name: "grid")
    text.removeLast(2)  // "\n}"
    text += ",\n\"sweep\": \(sweep)"
    if let objective { text += ",\n\"objective\": \(objective)" }
    return Data((text + "\n}").utf8)
  }

  static func points(_ sweep: String) throws -> [[String]] {
    try CLITesting.sweepPoints(scenario(sweep: sweep)).get().map(\.values)
  }

  @Test func gridIsTheProductWithTheFirstParameterSlowest() throws {
    let p = try Self.points(
      #"{"parameters": [{"path": "seed", "values": [1, 2]}, {"path": "model.budget.max_per_day", "from": 30, "to": 50, "step": 10}]}"#)
    #expect(p == [["1", "30"], ["1", "40"], ["1", "50"], ["2", "30"], ["2", "40"], ["2", "50"]])
    let scenarios = try CLITesting.sweepPoints(
      Self.scenario(sweep: #"{"parameters": [{"path": "model.budget.max_per_day", "values": [30, 60]}]}"#)
    ).get().map(\.scenario)
    #expect(scenarios.map(\.model.budget.maxPerDay) == [30, 60])
    #expect(Set(scenarios.map(\.seed)) == [3], "every point keeps the scenario's seed")
  }

  @Test func rangesAreCleanAndRounded() throws {
    #expect(
      try Self.points(#"{"parameters": [{"path": "segments[*].low_power_mode.share", "from": 0, "to": 0.3, "step": 0.1}]}"#)
        == [["0"], ["0.1"], ["0.2"], ["0.3"]])
    #expect(
      try Self.points(#"{"parameters": [{"path": "model.budget.max_per_day", "from": 10, "to": 1000, "count": 3, "spacing": "log"}]}"#)
        == [["10"], ["100"], ["1000"]])
    #expect(
      try Self.points(
        #"{"parameters": [{"path": "model.budget.max_per_day", "from": 10, "to": 20, "count": 5, "round_to": 5}]}"#)
        == [["10"], ["15"], ["20"]], "12.5 and 17.5 round to 15 and 20; repeats dropped")
  }

  struct BadSweep: CustomTestStringConvertible, Sendable {
    let label: String
    let sweep: String
    var objective: String? = nil
    let mentions: [String]
    var testDescription: String { label }
  }

  static let badSweeps: [BadSweep] = [
    BadSweep(
      label: "swept value fails validation",
      sweep: #"{"parameters": [{"name": "lpm", "path": "segments[*].low_power_mode.share", "values": [0.5, 1.5]}]}"#,
      mentions: ["$.segments[0].low_power_mode.share: must be at most 1, got 1.5", "at sweep point 2: lpm = 1.5", "(fix: "]),
    BadSweep(
      label: "integer field gets a fraction",
      sweep: #"{"parameters": [{"path": "model.budget.max_per_day", "from": 10, "to": 20, "count": 4}]}"#,
      mentions: ["$.model.budget.max_per_day: must be a whole number, got 13.33", "at sweep point 2"]),
    BadSweep(
      label: "unknown path", sweep: #"{"parameters": [{"path": "model.budget.max_per_dya", "values": [1]}]}"#,
      mentions: ["$.sweep.parameters[0].path", "did you mean \"max_per_day\"?"]),
    BadSweep(
      label: "wrong index", sweep: #"{"parameters": [{"path": "segments[5].weight", "values": [1]}]}"#,
      mentions: ["$.sweep.parameters[0].path", "no [5]"]),
    BadSweep(
      label: "huge grid",
      sweep: #"{"parameters": [{"path": "seed", "from": 1, "to": 100, "step": 1}, {"path": "fleet_devices", "from": 1, "to": 30, "step": 1}]}"#,
      mentions: ["$.sweep: the grid has 3000 points (100 x 30), more than max_points 200", "raise max_points"]),
    BadSweep(
      label: "values and a range", sweep: #"{"parameters": [{"path": "seed", "values": [1], "from": 1}]}"#,
      mentions: ["$.sweep.parameters[0].values", "not both"]),
    BadSweep(
      label: "range without step or count", sweep: #"{"parameters": [{"path": "seed", "from": 1, "to": 3}]}"#,
      mentions: ["$.sweep.parameters[0]", "neither step nor count"]),
    BadSweep(
      label: "repeated value", sweep: #"{"parameters": [{"path": "seed", "values": [1, 2, 1]}]}"#,
      mentions: ["$.sweep.parameters[0].values[2]", "repeats values[0]"]),
    BadSweep(
      label: "two parameters, one path",
      sweep: #"{"parameters": [{"path": "seed", "values": [1]}, {"path": "$.seed", "name": "s", "values": [2]}]}"#,
      mentions: ["$.sweep.parameters[1].path", "already swept"]),
    BadSweep(
      label: "reserved column name", sweep: #"{"parameters": [{"path": "seed", "name": "policy", "values": [1]}]}"#,
      mentions: ["$.sweep.parameters[0].name", "already a sweep.csv column"]),
    BadSweep(
      label: "log range from zero",
      sweep: #"{"parameters": [{"path": "model.budget.views_exponent", "from": 0, "to": 1, "count": 3, "spacing": "log"}]}"#,
      mentions: ["$.sweep.parameters[0].from", "log spacing needs from > 0"]),
    BadSweep(
      label: "objective metric typo", sweep: #"{"parameters": [{"path": "seed", "values": [1]}]}"#,
      objective: #"{"maximize": "fresh_glance_pc"}"#,
      mentions: ["$.objective.maximize", "did you mean \"fresh_glance_pct\"?"]),
    BadSweep(
      label: "objective with both goals", sweep: #"{"parameters": [{"path": "seed", "values": [1]}]}"#,
      objective: #"{"maximize": "fresh_glance_pct", "minimize": "backend_peak_rps"}"#,
      mentions: ["$.objective.minimize", "keep one"]),
    BadSweep(
      label: "constraint without a bound", sweep: #"{"parameters": [{"path": "seed", "values": [1]}]}"#,
      objective: #"{"maximize": "fresh_glance_pct", "subject_to": [{"metric": "backend_peak_rps"}]}"#,
      mentions: ["$.objective.subject_to[0]", "neither \"min\" nor \"max\""]),
    BadSweep(
      label: "constraint metric typo", sweep: #"{"parameters": [{"path": "seed", "values": [1]}]}"#,
      objective: #"{"minimize": "budgeted_reloads_per_widget_day", "subject_to": [{"metric": "dry_widget_days_pct", "max": 1}]}"#,
      mentions: ["$.objective.subject_to[0].metric", "did you mean \"frozen_widget_day_pct\"?"]),
  ]

  @Test(arguments: badSweeps)
  func badSweepsAreRefusedWithTheirPath(_ c: BadSweep) {
    switch CLITesting.sweepPoints(Self.scenario(sweep: c.sweep, objective: c.objective), file: "s.json") {
    case .success(let p): Issue.record("\(c.label): accepted, \(p.count) points")
    case .failure(let e):
      #expect(e.exitCode == 2)
      #expect(e.message.hasPrefix("s.json: $."), "\(e.message)")
      #expect(e.message.contains("(fix: "), "\(e.message)")
      for m in c.mentions { #expect(e.message.contains(m), "'\(m)' not in: \(e.message)") }
    }
  }
}
