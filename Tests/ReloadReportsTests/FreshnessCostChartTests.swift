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
}
