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
  /// (still valid JSON), without the conclusions: the page gives them in
  /// its summary.
  public static func dataJSON(_ results: ScenarioResults) -> String {
    var data = results
    data.conclusions = nil
    return JSON.text(data, .script)
  }

  /// `results.json`: the page's data with the conclusions (the findings
  /// and the recommendation), escaped the same way, so one reader reads
  /// both.
  public static func resultsJSON(_ results: ScenarioResults) -> String {
    JSON.text(results, .script)
  }
}
