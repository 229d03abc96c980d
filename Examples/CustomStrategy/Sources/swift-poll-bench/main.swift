import Foundation
import ReloadBenchCLI
import ReloadEngine
import WidgetModel

/// `poll-15m` written in Swift: one entry, `.after(now + 15 min)`. The same
/// timeline the preset returns, so a run of R1 with it gives the preset's
/// results; only the path through the code differs (see README.md, "What
/// it costs").
struct Poll15Minutes: TimelineProvider {
  func timeline(for request: TimelineRequest) -> Timeline {
    Timeline(entries: .spaced(count: 1, every: .minutes(15)), policy: .after(.minutes(15)))
  }
  func firstRequestSpread(kind: Int) -> SimDuration { .minutes(15) }
  var usesRandomDraw: Bool { false }
  static var makesReloadCalls: Bool { false }
}

exit(ReloadBenchCLI.main(strategies: [Strategy(name: "swift-poll-15m", code: Poll15Minutes())]))
