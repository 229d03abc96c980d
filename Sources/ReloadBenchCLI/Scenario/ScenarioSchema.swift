import ReloadEngine
import ReloadStrategies
import WidgetModel

/// The scenario file format: every field, its type, unit, range, default
/// and (for model assumptions) its source tag (docs/model.md#source-tags).
///
/// Defaults come from the model's own `.standard` values, so the decoder,
/// the JSON Schema and the docs cannot disagree with the Swift types.
enum ScenarioSchema {
  /// The most replications a run takes (a scenario's `replications`, a shard part's header).
  static let maxReplications = 100

  // MARK: - Helpers

  static func number(
    _ key: String, _ doc: String, unit: String? = nil, default d: Double? = nil, min: Double? = nil,
    max: Double? = nil, exclusiveMin: Bool = false, required: Bool = false, source: String? = nil
  ) -> SchemaField {
    SchemaField(
      key, .number(min: min, max: max ?? sanityMax(unit), exclusiveMin: exclusiveMin), doc, unit: unit,
      default: d.map(JSONValue.number), required: required, source: source)
  }

  /// The largest value a field in `unit` may take when it states no limit of
  /// its own: far beyond anything meaningful (a year of simulated time,
  /// one event a second), and small enough that no arithmetic on it
  /// overflows.
  static func sanityMax(_ unit: String?) -> Double? {
    switch unit {
    case "minutes": return 527_040  // 366 days
    case "seconds": return 31_622_400  // 366 days
    case "hours": return 8_784  // 366 days
    case "per hour": return 3_600
    case "per day", "views per day": return 86_400
    case "per 30 days": return 2_592_000
    case "millijoules": return 1_000_000
    case "devices": return 1e10
    default: return nil
    }
  }

  /// The largest relative weight (of a segment, a time zone, an hour).
  static let maxWeight = 1e9

  static func integer(
    _ key: String, _ doc: String, unit: String? = nil, default d: Int? = nil, min: Double? = nil, max: Double? = nil,
    required: Bool = false, source: String? = nil
  ) -> SchemaField {
    SchemaField(
      key, .integer(min: min, max: max), doc, unit: unit, default: d.map { .number(Double($0)) }, required: required,
      source: source)
  }

  static func flag(_ key: String, _ doc: String, default d: Bool, source: String? = nil) -> SchemaField {
    SchemaField(key, .boolean, doc, default: .bool(d), source: source)
  }

  static func choice(
    _ key: String, _ doc: String, _ choices: [String], default d: String? = nil, required: Bool = false,
    source: String? = nil
  ) -> SchemaField {
    SchemaField(
      key, .string(choices: choices), doc, default: d.map(JSONValue.string), required: required, source: source)
  }

  static let hours24 = SchemaType.array(
    of: .number(min: 0, max: maxWeight, exclusiveMin: false), minItems: 24, maxItems: 24)
  static let profileType = SchemaType.anyOf([.string(choices: DailyProfile.allCases.map(\.rawValue)), hours24])
  static func nullableNumber(_ lo: Double, max: Double? = nil) -> SchemaType {
    .anyOf([.number(min: lo, max: max, exclusiveMin: true), .null])
  }

  static func ms(_ d: SimDuration) -> Double { Double(d.milliseconds) }

  // MARK: - Distributions

  static let distributionVariants: [(tag: String, object: SchemaObject)] = [
    (
      "constant",
      SchemaObject(
        "Distribution constant", doc: "Always the same duration.",
        [
          choice("dist", "Selects this shape.", ["constant"], required: true),
          number("value_s", "The duration.", unit: "seconds", min: 0, required: true),
        ])
    ),
    (
      "uniform",
      SchemaObject(
        "Distribution uniform", doc: "Uniform between two durations; `min_s` may be negative (early).",
        [
          choice("dist", "Selects this shape.", ["uniform"], required: true),
          number("min_s", "Lower bound.", unit: "seconds", min: -86_400, required: true),
          number("max_s", "Upper bound (>= min_s).", unit: "seconds", max: 864_000, required: true),
        ])
    ),
    (
      "exponential",
      SchemaObject(
        "Distribution exponential", doc: "Exponential with the given mean.",
        [
          choice("dist", "Selects this shape.", ["exponential"], required: true),
          number("mean_s", "The mean.", unit: "seconds", min: 0, exclusiveMin: true, required: true),
        ])
    ),
    (
      "lognormal",
      SchemaObject(
        "Distribution lognormal", doc: "Log-normal: `median * exp(sigma * N(0,1))`.",
        [
          choice("dist", "Selects this shape.", ["lognormal"], required: true),
          number("median_s", "The median.", unit: "seconds", min: 0, exclusiveMin: true, required: true),
          number("sigma", "Standard deviation of the logarithm.", min: 0, max: 5, required: true),
        ])
    ),
    (
      "late_or_early",
      SchemaObject(
        "Distribution late or early",
        doc:
          "Usually late (log-normal), sometimes early (uniform before the due time): the shape developers measured "
          + "for `.after`.",
        [
          choice("dist", "Selects this shape.", ["late_or_early"], required: true),
          number("median_s", "Median lateness.", unit: "seconds", min: 0, exclusiveMin: true, required: true),
          number("sigma", "Standard deviation of the logarithm.", min: 0, max: 5, required: true),
          number("early_probability", "Probability of being early instead.", min: 0, max: 1, required: true),
          number("early_max_s", "Largest earliness.", unit: "seconds", min: 0, required: true),
        ])
    ),
  ]
  static let distribution = SchemaType.tagged(key: "dist", variants: distributionVariants)

  /// A distribution as the scenario format writes it (`DurationDistribution.scenarioFields`).
  static func distributionJSON(_ d: DurationDistribution) -> JSONValue {
    let (dist, fields) = d.scenarioFields
    var object: [String: JSONValue] = ["dist": .string(dist)]
    for (key, value) in fields { object[key] = .number(value) }
    return .object(object)
  }

  // MARK: - Content

  static let scheduled = SchemaObject(
    "Scheduled changes",
    doc:
      "Changes on a known schedule (an hourly forecast, a timetable, prices published at 13:10): either a grid, "
      + "`every_min` minutes apart from `offset_min` after local midnight inside the active hours, or a list of "
      + "clock times each day (`at`); exactly one of the two. On every day, weekdays or weekends (`days`), "
      + "optionally with another schedule on weekends (`weekend`). The provider sees them `horizon_h` ahead, "
      + "so future entries can show them on time, unless the data is published later (`published_at_utc`) "
      + "(docs/model.md#clock-times, #weekday-patterns, #publication-lag).",
    absentDefault: "none",
    [
      number(
        "every_min",
        "Time between scheduled changes (the grid; at least 6 s, e.g. 0.5 for an authenticator's 30-second codes); "
          + "give this or `at`.",
        unit: "minutes", min: minRepeatMinutes),
      number(
        "offset_min", "Offset of the grid from midnight (with `every_min` only).", unit: "minutes", default: 0, min: 0,
        max: 1440),
      integer(
        "from_hour", "First active local hour (with `every_min` only).", unit: "hour of day", default: 0, min: 0,
        max: 23),
      integer(
        "to_hour", "Active until this local hour, exclusive (with `every_min` only).", unit: "hour of day", default: 24,
        min: 1, max: 24),
      number(
        "horizon_h", "How far ahead the provider knows the scheduled data.", unit: "hours", default: 24, min: 0,
        max: 24 * 14),
      number(
        "utc_offset_h",
        "Clock of the schedule for `shared` content; refused on per-user content, which follows each device's time "
          + "zone. Unset, shared content runs on UTC (a warning when no device lives there).",
        unit: "hours east of UTC", default: 0, min: -12, max: 14),
      SchemaField(
        "at", clockTimes,
        "The clock times of the changes each day, in increasing order (`[\"06:00\", \"13:10\"]`); give this or "
          + "`every_min`."
      ),
      number(
        "drift_min_per_day",
        "The `at` times move by this much each day: on day d of the schedule's clock they are `at + d x drift` "
          + "(sunrise and sunset move 1-4 minutes a day); they must stay within their day for the whole run.",
        unit: "minutes per day", default: 0, min: -60, max: 60),
      choice(
        "days",
        "The days the schedule runs, in its clock: `every_day`, `weekdays` (Monday to Friday: a stock market) or "
          + "`weekends`.",
        ScheduleDays.allCases.map(\.rawValue), default: ScheduleDays.everyDay.rawValue),
      SchemaField(
        "weekend", .anyOf([.object(weekendSchedule), .null]),
        "Another schedule on Saturdays and Sundays (with `days: every_day`), or null for the same as weekdays.",
        default: .null),
      SchemaField(
        "published_at_utc", .anyOf([.clockTime, .null]),
        "When the data of each day's changes is published, UTC: the changes of local date D appear at this time on "
          + "UTC date D minus `published_days_ahead`; until then no timeline can show them and glances are stale "
          + "from the change. Null: known as soon as the horizon reaches it.",
        default: .null),
      integer(
        "published_days_ahead",
        "With `published_at_utc`: 0 publishes on the same UTC date (Wikipedia's \"most read\"), 1 the day before "
          + "(day-ahead prices).",
        unit: "days", default: 0, min: 0, max: 7),
    ])

  /// 1 to 288 clock times (one every 5 minutes at most).
  static let clockTimes = SchemaType.array(of: .clockTime, minItems: 1, maxItems: 288)

  static let weekendSchedule = SchemaObject(
    "Weekend schedule",
    doc:
      "A kind's schedule on Saturdays and Sundays when it differs from the weekdays': a grid (`every_min`) or clock "
      + "times (`at`), exactly one of the two (docs/model.md#weekday-patterns).",
    absentDefault: "none",
    [
      number(
        "every_min", "Time between changes on weekend days (the grid); give this or `at`.", unit: "minutes",
        min: minRepeatMinutes),
      number(
        "offset_min", "Offset of the grid from midnight (with `every_min` only).", unit: "minutes", default: 0, min: 0,
        max: 1440),
      integer(
        "from_hour", "First active local hour (with `every_min` only).", unit: "hour of day", default: 0, min: 0,
        max: 23),
      integer(
        "to_hour", "Active until this local hour, exclusive (with `every_min` only).", unit: "hour of day", default: 24,
        min: 1, max: 24),
      SchemaField(
        "at", clockTimes,
        "The clock times of the changes each weekend day, in increasing order; give this or `every_min`."),
    ])

  static let bursts = SchemaObject(
    "Bursts", doc: "On some days, a window of frequent changes (a live match, breaking news).",
    [
      number("daily_probability", "Probability that a day has a burst.", min: 0, max: 1, required: true),
      integer("from_hour", "Earliest local start hour.", unit: "hour of day", default: 18, min: 0, max: 23),
      integer("to_hour", "Latest local start hour (exclusive).", unit: "hour of day", default: 22, min: 1, max: 24),
      number(
        "duration_min", "Length of the burst.", unit: "minutes", default: 120, min: 0, max: 1440, exclusiveMin: true),
      number(
        "per_hour", "Extra changes per hour during the burst.", unit: "per hour", min: 0, exclusiveMin: true,
        required: true),
    ])

  static let unpredictable = SchemaObject(
    "Unpredictable changes",
    doc: "Changes nobody can see coming: a Poisson process whose rate follows the time of day, plus optional bursts.",
    [
      number(
        "per_day", "Mean changes per day.", unit: "per day", min: 0, max: 100_000, exclusiveMin: true, required: true),
      SchemaField(
        "profile", profileType, "Shape of the day: a named profile or 24 hourly weights.", default: .string("flat")),
      SchemaField("bursts", .anyOf([.object(bursts), .null]), "Occasional bursts, or null.", default: .null),
      number(
        "utc_offset_h",
        "Clock of the profile for `shared` content; refused on per-user content, which follows each device's time "
          + "zone. Unset, shared content runs on UTC (a warning when no device lives there).",
        unit: "hours east of UTC", default: 0, min: -12, max: 14),
      number(
        "weekend_factor",
        "The rate on Saturdays and Sundays (in the content's clock) relative to `per_day`, bursts included; 0 = "
          + "weekdays only (docs/model.md#weekday-patterns).",
        default: 1, min: 0, max: 100),
    ])

  static let kind = SchemaObject(
    "Kind", doc: "A widget kind and the data behind it.",
    [
      SchemaField("name", .string(choices: nil), "Name, referenced by segments' `widgets[].kind`.", required: true),
      choice(
        "scope",
        "`per_user`: each device has its own data; `shared`: one feed for every user (every device sees each change "
          + "at once, which shapes the backend's peak).",
        ["per_user", "shared"], default: "per_user"),
      SchemaField(
        "scheduled", .anyOf([.object(scheduled), .null]), "Changes on a known schedule, or null.", default: .null),
      SchemaField(
        "unpredictable", .anyOf([.object(unpredictable), .null]), "Unpredictable changes, or null.", default: .null),
      number(
        "tolerance_min", "Staleness that still counts as acceptable at a glance.", unit: "minutes", default: 30, min: 0,
        exclusiveMin: true),
      flag("interactive", "The widget has App Intent buttons or toggles (taps reload it for free).", default: false),
      SchemaField(
        "fetch_failure", .anyOf([.object(fetchFailure), .null]),
        "How often fetching this kind's data fails, or null (never).", default: .null),
      SchemaField(
        "session_changes", .anyOf([.object(sessionChanges), .null]),
        "Changes the running app itself makes (now playing, a workout), only during its sessions, or null "
          + "(docs/model.md#session-changes). Per-user kinds only.",
        default: .null),
    ])

  static let sessionChanges = SchemaObject(
    "Session changes",
    doc:
      "Changes of the kind's data that happen only while the app runs: one as each session starts and more at "
      + "random while it lasts (docs/model.md#session-changes).",
    [
      choice(
        "session",
        "`audio`: the segment's audio (or navigation) sessions (a podcast's now playing); `foreground`: its app "
          + "sessions (a sync when opened, a workout the app records).",
        SessionChanges.Session.allCases.map(\.rawValue), required: true),
      flag("at_start", "A change as each session starts (playback begins, a sync runs).", default: true),
      number(
        "per_hour", "Mean changes per hour during a session after its start (a new episode, a chapter).",
        unit: "per hour", default: 0, min: 0, max: 3600),
    ])

  // MARK: - Population

  static let offset = SchemaObject(
    "Time zone", doc: "A time-zone offset and its share of the segment's devices.",
    [
      number("hours", "Offset from UTC.", unit: "hours east of UTC", min: -12, max: 14, required: true),
      number("weight", "Relative share.", default: 1, min: 0, max: maxWeight, exclusiveMin: true),
    ])

  static let lowPower = SchemaObject(
    "Low Power Mode",
    doc: "When Low Power Mode is on: a share of devices, on some days, from an evening hour until charging.",
    [
      number("share", "Share of devices that use Low Power Mode.", default: 0, min: 0, max: 1),
      number("daily_probability", "For those devices, probability it is on a given day.", default: 1, min: 0, max: 1),
      integer("from_hour", "Local hour it turns on.", unit: "hour of day", default: 19, min: 0, max: 23),
      integer(
        "to_hour", "Local hour it turns off (may exceed 24: 25 = 01:00 next day).", unit: "hour of day", default: 23,
        min: 1, max: 47),
    ])

  static let standby = SchemaObject(
    "StandBy",
    doc:
      "When the phone shows StandBy (charging on its side; assumed at night) and how often the user looks at it "
      + "then. The views are spread evenly over the window, asleep or not (docs/model.md#standby).",
    [
      number(
        "views_per_day", "Looks at the StandBy screen per day.", unit: "per day",
        default: StandByHabit.standard.viewsPerDay, min: 0, max: 5000, source: "assumed"),
      integer(
        "from_hour", "Local hour StandBy starts.", unit: "hour of day", default: StandByHabit.standard.fromHour, min: 0,
        max: 23, source: "assumed"),
      integer(
        "to_hour", "Local hour it ends (may exceed 24: 31 = 07:00 next morning).", unit: "hour of day",
        default: StandByHabit.standard.toHour, min: 1, max: 47, source: "assumed"),
    ])

  static let widgetSlot = SchemaObject(
    "Widget slot", doc: "Widgets of one kind at one place on the segment's devices.",
    [
      SchemaField("kind", .string(choices: nil), "Name of a kind in `kinds`.", required: true),
      choice(
        "placement",
        "Where it sits; sets the views it takes a share of (Home Screen, Lock Screen, the watch face, StandBy), the "
          + "share (`model.visibility`) and its budget (a watch complication has its own: "
          + "`model.budget.watch_complication_per_day`).",
        Placement.allCases.map(\.rawValue), default: "home_first_page"),
      integer("count", "Instances of this kind here, per device.", default: 1, min: 1, max: 16),
      number("probability", "Share of the segment's devices that have this slot.", default: 1, min: 0, max: 1),
    ])

  static let segment = SchemaObject(
    "Segment", doc: "A group of similar devices.",
    [
      SchemaField("name", .string(choices: nil), "Name, shown in reports (`segment` column).", required: true),
      number(
        "weight", "Relative share of the scenario's devices.", default: 1, min: 0, max: maxWeight, exclusiveMin: true),
      SchemaField(
        "utc_offsets", .array(of: .object(offset), minItems: 1, maxItems: 48), "Time zones of the devices.",
        default: .array([.object(["hours": .number(0), "weight": .number(1)])])),
      SchemaField(
        "wake_hour", .array(of: .integer(min: 0, max: 23), minItems: 2, maxItems: 2),
        "Local wake-up hour, drawn per device uniformly in [first, second].", unit: "hour of day",
        default: .array([.number(7), .number(7)])),
      SchemaField(
        "sleep_hour", .array(of: .integer(min: 1, max: 47), minItems: 2, maxItems: 2),
        "Local bedtime hour, drawn per device in [first, second]; may exceed 24.", unit: "hour of day",
        default: .array([.number(23), .number(23)])),
      number(
        "home_views_per_day", "Home Screen views per day while awake (widgets on the first page see them all).",
        unit: "per day", default: 40, min: 0, max: 5000),
      number(
        "lock_views_per_day",
        "Lock Screen views per day while "
          + "awake.", unit: "per day", default: 60, min: 0, max: 5000),
      number(
        "watch_views_per_day",
        "Wrist raises per day that show the watch face, while awake (the views of `watch_complication` widgets).",
        unit: "per day", default: 60, min: 0, max: 5000, source: "assumed"),
      SchemaField(
        "standby", .object(standby), "StandBy habits (the views of `standby` widgets).", default: .object([:])),
      number(
        "weekend_views_factor",
        "Views (every surface) and button taps on Saturdays and Sundays relative to weekdays; the budget follows "
          + "the week's mean views (docs/model.md#weekday-patterns).",
        default: 1, min: 0, max: 10),
      number(
        "weekend_sessions_factor", "App and audio sessions on Saturdays and Sundays relative to weekdays.", default: 1,
        min: 0, max: 10),
      SchemaField("view_profile", profileType, "Shape of the day for views and taps.", default: .string("daytime")),
      number(
        "app_sessions_per_day", "Foreground app sessions per day.", unit: "per day", default: 5, min: 0, max: 1000),
      SchemaField(
        "session_profile", profileType, "Shape of the day for app and audio sessions.", default: .string("daytime")),
      SchemaField(
        "session_length", distribution, "Length of a foreground session.",
        default: distributionJSON(.logNormal(median: .minutes(2), sigma: 0.8))),
      number(
        "audio_sessions_per_day", "Audio or navigation sessions per day (the app runs; its reloads are free).",
        unit: "per day", default: 0, min: 0, max: 100),
      SchemaField(
        "audio_length", distribution, "Length of an audio or navigation session.",
        default: distributionJSON(.logNormal(median: .minutes(30), sigma: 0.5))),
      number(
        "taps_per_day", "Button taps per day on each interactive widget.", unit: "per day", default: 0, min: 0,
        max: 1000),
      SchemaField("low_power_mode", .object(lowPower), "Low Power Mode habits.", default: .object([:])),
      number(
        "background_refresh_off_share", "Share of devices with Background App Refresh switched off.", default: 0,
        min: 0, max: 1),
      number(
        "force_quit_share", "Share of devices whose users force-quit the app from the app switcher.", default: 0,
        min: 0, max: 1),
      number(
        "force_quit_probability", "For those users, probability of a force-quit after each session.", default: 0.5,
        min: 0, max: 1),
      number(
        "settings_changes_per_30_days",
        "Locale, Dynamic Type or accessibility changes (each reloads every widget for free).", unit: "per 30 days",
        default: 0, min: 0, max: 1000),
      number(
        "restarts_per_30_days",
        "Device restarts (an update, a flat battery): WidgetKit asks every widget for a timeline, for free, as "
          + "`model.reload.at_restart` says (docs/model.md#device-restart).",
        unit: "per 30 days", default: 0, min: 0, max: 1000),
      number(
        "widget_adds_per_30_days",
        "Times each widget is added (or removed and re-added); a newly added widget's first timeline is a free reload.",
        unit: "per 30 days", default: 0, min: 0, max: 1000),
      SchemaField(
        "widgets", .array(of: .object(widgetSlot), minItems: 1, maxItems: 16), "The widgets on these devices.",
        required: true),
    ])
}
