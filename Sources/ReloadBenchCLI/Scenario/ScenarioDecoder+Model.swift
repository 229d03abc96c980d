import Foundation
import ReloadEngine
import ReloadStrategies
import WidgetModel

extension ScenarioDecoder {
  static func strategy(_ v: JSONValue, path: String, log: SchemaAccessLog?) throws(ScenarioError) -> Strategy {
    if case .string(let name) = v {
      // Validation already checked the name against the catalog.
      return StrategyCatalog.preset(named: name)!.strategy
    }
    let r = SchemaReader(v, ScenarioSchema.strategy, path: path, log: log)
    let base = r.optionalString("preset").flatMap { StrategyCatalog.preset(named: $0) }?.strategy
    guard r.has("timeline") || base != nil else {
      throw ScenarioError(
        path: path, message: "has neither \"preset\" nor \"timeline\"",
        fix: "add \"preset\": one of \(StrategyCatalog.names.joined(separator: ", ")), or a \"timeline\"")
    }
    guard let name = r.optionalString("name") ?? base?.name else {
      throw ScenarioError(path: "\(path).name", message: "is missing", fix: "name the strategy (it has no preset to take a name from)")
    }
    var timeline = base?.timeline ?? EntryTimeline(entries: 1, dating: .spaced, policy: .never)
    if let t = r.object("timeline", ScenarioSchema.timeline) {
      if let e = t.optionalNumber("entries") { timeline.entries = Int(e) }
      if let s = t.optionalNumber("spacing_min") { timeline.spacing = .minutes(s) }
      if let d = t.optionalString("dating") { timeline.dating = EntryTimeline.Dating(rawValue: d) ?? .spaced }
      let after = t.optionalNumber("after_min")
      switch t.optionalString("policy") {
      case "at_end": timeline.policy = .atEnd
      case "never": timeline.policy = .never
      case "after":
        if let after {
          timeline.policy = .after(.minutes(after))
        } else if case .after = timeline.policy {
        } else {
          throw ScenarioError(path: "\(t.path).after_min", message: "is missing for policy \"after\"", fix: "add \"after_min\": the interval in minutes")
        }
      default:
        if let after {
          guard case .after = timeline.policy else {
            throw ScenarioError(path: "\(t.path).after_min", message: "is set but the policy is not \"after\"", fix: "add \"policy\": \"after\" or remove after_min")
          }
          timeline.policy = .after(.minutes(after))
        }
      }
    }
    var app = base?.app ?? AppBehaviour()
    if let a = r.object("app", ScenarioSchema.app) {
      if let b = a.optionalBool("reload_on_foreground") { app.reloadOnForeground = b }
      if let b = a.optionalBool("reload_on_silent_push") { app.reloadOnSilentPush = b }
      if a.has("bg_refresh_min") { app.backgroundRefreshInterval = a.optionalNumber("bg_refresh_min").map { .minutes($0) } }
      if let b = a.optionalBool("reload_kind_on_tap") { app.reloadKindOnTap = b }
      if let b = a.optionalBool("reload_on_change_while_running") { app.reloadOnChangeWhileRunning = b }
    }
    var backend = base?.backend ?? BackendBehaviour()
    if let b = r.object("backend", ScenarioSchema.backend) {
      if b.has("silent_push") { backend.silentPush = b.object("silent_push", ScenarioSchema.pushTrigger).map(trigger) }
      if b.has("widget_push") { backend.widgetPush = b.object("widget_push", ScenarioSchema.pushTrigger).map(trigger) }
    }
    return Strategy(name: name, timeline: timeline, app: app, backend: backend)
  }

  static func trigger(_ r: SchemaReader) -> PushTrigger {
    PushTrigger(on: PushTrigger.Changes(rawValue: r.string("on")) ?? .all, coalesce: .minutes(r.number("coalesce_min")))
  }

  static func model(_ r: SchemaReader) throws(ScenarioError) -> ModelParameters {
    let b = r.object("budget", ScenarioSchema.budget)!
    if b.int("min_per_day") > b.int("max_per_day") {
      throw ScenarioError(path: "\(b.path).min_per_day", message: "is above max_per_day", fix: "make min_per_day <= max_per_day")
    }
    let budget = BudgetParameters(
      accrual: BudgetParameters.Accrual(rawValue: b.string("accrual")) ?? .slidingWindow,
      maxPerDay: b.int("max_per_day"), minPerDay: b.int("min_per_day"),
      fullBudgetViewsPerDay: b.number("full_budget_views_per_day"), viewsExponent: b.number("views_exponent"),
      tokenBucketBurstFraction: b.number("token_bucket_burst_fraction"),
      lowPowerMultiplier: b.number("low_power_multiplier"), minInterval: .seconds(b.number("min_interval_s")),
      whenEmpty: BudgetParameters.WhenEmpty(rawValue: b.string("when_empty")) ?? .withhold,
      learningDays: b.number("learning_days"), learningMultiplier: b.number("learning_multiplier"),
      watchComplicationPerDay: b.optionalNumber("watch_complication_per_day").map { Int($0) },
      standbyPerDay: b.optionalNumber("standby_per_day").map { Int($0) })
    let rl = r.object("reload", ScenarioSchema.reload)!
    let lateness: DurationDistribution
    switch rl.value("lateness") {
    case .string("realistic"): lateness = ReloadTiming.realisticLateness
    case .string: lateness = ReloadTiming.standard.lateness
    case let v: lateness = try distribution(v, path: "\(rl.path).lateness", log: rl.log)
    }
    let reload = ReloadTiming(
      lateness: lateness, whileAsleep: ReloadTiming.WhileAsleep(rawValue: rl.string("while_asleep")) ?? .deferToWake,
      firstRequestSpread: rl.optionalNumber("first_request_spread_min").map { .minutes($0) })
    let v = r.object("visibility", ScenarioSchema.visibility)!
    let visibility = Visibility(
      homeFirstPage: v.number("home_first_page"), homeOtherPage: v.number("home_other_page"),
      smartStack: v.number("smart_stack"), lockScreen: v.number("lock_screen"),
      watchComplication: v.number("watch_complication"), standby: v.number("standby"))
    let sp = r.object("silent_push", ScenarioSchema.silentPush)!
    let silentPush = SilentPushParameters(
      ratePerHour: sp.number("rate_per_hour"), burst: sp.number("burst"), holdNewestOnly: sp.bool("hold_newest_only"),
      deliveryDelay: try distribution(sp.value("delivery_delay"), path: "\(sp.path).delivery_delay", log: sp.log),
      lowPower: SilentPushParameters.LowPower(rawValue: sp.string("low_power")) ?? .hold)
    let bg = r.object("background_refresh", ScenarioSchema.backgroundRefresh)!
    let backgroundRefresh = BackgroundRefreshParameters(
      medianDelay: .minutes(bg.number("median_delay_min")), sigma: bg.number("sigma"),
      referenceSessionsPerDay: bg.number("reference_sessions_per_day"), usageElasticity: bg.number("usage_elasticity"),
      followUsage: bg.bool("follow_usage"))
    let wp = r.object("widget_push", ScenarioSchema.widgetPush)!
    let widgetPush = WidgetPushParameters(
      ratePerHour: wp.number("rate_per_hour"), burst: wp.number("burst"),
      sharesTimelineBudget: wp.bool("shares_timeline_budget"))
    return ModelParameters(
      budget: budget, reload: reload, visibility: visibility, silentPush: silentPush,
      backgroundRefresh: backgroundRefresh, widgetPush: widgetPush)
  }

  static func energy(_ r: SchemaReader) -> EnergyModel {
    EnergyModel(
      extensionLaunchMillijoules: r.number("extension_launch_mj"), appWakeMillijoules: r.number("app_wake_mj"),
      fetchMillijoules: r.number("fetch_mj"))
  }
}
