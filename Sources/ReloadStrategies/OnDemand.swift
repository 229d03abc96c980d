import ReloadEngine
import WidgetModel

/// `on-demand`: `.never`; the app reloads its widgets when it comes to the
/// foreground (free), and a tapped button reloads its widget (free). Costs
/// no budget; the widget is only as fresh as the user's last app visit.
public enum OnDemand {
  public static let preset = StrategyPreset(
    name: "on-demand",
    summary: "Policy .never; reloadAllTimelines() when the app comes to the foreground.",
    code: """
      completion(Timeline(entries: [entry], policy: .never))
      // in the app:
      .onChange(of: scenePhase) { if $0 == .active { WidgetCenter.shared.reloadAllTimelines() } }
      """,
    strategy: Strategy(
      name: "on-demand", timeline: EntryTimeline(entries: 1, dating: .spaced, policy: .never),
      app: AppBehaviour(reloadOnForeground: true)))
}
