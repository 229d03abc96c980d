import ReloadEngine
import ReloadStrategies
import WidgetModel

extension ScenarioSchema {
  // MARK: - Strategies

  static let timeline = SchemaObject("Timeline", doc: "What the timeline provider returns on each reload (`Timeline(entries:policy:)`). Keys override the preset's (or, in `kinds[]`, the strategy's).", [
    integer("entries", "Entries per timeline.", min: 1, max: 500),
    number("spacing_min", "Spacing of `spaced` entries (and of `content` entries when the content has no schedule); for `offset`, how far ahead the one entry is dated.", unit: "minutes", min: minRepeatMinutes),
    choice("dating", "`content`: the next entries at the content's scheduled changes; `spaced`: every `spacing_min`; `now`: all dated now (the anti-pattern); `offset`: one entry dated `spacing_min` after now.", EntryTimeline.Dating.allCases.map(\.rawValue)),
    choice("policy", "`TimelineReloadPolicy`: `at_end` (after the last entry), `after` (`after_min` after the reload), `after_time` (`.after(date)` at the next local clock time `at`), `never`.", ["at_end", "after", "after_time", "never"]),
    number("after_min", "For `policy: after`: the interval.", unit: "minutes", min: minRepeatMinutes),
    SchemaField("at", .anyOf([.clockTime, .array(of: .clockTime, minItems: 2, maxItems: 2)]), "For `policy: after_time`: a local time `\"HH:MM\"` (`\"00:00\"` = start of tomorrow, `\"13:10\"` = 13:10 today or else tomorrow), or a window `[\"00:00\", \"00:30\"]` for a random time in it."),
    SchemaField("on_failure", .anyOf([.object(failure), .null]), "What `getTimeline` returns when its fetch fails (the kind's `fetch_failure`); null: the same timeline (docs/model.md#fetch-failure)."),
  ])

  static let failure = SchemaObject("On failure", doc: "The timeline a provider returns when its fetch fails: one entry keeping the last data (or a placeholder), with a retry schedule or another policy. Give `retry_min` or `policy`.", [
    SchemaField("retry_min", .array(of: .number(min: minRepeatMinutes, max: sanityMax("minutes"), exclusiveMin: false), minItems: 1, maxItems: FailureBranch.maxRetries), "Backoff: `.after` this many minutes after the 1st, 2nd, ... consecutive failure; the last value repeats (e.g. `[10, 30, 60]`).", unit: "minutes"),
    number("jitter_s", "Up to this much random delay added to each retry.", unit: "seconds", default: 0, min: 0),
    choice("policy", "The policy on failure when there is no `retry_min`: `never` (e.g. logged out) or `at_end`.", ["never", "at_end"]),
    flag("placeholder", "Show a placeholder (no data) instead of the last data; glances at it count in `placeholder_glance_pct`.", default: false),
  ])

  static let kindStrategy = SchemaObject("Kind strategy", doc: "One kind's own timeline and data source in a strategy (WidgetKit: each kind has its own `TimelineProvider`).", [
    SchemaField("kind", .string(choices: nil), "Name of a kind in `kinds`.", required: true),
    SchemaField("timeline", .object(timeline), "Overrides of the strategy's timeline for this kind."),
    choice("data", "Where this kind's reloads get data: `fetch` (a backend request) or `app_cache` (what the app last fetched; no request) (docs/model.md#data-source).", DataSource.allCases.map(\.rawValue)),
  ])

  static let trigger = SchemaObject("Trigger", doc: "An app-side trigger (docs/model.md#app-triggers): on `on`, after `delay_s`, the app calls `reloadTimelines(ofKind:)` for each of `kinds` (all kinds: `reloadAllTimelines()`) `calls` times `spacing_s` apart. Free or budgeted follows from the app's state at each call.", [
    choice("on", "`foreground` (scene phase `.active`), `background` (`didEnterBackground`), `in_app` (an in-app event: a save, a finished sync), `app_fetch` (after any fetch by the app: launch, BGAppRefresh, silent push, wake), `bg_refresh` (a BGAppRefresh run), `silent_push`, `wake` (a wake source), `tap` (a widget button's App Intent `perform()`).", ["foreground", "background", "in_app", "app_fetch", "bg_refresh", "silent_push", "wake", "tap"], required: true),
    SchemaField("kinds", .array(of: .string(choices: nil), minItems: 1, maxItems: 32), "Kinds reloaded (one `reloadTimelines(ofKind:)` each); absent: `reloadAllTimelines()`."),
    integer("calls", "Calls per kind per event (a burst).", default: 1, min: 1, max: 100),
    number("spacing_s", "Time between the calls of a burst.", unit: "seconds", default: 0, min: 0),
    number("delay_s", "From the event to the first call (e.g. 5 s for the app's stores to save).", unit: "seconds", default: 0, min: 0),
    number("per_session", "For `in_app`: events per foreground session (Poisson mean), spread over the session.", unit: "per session", default: 0, min: 0, max: 1000),
    number("per_day", "For `in_app`: events per day, shaped by `profile`; those while the app is open happen.", unit: "per day", default: 0, min: 0),
    SchemaField("profile", profileType, "For `in_app` with `per_day`: shape of the day.", default: .string("flat")),
    SchemaField("source", .string(choices: nil), "For `wake`: only this wake source (its `name`); absent: any."),
    flag("only_if_changed", "Call only for the kinds whose data changed since this trigger last fired, and not at all if none did.", default: false),
  ])

  static let wakeSource = SchemaObject("Wake source", doc: "Something other than silent push and BGAppRefresh that runs the app in the background (docs/model.md#wake-sources); what stops it is `model.wake_sources`. Give one of `per_day`, `every_min` and `on_changes_of` (audio: none; it wakes at each of the segment's audio sessions).", [
    SchemaField("name", .string(choices: nil), "Name, referenced by triggers' `source`.", required: true),
    choice("type", "`location` (geofences, significant changes), `accessory` (a Bluetooth sensor, a CGM, HealthKit background delivery), `network_extension` (a VPN's status changes), `audio` (the segment's audio sessions).", WakeSource.SourceType.allCases.map(\.rawValue), required: true),
    number("per_day", "Wakes per day (Poisson), shaped by `profile`.", unit: "per day", default: 0, min: 0),
    SchemaField("profile", profileType, "Shape of the day.", default: .string("flat")),
    SchemaField("every_min", nullableNumber(minRepeatMinutes, max: sanityMax("minutes")), "A wake every this many minutes (a sensor reading), instead of `per_day`.", unit: "minutes", default: .null),
    SchemaField("on_changes_of", .anyOf([.string(choices: nil), .null]), "A wake at each change of this kind's data (a CGM reading, a VPN status change), instead of `per_day` or `every_min`.", default: .null),
    flag("fetches", "The app fetches from the backend when woken (a request).", default: true),
  ])

  /// The shortest interval of something that repeats by itself (a
  /// timeline's reload or entry spacing, a BGAppRefresh request): 6 s.
  /// Simulated time is in whole milliseconds, so a shorter interval could
  /// round to 0 and repeat forever at one instant (Scenarios/README.md,
  /// "Limits").
  static let minRepeatMinutes = 0.1

  static let app = SchemaObject("App behaviour", doc: "What the app does with WidgetCenter while it runs. Keys override the preset's.", [
    SchemaField("reload_on_foreground", .boolean, "`reloadAllTimelines()` when the app comes to the foreground (free)."),
    SchemaField("reload_on_silent_push", .boolean, "`reloadTimelines(ofKind:)` after a silent push wakes the app (budgeted)."),
    SchemaField("bg_refresh_min", .anyOf([.number(min: minRepeatMinutes, max: sanityMax("minutes"), exclusiveMin: false), .null]), "Submit a BGAppRefresh task with this earliest-begin interval and reload all timelines in it; null for none.", unit: "minutes"),
    SchemaField("bg_refresh_reloads", .boolean, "The BGAppRefresh task itself calls `reloadAllTimelines()` (false: it only fetches; triggers on `bg_refresh` may still call)."),
    SchemaField("reload_kind_on_tap", .boolean, "A button's App Intent also reloads the kind's other instances (budgeted unless the app is in the foreground)."),
    SchemaField("reload_on_change_while_running", .boolean, "While in the foreground or an audio session, reload the kind on every data change (free)."),
  ])

  static let pushTrigger = SchemaObject("Push trigger", doc: "When the backend pushes.", [
    choice("on", "`all` changes, or only `unpredictable` ones (the schedule is already in the timeline).", ["all", "unpredictable"], default: "all"),
    number("coalesce_min", "After a push, changes within this window ride on one push at its end.", unit: "minutes", default: 0, min: 0),
  ])

  static let backend = SchemaObject("Backend behaviour", doc: "What the backend pushes. Keys override the preset's.", [
    SchemaField("silent_push", .anyOf([.object(pushTrigger), .null]), "Silent (background) pushes on data change, or null."),
    SchemaField("widget_push", .anyOf([.object(pushTrigger), .null]), "WidgetKit pushes (iOS 26) on data change, or null."),
  ])

  static let strategy = strategy(presets: StrategyCatalog.names)

  /// The strategy object, whose `preset` is one of `names` (the presets;
  /// for validation, also the strategies registered in Swift).
  static func strategy(presets names: [String]) -> SchemaObject {
    SchemaObject(
      "Strategy", doc: "A reload strategy: a preset, with any part overridden. A plain string names a preset.",
      [
        SchemaField("name", .string(choices: nil), "Name in reports; defaults to the preset's."),
        choice("preset", "Start from this preset (see the preset list).", names),
        SchemaField("timeline", .object(timeline), "Timeline overrides."),
        SchemaField("app", .object(app), "App behaviour overrides."),
        SchemaField("backend", .object(backend), "Backend overrides."),
        SchemaField("kinds", .array(of: .object(kindStrategy), minItems: 1, maxItems: 32), "Per-kind timelines and data sources; kinds not listed use `timeline` and fetch."),
        SchemaField("triggers", .array(of: .object(trigger), minItems: 1, maxItems: 32), "The app's own `WidgetCenter` calls (docs/model.md#app-triggers)."),
        SchemaField("wakes", .array(of: .object(wakeSource), minItems: 1, maxItems: 16), "Wake sources besides silent push and BGAppRefresh (docs/model.md#wake-sources)."),
      ])
  }

  // MARK: - Model

  static let budget = SchemaObject("Budget", doc: "How the reload budget works (docs/model.md#budget-size to #learning-period).", [
    choice("accrual", "`sliding_window`: at most B budgeted reloads in any 24 h (a ring of reload times); `token_bucket`: tokens refill continuously at B per 24 h up to a burst capacity.", BudgetParameters.Accrual.allCases.map(\.rawValue), default: BudgetParameters.standard.accrual.rawValue, source: "assumed"),
    integer("max_per_day", "B for a frequently seen widget (Apple: 40-70 a day; Apple staff: about 72).", unit: "reloads per 24 h", default: BudgetParameters.standard.maxPerDay, min: 1, max: 1440, source: "A, S"),
    integer("min_per_day", "Floor of B for a widget that is almost never seen.", unit: "reloads per 24 h", default: BudgetParameters.standard.minPerDay, min: 1, max: 1440, source: "assumed"),
    number("full_budget_views_per_day", "Views per day that earn the full budget; 0 gives every widget the full budget.", unit: "views per day", default: BudgetParameters.standard.fullBudgetViewsPerDay, min: 0, source: "A (depends on views), value assumed"),
    number("views_exponent", "B = max_per_day x (views / full)^exponent, clamped to [min, max].", default: BudgetParameters.standard.viewsExponent, min: 0, max: 4, source: "assumed"),
    number("token_bucket_burst_fraction", "Token bucket capacity as a share of B.", default: BudgetParameters.standard.tokenBucketBurstFraction, min: 0, max: 1, exclusiveMin: true, source: "assumed"),
    number("low_power_multiplier", "B is multiplied by this while Low Power Mode is on (developers report fewer reloads).", default: BudgetParameters.standard.lowPowerMultiplier, min: 0, max: 1, source: "M (direction), value assumed"),
    number("min_interval_s", "Minimum time from a reload to the next budgeted one (.after(+15 s) is never honoured; +15 min is).", unit: "seconds", default: BudgetParameters.standard.minInterval.seconds, min: 0, max: 86_400, source: "A, M"),
    choice("when_empty", "A request with no budget left is `withhold`-en until budget returns (Apple's wording) or `drop`-ped.", BudgetParameters.WhenEmpty.allCases.map(\.rawValue), default: BudgetParameters.standard.whenEmpty.rawValue, source: "A"),
    number("dry_after_min", "A widget counts as dry (dry_widget_day_pct, dry_hours_per_widget_day, first_dry_hour_median, the hourly dry share) while a budgeted request is withheld for lack of budget, when the wait lasts longer than this; shorter waits are the ordinary pace of a full budget (docs/model.md#dry-spells).", unit: "minutes", default: BudgetParameters.standard.dryAfter.minutes, min: 0, max: 1440, source: "A (15-60 min between reloads), value reasoned"),
    number("learning_days", "Days after install with a larger budget (learning period); 0 = off.", unit: "days", default: BudgetParameters.standard.learningDays, min: 0, max: 60, source: "F"),
    number("learning_multiplier", "B is multiplied by this during the learning period.", default: BudgetParameters.standard.learningMultiplier, min: 1, max: 10, source: "F"),
    SchemaField("watch_complication_per_day", placementBudget, "B of a watch complication, whatever its views (complications are \"always considered viewed\"); null = from its views like other placements (docs/model.md#watch-complications).", unit: "reloads per 24 h", default: BudgetParameters.standard.watchComplicationPerDay.map { .number(Double($0)) } ?? .null, source: "M (Home Assistant iOS #1046: limited to 50 a day)", placement: Placement.watchComplication.rawValue),
    SchemaField("standby_per_day", placementBudget, "B of a StandBy widget; null = from its StandBy views like other placements (docs/model.md#standby).", unit: "reloads per 24 h", default: BudgetParameters.standard.standbyPerDay.map { .number(Double($0)) } ?? .null, source: "assumed", placement: Placement.standby.rawValue),
  ])

  /// A placement's own budget, or null for the views-based one.
  static let placementBudget = SchemaType.anyOf([.integer(min: 1, max: 1440), .null])

  static let reload = SchemaObject("Reload timing", doc: "When policy reloads happen relative to when they are due (docs/model.md#lateness).", [
    SchemaField("lateness", .anyOf([.string(choices: ["small", "realistic"]), distribution]), "Lateness of `.atEnd` / `.after` reloads: `small` (uniform 0-10 s), `realistic` (usually 1-2 h late, sometimes up to 15 min early, as developers measured), or a distribution.", default: .string("small"), source: "A (a request, not a schedule), M (realistic)"),
    choice("while_asleep", "`defer_to_wake`: policy reloads due while the user sleeps wait for the wake-up hour (the budget follows when the widget is seen); `run`: the night is like the day.", ReloadTiming.WhileAsleep.allCases.map(\.rawValue), default: ReloadTiming.standard.whileAsleep.rawValue, source: "A (depends on when seen), rule assumed"),
    SchemaField("first_request_spread_min", nullableNumber(0, max: sanityMax("minutes")), "The first policy request of each widget is spread uniformly over this many minutes; null spreads it over the policy's own interval.", unit: "minutes", default: .null, source: "assumed"),
    choice("asap", "A policy request due at once (`.atEnd` past the last entry, `.after(now)` or a past date): `immediate` asks again at once (only `min_interval_s` and the budget hold it back); `paced` makes the widget only eligible and the system reloads it max(min_interval_s, awake hours / B) later (docs/model.md#asap-reloads).", ReloadTiming.Asap.allCases.map(\.rawValue), default: ReloadTiming.standard.asap.rawValue, source: "T (.atEnd makes a widget eligible; the system picks the time), S (about one per 20 min), formula assumed"),
    choice("lateness_pressure", "`none`: every policy reload draws the full `lateness`; `budget`: a draw is multiplied by used^`lateness_pressure_exponent`, used the share of the widget's budget spent at the request (docs/model.md#lateness-pressure).", ReloadTiming.LatenessPressure.allCases.map(\.rawValue), default: ReloadTiming.standard.latenessPressure.rawValue, source: "M (late policies; polling limited), rule assumed"),
    number("lateness_pressure_exponent", "For `lateness_pressure: budget`: lateness x used^exponent (1 = in proportion to the budget spent; larger = late only when nearly empty).", default: ReloadTiming.standard.latenessPressureExponent, min: 0, max: 10, source: "assumed"),
  ])

  static let visibility = SchemaObject("Visibility", doc: "Share of the device's views each placement gets: a widget on another Home Screen page or deep in a Smart Stack is rarely seen (Apple: rarely seen widgets get fewer reloads).", [
    number("home_first_page", "Share of Home Screen views.", default: Visibility.standard.homeFirstPage, min: 0, max: 1, source: "assumed"),
    number("home_other_page", "Share of Home Screen views.", default: Visibility.standard.homeOtherPage, min: 0, max: 1, source: "A (rarely seen), value assumed"),
    number("smart_stack", "Share of Home Screen views (the widget is on top of its stack).", default: Visibility.standard.smartStack, min: 0, max: 1, source: "assumed"),
    number("lock_screen", "Share of Lock Screen views.", default: Visibility.standard.lockScreen, min: 0, max: 1, source: "assumed"),
    SchemaField("watch_complication", .number(min: 0, max: 1, exclusiveMin: false), "Share of the watch face's views (a complication on the active face is seen at every wrist raise) (docs/model.md#watch-complications).", default: .number(Visibility.standard.watchComplication), source: "F (Solstice: \"always considered viewed\"), value assumed", placement: Placement.watchComplication.rawValue),
    SchemaField("standby", .number(min: 0, max: 1, exclusiveMin: false), "Share of the StandBy views (docs/model.md#standby).", default: .number(Visibility.standard.standby), source: "assumed", placement: Placement.standby.rawValue),
  ])

  static let silentPush = SchemaObject("Silent push", doc: "How the system treats silent (background, priority 5) pushes (docs/model.md#silent-push-throttle).", [
    number("rate_per_hour", "Sustained deliveries per hour per device (Apple: \"no more than two or three per hour\").", unit: "per hour", default: SilentPushParameters.standard.ratePerHour, min: 0, max: 3600, exclusiveMin: true, source: "A, T"),
    number("burst", "Deliveries possible back to back before throttling.", default: SilentPushParameters.standard.burst, min: 1, max: 100, source: "assumed"),
    flag("hold_newest_only", "Pushes over the limit are held and only the newest held push survives.", default: SilentPushParameters.standard.holdNewestOnly, source: "A"),
    SchemaField("delivery_delay", distribution, "Delay between send and delivery.", default: distributionJSON(SilentPushParameters.standard.deliveryDelay), source: "assumed"),
    choice("low_power", "In Low Power Mode pushes are `hold`-en until it ends, or `drop`-ped.", SilentPushParameters.LowPower.allCases.map(\.rawValue), default: SilentPushParameters.standard.lowPower.rawValue, source: "T (suppressed), rule assumed"),
  ])

  static let backgroundRefresh = SchemaObject("Background refresh", doc: "When the system runs a BGAppRefresh task (docs/model.md#background-refresh-delay). Never in Low Power Mode, with Background App Refresh off, or after a force-quit until the next launch.", [
    number("median_delay_min", "Median delay after the earliest-begin date, for an app used `reference_sessions_per_day` times a day (\"can be many hours\").", unit: "minutes", default: BackgroundRefreshParameters.standard.medianDelay.minutes, min: 0, exclusiveMin: true, source: "A, M"),
    number("sigma", "Log-standard-deviation of the delay.", default: BackgroundRefreshParameters.standard.sigma, min: 0, max: 5, source: "assumed"),
    number("reference_sessions_per_day", "App sessions per day at which the median applies.", unit: "per day", default: BackgroundRefreshParameters.standard.referenceSessionsPerDay, min: 0, exclusiveMin: true, source: "assumed"),
    number("usage_elasticity", "The delay scales as (reference / sessions per day)^elasticity: rarely used apps wait longer.", default: BackgroundRefreshParameters.standard.usageElasticity, min: 0, max: 5, source: "T (follows usage), value assumed"),
    flag("follow_usage", "Runs due while the user sleeps move to the wake-up hour.", default: BackgroundRefreshParameters.standard.followUsage, source: "T"),
  ])

  static let widgetPush = SchemaObject("Widget push", doc: "The WidgetKit push budget (iOS 26; Apple publishes no size) (docs/model.md#widget-push).", [
    number("rate_per_hour", "Accepted pushes per hour per widget kind on a device (folklore: about 5).", unit: "per hour", default: WidgetPushParameters.standard.ratePerHour, min: 0, max: 3600, exclusiveMin: true, source: "F"),
    number("burst", "Pushes accepted back to back.", default: WidgetPushParameters.standard.burst, min: 1, max: 100, source: "F"),
    flag("shares_timeline_budget", "A WidgetKit-push reload also spends the timeline budget.", default: WidgetPushParameters.standard.sharesTimelineBudget, source: "A (budgeted), rule assumed"),
  ])

  static let appReload = SchemaObject("App reload calls", doc: "What WidgetKit does with the app's own reload calls where Apple documents nothing (docs/model.md#app-triggers).", [
    choice("enter_background", "A call made in `didEnterBackground`: `budgeted` (the app is no longer active) or `free` (as in the foreground).", AppReloadParameters.EnterBackground.allCases.map(\.rawValue), default: AppReloadParameters.standard.enterBackground.rawValue, source: "assumed"),
    choice("burst", "Several calls for one kind in a row: `each` is a reload request (the minimum interval still applies), or they ride on the `one` made first within `burst_window_s`.", AppReloadParameters.Burst.allCases.map(\.rawValue), default: AppReloadParameters.standard.burst.rawValue, source: "M (each call runs getTimeline), rule assumed"),
    number("burst_window_s", "For `burst: one`: calls within this long of the first ride on it.", unit: "seconds", default: AppReloadParameters.standard.burstWindow.seconds, min: 0),
    SchemaField("background_latency", distribution, "From a budgeted (background) `reloadTimelines` call to the reload; the budget is checked when it runs. Measured: seconds to a minute or two (docs/model.md#background-latency).", default: distributionJSON(AppReloadParameters.standard.backgroundLatency), source: "M (WordPress-iOS PR #21535: 27 s, 26 s, 2 s; Home Assistant #3520: 1-2 min)"),
    choice("while_asleep", "A budgeted (background) call while the user sleeps: `spend` reloads at once; `defer_to_wake` waits for the wake-up hour like policy reloads (docs/model.md#background-while-asleep).", AppReloadParameters.WhileAsleep.allCases.map(\.rawValue), default: AppReloadParameters.standard.whileAsleep.rawValue, source: "A (the budget follows when the widget is seen), rule assumed"),
  ])

  static func wakeRule(_ title: String, _ r: WakeSourceRules.Rule, _ doc: String) -> SchemaObject {
    SchemaObject(title, doc: doc, [
      flag("stopped_by_force_quit", "No wakes after a force-quit until the next launch.", default: r.stoppedByForceQuit, source: "assumed"),
      flag("stopped_by_low_power_mode", "No wakes while Low Power Mode is on.", default: r.stoppedByLowPowerMode, source: "assumed"),
      flag("stopped_by_background_refresh_off", "No wakes with Background App Refresh off.", default: r.stoppedByBackgroundRefreshOff, source: "assumed"),
    ])
  }

  /// One object per wake source type, with that type's defaults.
  static let wakeRuleObjects: [(key: String, object: SchemaObject, doc: String)] = [
    ("location", wakeRule("Location wakes", WakeSourceRules.standard.location, "Region monitoring and significant location changes."), "Location wakes."),
    ("accessory", wakeRule("Accessory wakes", WakeSourceRules.standard.accessory, "Bluetooth accessories, CGMs, HealthKit background delivery."), "Accessory and health readings."),
    ("network_extension", wakeRule("Network Extension wakes", WakeSourceRules.standard.networkExtension, "A Network Extension runs in its own process."), "Network Extension status changes."),
    ("audio", wakeRule("Audio wakes", WakeSourceRules.standard.audio, "Audio and navigation sessions."), "Audio sessions."),
  ]

  static let wakeRules = SchemaObject("Wake source rules", doc: "What stops each type of wake source (docs/model.md#wake-sources).",
    wakeRuleObjects.map { SchemaField($0.key, .object($0.object), $0.doc, default: .object([:])) })

  static let fetchFailure = SchemaObject("Fetch failure", doc: "When fetching a kind's data fails (docs/model.md#fetch-failure): at random, and during a daily outage.", [
    number("probability", "Each fetch fails independently with this probability.", default: 0, min: 0, max: 1),
    number("outage_from_hour", "A daily outage starts at this UTC hour (every fetch fails until `outage_to_hour`).", unit: "hour of day", default: 0, min: 0, max: 24),
    number("outage_to_hour", "The outage ends at this UTC hour (may pass 24); equal to `outage_from_hour`: none.", unit: "hour of day", default: 0, min: 0, max: 48),
    flag("when_unpublished", "A fetch fails while the newest scheduled change is not published yet (`scheduled.published_at_utc`): the provider finds no data for today.", default: false),
  ])

  static let model = SchemaObject("Model", doc: "The model's assumptions (docs/model.md#assumptions). Every field has a default; change them to test how much an answer depends on them.", [
    SchemaField("budget", .object(budget), "The reload budget.", default: .object([:])),
    SchemaField("reload", .object(reload), "Reload timing.", default: .object([:])),
    SchemaField("visibility", .object(visibility), "Views per placement.", default: .object([:])),
    SchemaField("silent_push", .object(silentPush), "Silent push throttling.", default: .object([:])),
    SchemaField("background_refresh", .object(backgroundRefresh), "BGAppRefresh scheduling.", default: .object([:])),
    SchemaField("widget_push", .object(widgetPush), "WidgetKit push budget.", default: .object([:])),
    SchemaField("app_reload", .object(appReload), "The app's own reload calls.", default: .object([:])),
    SchemaField("wake_sources", .object(wakeRules), "What stops wake sources.", default: .object([:])),
  ])

  static let energy = SchemaObject("Energy", doc: "The energy proxy: a cost per unit of work. Orders of magnitude, not measurements; sweep them if energy drives a decision.", [
    number("extension_launch_mj", "Per widget extension launch (every reload).", unit: "millijoules", default: EnergyModel.standard.extensionLaunchMillijoules, min: 0, source: "assumed"),
    number("app_wake_mj", "Per background app launch (push or BGAppRefresh).", unit: "millijoules", default: EnergyModel.standard.appWakeMillijoules, min: 0, source: "assumed"),
    number("fetch_mj", "Per backend request (timeline or background fetch).", unit: "millijoules", default: EnergyModel.standard.fetchMillijoules, min: 0, source: "assumed"),
  ])

  // MARK: - Top level

  /// The longest run a scenario may ask for.
  static let maxDays = 366.0

  /// The top level's fields; `strategies` names one of `strategyNames`
  /// or is a `strategy` object.
  static func scenarioFields(strategyNames: [String], strategy: SchemaObject) -> [SchemaField] {
    [
      SchemaField("$schema", .string(choices: nil), "Path or URL of the JSON Schema, for editors; ignored."),
      SchemaField("extends", .string(choices: nil), "Another scenario file this one builds on (a path relative to this file's folder): its keys are read first and this file's are laid over them, objects key by key, anything else (a number, a list) replaced whole. Resolved when the file is read; chains of up to 8 files."),
      SchemaField("name", .string(choices: nil), "Scenario name: letters, digits, `-`, `_`, `.`; reports go to `Reports/<name>/`.", required: true),
      SchemaField("description", .string(choices: nil), "One or two sentences for the report's headline.", default: .string("")),
      integer("seed", "Seed of every random stream; same scenario + seed = same bytes.", default: 1, min: 0, max: 9_007_199_254_740_991),
      number("days", "Simulated days, warm-up included.", unit: "days", default: 7, min: 0, max: maxDays, exclusiveMin: true),
      number("warmup_days", "Leading days left out of every metric (budgets start full).", unit: "days", default: 1, min: 0, max: maxDays),
      integer("devices", "Simulated devices.", default: 1000, min: 1, max: 50_000_000),
      SchemaField("fleet_devices", nullableNumber(0, max: sanityMax("devices")), "The real fleet size backend figures are scaled to; null = `devices`.", unit: "devices", default: .null),
      integer("replications", "Independent repetitions with derived seeds; 2 or more add `_ci95` columns.", default: 1, min: 1, max: 100),
      choice("start_weekday", "The weekday of day 0; each clock (a device's time zone, a shared feed's `utc_offset_h`) counts its own days from it, so at 00:00 UTC of day 0 a device west of UTC is still on the day before (docs/model.md#calendar). Matters only for weekday patterns.", Weekday.allCases.map(\.name), default: Weekday.monday.name),
      choice("engine", "`elided`: glances and data changes are read in bulk between state changes (exact, fast); `event_by_event`: every one goes through the event queue (the reference).", EngineMode.allCases.map(\.rawValue), default: EngineMode.elided.rawValue),
      SchemaField("kinds", .array(of: .object(kind), minItems: 1, maxItems: 32), "Widget kinds and their content.", required: true),
      SchemaField("segments", .array(of: .object(segment), minItems: 1, maxItems: 64), "Device segments.", required: true),
      SchemaField("strategies", .array(of: .anyOf([.string(choices: strategyNames), .object(strategy)]), minItems: 1, maxItems: 32), "Strategies to compare: preset names or strategy objects.", required: true),
      SchemaField("model", .object(model), "The model's assumptions.", default: .object([:])),
      SchemaField("energy", .object(energy), "The energy proxy.", default: .object([:])),
      SchemaField("sweep", .anyOf([.object(sweep), .null]), "Run the scenario over a grid of parameter values (see Sweeps), or null.", default: .null),
      SchemaField("objective", .anyOf([.object(objective), .null]), "What the recommendation optimises (see Sweeps and objectives), or null for the default recommendation.", default: .null),
    ] + checkFields
  }

  static let root = root(strategyNames: StrategyCatalog.names, strategy: strategy)

  static func root(strategyNames: [String], strategy: SchemaObject) -> SchemaObject {
    SchemaObject(
      "Scenario", doc: "A scenario file: the top-level object.",
      scenarioFields(strategyNames: strategyNames, strategy: strategy))
  }

  /// The format a scenario is validated against: `root`, with the
  /// strategies registered in Swift accepted wherever a preset's name is
  /// (the JSON Schema and the docs show `root`: the presets only).
  static func root(accepting strategies: StrategyRegistry) -> SchemaObject {
    guard !strategies.registered.isEmpty else { return root }
    let names = strategies.names
    return root(strategyNames: names, strategy: strategy(presets: names))
  }
}
