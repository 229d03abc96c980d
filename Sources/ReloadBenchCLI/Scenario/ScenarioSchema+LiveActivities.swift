import WidgetModel

/// The `live_activities` block (docs/model.md#live-activities; Scenarios/README.md, "Writing a Live Activity").
extension ScenarioSchema {
  static let activityEvent = SchemaObject(
    "Live Activity event",
    doc:
      "What users follow with a Live Activity: an event with a start and an end whose data is a kind's content. "
      + "Give `at` (a shared event at a clock time each day, a match), `per_day` (each user's own, a delivery) or "
      + "`sessions` (each of the app's sessions, a workout).",
    [
      SchemaField("name", .string(choices: nil), "Name, for the reports.", required: true),
      SchemaField(
        "kind", .string(choices: nil), "The kind in `kinds` whose changes the activity shows.", required: true),
      SchemaField(
        "at", .clockTime,
        "A shared event's start each day: the kind's clock for a `shared` kind (its `utc_offset_h`), the device's "
          + "for a per-user one."),
      SchemaField(
        "days", .array(of: .integer(min: 0, max: maxDays), minItems: 1, maxItems: 10_000),
        "For `at`: the simulated days (0, 1, ...) it happens on; absent: every day."),
      number(
        "per_day", "A per-user event: events per day, over the user's awake hours.", unit: "per day", min: 0,
        max: 100, exclusiveMin: true),
      choice(
        "sessions",
        "An event that is each of the app's sessions: `foreground` (a workout the app records) or `audio` (a "
          + "navigation, a podcast); started by the app as the session starts, ended with it.",
        SessionChanges.Session.allCases.map(\.rawValue)),
      SchemaField(
        "length", ScenarioSchema.distribution, "How long the event lasts (for `at` and `per_day`; required there)."),
      number("share", "Share of devices that follow it.", default: 1, min: 0, max: 1),
      choice(
        "start",
        "`push_to_start`: a push starts the activity at the event's start (iOS 17.2); `app`: the app starts it "
          + "(`Activity.request`) at its first foreground session during the event.",
        ActivityEvent.Start.allCases.map(\.rawValue), default: ActivityEvent.Start.pushToStart.rawValue),
    ])

  static let activityStrategy = SchemaObject(
    "Live Activity strategy",
    doc:
      "How the app and its backend update a Live Activity and end it (Scenarios/README.md, \"Writing a Live "
      + "Activity\"). Starts from `preset` if given.",
    [
      SchemaField("name", .string(choices: nil), "Name, for the reports.", required: true),
      choice(
        "preset", "A preset to start from.", ActivityStrategy.presets.map(\.0.name)),
      choice(
        "priority",
        "`apns-priority` of update pushes: `high` (10, budgeted), `low` (5, not budgeted, late), `budget_aware` (10 "
          + "while the budget has room, else 5).",
        ActivityStrategy.Priority.allCases.map(\.rawValue)),
      number(
        "coalesce_s", "The backend sends one push this long after the first change of a span, for all its changes.",
        unit: "seconds", min: 0, max: 86_400),
      SchemaField(
        "local_while_running", .boolean,
        "The app updates the activity itself (`activity.update`) while it runs (foreground or audio), with no push."),
      SchemaField(
        "frequent_updates", .boolean, "`NSSupportsLiveActivitiesFrequentUpdates`: the larger push budget."),
      SchemaField(
        "stale_after_min", nullableNumber(0, max: 1440),
        "`staleDate` = each update + this; null: none. Glances after it count in `stale_marked_glance_pct`.",
        unit: "minutes"),
      choice(
        "end",
        "`push`: an end push at the event's end, with its final content; `app`: the app ends it when it next runs; "
          + "`limit`: nothing does, the system ends it after 8 hours.",
        ActivityStrategy.End.allCases.map(\.rawValue)),
      choice(
        "dismissal",
        "`ActivityUIDismissalPolicy` of the end push: `immediate`, `default` (up to 4 hours), `after` "
          + "(`dismissal_after_min`, at most 4 hours).",
        ActivityStrategy.Dismissal.allCases.map(\.rawValue)),
      number("dismissal_after_min", "For `dismissal: after`.", unit: "minutes", min: 0, max: 240),
      choice(
        "alert",
        "Which updates carry an `alert` (lights the screen, shows the expanded presentation): `none`, `updates` "
          + "(every update: a goal), `end` (the end push: the order has arrived).",
        ActivityStrategy.Alert.allCases.map(\.rawValue)),
      choice(
        "push_via",
        "`token`: one push per activity; `channel`: for a shared event, one broadcast request per change to the "
          + "event's channel (iOS 18), fanned out by APNs (each user's own events still go by token; push-to-start "
          + "cannot be broadcast).",
        ActivityStrategy.PushVia.allCases.map(\.rawValue)),
    ])

  static let liveActivities = SchemaObject(
    "Live Activities",
    doc:
      "Live Activities (ActivityKit) simulated on the same devices and content as the widgets, each strategy on "
      + "the same events (docs/model.md#live-activities). Written to `live_activities.csv` and the report's Live "
      + "Activities section.",
    [
      SchemaField(
        "events", .array(of: .object(activityEvent), minItems: 1, maxItems: 16), "What users follow.", required: true),
      SchemaField(
        "strategies",
        .array(
          of: .anyOf([.string(choices: ActivityStrategy.presets.map(\.0.name)), .object(activityStrategy)]),
          minItems: 1, maxItems: 16),
        "Strategies to compare: preset names or objects.", required: true),
      number(
        "switched_off_share", "Share of users who switched Live Activities off for the app.", default: 0, min: 0,
        max: 1),
      integer(
        "content_bytes",
        "The size of the activity's attributes and content state (ActivityKit refuses more than 4 KB: an error).",
        default: 1024, min: 1, max: 1_000_000),
    ])
}
