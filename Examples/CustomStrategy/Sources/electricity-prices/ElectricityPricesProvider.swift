import ReloadEngine
import WidgetModel

/// The widget of Electricity Prices (jonkan/Electricity-Prices @ba0f57a,
/// `Core/Core/Widget/PricePointTimelineProvider.swift`), written against
/// ReloadBench's `TimelineProvider`: what its `getTimeline` returns, and
/// the app's own `WidgetCenter` call after it refreshes prices.
///
/// The content it shows is the kind "prices" of `electricity-prices.json`:
/// an hourly spot price (a scheduled change every hour, on the hour, in
/// the market's time zone). Tomorrow's day-ahead prices are published at
/// about 13:00 local time; before that the app knows today's prices only.
struct ElectricityPricesProvider: TimelineProvider {
  /// At most this many hourly entries (L80-84: "as somewhere around 24-48
  /// has shown too many"; commit fae60ec after watch extension CPU kills).
  var maxEntries = 12
  /// When tomorrow's prices are there, minutes after local midnight.
  var publishedAt = 13 * 60
  /// `.after(13:10 today)` before publication (EntsoePricesAPI.swift L18-24).
  var checkAt = ClockWindow(at: 13, 10)
  /// Retry delays after the 1st, 2nd, 3rd+ failure, plus up to `jitter` (L143-153).
  var retry: [SimDuration] = [.minutes(10), .minutes(30), .minutes(60)]
  var jitter: SimDuration = .seconds(30)

  /// WidgetKit's `getTimeline` (L64-137).
  func timeline(for request: TimelineRequest) -> Timeline {
    // L132-136: on any failure, an empty timeline (the widget keeps what it
    // shows) with the retry backoff.
    if request.fetch == .failed {
      return Timeline(entries: .now, policy: .after(retryDelay(request)))
    }
    // L64-84: entries from the current hour, one per price, at most 12.
    let entries = Timeline.Entries.content(count: maxEntries)
    // L100-121: `.atEnd` once tomorrow's prices are known, else ask again at 13:10.
    if minuteOfDay(request) >= publishedAt {
      return Timeline(entries: entries, policy: .atEnd)
    }
    return Timeline(entries: entries, policy: .atLocalTime(checkAt))
  }

  /// The app's own calls: after it refreshes prices (on launch and on
  /// every return to the foreground), `reloadAllTimelines()` debounced 1 s
  /// (AppState.swift L259, L195-199).
  func reloadCalls(after event: AppEvent, _ app: AppSnapshot) -> ReloadCalls {
    event == .appFetch ? ReloadCalls(kinds: .all, delay: .seconds(1)) : .none
  }

  /// The first reload of a widget comes at a random point of this span.
  func firstRequestSpread(kind: Int) -> SimDuration { .hours(12) }

  /// 10, 30, then 60 minutes, plus 0-30 s of jitter from the reload's draw.
  func retryDelay(_ request: TimelineRequest) -> SimDuration {
    let base = retry[min(request.previousFailures, retry.count - 1)]
    return base + SimDuration(milliseconds: Int64(request.random * Double(jitter.milliseconds)))
  }

  /// The device's local time of day, in minutes.
  func minuteOfDay(_ request: TimelineRequest) -> Int {
    let day: Int64 = 86_400_000
    let local = request.now.milliseconds + request.utcOffset.milliseconds
    return Int(((local % day) + day) % day / 60_000)
  }
}
