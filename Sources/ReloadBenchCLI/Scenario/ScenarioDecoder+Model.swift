import Foundation
import ReloadEngine
import WidgetModel

extension ScenarioDecoder {
  /// A strategy of `strategies`: a preset's or a registered strategy's
  /// name (`registry`), or an object that may start from one.
  static func strategy(
    _ v: JSONValue, path: String, log: SchemaAccessLog?, kinds: [String], registry: StrategyRegistry
  ) throws(ScenarioError) -> Strategy {
    if case .string(let name) = v {
      // Validation already checked the name against the registry.
      guard let s = registry.strategy(named: name) else {
        throw ScenarioError(
          path: path, message: "\(TerminalText.quoted(name)) is not a strategy", fix: hint(name, registry.names))
      }
      return s
    }
    let r = SchemaReader(v, ScenarioSchema.strategy, path: path, log: log)
    let base = r.optionalString("preset").flatMap { registry.strategy(named: $0) }
    guard r.has("timeline") || base != nil else {
      throw ScenarioError(
        path: path, message: "has neither \"preset\" nor \"timeline\"",
        fix: "add \"preset\": one of \(registry.names.joined(separator: ", ")), or a \"timeline\"")
    }
    if let base, base.code != nil {
      // A Swift strategy's code returns every kind's timeline.
      for key in ["timeline", "kinds"] where r.has(key) {
        throw ScenarioError(
          path: "\(path).\(key)",
          message: "\(TerminalText.quoted(base.name)) is written in Swift: its code returns the timelines",
          fix: "remove \"\(key)\", or change the strategy's Swift code")
      }
    }
    guard let name = r.optionalString("name") ?? base?.name else {
      throw ScenarioError(
        path: "\(path).name", message: "is missing", fix: "name the strategy (it has no preset to take a name from)")
    }
    var timeline = base?.timeline ?? EntryTimeline(entries: 1, dating: .spaced, policy: .never)
    if let t = r.object("timeline", ScenarioSchema.timeline) { try overrideTimeline(&timeline, t) }
    var app = base?.app ?? AppBehaviour()
    if let a = r.object("app", ScenarioSchema.app) {
      if let b = a.optionalBool("reload_on_foreground") { app.reloadOnForeground = b }
      if let b = a.optionalBool("reload_on_silent_push") { app.reloadOnSilentPush = b }
      if a.has("bg_refresh_min") {
        app.backgroundRefreshInterval = a.optionalNumber("bg_refresh_min").map { .minutes($0) }
      }
      if let b = a.optionalBool("reload_kind_on_tap") { app.reloadKindOnTap = b }
      if let b = a.optionalBool("bg_refresh_reloads") { app.backgroundRefreshReloads = b }
      if let b = a.optionalBool("reload_on_change_while_running") { app.reloadOnChangeWhileRunning = b }
      if let b = a.optionalBool("writes_cache_while_running") { app.writesCacheWhileRunning = b }
    }
    var backend = base?.backend ?? BackendBehaviour()
    if let b = r.object("backend", ScenarioSchema.backend) {
      if b.has("silent_push") {
        backend.silentPush = try b.object("silent_push", ScenarioSchema.pushTrigger).map { t throws(ScenarioError) in
          try trigger(t, kinds: kinds)
        }
      }
      if b.has("widget_push") {
        backend.widgetPush = try b.object("widget_push", ScenarioSchema.pushTrigger).map { t throws(ScenarioError) in
          try trigger(t, kinds: kinds)
        }
      }
    }
    var perKind = [KindStrategy?](repeating: nil, count: kinds.count)
    for (i, v) in r.array("kinds").enumerated() {
      let k = SchemaReader(v, ScenarioSchema.kindStrategy, path: "\(r.path).kinds[\(i)]", log: r.log)
      let index = try kindIndex(k.string("kind"), path: "\(k.path).kind", kinds)
      if perKind[index] != nil {
        throw ScenarioError(
          path: "\(k.path).kind", message: "\(TerminalText.quoted(kinds[index])) is listed twice",
          fix: "merge the two entries")
      }
      var own = timeline
      if let t = k.object("timeline", ScenarioSchema.timeline) { try overrideTimeline(&own, t) }
      let data = k.optionalString("data").flatMap(DataSource.init(rawValue:)) ?? .fetch
      let maxAge = k.optionalNumber("max_age_min").map { SimDuration.minutes($0) }
      if maxAge != nil && data == .appCache {
        throw ScenarioError(
          path: "\(k.path).max_age_min", message: "is set but the kind reads the app's cache (data: app_cache)",
          fix: "remove max_age_min, or let the provider fetch (\"data\": \"fetch\")")
      }
      perKind[index] = KindStrategy(
        timeline: own, data: data, readsBeforeFirstUnlock: k.optionalBool("reads_before_first_unlock"),
        maxAge: maxAge)
    }
    var wakes: [WakeSource] = []
    for (i, v) in r.array("wakes").enumerated() {
      let w = SchemaReader(v, ScenarioSchema.wakeSource, path: "\(r.path).wakes[\(i)]", log: r.log)
      let type = WakeSource.SourceType(rawValue: w.string("type")) ?? .location
      let every = w.optionalNumber("every_min").map { SimDuration.minutes($0) }
      let perDay = w.number("per_day")
      var onChanges: Int? = nil
      if let k = w.optionalString("on_changes_of") {
        onChanges = try kindIndex(k, path: "\(w.path).on_changes_of", kinds)
      }
      let given = (every != nil ? 1 : 0) + (perDay > 0 ? 1 : 0) + (onChanges != nil ? 1 : 0)
      if type == .audio && given > 0 {
        throw ScenarioError(
          path: "\(w.path).type",
          message:
            "an audio source wakes at the segment's audio sessions; it takes no per_day, every_min or on_changes_of",
          fix: "remove them, or set audio_sessions_per_day on the segments")
      }
      if type != .audio && given != 1 {
        throw ScenarioError(
          path: "\(w.path)", message: "needs exactly one of per_day, every_min and on_changes_of",
          fix: "give \"per_day\" (a rate), \"every_min\" (a reading interval) or \"on_changes_of\" (a kind)")
      }
      let delay = try distribution(w.value("delivery_delay"), path: "\(w.path).delivery_delay", log: w.log)
      if type == .audio && !delay.isZero {
        throw ScenarioError(
          path: "\(w.path).delivery_delay", message: "an audio source runs the app at its session's start",
          fix: "remove delivery_delay from the audio source")
      }
      wakes.append(
        WakeSource(
          name: w.string("name"), type: type, perDay: perDay, profile: try profile(w, "profile"), every: every,
          fetches: w.bool("fetches"), onChangesOf: onChanges, deliveryDelay: delay))
    }
    try unique(wakes.map(\.name), path: "\(r.path).wakes", what: "wake source")
    var triggers: [AppTrigger] = []
    for (i, v) in r.array("triggers").enumerated() {
      let t = SchemaReader(v, ScenarioSchema.trigger, path: "\(r.path).triggers[\(i)]", log: r.log)
      let on = t.string("on")
      let event: AppEvent
      switch on {
      case "foreground": event = .foreground
      case "background": event = .background
      case "in_app": event = .inApp
      case "app_fetch": event = .appFetch
      case "bg_refresh": event = .backgroundRefresh
      case "silent_push": event = .silentPush
      case "tap": event = .tap
      default: event = .wake
      }
      var set = KindSet.all
      if t.has("kinds") {
        var indices: [Int] = []
        for (j, n) in t.array("kinds").enumerated() {
          guard case .string(let name) = n else { continue }
          indices.append(try kindIndex(name, path: "\(t.path).kinds[\(j)]", kinds))
        }
        set = KindSet(indices)
      }
      let perSession = t.number("per_session")
      let perDay = t.number("per_day")
      if event == .inApp && perSession == 0 && perDay == 0 {
        throw ScenarioError(
          path: "\(t.path)", message: "an in_app trigger needs per_session or per_day",
          fix: "add \"per_session\": events per app session, or \"per_day\"")
      }
      if event != .inApp && (perSession > 0 || perDay > 0) {
        throw ScenarioError(
          path: "\(t.path).on", message: "per_session and per_day only apply to in_app triggers",
          fix: "use \"on\": \"in_app\" or remove them")
      }
      var source: Int? = nil
      if let s = t.optionalString("source") {
        guard event == .wake else {
          throw ScenarioError(
            path: "\(t.path).source", message: "only a wake trigger names a source",
            fix: "use \"on\": \"wake\" or remove source")
        }
        guard let w = wakes.firstIndex(where: { $0.name == s }) else {
          let names = wakes.map(\.name)
          throw ScenarioError(
            path: "\(t.path).source", message: "\(TerminalText.quoted(s)) is not a wake source of this strategy",
            fix: names.isEmpty ? "add it to the strategy's \"wakes\"" : hint(s, names))
        }
        source = w
      }
      triggers.append(
        AppTrigger(
          on: event, kinds: set, calls: t.int("calls"), spacing: .seconds(t.number("spacing_s")),
          delay: .seconds(t.number("delay_s")), perSession: perSession, perDay: perDay,
          profile: try profile(t, "profile"), wakeSource: source, onlyIfChanged: t.bool("only_if_changed")))
    }
    return Strategy(
      name: name, timeline: timeline, app: app, backend: backend,
      kinds: perKind.contains { $0 != nil } ? perKind : base?.kinds ?? [],
      triggers: r.has("triggers") ? triggers : base?.triggers ?? [], wakes: r.has("wakes") ? wakes : base?.wakes ?? [],
      code: base?.code)
  }

  static func kindIndex(_ name: String, path: String, _ kinds: [String]) throws(ScenarioError) -> Int {
    guard let i = kinds.firstIndex(of: name) else {
      throw ScenarioError(
        path: path, message: "\(TerminalText.quoted(name)) is not a kind in $.kinds", fix: hint(name, kinds))
    }
    return i
  }

  /// A local clock time "HH:MM" as minutes after midnight (validation checked it).
  static func clock(_ v: JSONValue) -> Int {
    if case .string(let s) = v, let m = ClockTime.minutes(s) { return m }
    return 0
  }

  static func overrideTimeline(_ timeline: inout EntryTimeline, _ t: SchemaReader) throws(ScenarioError) {
    if let e = t.optionalNumber("entries") { timeline.entries = Int(e) }
    if let s = t.optionalNumber("spacing_min") { timeline.spacing = .minutes(s) }
    if let d = t.optionalString("dating") { timeline.dating = EntryTimeline.Dating(rawValue: d) ?? .spaced }
    let after = t.optionalNumber("after_min")
    let policy = t.optionalString("policy")
    if t.has("at") && policy != "after_time" {
      throw ScenarioError(
        path: "\(t.path).at", message: "is set but the policy is not \"after_time\"",
        fix: "add \"policy\": \"after_time\" or remove at")
    }
    switch policy {
    case "at_end": timeline.policy = .atEnd
    case "never": timeline.policy = .never
    case "after_time":
      let window: ClockWindow
      switch t.value("at") {
      case .array(let a) where a.count == 2:
        let from = clock(a[0])
        var to = clock(a[1])
        if to < from { to += 1440 }
        window = ClockWindow(fromMinute: from, toMinute: to)
      case .null:
        throw ScenarioError(
          path: "\(t.path).at", message: "is missing for policy \"after_time\"",
          fix: "add \"at\": a local time like \"13:10\" or a window like [\"00:00\", \"00:30\"]")
      case let v:
        let m = clock(v)
        window = ClockWindow(fromMinute: m, toMinute: m)
      }
      timeline.policy = .atLocalTime(window)
    case "after":
      if let after {
        timeline.policy = .after(.minutes(after))
      } else if case .after = timeline.policy {
      } else {
        throw ScenarioError(
          path: "\(t.path).after_min", message: "is missing for policy \"after\"",
          fix: "add \"after_min\": the interval in minutes")
      }
    default:
      if let after {
        guard case .after = timeline.policy else {
          throw ScenarioError(
            path: "\(t.path).after_min", message: "is set but the policy is not \"after\"",
            fix: "add \"policy\": \"after\" or remove after_min")
        }
        timeline.policy = .after(.minutes(after))
      }
    }
    if t.has("on_failure") {
      if let f = t.object("on_failure", ScenarioSchema.failure) {
        let retry = f.array("retry_min").compactMap { v -> SimDuration? in
          if case .number(let d) = v { return .minutes(d) } else { return nil }
        }
        let p = f.optionalString("policy")
        if !f.bool("calls_completion") {
          for key in ["retry_min", "jitter_s", "policy", "placeholder"] where f.has(key) {
            throw ScenarioError(
              path: "\(f.path).\(key)", message: "is set but the provider never calls its completion handler",
              fix: "remove \(key) (no timeline is returned), or set \"calls_completion\": true")
          }
          timeline.onFailure = .completionNeverCalled
          return
        }
        if retry.isEmpty == (p == nil) {
          throw ScenarioError(
            path: f.path, message: "needs exactly one of retry_min and policy",
            fix: "give \"retry_min\": [10, 30, 60] (a backoff), \"policy\": \"never\" or \"calls_completion\": false")
        }
        timeline.onFailure = FailureBranch(
          retry: retry, jitter: .seconds(f.number("jitter_s")), policy: p == "at_end" ? .atEnd : .never,
          placeholder: f.bool("placeholder"))
      } else {
        timeline.onFailure = nil
      }
    }
  }

  static func trigger(_ r: SchemaReader, kinds: [String]) throws(ScenarioError) -> PushTrigger {
    var set = KindSet.all
    if r.has("kinds") {
      var indices: [Int] = []
      for (j, n) in r.array("kinds").enumerated() {
        guard case .string(let name) = n else { continue }
        indices.append(try kindIndex(name, path: "\(r.path).kinds[\(j)]", kinds))
      }
      set = KindSet(indices)
    }
    return PushTrigger(
      on: PushTrigger.Changes(rawValue: r.string("on")) ?? .all, coalesce: .minutes(r.number("coalesce_min")),
      kinds: set)
  }

  /// The `model` block: its profile's settings (`ModelProfile`, validation
  /// checked the name) laid over the defaults (`ModelParameters.standard`),
  /// then every parameter of the catalogue (`ModelParameter`) the block
  /// sets, read from its group's object.
  static func model(_ r: SchemaReader) throws(ScenarioError) -> ModelParameters {
    var model = ModelProfile.named(r.string(ScenarioSchema.profileKey))?.model ?? .standard
    for group in ModelParameterGroup.allCases {
      let g = groupReader(r, group)
      for p in ModelParameter.parameters(of: group) {
        let key = p.declaration.key
        guard g.has(key) else { continue }
        guard p.set(try parameterValue(g, p), in: &model) else {
          throw ScenarioError(
            path: "\(g.path).\(key)", message: "is not a value of this parameter",
            fix: "give \(ScenarioSchema.field(p).type.plainSummary)")
        }
      }
      if group == .budget && model.budget.minPerDay > model.budget.maxPerDay {
        throw ScenarioError(
          path: "\(g.path).\(ModelParameter.budgetMinPerDay.declaration.key)", message: "is above max_per_day",
          fix: "make min_per_day <= max_per_day")
      }
    }
    return model
  }

  /// The reader of `group`'s object (which the schema defaults to `{}`).
  static func groupReader(_ model: SchemaReader, _ group: ModelParameterGroup) -> SchemaReader {
    guard let parent = group.parent else { return model.defaultedObject(group.key, ScenarioSchema.object(group)) }
    return model.defaultedObject(parent, ScenarioSchema.wakeRules).defaultedObject(
      group.key, ScenarioSchema.object(group))
  }

  /// `parameter`'s value in its group's object (validated already).
  static func parameterValue(_ g: SchemaReader, _ parameter: ModelParameter) throws(ScenarioError) -> ParameterValue {
    let key = parameter.declaration.key
    switch parameter.declaration.kind {
    case .choice: return .choice(g.string(key))
    case .integer, .number: return .number(g.number(key))
    case .flag: return .flag(g.bool(key))
    case .optionalInteger, .optionalNumber: return g.optionalNumber(key).map(ParameterValue.number) ?? .null
    case .distribution(let named):
      let v = g.value(key)
      if case .string(let name) = v, let n = named.first(where: { $0.name == name }) { return .distribution(n.value) }
      return .distribution(try distribution(v, path: "\(g.path).\(key)", log: g.log))
    }
  }

  static func energy(_ r: SchemaReader) -> EnergyModel {
    EnergyModel(
      extensionLaunchMillijoules: r.number("extension_launch_mj"), appWakeMillijoules: r.number("app_wake_mj"),
      fetchMillijoules: r.number("fetch_mj"))
  }
}
