/// SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number
/// generators", OOPSLA 2014): a 64-bit state advanced by a Weyl increment and
/// scrambled by a finalizer. Used to seed `Xoshiro256StarStar` and, as a
/// pure function (`mix`), to derive independent stream seeds.
@frozen
public struct SplitMix64: RandomNumberGenerator, Sendable {
  @usableFromInline internal var state: UInt64

  @inlinable
  public init(seed: UInt64) { state = seed }

  @inlinable @inline(__always)
  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    return SplitMix64.mix(state)
  }

  /// The SplitMix64 finalizer: a bijective scramble of 64 bits.
  @inlinable @inline(__always)
  public static func mix(_ value: UInt64) -> UInt64 {
    var z = value
    z = (z ^ (z &>> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z &>> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z &>> 31)
  }
}
