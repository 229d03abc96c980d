import ReloadEngine
import WidgetModel

/// `widget-push`: `.never`; the backend sends a WidgetKit push (iOS 26) on
/// every data change (coalesced within 5 minutes). The system reloads the
/// widget without waking the app, from a push budget whose size Apple does
/// not publish (see `model.widget_push`).
public enum WidgetPushDriven {
  public static let preset = StrategyPreset(
    name: "widget-push",
    summary: "Policy .never; backend WidgetKit push (iOS 26) on change reloads the widget.",
    code: """
      struct Handler: WidgetPushHandler {
        func pushTokenDidChange(_ info: WidgetPushInfo, widgets: [WidgetInfo]) { upload(info.token) }
      }
      // widget configuration: .pushHandler(Handler.self); backend: apns-push-type: widgets
      """,
    strategy: Strategy(
      name: "widget-push", timeline: EntryTimeline(entries: 1, dating: .spaced, policy: .never),
      backend: BackendBehaviour(widgetPush: PushTrigger(on: .all, coalesce: .minutes(5)))))
}
