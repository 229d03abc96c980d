import ReloadEngine
import WidgetModel

extension ScenarioDecoder {
  /// The `live_activities` block (docs/model.md#live-activities).
  static func liveActivities(_ r: SchemaReader, kinds: [String]) throws(ScenarioError) -> LiveActivitySpec? {
    guard let a = r.object("live_activities", ScenarioSchema.liveActivities) else { return nil }
    let bytes = a.int("content_bytes")
    if bytes > LiveActivitySpec.contentLimitBytes {
      throw ScenarioError(
        path: "\(a.path).content_bytes",
        message: "\(bytes) bytes is more than ActivityKit's 4 KB (4096 bytes) for an activity's data",
        fix: "send less in the content state (an identifier, not the data), at most 4096")
    }
    var events: [ActivityEvent] = []
    for (i, v) in a.array("events").enumerated() {
      let e = SchemaReader(v, ScenarioSchema.activityEvent, path: "\(a.path).events[\(i)]", log: r.log)
      let kind = try kindIndex(e.string("kind"), path: "\(e.path).kind", kinds)
      let at = e.has("at") ? SimDuration.minutes(Double(clock(e.value("at")))) : nil
      let perDay = e.optionalNumber("per_day")
      let sessions = e.optionalString("sessions").flatMap(SessionChanges.Session.init(rawValue:))
      if [at != nil, perDay != nil, sessions != nil].filter({ $0 }).count != 1 {
        throw ScenarioError(
          path: e.path,
          message: "needs exactly one of at (a shared event each day), per_day (each user's own) and sessions",
          fix: "give \"at\": \"20:00\", \"per_day\": 0.5 or \"sessions\": \"foreground\"")
      }
      if sessions == nil && !e.has("length") {
        throw ScenarioError(
          path: e.path, message: "needs length (how long the event lasts)",
          fix: "give \"length\": {\"dist\": \"constant\", \"value_s\": 3600}")
      }
      if sessions != nil && e.has("length") {
        throw ScenarioError(
          path: "\(e.path).length", message: "is set but the event is the app's session, as long as it",
          fix: "remove length")
      }
      var days: [Int] = []
      for (j, d) in e.array("days").enumerated() {
        guard case .number(let x) = d else { continue }
        if at == nil {
          throw ScenarioError(
            path: "\(e.path).days[\(j)]", message: "is for an event at a clock time", fix: "remove days")
        }
        days.append(Int(x))
      }
      var event = ActivityEvent(
        name: e.string("name"), kind: kind, at: at, days: days, perDay: perDay ?? 0,
        length: e.has("length")
          ? try distribution(e.value("length"), path: "\(e.path).length", log: r.log) : .constant(.minutes(30)),
        share: e.number("share"), start: ActivityEvent.Start(rawValue: e.string("start")) ?? .pushToStart)
      event.sessions = sessions
      events.append(event)
    }
    try unique(events.map(\.name), path: "\(a.path).events", what: "event")
    var strategies: [ActivityStrategy] = []
    for (i, v) in a.array("strategies").enumerated() {
      let path = "\(a.path).strategies[\(i)]"
      if case .string(let name) = v {
        guard let p = ActivityStrategy.preset(named: name) else {
          throw ScenarioError(
            path: path, message: "\(TerminalText.quoted(name)) is not a Live Activity preset",
            fix: "use one of " + ActivityStrategy.presets.map { "\"\($0.0.name)\"" }.joined(separator: ", "))
        }
        strategies.append(p)
        continue
      }
      let s = SchemaReader(v, ScenarioSchema.activityStrategy, path: path, log: r.log)
      var strategy = ActivityStrategy(name: s.string("name"))
      if let p = s.optionalString("preset"), let base = ActivityStrategy.preset(named: p) {
        strategy = base
        strategy.name = s.string("name")
      }
      if let p = s.optionalString("priority") { strategy.priority = ActivityStrategy.Priority(rawValue: p) ?? .high }
      if let c = s.optionalNumber("coalesce_s") { strategy.coalesce = .seconds(c) }
      if let l = s.optionalBool("local_while_running") { strategy.localWhileRunning = l }
      if let f = s.optionalBool("frequent_updates") { strategy.frequentUpdates = f }
      if s.has("stale_after_min") { strategy.staleAfter = s.optionalNumber("stale_after_min").map { .minutes($0) } }
      if let e = s.optionalString("end") { strategy.end = ActivityStrategy.End(rawValue: e) ?? .push }
      if let d = s.optionalString("dismissal") {
        strategy.dismissal = ActivityStrategy.Dismissal(rawValue: d) ?? .default
      }
      if let m = s.optionalNumber("dismissal_after_min") {
        if strategy.dismissal != .after {
          throw ScenarioError(
            path: "\(path).dismissal_after_min", message: "is set but the dismissal is not \"after\"",
            fix: "set \"dismissal\": \"after\", or remove dismissal_after_min")
        }
        strategy.dismissalAfter = .minutes(m)
      }
      if let v = s.optionalString("push_via") { strategy.pushVia = ActivityStrategy.PushVia(rawValue: v) ?? .token }
      if let a = s.optionalString("alert") { strategy.alert = ActivityStrategy.Alert(rawValue: a) ?? .none }
      if strategy.alert == .end && strategy.end != .push {
        throw ScenarioError(
          path: "\(path).alert", message: "is \"end\" but the activity is not ended by a push",
          fix: "set \"end\": \"push\", or another alert")
      }
      strategies.append(strategy)
    }
    try unique(strategies.map(\.name), path: "\(a.path).strategies", what: "Live Activity strategy")
    return LiveActivitySpec(
      events: events, strategies: strategies, switchedOffShare: a.number("switched_off_share"), contentBytes: bytes)
  }
}
