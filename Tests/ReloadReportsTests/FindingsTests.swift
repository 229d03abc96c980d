import ReloadMetrics
import ReloadReports
import Testing

/// The findings' backend sentence names the recommended strategy's fleet
/// peak (issue 16: the recommendation and the findings tell one story).
@Suite struct FindingsTests {
  static func backendSentence(_ findings: [String]) -> String? { findings.first { $0.hasPrefix("Backend peak") } }

  @Test func theBackendFindingNamesTheRecommendedStrategysPeak() throws {
    // Fixture fleet peaks: alpha 0.5 (the lowest), beta 1.5, gamma 2.5 (the highest).
    let results = ReportFixtures.results()
    let withBeta = try #require(Self.backendSentence(Findings.compute(results, recommended: "beta")))
    #expect(withBeta.contains("gamma reaches 2.5"), "\(withBeta)")
    #expect(withBeta.contains("alpha only 0.5"), "\(withBeta)")
    #expect(withBeta.contains("the recommended beta 1.5 (95 %: 1.5–1.5)"), "\(withBeta)")
    // The highest or the lowest is already named: not twice.
    let withGamma = try #require(Self.backendSentence(Findings.compute(results, recommended: "gamma")))
    #expect(!withGamma.contains("recommended"), "\(withGamma)")
    let none = try #require(Self.backendSentence(Findings.compute(results)))
    #expect(!none.contains("recommended"), "\(none)")
  }
}
