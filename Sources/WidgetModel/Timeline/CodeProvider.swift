import ReloadEngine

/// A strategy written in Swift (`Strategy.code`) as the simulator runs it.
///
/// The team's provider is a type this module cannot see at compile time,
/// so a `DeviceSimulator` generic over it would run unspecialised (every
/// access to the simulator's state through runtime type metadata). This
/// wrapper is a concrete type instead: `DeviceSimulator<CodeProvider>` is
/// compiled and specialised here, like `DeviceSimulator<StrategyTimelines>`,
/// and the team's code is reached by one dynamic call where WidgetKit
/// would call it: `timeline(for:)` once per reload, `reloadCalls` once per
/// app event (only if the provider says it makes calls), and
/// `firstRequestSpread` once per widget and device. Glances, data changes
/// and budget events never call it. Nothing is allocated per call.
struct CodeProvider: TimelineProvider {
  let code: any TimelineProvider
  let usesRandomDraw: Bool
  let readsLastChange: Bool
  /// `type(of: code).makesReloadCalls`, read once.
  let makesCalls: Bool

  init(_ code: any TimelineProvider) {
    self.code = code
    usesRandomDraw = code.usesRandomDraw
    readsLastChange = code.readsLastChange
    makesCalls = type(of: code).makesReloadCalls
  }

  func timeline(for request: TimelineRequest) -> Timeline { code.timeline(for: request) }

  func firstRequestSpread(kind: Int) -> SimDuration { code.firstRequestSpread(kind: kind) }

  func reloadCalls(after event: AppEvent, _ app: AppSnapshot) -> ReloadCalls {
    makesCalls ? code.reloadCalls(after: event, app) : .none
  }

  /// Decided per instance (`makesCalls`); the simulator asks on each app event.
  static var makesReloadCalls: Bool { true }
}
