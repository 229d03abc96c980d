/// A priority queue of `Event`s: the pending-event set of a simulation.
///
/// Two implementations ship: `QuaternaryHeap` (4-ary, the default, see
/// `EventQueue`) and `BinaryHeap`. Both order events by
/// `Event.precedes(_:_:)`, so they pop exactly the same sequence.
public protocol EventSet {
  /// An empty set.
  init()
  /// The number of pending events.
  var count: Int { get }
  /// The event that comes first, if any.
  ///
  /// - Complexity: O(1)
  var min: Event? { get }
  /// Adds an event.
  ///
  /// - Complexity: O(log n)
  mutating func insert(_ event: Event)
  /// Removes and returns the event that comes first.
  ///
  /// - Complexity: O(log n)
  mutating func popMin() -> Event?
  /// Removes the first event and inserts `event` in one sift: the hold
  /// operation of a simulation where handling an event schedules its
  /// successor. Returns the removed event.
  ///
  /// - Precondition: the set is not empty.
  /// - Complexity: O(log n)
  mutating func replaceMin(with event: Event) -> Event
  /// Removes every event, keeping the storage for reuse when asked.
  mutating func removeAll(keepingCapacity: Bool)
  /// Reserves storage for `minimumCapacity` events.
  mutating func reserveCapacity(_ minimumCapacity: Int)
}

extension EventSet {
  @inlinable
  public var isEmpty: Bool { count == 0 }
}

/// The event set the simulator uses unless told otherwise.
///
/// The 4-ary heap was faster than the binary heap on every hold-model size
/// from 1e3 to 1e6 events and on R1 (see `Sources/ReloadEngine/README.md`
/// for the figures), so it is the default.
public typealias EventQueue = QuaternaryHeap
