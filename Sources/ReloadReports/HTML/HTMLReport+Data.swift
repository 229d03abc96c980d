import ReloadMetrics

/// The embedded data: the full `ScenarioResults` as JSON, safe inside a
/// `<script type="application/json">` element.
///
/// Compact with sorted keys, so the same results give the same bytes;
/// non-finite numbers as the strings "nan", "inf", "-inf" (`JSON`).
extension HTMLReport {
  /// How non-finite numbers are written; decode with the matching
  /// `.convertFromString` strategy.
  static let nonFinite = (positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")

  /// The results as compact, sorted-key JSON, with `</` written `<\/` and
  /// any other `<` as `\u003c`, so the text cannot end the script element
  /// (still valid JSON: the CLI writes the same text to `results.json`).
  public static func dataJSON(_ results: ScenarioResults) -> String {
    _HTMLWriter.scriptSafeJSON(JSON.text(results))
  }
}
