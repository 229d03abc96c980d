import ReloadEngine
import WidgetModel

/// `silent-push`: `.never`; the backend sends a silent push on every data
/// change (coalesced within 5 minutes); the woken app fetches and calls
/// `reloadTimelines(ofKind:)`, a budgeted reload. The system throttles
/// silent pushes to about 2-3 an hour and delivers none to a force-quit app.
public enum SilentPushDriven {
  public static let preset = StrategyPreset(
    name: "silent-push",
    summary: "Policy .never; backend silent push on change; the woken app reloads the kind.",
    code: """
      // backend: apns-push-type: background, apns-priority: 5, {"aps": {"content-available": 1}}
      func application(_: UIApplication, didReceiveRemoteNotification _: [AnyHashable: Any]) async
        -> UIBackgroundFetchResult {
        try? await store.refresh()
        WidgetCenter.shared.reloadTimelines(ofKind: "Feed")
        return .newData
      }
      """,
    strategy: Strategy(
      name: "silent-push", timeline: EntryTimeline(entries: 1, dating: .spaced, policy: .never),
      app: AppBehaviour(reloadOnSilentPush: true),
      backend: BackendBehaviour(silentPush: PushTrigger(on: .all, coalesce: .minutes(5)))))
}
