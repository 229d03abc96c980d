import ReloadEngine

/// The timeline provider of a strategy written as data: each kind's
/// `EntryTimeline` (the strategy's own, or the kind's override).
public struct StrategyTimelines: TimelineProvider {
  /// Indexed by kind.
  public let perKind: [EntryTimeline]
  /// The same, split: what a successful reload returns (small, read on
  /// every reload) and the failure branches (read only on a failure).
  @usableFromInline let shapes: [EntryShape]
  @usableFromInline let failureBranches: [FailureBranch?]
  public let usesRandomDraw: Bool

  public init(_ strategy: Strategy, kinds: Int) {
    perKind = (0..<max(1, kinds)).map { strategy.timeline(kind: $0) }
    shapes = perKind.map(\.shape)
    failureBranches = perKind.map(\.onFailure)
    usesRandomDraw = perKind.contains(where: \.usesRandomDraw)
  }

  @inlinable @inline(__always)
  public func timeline(for request: TimelineRequest) -> Timeline {
    if request.fetch == .failed, let branch = failureBranches[request.kind] { return branch.timeline(for: request) }
    return shapes[request.kind].timeline(for: request)
  }

  public static var makesReloadCalls: Bool { false }

  public func firstRequestSpread(kind: Int) -> SimDuration { perKind[kind].naturalInterval }
}
