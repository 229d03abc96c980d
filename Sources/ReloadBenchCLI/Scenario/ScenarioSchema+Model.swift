import ReloadEngine
import ReloadStrategies
import WidgetModel

extension ScenarioSchema {
  // MARK: - Strategies

  static let timeline = SchemaObject(
    "Timeline",
    doc:
      "What the timeline provider returns on each reload (`Timeline(entries:policy:)`). Keys override the preset's "
      + "(or, in `kinds[]`, the strategy's).",
    [
      integer("entries", "Entries per timeline.", min: 1, max: 500),
      number(
        "spacing_min",
        "Spacing of `spaced` entries (and of `content` entries when the content has no schedule); for `offset`, how "
          + "far ahead the one entry is dated.",
        unit: "minutes", min: minRepeatMinutes),
      choice(
        "dating",
        "`content`: the next entries at the content's scheduled changes; `spaced`: every `spacing_min`; `now`: all "
          + "dated now (the anti-pattern); `offset`: one entry dated `spacing_min` after now.",
        EntryTimeline.Dating.allCases.map(\.rawValue)),
      choice(
        "policy",
        "`TimelineReloadPolicy`: `at_end` (after the last entry), `after` (`after_min` after the reload), "
          + "`after_time` (`.after(date)` at the next local clock time `at`), `never`.",
        ["at_end", "after", "after_time", "never"]),
      number("after_min", "For `policy: after`: the interval.", unit: "minutes", min: minRepeatMinutes),
      SchemaField(
        "at", .anyOf([.clockTime, .array(of: .clockTime, minItems: 2, maxItems: 2)]),
        "For `policy: after_time`: a local time `\"HH:MM\"` (`\"00:00\"` = start of tomorrow, `\"13:10\"` = 13:10 "
          + "today or else tomorrow), or a window `[\"00:00\", \"00:30\"]` for a random time in it."
      ),
      SchemaField(
        "on_failure", .anyOf([.object(failure), .null]),
        "What `getTimeline` returns when its fetch fails (the kind's `fetch_failure`); null: the same timeline "
          + "(docs/model.md#fetch-failure)."
      ),
    ])

  static let failure = SchemaObject(
    "On failure",
    doc:
      "The timeline a provider returns when its fetch fails: one entry keeping the last data (or a placeholder), "
      + "with a retry schedule or another policy; or none, when the provider never calls `getTimeline`'s "
      + "completion handler. Give `retry_min`, `policy` or `calls_completion: false`.",
    [
      SchemaField(
        "retry_min",
        .array(
          of: .number(min: minRepeatMinutes, max: sanityMax("minutes"), exclusiveMin: false), minItems: 1,
          maxItems: FailureBranch.maxRetries),
        "Backoff: `.after` this many minutes after the 1st, 2nd, ... consecutive failure; the last value repeats "
          + "(e.g. `[10, 30, 60]`).",
        unit: "minutes"),
      number("jitter_s", "Up to this much random delay added to each retry.", unit: "seconds", default: 0, min: 0),
      choice(
        "policy", "The policy on failure when there is no `retry_min`: `never` (e.g. logged out) or `at_end`.",
        ["never", "at_end"]),
      flag(
        "placeholder",
        "Show a placeholder (no data) instead of the last data; glances at it count in `placeholder_glance_pct`.",
        default: false),
      flag(
        "calls_completion",
        "`false`: the provider never calls the completion handler when its fetch fails (a `try` in a `Task` "
          + "that throws, a `case .failure` that returns): WidgetKit ends the extension after its time limit, the "
          + "widget keeps its old timeline, and `model.reload.no_completion` says what is asked next "
          + "(docs/model.md#no-completion).",
        default: true),
    ])

  static let kindStrategy = SchemaObject(
    "Kind strategy",
    doc: "One kind's own timeline and data source in a strategy (WidgetKit: each kind has its own `TimelineProvider`).",
    [
      SchemaField("kind", .string(choices: nil), "Name of a kind in `kinds`.", required: true),
      SchemaField("timeline", .object(timeline), "Overrides of the strategy's timeline for this kind."),
      choice(
        "data",
        "Where this kind's reloads get data: `fetch` (a backend request) or `app_cache` (what the app last fetched; "
          + "no request) (docs/model.md#data-source).",
        DataSource.allCases.map(\.rawValue)),
      SchemaField(
        "reads_before_first_unlock", .boolean,
        "Whether the provider can read its data before the device is first unlocked after a restart: `false` for "
          + "data in App Group files or the Keychain with iOS's default protection, `true` for a fetch that needs "
          + "neither. Unset: `false` for `data: app_cache`, `true` for `fetch` (docs/model.md#device-restart)."),
      number(
        "max_age_min",
        "The provider fetches only when the data it fetched last is at least this old, and otherwise shows that "
          + "data again with no request (a cache with a maximum age; docs/model.md#max-age). `fetch` kinds only.",
        unit: "minutes", min: 0, max: 10_080, exclusiveMin: true),
    ])

  static let trigger = SchemaObject(
    "Trigger",
    doc:
      "An app-side trigger (docs/model.md#app-triggers): on `on`, after `delay_s`, the app calls "
      + "`reloadTimelines(ofKind:)` for each of `kinds` (all kinds: `reloadAllTimelines()`) `calls` times "
      + "`spacing_s` apart. Free or budgeted follows from the app's state at each call.",
    [
      choice(
        "on",
        "`foreground` (scene phase `.active`), `background` (`didEnterBackground`), `in_app` (an in-app event: a "
          + "save, a finished sync), `app_fetch` (after any fetch by the app: launch, BGAppRefresh, silent push, "
          + "wake), `bg_refresh` (a BGAppRefresh run), `silent_push`, `wake` (a wake source), `tap` (a widget "
          + "button's App Intent `perform()`).",
        [
          "foreground",
          "background", "in_app", "app_fetch", "bg_refresh", "silent_push", "wake", "tap",
        ], required: true),
      SchemaField(
        "kinds", .array(of: .string(choices: nil), minItems: 1, maxItems: 32),
        "Kinds reloaded (one `reloadTimelines(ofKind:)` each); absent: `reloadAllTimelines()`."),
      integer("calls", "Calls per kind per event (a burst).", default: 1, min: 1, max: 100),
      number("spacing_s", "Time between the calls of a burst.", unit: "seconds", default: 0, min: 0),
      number(
        "delay_s", "From the event to the first call (e.g. 5 s for the app's stores to save).", unit: "seconds",
        default: 0, min: 0),
      number(
        "per_session", "For `in_app`: events per foreground session (Poisson mean), spread over the session.",
        unit: "per session", default: 0, min: 0, max: 1000),
      number(
        "per_day", "For `in_app`: events per day, shaped by `profile`; those while the app is open happen.",
        unit: "per day", default: 0, min: 0),
      SchemaField("profile", profileType, "For `in_app` with `per_day`: shape of the day.", default: .string("flat")),
      SchemaField("source", .string(choices: nil), "For `wake`: only this wake source (its `name`); absent: any."),
      flag(
        "only_if_changed",
        "Call only for the kinds whose data changed since this trigger last fired, and not at all if none did.",
        default: false),
    ])

  static let wakeSource = SchemaObject(
    "Wake source",
    doc:
      "Something other than silent push and BGAppRefresh that runs the app in the background "
      + "(docs/model.md#wake-sources); what stops it is `model.wake_sources`. Give one of `per_day`, `every_min` "
      + "and `on_changes_of` (audio: none; it wakes at each of the segment's audio sessions).",
    [
      SchemaField("name", .string(choices: nil), "Name, referenced by triggers' `source`.", required: true),
      choice(
        "type",
        "`location` (geofences, significant changes), `accessory` (a Bluetooth sensor, a CGM, HealthKit background "
          + "delivery), `network_extension` (a VPN's status changes), `audio` (the segment's audio sessions).",
        WakeSource.SourceType.allCases.map(\.rawValue), required: true),
      number("per_day", "Wakes per day (Poisson), shaped by `profile`.", unit: "per day", default: 0, min: 0),
      SchemaField("profile", profileType, "Shape of the day.", default: .string("flat")),
      SchemaField(
        "every_min", nullableNumber(minRepeatMinutes, max: sanityMax("minutes")),
        "A wake every this many minutes (a sensor reading), instead of `per_day`.", unit: "minutes", default: .null),
      SchemaField(
        "on_changes_of", .anyOf([.string(choices: nil), .null]),
        "A wake at each change of this kind's data (a CGM reading, a VPN status change), instead of `per_day` or "
          + "`every_min`.",
        default: .null),
      flag("fetches", "The app fetches from the backend when woken (a request).", default: true),
      SchemaField(
        "delivery_delay", distribution,
        "How long after its event (a geofence crossed, a reading taken, a change) the system runs the app: region "
          + "events typically arrive minutes late, a Bluetooth reading when the system wakes the app "
          + "(docs/model.md#wake-delivery). Not for `audio`.",
        default: distributionJSON(.constant(.zero))),
    ])

  /// The shortest interval of something that repeats by itself (a
  /// timeline's reload or entry spacing, a BGAppRefresh request): 6 s.
  /// Simulated time is in whole milliseconds, so a shorter interval could
  /// round to 0 and repeat forever at one instant (Scenarios/README.md,
  /// "Limits").
  static let minRepeatMinutes = 0.1

  static let app = SchemaObject(
    "App behaviour", doc: "What the app does with WidgetCenter while it runs. Keys override the preset's.",
    [
      SchemaField(
        "reload_on_foreground", .boolean, "`reloadAllTimelines()` when the app comes to the foreground (free)."),
      SchemaField(
        "reload_on_silent_push", .boolean, "`reloadTimelines(ofKind:)` after a silent push wakes the app (budgeted)."),
      SchemaField(
        "bg_refresh_min",
        .anyOf([.number(min: minRepeatMinutes, max: sanityMax("minutes"), exclusiveMin: false), .null]),
        "Submit a BGAppRefresh task with this earliest-begin interval and reload all timelines in it; null for none.",
        unit: "minutes"),
      SchemaField(
        "bg_refresh_reloads", .boolean,
        "The BGAppRefresh task itself calls `reloadAllTimelines()` (false: it only fetches; triggers on "
          + "`bg_refresh` may still call)."
      ),
      SchemaField(
        "reload_kind_on_tap", .boolean,
        "A button's App Intent also reloads the kind's other instances (budgeted unless the app is in the "
          + "foreground)."),
      SchemaField(
        "reload_on_change_while_running", .boolean,
        "While in the foreground or an audio session, reload the kind on every data change (free)."),
      SchemaField(
        "writes_cache_while_running", .boolean,
        "While in the foreground or an audio session the app keeps the data it shares with its widgets current (a "
          + "now-playing episode, a connected sensor's readings, a sync): an `app_cache` kind's reload then shows "
          + "current data, and after the session the data as of its end (docs/model.md#cache-while-running)."),
    ])

  static let pushTrigger = SchemaObject(
    "Push trigger", doc: "When the backend pushes.",
    [
      choice(
        "on", "`all` changes, or only `unpredictable` ones (the schedule is already in the timeline).",
        ["all", "unpredictable"], default: "all"),
      number(
        "coalesce_min", "After a push, changes within this window ride on one push at its end.", unit: "minutes",
        default: 0, min: 0),
      SchemaField(
        "kinds", .array(of: .string(choices: nil), minItems: 1, maxItems: 32),
        "The kinds whose changes the backend pushes for; absent: every kind's."),
    ])

  static let backend = SchemaObject(
    "Backend behaviour", doc: "What the backend pushes. Keys override the preset's.",
    [
      SchemaField(
        "silent_push", .anyOf([.object(pushTrigger), .null]), "Silent (background) pushes on data change, or null."),
      SchemaField(
        "widget_push", .anyOf([.object(pushTrigger), .null]), "WidgetKit pushes (iOS 26) on data change, or null."),
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
        SchemaField(
          "kinds", .array(of: .object(kindStrategy), minItems: 1, maxItems: 32),
          "Per-kind timelines and data sources; kinds not listed use `timeline` and fetch."),
        SchemaField(
          "triggers", .array(of: .object(trigger), minItems: 1, maxItems: 32),
          "The app's own `WidgetCenter` calls (docs/model.md#app-triggers)."),
        SchemaField(
          "wakes", .array(of: .object(wakeSource), minItems: 1, maxItems: 16),
          "Wake sources besides silent push and BGAppRefresh (docs/model.md#wake-sources)."),
      ])
  }

  // MARK: - Model

  /// The objects of `model`, one per group of the parameter catalogue
  /// (`ModelParameter`), in its order: every key, type, range, unit,
  /// default and source tag comes from the parameter's declaration.
  static let modelGroups: [ModelParameterGroup: SchemaObject] = Dictionary(
    uniqueKeysWithValues: ModelParameterGroup.allCases.map { group in
      (group, SchemaObject(group.title, doc: group.doc, ModelParameter.parameters(of: group).map(field)))
    })

  /// The schema object of `group`.
  static func object(_ group: ModelParameterGroup) -> SchemaObject {
    guard let o = modelGroups[group] else { preconditionFailure("every group has an object") }
    return o
  }

  /// The field of the scenario format that states `parameter`.
  static func field(_ parameter: ModelParameter) -> SchemaField {
    let d = parameter.declaration
    let type: SchemaType
    switch d.kind {
    case .choice(let values): type = .string(choices: values)
    case .integer(let lo, let hi): type = .integer(min: lo, max: hi)
    case .number(let lo, let hi, let exclusive):
      type = .number(min: lo, max: hi ?? sanityMax(d.unit), exclusiveMin: exclusive)
    case .flag: type = .boolean
    case .optionalInteger(let lo, let hi): type = .anyOf([.integer(min: lo, max: hi), .null])
    case .optionalNumber(let lo, let hi): type = nullableNumber(lo, max: hi ?? sanityMax(d.unit))
    case .distribution(let named):
      type = named.isEmpty ? distribution : .anyOf([.string(choices: named.map(\.name)), distribution])
    }
    return SchemaField(
      d.key, type, d.doc, unit: d.unit, default: json(parameter.defaultValue, of: parameter), source: d.source,
      placement: d.placement?.rawValue, construct: d.construct?.rawValue)
  }

  /// A parameter's value as the scenario format writes it (`ModelParameter.written`).
  static func json(_ value: ParameterValue, of parameter: ModelParameter) -> JSONValue {
    switch parameter.written(value) {
    case .number(let x): return .number(x)
    case .string(let s): return .string(s)
    case .bool(let b): return .bool(b)
    case .null: return .null
    case .distribution(let dist, let fields):
      var object: [String: JSONValue] = ["dist": .string(dist)]
      for f in fields { object[f.key] = .number(f.value) }
      return .object(object)
    }
  }

  /// `model.profile`: the model profile a scenario's model starts from.
  static let profileKey = "profile"

  static let wakeRules = SchemaObject(
    "Wake source rules", doc: "What stops each type of wake source (docs/model.md#wake-sources).",
    ModelParameterGroup.allCases.filter { $0.parent == ModelParameterGroup.wakeSourcesKey }.map {
      SchemaField($0.key, .object(object($0)), $0.summary, default: .object([:]))
    })

  static let model = SchemaObject(
    "Model",
    doc:
      "The model's assumptions (docs/model.md#assumptions). Every field has a default; change them to test how much "
      + "an answer depends on them. `profile` picks a whole reading of the model as the base: its settings are laid "
      + "over the defaults first, then this block's own fields over them.",
    [
      SchemaField(
        profileKey, .string(choices: ModelProfile.all.map(\.name)),
        "The model profile this block starts from (docs/model.md#model-profiles): "
          + ModelProfile.all.map { "`\($0.name)` (\($0.summary))" }.joined(separator: "; ")
          + ". Fields set here override it; with `extends`, the nearest file that names a profile wins and every "
          + "file's own fields lie over it.",
        default: .string(ModelProfile.standardName))
    ]
      + ModelParameterGroup.allCases.filter { $0.parent == nil }.map {
        SchemaField($0.key, .object(object($0)), $0.summary, default: .object([:]))
      } + [
        SchemaField(
          ModelParameterGroup.wakeSourcesKey, .object(wakeRules), "What stops wake sources.", default: .object([:]))
      ])

  static let fetchFailure = SchemaObject(
    "Fetch failure",
    doc: "When fetching a kind's data fails (docs/model.md#fetch-failure): at random, and during a daily outage.",
    [
      number("probability", "Each fetch fails independently with this probability.", default: 0, min: 0, max: 1),
      number(
        "outage_from_hour", "A daily outage starts at this UTC hour (every fetch fails until `outage_to_hour`).",
        unit: "hour of day", default: 0, min: 0, max: 24),
      number(
        "outage_to_hour", "The outage ends at this UTC hour (may pass 24); equal to `outage_from_hour`: none.",
        unit: "hour of day", default: 0, min: 0, max: 48),
      flag(
        "when_unpublished",
        "A fetch fails while the newest scheduled change is not published yet (`scheduled.published_at_utc`): the "
          + "provider finds no data for today.",
        default: false),
    ])

  static let energy = SchemaObject(
    "Energy",
    doc:
      "The energy proxy: a cost per unit of work. Orders of magnitude, not measurements; sweep them if energy "
      + "drives a decision.",
    [
      number(
        "extension_launch_mj", "Per widget extension launch (every reload).", unit: "millijoules",
        default: EnergyModel.standard.extensionLaunchMillijoules, min: 0, source: "assumed"),
      number(
        "app_wake_mj", "Per background app launch (push or BGAppRefresh).", unit: "millijoules",
        default: EnergyModel.standard.appWakeMillijoules, min: 0, source: "assumed"),
      number(
        "fetch_mj", "Per backend request (timeline or background fetch).", unit: "millijoules",
        default: EnergyModel.standard.fetchMillijoules, min: 0, source: "assumed"),
    ])

  // MARK: - Top level

  /// `model_version`: the model version a scenario file was written for.
  static let modelVersionKey = "model_version"

  /// The longest run a scenario may ask for.
  static let maxDays = 366.0

  /// The top level's fields; `strategies` names one of `strategyNames`
  /// or is a `strategy` object.
  static func scenarioFields(strategyNames: [String], strategy: SchemaObject) -> [SchemaField] {
    [
      SchemaField("$schema", .string(choices: nil), "Path or URL of the JSON Schema, for editors; ignored."),
      SchemaField(
        "extends", .string(choices: nil),
        "Another scenario file this one builds on (a path relative to this file's folder): its keys are read first "
          + "and this file's are laid over them, objects key by key, anything else (a number, a list) replaced "
          + "whole. Resolved when the file is read; chains of up to 8 files."
      ),
      integer(
        modelVersionKey,
        "The model version (docs/model.md#model-versions) the file was written for. Absent: 1 (files written "
          + "before the field existed). An older version runs under today's model with one warning naming the "
          + "defaults changed since, unless the file sets them itself (`\"model\": {\"profile\": \"model_1\"}` "
          + "pins version 1's); a newer one than this reloadbench simulates is an error. Changes no result.",
        min: 1, max: 1_000_000),
      SchemaField(
        "name", .string(choices: nil),
        "Scenario name: letters, digits, `-`, `_`, `.`; reports go to `Reports/<name>/`.", required: true),
      SchemaField(
        "title", .string(choices: nil),
        "The human title the reports lead with (e.g. \"Weather widgets: which reload strategy?\"); absent: the name. "
          + "Changes no result."),
      SchemaField(
        "description", .string(choices: nil), "One or two sentences for the report's headline.", default: .string("")),
      integer(
        "seed", "Seed of every random stream; same scenario + seed = same bytes.", default: 1, min: 0,
        max: 9_007_199_254_740_991),
      number(
        "days",
        "Simulated days, warm-up "
          + "included.", unit: "days", default: 7, min: 0, max: maxDays, exclusiveMin: true),
      number(
        "warmup_days", "Leading days left out of every metric (budgets start full).", unit: "days", default: 1, min: 0,
        max: maxDays),
      integer("devices", "Simulated devices.", default: 1000, min: 1, max: 50_000_000),
      SchemaField(
        "fleet_devices", nullableNumber(0, max: sanityMax("devices")),
        "The real fleet size backend figures are scaled to; null = `devices`.", unit: "devices", default: .null),
      integer(
        "replications", "Independent repetitions with derived seeds; 2 or more add `_ci95` columns.", default: 1,
        min: 1, max: Double(maxReplications)),
      choice(
        "start_weekday",
        "The weekday of day 0; each clock (a device's time zone, a shared feed's `utc_offset_h`) counts its own "
          + "days from it, so at 00:00 UTC of day 0 a device west of UTC is still on the day before "
          + "(docs/model.md#calendar). Matters only for weekday patterns.",
        Weekday.allCases.map(\.name), default: Weekday.monday.name),
      choice(
        "engine",
        "`elided`: glances and data changes are read in bulk between state changes (exact, fast); `event_by_event`: "
          + "every one goes through the event queue (the reference).",
        EngineMode.allCases.map(\.rawValue), default: EngineMode.elided.rawValue),
      SchemaField(
        "kinds", .array(of: .object(kind), minItems: 1, maxItems: 32), "Widget kinds and their content.", required: true
      ),
      SchemaField(
        "segments", .array(of: .object(segment), minItems: 1, maxItems: 64), "Device segments.", required: true),
      SchemaField(
        "strategies",
        .array(of: .anyOf([.string(choices: strategyNames), .object(strategy)]), minItems: 1, maxItems: 32),
        "Strategies to compare: preset names or strategy objects.", required: true),
      SchemaField("model", .object(model), "The model's assumptions.", default: .object([:])),
      SchemaField("energy", .object(energy), "The energy proxy.", default: .object([:])),
      SchemaField(
        "sweep", .anyOf([.object(sweep), .null]),
        "Run the scenario over a grid of parameter values (see Sweeps), or null.", default: .null),
      SchemaField(
        "objective", .anyOf([.object(objective), .null]),
        "What the recommendation optimises (see Sweeps and objectives), or null for the default recommendation.",
        default: .null),
      SchemaField(
        "live_activities", .anyOf([.object(liveActivities), .null]),
        "Live Activities compared on the same devices and content (see Writing a Live Activity), or null.",
        default: .null),
      SchemaField(
        "robustness", .anyOf([.object(robustness), .null]),
        "Whether the recommendation holds under every assumption's alternatives (see Robustness), or null.",
        default: .null),
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
