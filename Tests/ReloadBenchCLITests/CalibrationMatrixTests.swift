import Foundation
import Testing

/// The calibration recovery matrix, small (the full one is
/// scripts/calibration-matrix.py, run by .ci/run; Scenarios/README.md,
/// "Calibration recovery matrix"): ordinary widgets polling every 10 to 30
/// minutes, whose requests the budget holds back, give B and the accrual
/// with no saturated cohort; widgets it never holds give no B.
@Suite struct CalibrationMatrixTests {
  /// One widget per device polling every `pollMin` minutes, users awake
  /// 15-16 hours, with or without the app's reload calls (foreground
  /// reloads and background reloads after silent pushes), lateness 0-2 min.
  /// The same scenario as scripts/calibration-matrix.py's, smaller.
  static func scenario(
    accrual: String, budget: Int, pollMin: Int, app: Bool, devices: Int = 30, days: Int = 6, burst: Double? = nil
  ) -> String {
    let size = burst.map { #", "token_bucket_burst_fraction": \#($0)"# } ?? ""
    let appBlock =
      app
      ? #", "app": {"reload_on_foreground": true, "reload_on_silent_push": true}, "#
        + #""backend": {"silent_push": {"on": "unpredictable", "coalesce_min": 30}}"# : ""
    return """
      {
        "name": "matrix", "seed": \(7 + budget + pollMin), "days": \(days), "warmup_days": 0, "devices": \(devices),
        "model": {
          "budget": {"accrual": "\(accrual)", "max_per_day": \(budget), "full_budget_views_per_day": 0\(size)},
          "reload": {"lateness": {"dist": "uniform", "min_s": 0, "max_s": 120}}
        },
        "kinds": [{"name": "live", "unpredictable": {"per_day": 24, "profile": "daytime"}}],
        "segments": [{
          "name": "users", "wake_hour": [7, 8], "sleep_hour": [22, 23], "home_views_per_day": 60,
          "app_sessions_per_day": \(app ? 3 : 0), "widgets": [{"kind": "live"}]
        }],
        "strategies": [{
          "name": "deployed", "preset": "poll-60m",
          "kinds": [{"kind": "live", "timeline": {"policy": "after", "after_min": \(pollMin)}}]\(appBlock)
        }]
      }
      """
  }

  static func verdict(_ f: CalibrateCommandTests.Fitted, _ key: String) -> [String: Any]? {
    (f.json["assumptions"] as? [[String: Any]])?.first { $0["assumption"] as? String == key }
  }

  static func fit(_ scenario: String) throws -> CalibrateCommandTests.Fitted {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    return try CalibrateCommandTests.emitAndFit(scenario, in: dir)
  }

  /// The model's reading of each kind, as `Assumption.budgetAccrual` names it.
  static func readingName(_ accrual: String) -> String { accrual == "sliding_window" ? "sliding_window" : "default" }

  @Test(arguments: [
    ("sliding_window", 40, 15, false), ("token_bucket", 40, 15, true), ("sliding_window", 50, 10, true),
    ("token_bucket", 70, 10, false),
  ])
  func heldRequestsGiveBAndTheAccrual(accrual: String, budget: Int, pollMin: Int, app: Bool) throws {
    let f = try Self.fit(Self.scenario(accrual: accrual, budget: budget, pollMin: pollMin, app: app))
    #expect(f.choice("budget.accrual") == accrual, "\(f.describe("budget.accrual"))")
    let b = f.parameter("budget.max_per_day")?["estimate"] as? Double ?? .nan
    #expect(abs(b - Double(budget)) <= 0.1 * Double(budget), "\(f.describe("budget.max_per_day"))")
    // calibration.json says which readings the log allows, by Assumption's names.
    let v = try #require(Self.verdict(f, "budget_accrual"))
    let allowed = v["allowed"] as? [String] ?? []
    let out = v["ruled_out"] as? [String] ?? []
    #expect(allowed.contains(Self.readingName(accrual)), "\(v)")
    let other = accrual == "sliding_window" ? "default" : "sliding_window"
    #expect(out.contains(other) && !allowed.contains(other), "\(v)")
  }

  @Test(arguments: [(0.1, "small_bucket"), (0.5, "large_bucket")])
  func aBucketsSizeIsToldBeyondTheModelsOwnQuarterOfB(burst: Double, reading: String) throws {
    // Each morning after a night without reloads starts with the capacity's burst.
    let f = try Self.fit(Self.scenario(accrual: "token_bucket", budget: 50, pollMin: 10, app: false, burst: burst))
    #expect(f.choice("budget.accrual") == "token_bucket", "\(f.describe("budget.accrual"))")
    let v = try #require(Self.verdict(f, "budget_accrual"))
    #expect(v["supported"] as? String == reading, "\(v)")
    #expect((v["allowed"] as? [String]) == [reading], "\(v)")
  }

  @Test func widgetsTheBudgetNeverHoldsGiveNoBAndAllowEveryReading() throws {
    // 30-minute polls over 15-16 awake hours ask about 32 times a day: a bucket of 70 never holds one.
    let f = try Self.fit(Self.scenario(accrual: "token_bucket", budget: 70, pollMin: 30, app: false))
    #expect(f.status("budget.max_per_day") != "identified", "\(f.describe("budget.max_per_day"))")
    #expect(f.status("budget.accrual") != "identified", "\(f.describe("budget.accrual"))")
    let v = try #require(Self.verdict(f, "budget_accrual"))
    #expect((v["ruled_out"] as? [String]) == [], "\(v)")
    #expect((v["note"] as? String)?.contains("held back too few") == true, "\(v)")
  }

  @Test func aFleetWhoseBudgetsDifferWithGlancesGivesTheOftenSeenWidgetsB() throws {
    // A third of the users glance 5 times a day (a smaller budget, docs/model.md#visibility), the rest 60 (B = 50):
    // one B for the log explains no hold, a B per device does; their median is the often-seen widgets' B.
    var s = Self.scenario(accrual: "token_bucket", budget: 50, pollMin: 15, app: false, devices: 45)
    s = s.replacingOccurrences(of: #", "full_budget_views_per_day": 0"#, with: "")
    s = s.replacingOccurrences(
      of: #""segments": [{"#,
      with: #""segments": [{"name": "rare", "weight": 1, "wake_hour": [7, 8], "sleep_hour": [22, 23], "#
        + #""home_views_per_day": 5, "widgets": [{"kind": "live"}]}, {"weight": 2, "#)
    let f = try Self.fit(s)
    #expect(f.choice("budget.accrual") == "token_bucket", "\(f.describe("budget.accrual"))")
    let b = f.parameter("budget.max_per_day")?["estimate"] as? Double ?? .nan
    #expect(abs(b - 50) <= 5, "\(f.describe("budget.max_per_day"))")
    #expect((f.parameter("budget.max_per_day")?["note"] as? String)?.contains("each device's B") == true)
  }

  /// A mixed fleet (Scenarios/README.md, "Calibration"): three widgets a
  /// device asking every 15, 30 and 60 minutes, the app's foreground and
  /// silent-push reloads, Low Power Mode on 30 % of the users' evenings,
  /// and a third of the users glancing 5 times a day (a smaller budget,
  /// docs/model.md#visibility) beside 60.
  static func mixedFleet(accrual: String, devices: Int = 45, days: Int = 6) -> String {
    let lowPower = #""low_power_mode": {"share": 0.3, "daily_probability": 0.7, "from_hour": 19, "to_hour": 23}"#
    let widgets = #""widgets": [{"kind": "k15"}, {"kind": "k30"}, {"kind": "k60"}]"#
    return """
      {
        "name": "mixed", "seed": 11, "days": \(days), "warmup_days": 0, "devices": \(devices),
        "model": {
          "budget": {"accrual": "\(accrual)", "max_per_day": 50, "low_power_multiplier": 0.5},
          "reload": {"lateness": {"dist": "uniform", "min_s": 0, "max_s": 120}}
        },
        "kinds": [
          {"name": "k15", "unpredictable": {"per_day": 24, "profile": "daytime"}},
          {"name": "k30", "unpredictable": {"per_day": 12, "profile": "daytime"}},
          {"name": "k60", "unpredictable": {"per_day": 6, "profile": "daytime"}}
        ],
        "segments": [
          {"name": "rare", "weight": 1, "wake_hour": [7, 8], "sleep_hour": [22, 23], "home_views_per_day": 5,
           "app_sessions_per_day": 1, \(lowPower), \(widgets)},
          {"name": "often", "weight": 2, "wake_hour": [7, 8], "sleep_hour": [22, 23], "home_views_per_day": 60,
           "app_sessions_per_day": 3, \(lowPower), \(widgets)}
        ],
        "strategies": [{
          "name": "deployed", "preset": "poll-60m",
          "kinds": [
            {"kind": "k15", "timeline": {"policy": "after", "after_min": 15}},
            {"kind": "k30", "timeline": {"policy": "after", "after_min": 30}},
            {"kind": "k60", "timeline": {"policy": "after", "after_min": 60}}
          ],
          "app": {"reload_on_foreground": true, "reload_on_silent_push": true},
          "backend": {"silent_push": {"on": "unpredictable", "coalesce_min": 30}}
        }]
      }
      """
  }

  @Test(arguments: [("token_bucket", "default"), ("sliding_window", "sliding_window")])
  func aMixedFleetFitsAndThePageAndCSVSayWhichReadingTheLogSupports(accrual: String, reading: String) throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let f = try CalibrateCommandTests.emitAndFit(Self.mixedFleet(accrual: accrual), in: dir)
    #expect(f.choice("budget.accrual") == accrual, "\(f.describe("budget.accrual"))")
    let b = f.parameter("budget.max_per_day")?["estimate"] as? Double ?? .nan
    #expect(abs(b - 50) <= 5, "\(f.describe("budget.max_per_day"))")
    // Some of the log's devices used Low Power Mode (30 % of the users).
    let share = f.parameter("observed.low_power_device_share")?["estimate"] as? Double ?? .nan
    #expect(share > 0.1 && share < 0.6, "\(f.describe("observed.low_power_device_share"))")
    // The verdict names the reading and rules out the other kind.
    let v = try #require(Self.verdict(f, "budget_accrual"))
    #expect(v["supported"] as? String == reading, "\(v)")
    let other = accrual == "sliding_window" ? "default" : "sliding_window"
    #expect((v["ruled_out"] as? [String])?.contains(other) == true, "\(v)")
    // calibration.csv carries the verdict: the supported reading, the runner-up's margin above zero.
    let csv = try String(contentsOf: dir.appendingPathComponent("fit/calibration.csv"), encoding: .utf8)
    let row = try #require(csv.split(separator: "\n").first { $0.hasPrefix("assumptions.budget_accrual,") })
    let cells = row.split(separator: ",", omittingEmptySubsequences: false)
    #expect(cells[1] == "supported" && cells[2] == Substring(reading), "\(row)")
    #expect((Double(cells[4]) ?? 0) > 0 && row.contains("runner-up: "), "\(row)")
    #expect(csv.contains("\nassumptions.min_interval,"))
    // calibration.html: the verdicts' table and the held requests, observed against the best and the runner-up.
    let html = try String(contentsOf: dir.appendingPathComponent("fit/calibration.html"), encoding: .utf8)
    #expect(html.contains("id=\"assumptions\"") && html.contains("<b>\(reading)</b>"))
    for id in ["cal-held-for", "cal-held-by-hour"] { #expect(html.contains("id=\"\(id)\""), "\(id)") }
    let names = (v["readings"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
    #expect(names.count == 4 && names.first == reading, "\(names)")
    for name in names.prefix(2) { #expect(html.contains("<th scope=\"col\">\(name) (B "), "\(name)") }
  }

  @Test func r1PollingEvery15MinutesGivesBOf50AndASlidingWindow() throws {
    // Scenarios/r1-polling.json at 40 devices: every widget asks 96 times a day and gets 50.
    var r1 = try String(
      contentsOf: repositoryRoot.appendingPathComponent("Scenarios/r1-polling.json"), encoding: .utf8)
    r1 = r1.replacingOccurrences(of: "\"devices\": 10000", with: "\"devices\": 40")
    r1 = r1.replacingOccurrences(of: "\"$schema\": \"./scenario.schema.json\",", with: "")
    let f = try Self.fit(r1)
    #expect(f.choice("budget.accrual") == "sliding_window", "\(f.describe("budget.accrual"))")
    let b = f.parameter("budget.max_per_day")?["estimate"] as? Double ?? .nan
    #expect(abs(b - 50) <= 5, "\(f.describe("budget.max_per_day"))")
    #expect((Self.verdict(f, "budget_accrual")?["allowed"] as? [String]) == ["sliding_window"])
  }
}
