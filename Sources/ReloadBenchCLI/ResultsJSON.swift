import Foundation
import ReloadMetrics

/// `results.json`: the full results model for programs (CSV is for
/// spreadsheets). Keys sorted, so two runs differ only in their timings.
enum ResultsJSON {
  static func encode(_ results: ScenarioResults) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
    encoder.nonConformingFloatEncodingStrategy = .convertToString(
      positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
    guard let data = try? encoder.encode(results), let text = String(data: data, encoding: .utf8) else {
      return "{}"
    }
    return text + "\n"
  }

  static func decode(_ data: Data) -> ScenarioResults? {
    let decoder = JSONDecoder()
    decoder.nonConformingFloatDecodingStrategy = .convertFromString(
      positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
    return try? decoder.decode(ScenarioResults.self, from: data)
  }
}
