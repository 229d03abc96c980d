import ReloadMetrics
import Testing

/// Slices through the middle of a grid and the ranges along them.
@Suite struct SweepSensitivityTests {
  /// A 3 x 2 grid (a: 3 values, b: 2) for strategies "s" and "t":
  /// fresh % of s is 10 a + b, of t is constant 50.
  static func results() -> SweepResults {
    let columns = SummaryMetrics.all
    let fresh = columns.firstIndex(of: SummaryMetric.freshGlancePct.metric)!
    var points: [SweepPoint] = []
    for a in 0..<3 {
      for b in 0..<2 {
        let rows = [("s", Double(10 * a + b)), ("t", 50.0)].map { policy, v -> ResultRow in
          var values = [Double?](repeating: nil, count: columns.count)
          values[fresh] = v
          return ResultRow(scenario: "x", strategy: policy, segment: "all", values: values)
        }
        points.append(SweepPoint(index: points.count, valueIndices: [a, b], rows: rows))
      }
    }
    let facts = SimulationFacts(
      scenario: "x", description: "", toolVersion: "test", seed: 1, days: 2, warmupDays: 1, devices: 10,
      replications: 1, strategies: ["s", "t"], segments: ["g"])
    return SweepResults(
      facts: facts,
      parameters: [
        SweepParameter(name: "a", path: "p.a", values: ["1", "2", "3"], numbers: [1, 2, 3], logScale: false),
        SweepParameter(name: "b", path: "p.b", values: ["x", "y"], numbers: nil, logScale: false, assumption: true),
      ], points: points)
  }

  @Test func slicesHoldTheOthersAtTheirMiddleValue() {
    let r = Self.results()
    #expect(r.parameters.map(\.referenceIndex) == [1, 0])
    #expect(r.slice(varying: 0) == [0, 2, 4], "b at its first (lower middle) value")
    #expect(r.slice(varying: 1) == [2, 3], "a at its middle value")
  }

  @Test func rangesPerStrategyAndTheLargest() {
    let s = Self.results().sensitivity(of: SummaryMetric.freshGlancePct.metric)
    #expect(s.count == 2)
    #expect(s[0].ranges == [20, 0] && s[0].largest?.policy == "s" && s[0].largest?.range == 20)
    #expect(s[1].ranges == [1, 0] && s[1].largest?.range == 1)
  }

  /// With an assumption, a strategy's candidates at the same decision
  /// values share a group.
  @Test func candidatesAreGroupedOverAssumptions() {
    let c = Self.results().candidates
    #expect(c.count == 12)
    let groups = Dictionary(grouping: c.indices, by: { c[$0].group ?? -1 })
    #expect(groups.count == 6, "3 values of a x 2 strategies")
    #expect(groups.values.allSatisfy { $0.count == 2 })
  }
}
