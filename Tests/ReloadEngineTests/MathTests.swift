import Testing

import ReloadEngine

/// The engine's own roundings equal the standard library's on every kind
/// of value: halves, values next to halves, negatives, large and tiny ones.
@Suite struct MathTests {
  static var values: [Double] {
    var v: [Double] = [0, -0.0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 0.49999999999999994, -0.49999999999999994,
      4_503_599_627_370_495.5, 4_503_599_627_370_497, -4_503_599_627_370_495.5, 9.0e15, -9.0e15, 1e-300, -1e-300,
      86_400_000, 3_599_999.5, 3_599_999.499999999]
    var rng = SplitMix64(seed: 3)
    for _ in 0..<20_000 {
      let unit = Double(rng.next() >> 11) * 0x1p-53
      let scale = [1.0, 10, 1_000, 3_600_000, 1e12][Int(rng.next() % 5)]
      let x = (unit * 2 - 1) * scale
      v.append(x)
      v.append(x.rounded(.down) + 0.5)  // exact halves
      v.append((x.rounded(.down) + 0.5).nextDown)
      v.append((x.rounded(.down) + 0.5).nextUp)
    }
    return v
  }

  @Test func roundedToInt64IsRoundedHalfAwayFromZero() {
    for x in Self.values {
      #expect(_roundedToInt64(x) == Int64(x.rounded()), "\(x)")
    }
  }

  @Test func roundedUpToInt64IsTheCeiling() {
    for x in Self.values {
      #expect(_roundedUpToInt64(x) == Int64(x.rounded(.up)), "\(x)")
    }
  }
}
