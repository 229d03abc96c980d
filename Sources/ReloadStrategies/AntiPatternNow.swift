import ReloadEngine
import WidgetModel

/// `anti-pattern-now`: five entries all dated "now" and `.atEnd`. The last
/// entry's date has already passed, so `.atEnd` means "ask again at once":
/// the widget burns its budget within the first hour of its window and
/// then looks frozen until budget returns (docs/model.md#anti-pattern-now; seed 000).
public enum AntiPatternNow {
  public static let preset = StrategyPreset(
    name: "anti-pattern-now",
    summary: "Five entries all dated now, .atEnd: asks again immediately and burns the budget.",
    code: """
      let entries = items.prefix(5).map { Entry(date: .now, item: $0) }   // all "now"
      completion(Timeline(entries: entries, policy: .atEnd))
      """,
    strategy: Strategy(
      name: "anti-pattern-now", timeline: EntryTimeline(entries: 5, dating: .now, policy: .atEnd)))
}
