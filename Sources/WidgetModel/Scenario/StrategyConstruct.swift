/// A construct of the strategy language that some model parameters matter
/// to only (Scenarios/README.md, "Writing your strategy"). A report lists
/// such a parameter only when a strategy of the scenario uses the construct
/// or the file sets the parameter, so adding a construct and its rule leaves
/// the reports of scenarios without it unchanged (as `Placement` does for a
/// placement's parameters).
public enum StrategyConstruct: String, Sendable, CaseIterable {
  /// A provider that never calls `getTimeline`'s completion handler when its
  /// fetch fails (docs/model.md#no-completion).
  case completionNeverCalled = "completion_never_called"
  /// A timeline whose first entry is dated after the reload
  /// (`dating: offset`; docs/model.md#future-first-entry).
  case futureFirstEntry = "future_first_entry"
  /// Devices that restart (a segment's `restarts_per_30_days`;
  /// docs/model.md#device-restart): a property of the users, so every
  /// strategy of a scenario with restarts uses it.
  case deviceRestart = "device_restart"
  /// Live Activities (a scenario's `live_activities`; docs/model.md#live-activities).
  case liveActivities = "live_activities"

  /// Whether `strategy` may use it. A strategy written in Swift may do
  /// anything its code does.
  public func isUsed(by strategy: Strategy) -> Bool {
    if strategy.code != nil { return true }
    let timelines = [strategy.timeline] + strategy.kinds.compactMap { $0?.timeline }
    switch self {
    case .completionNeverCalled:
      return timelines.contains { $0.onFailure.map { !$0.callsCompletion } ?? false }
    case .futureFirstEntry:
      return timelines.contains { $0.dating == .offset && $0.spacing > .zero }
    case .deviceRestart, .liveActivities:
      return true
    }
  }

  /// Whether some strategy of `scenario` may use it.
  public func isUsed(in scenario: Scenario) -> Bool {
    if self == .deviceRestart { return scenario.segments.contains { $0.restartsPer30Days > 0 } }
    if self == .liveActivities { return scenario.liveActivities != nil }
    return scenario.strategies.contains(where: isUsed(by:))
  }
}
