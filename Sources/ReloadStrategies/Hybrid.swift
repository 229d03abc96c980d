import ReloadEngine
import WidgetModel

/// `hybrid`: future entries for what is predictable, a silent push for what
/// is not (coalesced within 5 minutes), and a free reload whenever the app
/// comes to the foreground. The strategy the seed documents recommend.
public enum Hybrid {
  public static let preset = StrategyPreset(
    name: "hybrid",
    summary: "Future entries + .atEnd, silent push for unpredictable changes, reload on foreground.",
    code: """
      completion(Timeline(entries: scheduledEntries(from: data), policy: .atEnd))
      // backend: silent push only for changes the schedule did not announce
      // app: reloadTimelines(ofKind:) after the push and on .active scene phase
      """,
    strategy: Strategy(
      name: "hybrid", timeline: FutureEntries.timeline,
      app: AppBehaviour(reloadOnForeground: true, reloadOnSilentPush: true),
      backend: BackendBehaviour(silentPush: PushTrigger(on: .unpredictable, coalesce: .minutes(5)))))
}
