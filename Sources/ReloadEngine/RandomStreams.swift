/// Independent random streams derived from `(seed, entity, purpose)`.
///
/// Every random process of a simulation draws from its own stream: device 17's
/// glances, device 17's app sessions, widget 3's reload lateness, and so on.
/// A stream depends only on the scenario seed and its own key, never on the
/// order in which entities are simulated or on how many threads run, so a
/// widget sees the same glances and data changes whatever else happens, and
/// every strategy of a comparison sees the same world (common random numbers).
///
///     let streams = RandomStreams(seed: 42)
///     var glances = streams.stream(entity: 17, purpose: .glances)
///     let u = glances.nextUnit()
///
/// Derivation: the three values are folded through the SplitMix64 finalizer
/// with distinct odd multipliers, so nearby keys give unrelated seeds. The
/// same fold (`counter(entity:purpose:index:)`) gives counter-based draws:
/// the n-th value of a stream computed directly, with no state to carry.
@frozen
public struct RandomStreams: Sendable {
  /// The scenario seed (after any replication offset).
  public let seed: UInt64

  @inlinable
  public init(seed: UInt64) { self.seed = seed }

  /// The 64-bit key of `(entity, purpose)` under this seed.
  @inlinable @inline(__always)
  public func key(entity: UInt64, purpose: StreamPurpose) -> UInt64 {
    var h = SplitMix64.mix(seed &+ 0x243F_6A88_85A3_08D3)
    h = SplitMix64.mix(h ^ (entity &* 0x9E37_79B9_7F4A_7C15))
    h = SplitMix64.mix(h ^ (purpose.rawValue &* 0xC2B2_AE3D_27D4_EB4F))
    return h
  }

  /// A fresh generator for `(entity, purpose)`.
  @inlinable
  public func stream(entity: UInt64, purpose: StreamPurpose) -> Xoshiro256StarStar {
    Xoshiro256StarStar(seed: key(entity: entity, purpose: purpose))
  }

  /// The `index`-th 64-bit value of the counter-based stream `(entity,
  /// purpose)`: a pure function, so any element can be drawn in any order.
  @inlinable @inline(__always)
  public func counter(entity: UInt64, purpose: StreamPurpose, index: UInt64) -> UInt64 {
    SplitMix64.mix(key(entity: entity, purpose: purpose) ^ SplitMix64.mix(index &+ 0x632B_E59B_D9B4_E019))
  }

  /// Streams for replication `r` of the same scenario: an unrelated seed.
  @inlinable
  public func replication(_ r: Int) -> RandomStreams {
    r == 0 ? self : RandomStreams(seed: SplitMix64.mix(seed ^ (UInt64(r) &* 0xD6E8_FEB8_6659_FD93)))
  }
}

/// What a random stream is used for: a number folded into the stream's key.
///
/// The engine names no purposes of its own but `test`; a model names its
/// processes in an extension (WidgetModel's are in
/// `Sources/WidgetModel/Population/StreamPurpose+Model.swift`). The raw
/// values are part of the reproducibility contract: changing one changes
/// every result, and two purposes of one model must never share a value.
@frozen
public struct StreamPurpose: RawRepresentable, Hashable, Sendable {
  public let rawValue: UInt64
  @inlinable public init(rawValue: UInt64) { self.rawValue = rawValue }

  /// For tests and benchmarks.
  public static let test = StreamPurpose(rawValue: 99)
}
