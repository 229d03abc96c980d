import Foundation
import ReloadMetrics

/// The embedded data: the full `ScenarioResults` as JSON, safe inside a
/// `<script type="application/json">` element.
///
/// The only use of Foundation in this module: `JSONEncoder`. Keys are
/// sorted so the same results give the same bytes, and non-finite numbers
/// are written as the strings results.json uses ("nan", "inf", "-inf").
extension HTMLReport {
  /// How non-finite numbers are written; decode with the matching
  /// `.convertFromString` strategy.
  static let nonFinite = (positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")

  /// The results as compact, sorted-key JSON, with `</` written `<\/` and
  /// any other `<` as `\u003c`, so the text cannot end the script element.
  static func dataJSON(_ results: ScenarioResults) -> String {
    let encoder = JSONEncoder()
    // Slashes unescaped: `scriptSafeJSON` escapes exactly the "</" pairs.
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    encoder.nonConformingFloatEncodingStrategy = .convertToString(
      positiveInfinity: nonFinite.positiveInfinity, negativeInfinity: nonFinite.negativeInfinity,
      nan: nonFinite.nan)
    guard let data = try? encoder.encode(results) else { return "{}" }
    return _HTMLWriter.scriptSafeJSON(String(decoding: data, as: UTF8.self))
  }
}
