import ReloadEngine
import WidgetModel

/// `poll-5m` ... `poll-60m`: one entry, `.after(now + N minutes)`.
///
/// Asks for a reload every N minutes whatever the data does. 15-60 min is
/// the budget's own rhythm (40-70 a day); 5 min is a known anti-pattern
/// that exhausts the budget by early afternoon.
public enum Polling {
  public static func preset(minutes: Int) -> StrategyPreset {
    StrategyPreset(
      name: "poll-\(minutes)m",
      summary: "One entry; ask again \(minutes) minutes later (.after), whatever the data does.",
      code: """
        let entry = Entry(date: .now, data: try await api.fetch())
        let next = Calendar.current.date(byAdding: .minute, value: \(minutes), to: .now)!
        completion(Timeline(entries: [entry], policy: .after(next)))
        """,
      strategy: Strategy(
        name: "poll-\(minutes)m",
        timeline: EntryTimeline(
          entries: 1, spacing: .minutes(Double(minutes)), dating: .spaced,
          policy: .after(.minutes(Double(minutes))))))
  }
}
