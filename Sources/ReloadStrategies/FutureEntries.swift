import ReloadEngine
import WidgetModel

/// `future-entries`: eight entries dated on the content's own schedule
/// (the next scheduled changes within the provider's horizon) and
/// `.atEnd`. One reload covers hours of predictable data (an hourly
/// forecast, a calendar), so the widget is fresh on time with a handful of
/// reloads a day; unpredictable changes wait for the next reload.
public enum FutureEntries {
  public static let timeline = EntryTimeline(entries: 8, spacing: .hours(1), dating: .content, policy: .atEnd)

  public static let preset = StrategyPreset(
    name: "future-entries",
    summary: "Eight entries dated at the content's next scheduled changes, then .atEnd.",
    code: """
      let forecast = try await api.hourlyForecast()          // known hours ahead
      let entries = forecast.prefix(8).map { Entry(date: $0.start, data: $0) }
      completion(Timeline(entries: entries, policy: .atEnd))
      """,
    strategy: Strategy(name: "future-entries", timeline: timeline))
}
