import ReloadEngine

/// The timeline provider of a strategy written as data: each kind's
/// `EntryTimeline` (the strategy's own, or the kind's override).
public struct StrategyTimelines: TimelineProvider, Equatable {
  /// Indexed by kind; shorter than the kind list when kinds share the default.
  public let perKind: [EntryTimeline]
  public let fallback: EntryTimeline
  public let usesRandomDraw: Bool

  public init(_ strategy: Strategy, kinds: Int) {
    fallback = strategy.timeline
    perKind = (0..<kinds).map { strategy.timeline(kind: $0) }
    usesRandomDraw = (perKind + [fallback]).contains(where: \.usesRandomDraw)
  }

  @inlinable @inline(__always)
  func entryTimeline(_ k: Int) -> EntryTimeline { k < perKind.count ? perKind[k] : fallback }

  @inlinable
  public func timeline(for request: TimelineRequest) -> Timeline {
    entryTimeline(request.kind).timeline(for: request)
  }

  public static var makesReloadCalls: Bool { false }

  public func firstRequestSpread(kind: Int) -> SimDuration { entryTimeline(kind).naturalInterval }
}
