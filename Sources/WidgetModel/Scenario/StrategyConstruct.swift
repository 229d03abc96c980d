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

  /// Whether `strategy` may use it. A strategy written in Swift may do
  /// anything its code does.
  public func isUsed(by strategy: Strategy) -> Bool {
    if strategy.code != nil { return true }
    switch self {
    case .completionNeverCalled:
      let timelines = [strategy.timeline] + strategy.kinds.compactMap { $0?.timeline }
      return timelines.contains { $0.onFailure.map { !$0.callsCompletion } ?? false }
    }
  }

  /// Whether some strategy of `scenario` may use it.
  public func isUsed(in scenario: Scenario) -> Bool { scenario.strategies.contains(where: isUsed(by:)) }
}
