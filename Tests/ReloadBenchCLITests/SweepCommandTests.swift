import Foundation
import Testing

/// `reloadbench sweep`, end to end on the built binary.
@Suite struct SweepCommandTests {
  static func write(_ data: Data, _ name: String, in dir: URL) throws {
    try data.write(to: dir.appendingPathComponent(name))
  }

  static let twoBudgets = #"{"parameters": [{"name": "budget", "path": "model.budget.max_per_day", "values": [20, 70]}]}"#

  @Test func sweepWritesCSVAndHTMLAndPrintsTheRecommendation() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    try Self.write(
      SweepSpecTests.scenario(
        sweep: Self.twoBudgets,
        objective: #"{"maximize": "fresh_glance_pct", "subject_to": [{"metric": "frozen_widget_day_pct", "max": 5}]}"#),
      "s.json", in: dir)
    let r = try Binary.run(["sweep", "s.json", "--out", "out"], in: dir)
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stderr.isEmpty)
    #expect(r.stdout.contains("point 1/2: budget = 20") && r.stdout.contains("point 2/2: budget = 70"))
    #expect(r.stdout.contains("Objective: maximize fresh_glance_pct subject to frozen_widget_day_pct <= 5"))
    #expect(r.stdout.contains("Best: ") && r.stdout.contains("Wrote out/{sweep.csv, sweep.html, sweep.json}"))
    let csv = try String(contentsOf: dir.appendingPathComponent("out/sweep.csv"), encoding: .utf8)
    let lines = csv.split(separator: "\n")
    #expect(lines[0].hasPrefix("scenario,point,budget,policy,segment,devices,widgets,widget_days,glances,fresh_glance_pct"))
    #expect(lines.count == 1 + 2 * 3 * 3, "2 points x 3 strategies x (2 segments + all)")
    #expect(lines[1].hasPrefix("grid,1,20,poll-15m,a,"))
    #expect(lines.last?.hasPrefix("grid,2,70,on-demand,all,") == true)
    let html = try String(contentsOf: dir.appendingPathComponent("out/sweep.html"), encoding: .utf8)
    #expect(html.contains("id=\"sweep-data\"") && html.contains("Best point and strategy"))
    #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("out/summary.csv").path))
  }

  /// The sweep answers its question per strategy: each strategy's best
  /// point (the best polling interval), checked against sweep.csv, in
  /// stdout, sweep.json and sweep.html (table, chart marks and labels).
  @Test func bestPointPerStrategyInStdoutJSONAndHTML() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    try Self.write(
      SweepSpecTests.scenario(
        sweep: #"{"parameters": [{"name": "interval", "path": "strategies[poll-15m].timeline.after_min", "values": [15, 60, 240]}]}"#,
        objective: #"{"minimize": "budgeted_reloads_per_widget_day", "subject_to": [{"metric": "acceptable_glance_pct", "min": 0}]}"#),
      "s.json", in: dir)
    let r = try Binary.run(["sweep", "s.json", "--out", "out"], in: dir)
    #expect(r.status == 0, "\(r.stderr)")
    // The expected answer, from sweep.csv: each strategy's fewest budgeted reloads.
    let csv = try String(contentsOf: dir.appendingPathComponent("out/sweep.csv"), encoding: .utf8)
    let lines = csv.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
    let column = try #require(lines[0].firstIndex(of: "budgeted_reloads_per_widget_day"))
    let all = lines.dropFirst().filter { $0[4] == "all" }
    func best(_ strategy: String) throws -> (interval: String, value: Double) {
      let rows = all.filter { $0[3] == strategy }.map { ($0[2], Double($0[column]) ?? .infinity) }
      return try #require(rows.min { $0.1 < $1.1 })
    }
    let poll = try best("poll-15m")
    let distinct = Set(all.filter { $0[3] == "poll-15m" }.map { $0[column] })
    #expect(distinct.count == 3, "the interval changes polling's budgeted reloads: \(distinct)")
    #expect(r.stdout.contains("Best per strategy:"))
    #expect(r.stdout.contains("  poll-15m at interval = \(poll.interval): budgeted_reloads_per_widget_day \(all.first { $0[3] == "poll-15m" && $0[2] == poll.interval }![column])"), "\(r.stdout)")
    #expect(r.stdout.contains("  hybrid (the same at every point): budgeted_reloads_per_widget_day"))

    let json = try #require(
      JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("out/sweep.json"))) as? [String: Any])
    #expect(json["points"] != nil && json["parameters"] != nil, "the sweep's results")
    let rec = try #require(json["recommendation"] as? [String: Any])
    let overall = try ["poll-15m", "hybrid", "on-demand"].map { ($0, try best($0).value) }.min { $0.1 < $1.1 }!.0
    #expect(rec["strategy"] as? String == overall)
    #expect(rec["meetsObjective"] as? Bool == true)
    #expect((rec["margins"] as? [String])?.first?.hasPrefix("acceptable_glance_pct ") == true)
    #expect((rec["findings"] as? [String])?.contains("Best per strategy:") == true)
    let per = try #require(rec["bestPerStrategy"] as? [[String: Any]])
    #expect(per.map { $0["strategy"] as? String } == ["poll-15m", "hybrid", "on-demand"])
    #expect((per[0]["values"] as? [String: String]) == ["interval": poll.interval])
    #expect(per[0]["sameAtEveryPoint"] as? Bool == false)
    #expect(per[0]["point"] as? Int == ["15", "60", "240"].firstIndex(of: poll.interval)! + 1)
    #expect(abs((per[0]["objectiveValue"] as? Double ?? -1) - poll.value) < 1e-9)
    #expect(per[1]["sameAtEveryPoint"] as? Bool == true && (per[1]["values"] as? [String: String]) == ["interval": "any"])
    #expect(per[1]["point"] == nil)

    let html = try String(contentsOf: dir.appendingPathComponent("out/sweep.html"), encoding: .utf8)
    #expect(html.contains("Best point per strategy") && html.contains(">Best interval</th>"))
    #expect(html.contains("<tr><th scope=\"row\">poll-15m</th><td>\(poll.interval)</td>") || overall == "poll-15m")
    // Each chart rings polling's best point and labels it with its interval.
    #expect(html.contains("poll-15m best: \(poll.interval)"))
    #expect(html.contains("recring best"))
    #expect(html.contains("poll-15m · \(poll.interval) (best poll-15m)") || overall == "poll-15m")
    #expect(html.contains("class=\"ref target\""), "the objective's target on the charts")
  }

  /// Points run one after another on all threads; the rows cannot depend
  /// on how many.
  @Test func csvIsByteIdenticalAcrossThreadCounts() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    var text = smallScenario(name: "det", devices: 700, days: 1.5, strategies: #"["poll-15m"]"#)
    text.removeLast(2)
    text += #", "sweep": {"parameters": [{"path": "segments[*].low_power_mode.share", "values": [0, 0.5]}]}}"#
    try Self.write(Data(text.utf8), "d.json", in: dir)
    var outputs: [Data] = []
    for threads in ["1", "2"] {
      let r = try Binary.run(["sweep", "d.json", "--threads", threads, "--out", "t\(threads)", "--quiet"], in: dir)
      #expect(r.status == 0, "\(r.stderr)")
      #expect(r.stdout.isEmpty)
      outputs.append(try Data(contentsOf: dir.appendingPathComponent("t\(threads)/sweep.csv")))
    }
    #expect(outputs[0] == outputs[1])
    #expect(outputs[0].count > 1000)
  }

  @Test func runOnASweepScenarioSweeps() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    try Self.write(SweepSpecTests.scenario(sweep: Self.twoBudgets), "s.json", in: dir)
    let r = try Binary.run(["run", "s.json", "--quiet"], in: dir)
    #expect(r.status == 0, "\(r.stderr)")
    for f in ["sweep.csv", "sweep.html", "sweep.json"] {
      #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("Reports/grid/\(f)").path), "\(f)")
    }
    let dry = try Binary.run(["sweep", "s.json", "--dry-run"], in: dir)
    #expect(dry.status == 0 && dry.stdout.contains("sweep: 2 points") && dry.stdout.contains("budget (model.budget.max_per_day): 20, 70"))
  }

  /// Without a sweep, an objective still chooses the recommended strategy.
  @Test func plainRunUsesTheObjectiveForItsRecommendation() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    var text = smallScenario(name: "plain")
    text.removeLast(2)
    text += #", "objective": {"minimize": "budgeted_reloads_per_widget_day", "subject_to": [{"metric": "fresh_glance_pct", "min": 0}]}}"#
    try Self.write(Data(text.utf8), "p.json", in: dir)
    let r = try Binary.run(["run", "p.json", "--out", "p"], in: dir)
    #expect(r.status == 0, "\(r.stderr)")
    // on-demand never spends budget: the cheapest of the three.
    #expect(r.stdout.contains("Recommended: on-demand, by the scenario's objective:"), "\(r.stdout)")
    #expect(r.stdout.contains("3 of 3 strategies meet every constraint"))
    let html = try String(contentsOf: dir.appendingPathComponent("p/report.html"), encoding: .utf8)
    #expect(html.contains("It minimises budgeted_reloads_per_widget_day"))
  }

  @Test func badSweepIsRefusedWithExitTwoAndNoOutput() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    try Self.write(
      SweepSpecTests.scenario(sweep: #"{"parameters": [{"path": "model.budget.max_per_day", "values": [40, 0]}]}"#),
      "bad.json", in: dir)
    for command in ["sweep", "run"] {
      let r = try Binary.run([command, "bad.json"], in: dir)
      #expect(r.status == 2)
      #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
      #expect(r.stderr.hasPrefix("error: bad.json: $.model.budget.max_per_day: must be at least 1, got 0"), "\(r.stderr)")
      #expect(r.stderr.contains("at sweep point 2: model.budget.max_per_day = 0"))
      #expect(r.stdout.isEmpty)
    }
    #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("Reports").path))
    try smallScenario(name: "plain").write(to: dir.appendingPathComponent("p.json"), atomically: true, encoding: .utf8)
    let plain = try Binary.run(["sweep", "p.json"], in: dir)
    #expect(plain.status == 2 && plain.stderr.contains("has no \"sweep\" block"))
  }

  /// The optimum is known by construction: polling every T minutes with a
  /// full budget and the night like the day costs about 1440 / T budgeted
  /// reloads per widget-day, and a shorter interval is fresher. With at
  /// most 50 reloads, the answer is the shortest interval that fits: 30
  /// minutes (about 48), not 20 (72); the runner-up is 45.
  @Test func recommendsTheShortestIntervalThatFitsTheBudget() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let scenario = """
      {
        "name": "optimum", "seed": 5, "days": 2, "warmup_days": 0.5, "devices": 40,
        "kinds": [{ "name": "k", "unpredictable": { "per_day": 48 } }],
        "segments": [{ "name": "s", "widgets": [{ "kind": "k" }] }],
        "strategies": [{ "name": "poll", "preset": "poll-15m" }],
        "model": { "budget": { "max_per_day": 1440, "full_budget_views_per_day": 0 }, "reload": { "while_asleep": "run" } },
        "sweep": { "parameters": [
          { "name": "interval_min", "path": "strategies[poll].timeline.after_min", "values": [60, 10, 45, 15, 30, 20] }
        ] },
        "objective": {
          "maximize": "fresh_glance_pct",
          "subject_to": [{ "metric": "budgeted_reloads_per_widget_day", "max": 50 }]
        }
      }
      """
    try Self.write(Data(scenario.utf8), "o.json", in: dir)
    let r = try Binary.run(["sweep", "o.json", "--out", "o"], in: dir)
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout.contains("3 of 6 choices (6 points x strategies) meet every constraint"), "\(r.stdout)")
    #expect(r.stdout.contains("Best: poll at interval_min = 30: fresh_glance_pct "), "\(r.stdout)")
    #expect(r.stdout.contains("Runner-up: poll at interval_min = 45: "), "\(r.stdout)")
    // The margin: about 50 - 48 budgeted reloads per widget-day.
    let margins = try #require(r.stdout.split(separator: "\n").first { $0.contains("Margins:") })
    let numbers = margins.split(separator: " ").compactMap { Double($0.trimmingCharacters(in: .punctuationCharacters)) }
    let used = try #require(numbers.first)
    #expect(used > 45 && used <= 50, "\(margins)")
    // Costs fall as the interval grows (check the model's side of the construction).
    let csv = try String(contentsOf: dir.appendingPathComponent("o/sweep.csv"), encoding: .utf8)
    let rows = csv.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false) }
    let header = rows[0]
    let interval = try #require(header.firstIndex(of: "interval_min"))
    let cost = try #require(header.firstIndex(of: "budgeted_reloads_per_widget_day"))
    let all = rows.dropFirst().filter { $0[header.firstIndex(of: "segment")!] == "all" }
    for row in all {
      let t = Double(row[interval])!
      let c = Double(row[cost])!
      #expect(abs(c - 1440 / t) < 0.05 * 1440 / t, "interval \(t): \(c) budgeted reloads")
    }
  }
}
