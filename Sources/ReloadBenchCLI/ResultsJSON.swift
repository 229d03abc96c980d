import Foundation
import ReloadMetrics

/// `results.json`: the full results model for programs (CSV is for
/// spreadsheets). Written from `HTMLReport.dataJSON` (the same text the
/// report embeds, keys sorted); read back here.
enum ResultsJSON {
  static func decode(_ data: Data) -> ScenarioResults? {
    let decoder = JSONDecoder()
    decoder.nonConformingFloatDecodingStrategy = .convertFromString(
      positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
    return try? decoder.decode(ScenarioResults.self, from: data)
  }
}
