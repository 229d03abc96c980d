import Foundation
import ReloadEngine
import ReloadMetrics
import WidgetModel

/// Scenario files to `Scenario` values: parse with Foundation, validate
/// against `ScenarioSchema`, read typed values with the schema's defaults,
/// then check what the schema alone cannot (names that must match, ranges
/// that depend on other fields).
enum ScenarioDecoder {
  /// A decoded file is a `LoadedScenario` (one type, whether read from
  /// disk or made for a sweep point).
  typealias File = LoadedScenario

  /// Decodes `data`; errors carry the JSON path of the offending field.
  /// `strategies`: the names `strategies` may use besides the presets.
  static func decode(
    _ data: Data, strategies: StrategyRegistry, log: SchemaAccessLog? = nil
  ) throws(ScenarioError) -> (Scenario, JSONValue) {
    let file = try decodeFile(data, strategies: strategies, log: log)
    return (file.scenario, file.json)
  }

  /// Decodes `data` with its sweep, objective and checks (`path` is left
  /// empty: `ScenarioLoader` fills it in).
  static func decodeFile(
    _ data: Data, strategies: StrategyRegistry, log: SchemaAccessLog? = nil
  ) throws(ScenarioError) -> LoadedScenario {
    let json: JSONValue
    do {
      json = try JSONValue.parse(data)
    } catch {
      throw parseError(error)
    }
    return try decode(json: json, strategies: strategies, log: log)
  }

  /// The parser's error as a scenario error.
  static func parseError(_ error: JSONParseError) -> ScenarioError {
    switch error.kind {
    case .duplicateKey(let key):
      return ScenarioError(
        path: error.path,
        message: "the key \(TerminalText.quoted(key)) is given twice in one object (\(error.location))",
        fix: "keep one \(TerminalText.quoted(key)): JSON would silently use the last")
    case .tooDeep:
      return ScenarioError(
        path: error.path, message: "arrays and objects nest more than \(JSONLimits.maxDepth) deep (\(error.location))",
        fix: "a scenario nests at most 6 deep; see \"Limits\" in Scenarios/README.md")
    case .notRepresentable:
      return ScenarioError(
        path: error.path, message: "not valid JSON at \(error.location)",
        fix: "write the number as an ordinary value (\(error.detail))")
    case .syntax:
      return ScenarioError(
        path: "$", message: "not valid JSON at \(error.location)",
        fix: "check for a missing comma, quote or bracket near there (\(error.detail))")
    }
  }

  /// Validates and decodes an already parsed file (a sweep point's JSON).
  /// `expect` and `check` are read here, once, and kept.
  static func decode(
    json: JSONValue, strategies: StrategyRegistry, log: SchemaAccessLog? = nil
  ) throws(ScenarioError) -> LoadedScenario {
    try checkProfile(json)
    try SchemaValidator.validate(json, .object(ScenarioSchema.root(accepting: strategies)), path: "$")
    let root = SchemaReader(json, ScenarioSchema.root, path: "$", log: log)
    let version = try modelVersion(root)
    let scenario = try self.scenario(root, strategies: strategies)
    let checks = try checkSpec(root, scenario: scenario)
    return LoadedScenario(
      path: "", scenario: scenario, json: json, sweep: try sweep(root), objective: try objective(root),
      checkSpec: checks, versionWarning: versionWarning(root, version: version),
      clockWarnings: clockWarnings(root, scenario: scenario), robustness: try robustness(root))
  }

  static func scenario(_ r: SchemaReader, strategies registry: StrategyRegistry) throws(ScenarioError) -> Scenario {
    _ = r.value("$schema")
    if r.has("extends") {
      // ScenarioLoader resolves and removes it; only JSON decoded from memory gets here.
      throw ScenarioError(
        path: "$.extends", message: "names a file, but this scenario was not read from a file",
        fix: "run it from a file (reloadbench run FILE), or copy in the settings of the file it extends")
    }
    let name = r.string("name")
    let allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.")
    if name.isEmpty || name.count > 100 || name.unicodeScalars.contains(where: { !allowed.contains($0) })
      || name.hasPrefix(".")
    {
      throw ScenarioError(
        path: "$.name", message: "\(TerminalText.quoted(name)) cannot name a report folder",
        fix: "use 1-100 letters, digits, '-', '_' or '.', not starting with '.'")
    }
    let days = r.number("days")
    let warmup = r.number("warmup_days")
    if warmup >= days {
      throw ScenarioError(
        path: "$.warmup_days", message: "warm-up (\(fmt(warmup)) days) leaves nothing of a \(fmt(days))-day run",
        fix: "make warmup_days smaller than days")
    }
    let kinds = try r.array("kinds").enumerated().map { (i, v) throws(ScenarioError) in
      try kind(SchemaReader(v, ScenarioSchema.kind, path: "$.kinds[\(i)]", log: r.log), days: days)
    }
    try unique(kinds.map(\.name), path: "$.kinds", what: "kind")
    var segments: [Segment] = []
    for (i, v) in r.array("segments").enumerated() {
      segments.append(
        try segment(SchemaReader(v, ScenarioSchema.segment, path: "$.segments[\(i)]", log: r.log), kinds: kinds))
    }
    try unique(segments.map(\.name), path: "$.segments", what: "segment")
    if let i = segments.firstIndex(where: { $0.name == "all" }) {
      throw ScenarioError(
        path: "$.segments[\(i)].name", message: "\"all\" is reserved for the whole population",
        fix: "choose another segment name")
    }
    let hasWidgets = segments.contains { s in s.widgets.contains { $0.probability > 0 } }
    if !hasWidgets {
      throw ScenarioError(
        path: "$.segments", message: "no device can have a widget (every slot has probability 0)",
        fix: "give at least one widget slot a probability above 0")
    }
    var strategies: [Strategy] = []
    for (i, v) in r.array("strategies").enumerated() {
      strategies.append(
        try strategy(v, path: "$.strategies[\(i)]", log: r.log, kinds: kinds.map(\.name), registry: registry))
    }
    try unique(strategies.map(\.name), path: "$.strategies", what: "strategy")
    let devices = r.int("devices")
    var scenario = Scenario(
      name: name, description: r.string("description"), seed: UInt64(r.number("seed")), days: days,
      warmupDays: warmup, devices: devices, fleetDevices: r.optionalNumber("fleet_devices"),
      replications: r.int("replications"), segments: segments, kinds: kinds, strategies: strategies,
      model: try model(r.defaultedObject("model", ScenarioSchema.model)),
      energy: energy(r.defaultedObject("energy", ScenarioSchema.energy)),
      engine: EngineMode(rawValue: r.string("engine")) ?? .elided,
      startWeekday: Weekday(name: r.string("start_weekday")) ?? .monday)
    scenario.title = r.optionalString("title")
    scenario.liveActivities = try liveActivities(r, kinds: kinds.map(\.name))
    return scenario
  }

  static func unique(_ names: [String], path: String, what: String) throws(ScenarioError) {
    var seen: Set<String> = []
    for (i, n) in names.enumerated() {
      if n.isEmpty {
        throw ScenarioError(path: "\(path)[\(i)].name", message: "is empty", fix: "give the \(what) a name")
      }
      if !seen.insert(n).inserted {
        throw ScenarioError(
          path: "\(path)[\(i)].name",
          message: "\(TerminalText.quoted(n)) is the name of two \(what == "strategy" ? "strategies" : what + "s")",
          fix: "give each \(what) its own name")
      }
    }
  }

  static func fmt(_ d: Double) -> String { SchemaValidator.format(d) }

  // MARK: - Parts

  static func kind(_ r: SchemaReader, days: Double) throws(ScenarioError) -> WidgetKindSpec {
    let scope = ContentScope(rawValue: r.string("scope")) ?? .perUser
    if scope == .perUser {
      // Per-user content follows each device's own clock: a feed's clock would be read by nothing.
      for part in ["scheduled", "unpredictable"] {
        if let o = r.object(part, part == "scheduled" ? ScenarioSchema.scheduled : ScenarioSchema.unpredictable),
          o.has("utc_offset_h")
        {
          throw ScenarioError(
            path: "\(o.path).utc_offset_h",
            message: "is the clock of shared content, but this kind's scope is per_user (each device's own clock)",
            fix: "remove utc_offset_h, or set \"scope\": \"shared\" for one feed on one clock for every user")
        }
      }
    }
    var scheduled: ScheduledChanges? = nil
    if let s = r.object("scheduled", ScenarioSchema.scheduled) {
      scheduled = try self.scheduled(s, days: days)
    }
    var unpredictable: UnpredictableChanges? = nil
    if let u = r.object("unpredictable", ScenarioSchema.unpredictable) {
      var bursts: Bursts? = nil
      if let b = u.object("bursts", ScenarioSchema.bursts) {
        let from = b.int("from_hour")
        let to = b.int("to_hour")
        if to <= from {
          throw ScenarioError(
            path: "\(b.path).to_hour", message: "\(to) is not after from_hour \(from)",
            fix: "make to_hour greater than from_hour")
        }
        bursts = Bursts(
          dailyProbability: b.number("daily_probability"), fromHour: from, toHour: to,
          duration: .minutes(b.number("duration_min")), perHour: b.number("per_hour"))
      }
      unpredictable = UnpredictableChanges(
        perDay: u.number("per_day"), profile: try profile(u, "profile"), bursts: bursts,
        sharedUTCOffsetHours: u.number("utc_offset_h"), weekendFactor: u.number("weekend_factor"))
    }
    var failure: FetchFailure? = nil
    if let f = r.object("fetch_failure", ScenarioSchema.fetchFailure) {
      let from = f.number("outage_from_hour")
      let to = f.number("outage_to_hour")
      if to != from && (to < from || to - from > 24) {
        throw ScenarioError(
          path: "\(f.path).outage_to_hour",
          message: "\(fmt(to)) is not within 24 h after outage_from_hour \(fmt(from))",
          fix: "make outage_to_hour later than outage_from_hour (26 = 02:00 the next day)")
      }
      failure = FetchFailure(
        probability: f.number("probability"), outageFromHour: from, outageToHour: to,
        whenUnpublished: f.bool("when_unpublished"))
    }
    var sessionChanges: SessionChanges? = nil
    if let s = r.object("session_changes", ScenarioSchema.sessionChanges) {
      if scope == .shared {
        throw ScenarioError(
          path: "\(s.path)", message: "is per user (the app's own sessions) but the kind is shared",
          fix: "remove session_changes, or make the kind \"scope\": \"per_user\"")
      }
      sessionChanges = SessionChanges(
        session: SessionChanges.Session(rawValue: s.string("session")) ?? .foreground, atStart: s.bool("at_start"),
        perHour: s.number("per_hour"))
    }
    return WidgetKindSpec(
      name: r.string("name"), scope: scope, scheduled: scheduled,
      unpredictable: unpredictable, tolerance: .minutes(r.number("tolerance_min")), interactive: r.bool("interactive"),
      fetchFailure: failure, sessionChanges: sessionChanges)
  }

  static func profile(_ r: SchemaReader, _ key: String) throws(ScenarioError) -> [Double] {
    switch r.value(key) {
    case .string(let s): return DailyProfile(rawValue: s)?.weights ?? DailyProfile.flat.weights
    case .array(let a):
      let w = a.map { v -> Double in if case .number(let d) = v { return d } else { return 0 } }
      if w.reduce(0, +) <= 0 {
        throw ScenarioError(
          path: "\(r.path).\(key)", message: "all 24 weights are 0", fix: "give at least one hour a positive weight")
      }
      return w
    default: return DailyProfile.flat.weights
    }
  }

  static func distribution(_ v: JSONValue, path: String, log: SchemaAccessLog?) throws(ScenarioError)
    -> DurationDistribution
  {
    guard case .object(let o) = v, case .string(let tag)? = o["dist"],
      let variant = ScenarioSchema.distributionVariants.first(where: { $0.tag == tag })
    else { return .constant(.zero) }
    let r = SchemaReader(v, variant.object, path: path, log: log)
    _ = r.value("dist")
    switch tag {
    case "constant": return .constant(.seconds(r.number("value_s")))
    case "uniform":
      let lo = r.number("min_s")
      let hi = r.number("max_s")
      if hi < lo {
        throw ScenarioError(
          path: "\(path).max_s", message: "\(fmt(hi)) is below min_s \(fmt(lo))", fix: "make max_s >= min_s")
      }
      return .uniform(.seconds(lo), .seconds(hi))
    case "exponential": return .exponential(mean: .seconds(r.number("mean_s")))
    case "lognormal": return .logNormal(median: .seconds(r.number("median_s")), sigma: r.number("sigma"))
    default:
      return .lateOrEarly(
        median: .seconds(r.number("median_s")), sigma: r.number("sigma"),
        earlyProbability: r.number("early_probability"), earlyMax: .seconds(r.number("early_max_s")))
    }
  }

  static func hourRange(_ r: SchemaReader, _ key: String) -> ClosedRange<Int> {
    let a = r.array(key).map { v -> Int in if case .number(let d) = v { return Int(d) } else { return 0 } }
    return min(a[0], a[1])...max(a[0], a[1])
  }

  static func segment(_ r: SchemaReader, kinds: [WidgetKindSpec]) throws(ScenarioError) -> Segment {
    let wake = hourRange(r, "wake_hour")
    let sleep = hourRange(r, "sleep_hour")
    if sleep.lowerBound <= wake.upperBound || sleep.upperBound - wake.lowerBound > 24 {
      throw ScenarioError(
        path: "\(r.path).sleep_hour", message: "sleep hours \(sleep) must come after wake hours \(wake), within 24 h",
        fix: "use a later sleep hour (e.g. 23, or 25 for 01:00)")
    }
    let offsets = r.array("utc_offsets").enumerated().map { (i, v) in
      let o = SchemaReader(v, ScenarioSchema.offset, path: "\(r.path).utc_offsets[\(i)]", log: r.log)
      return WeightedOffset(hours: o.number("hours"), weight: o.number("weight"))
    }
    var slots: [WidgetSlot] = []
    var perDevice = 0
    for (i, v) in r.array("widgets").enumerated() {
      let w = SchemaReader(v, ScenarioSchema.widgetSlot, path: "\(r.path).widgets[\(i)]", log: r.log)
      let name = w.string("kind")
      guard let k = kinds.firstIndex(where: { $0.name == name }) else {
        let hint =
          SchemaValidator.nearest(name, in: kinds.map(\.name)).map { "did you mean \"\($0)\"?" }
          ?? "use one of " + TerminalText.list(kinds.map(\.name))
        throw ScenarioError(
          path: "\(w.path).kind", message: "\(TerminalText.quoted(name)) is not a kind in $.kinds", fix: hint)
      }
      let count = w.int("count")
      perDevice += count
      slots.append(
        WidgetSlot(
          kind: k, placement: Placement(rawValue: w.string("placement")) ?? .homeFirstPage, count: count,
          probability: w.number("probability")))
    }
    if perDevice > 64 {
      throw ScenarioError(
        path: "\(r.path).widgets", message: "up to \(perDevice) widgets per device",
        fix: "keep the counts' sum at or below 64")
    }
    let lpm = r.defaultedObject("low_power_mode", ScenarioSchema.lowPower)
    if lpm.int("to_hour") <= lpm.int("from_hour") {
      throw ScenarioError(
        path: "\(lpm.path).to_hour", message: "is not after from_hour",
        fix: "make to_hour greater than from_hour (25 = 01:00 next day)")
    }
    let sb = r.defaultedObject("standby", ScenarioSchema.standby)
    let standby = StandByHabit(
      viewsPerDay: sb.number("views_per_day"), fromHour: sb.int("from_hour"), toHour: sb.int("to_hour"))
    if standby.toHour <= standby.fromHour || standby.toHour - standby.fromHour > 24 {
      throw ScenarioError(
        path: "\(sb.path).to_hour",
        message: "\(standby.toHour) is not within 24 hours after from_hour \(standby.fromHour)",
        fix: "make to_hour greater than from_hour, at most 24 hours later (31 = 07:00 next morning)")
    }
    return Segment(
      name: r.string("name"), weight: r.number("weight"), utcOffsets: offsets, wakeHour: wake, sleepHour: sleep,
      homeViewsPerDay: r.number("home_views_per_day"), lockViewsPerDay: r.number("lock_views_per_day"),
      viewProfile: try profile(r, "view_profile"), appSessionsPerDay: r.number("app_sessions_per_day"),
      sessionProfile: try profile(r, "session_profile"),
      sessionLength: try distribution(r.value("session_length"), path: "\(r.path).session_length", log: r.log),
      audioSessionsPerDay: r.number("audio_sessions_per_day"),
      audioLength: try distribution(r.value("audio_length"), path: "\(r.path).audio_length", log: r.log),
      tapsPerDay: r.number("taps_per_day"),
      lowPowerMode: LowPowerHabit(
        share: lpm.number("share"), dailyProbability: lpm.number("daily_probability"), fromHour: lpm.int("from_hour"),
        toHour: lpm.int("to_hour")),
      backgroundRefreshOffShare: r.number("background_refresh_off_share"), forceQuitShare: r.number("force_quit_share"),
      forceQuitProbability: r.number("force_quit_probability"),
      settingsChangesPer30Days: r.number("settings_changes_per_30_days"),
      widgetAddsPer30Days: r.number("widget_adds_per_30_days"), widgets: slots,
      watchViewsPerDay: r.number("watch_views_per_day"), standby: standby,
      weekendViewsFactor: r.number("weekend_views_factor"), weekendSessionsFactor: r.number("weekend_sessions_factor"),
      restartsPer30Days: r.number("restarts_per_30_days"))
  }
}
