/// xoshiro256** (Blackman and Vigna, "Scrambled linear pseudorandom number
/// generators", ACM TOMS 2021): 256 bits of state, period 2^256 - 1, passes
/// BigCrush. The generator of every simulation stream.
///
/// Seed it with `init(seed:)` (expanded through SplitMix64, as its authors
/// recommend) or get one per (seed, entity, purpose) from `RandomStreams`.
@frozen
public struct Xoshiro256StarStar: RandomNumberGenerator, Sendable {
  @usableFromInline internal var s0: UInt64
  @usableFromInline internal var s1: UInt64
  @usableFromInline internal var s2: UInt64
  @usableFromInline internal var s3: UInt64

  @inlinable
  public init(seed: UInt64) {
    var sm = SplitMix64(seed: seed)
    s0 = sm.next()
    s1 = sm.next()
    s2 = sm.next()
    s3 = sm.next()
  }

  @inlinable @inline(__always)
  public mutating func next() -> UInt64 {
    let result = (s1 &* 5).rotatedLeft(by: 7) &* 9
    let t = s1 &<< 17
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = s3.rotatedLeft(by: 45)
    return result
  }
}

extension UInt64 {
  @inlinable @inline(__always)
  internal func rotatedLeft(by k: UInt64) -> UInt64 {
    (self &<< k) | (self &>> (64 &- k))
  }
}
