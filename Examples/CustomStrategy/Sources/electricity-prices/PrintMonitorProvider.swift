import ReloadEngine
import WidgetModel

/// A printer monitor's widget whose reload policy depends on the state of
/// the outside world: while a print job runs (its progress changed in the
/// last `activeWindow`), ask again in 5 minutes; when the printer is idle,
/// in an hour. JSON cannot say this (a policy picked from the data's
/// state); in Swift it is one `if` on `request.lastChange`, the newest
/// change of the kind's data the reload's fetch saw.
///
/// Its WidgetKit code:
///
///     func getTimeline(in context: Context, completion: @escaping (Timeline<Entry>) -> Void) {
///       Task {
///         let status = try? await printer.status()               // one request
///         let printing = status?.job?.isRunning ?? false
///         let next = Date.now.addingTimeInterval(printing ? 5 * 60 : 60 * 60)
///         completion(Timeline(entries: [Entry(date: .now, status: status)], policy: .after(next)))
///       }
///     }
struct PrintMonitorProvider: TimelineProvider {
  /// A job counts as running while its data changed this recently.
  var activeWindow: SimDuration = .minutes(10)
  var whilePrinting: SimDuration = .minutes(5)
  var whenIdle: SimDuration = .hours(1)

  func timeline(for request: TimelineRequest) -> Timeline {
    let printing = request.lastChange != .never && request.now - request.lastChange < activeWindow
    return Timeline(entries: .now, policy: .after(printing ? whilePrinting : whenIdle))
  }

  func firstRequestSpread(kind: Int) -> SimDuration { whenIdle }
  var usesRandomDraw: Bool { false }
  static var makesReloadCalls: Bool { false }
  var readsLastChange: Bool { true }
}
