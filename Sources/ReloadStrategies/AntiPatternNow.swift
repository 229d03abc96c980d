import ReloadEngine
import WidgetModel

/// `anti-pattern-now`: five entries all dated "now" and `.atEnd`. The last
/// entry's date has already passed, so `.atEnd` means "ask again at once".
/// By default WidgetKit paces such a widget to its budget and it spends the
/// whole budget every day (docs/model.md#asap-reloads); under the seeds'
/// reading (`reload.asap: immediate`, a sliding window) it burns the budget
/// within the first hour awake and then looks frozen until budget returns
/// (docs/model.md#anti-pattern-now; seed 000).
public enum AntiPatternNow {
  public static let preset = StrategyPreset(
    name: "anti-pattern-now",
    summary: "Five entries all dated now, .atEnd: asks again at once and spends the whole budget.",
    code: """
      let entries = items.prefix(5).map { Entry(date: .now, item: $0) }   // all "now"
      completion(Timeline(entries: entries, policy: .atEnd))
      """,
    strategy: Strategy(
      name: "anti-pattern-now", timeline: EntryTimeline(entries: 5, dating: .now, policy: .atEnd)))
}
