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
    #expect(withBeta.contains("the recommended beta 1.5 (95 %: 1.5)"), "equal ends print once: \(withBeta)")
    // The highest or the lowest is already named: not twice.
    let withGamma = try #require(Self.backendSentence(Findings.compute(results, recommended: "gamma")))
    #expect(!withGamma.contains("recommended"), "\(withGamma)")
    let none = try #require(Self.backendSentence(Findings.compute(results)))
    #expect(!none.contains("recommended"), "\(none)")
  }

  /// An interval prints with the digits that tell its ends apart (issue 40: "12k–12k").
  @Test func intervalsTellTheirEndsApart() {
    #expect(NumberFormat.range(38_000, 41_000) == "38k–41k")
    #expect(NumberFormat.range(12_100, 12_400) == "12.1k–12.4k")
    #expect(NumberFormat.range(12_140, 12_160) == "12.1k–12.2k")
    #expect(NumberFormat.range(12_140, 12_149) == "12.14k–12.15k")
    #expect(NumberFormat.range(0.52, 0.525) != "0.52–0.52")
    #expect(NumberFormat.range(7, 7) == "7")
  }
}
