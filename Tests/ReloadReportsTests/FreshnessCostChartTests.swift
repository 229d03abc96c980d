import ReloadMetrics
import ReloadReports
import Testing

@Suite struct FreshnessCostChartTests {
  @Test func paretoFrontierFollowsPolarity() {
    let points: [(x: Double, y: Double)] = [(1, 50), (2, 90), (3, 60), (0, 10), (2, 90)]
    #expect(FreshnessCostChart.paretoFrontier(points, x: .prefersSmaller, y: .prefersLarger) == [0, 1, 3, 4])
    #expect(FreshnessCostChart.paretoFrontier(points, x: .prefersLarger, y: .prefersLarger) == [1, 2, 4])
    #expect(FreshnessCostChart.paretoFrontier(points, x: .neutral, y: .prefersLarger).isEmpty)
  }

  /// Markers that would cover each other are set apart, at least the
  /// distance from each other, around their common place; others stay put.
  @Test func markersThatWouldCoverEachOtherAreSetApart() {
    typealias P = SVGChart.Point
    let points = [P(x: 100, y: 50), P(x: 101, y: 50), P(x: 300, y: 200), P(x: 100, y: 52), P(x: 40, y: 40)]
    let out = FreshnessCostChart.setApart(points, distance: 12)
    func gap(_ a: P, _ b: P) -> Double { ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot() }
    for i in [0, 1, 3] {
      for j in [0, 1, 3] where j > i { #expect(gap(out[i], out[j]) >= 12 - 1e-9) }
      // Still near where it was: within the cluster's circle.
      #expect(gap(out[i], points[i]) < 12)
    }
    #expect(out[2] == points[2] && out[4] == points[4])
    // Two at the same place go left and right, the first on the left.
    let pair = FreshnessCostChart.setApart([P(x: 10, y: 10), P(x: 10, y: 10)], distance: 12)
    #expect(abs(pair[0].x - 4) < 1e-9 && abs(pair[1].x - 16) < 1e-9 && abs(pair[0].y - 10) < 1e-9)
  }
}
