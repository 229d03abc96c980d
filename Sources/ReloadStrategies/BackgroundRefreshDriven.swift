import ReloadEngine
import WidgetModel

/// `bg-refresh`: `.never`; the app schedules a BGAppRefresh task (earliest
/// begin 30 minutes ahead) and reloads all timelines in it. The system runs
/// it when it likes (often hours late, near the user's habits), never in
/// Low Power Mode or after a force-quit; the reloads are budgeted.
public enum BackgroundRefreshDriven {
  public static let preset = StrategyPreset(
    name: "bg-refresh",
    summary: "Policy .never; a BGAppRefresh task (earliest begin +30 min) reloads all timelines.",
    code: """
      BGTaskScheduler.shared.register(forTaskWithIdentifier: "refresh", using: nil) { task in
        Task { try? await store.refresh(); WidgetCenter.shared.reloadAllTimelines()
               schedule(); task.setTaskCompleted(success: true) } }
      func schedule() { let r = BGAppRefreshTaskRequest(identifier: "refresh")
        r.earliestBeginDate = .now.addingTimeInterval(30 * 60); try? BGTaskScheduler.shared.submit(r) }
      """,
    strategy: Strategy(
      name: "bg-refresh", timeline: EntryTimeline(entries: 1, dating: .spaced, policy: .never),
      app: AppBehaviour(backgroundRefreshInterval: .minutes(30))))
}
