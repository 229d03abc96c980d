import ReloadMetrics

/// The recommendation in `results.json`: a `"recommendation"` object
/// (strategy, whether it meets the objective, the objective in words, the
/// reason with its margins, the runner-up, the findings), so a program reads
/// the answer the page gives without parsing the page.
public enum RecommendationJSON {
  /// `json` (a results document with sorted keys) with the recommendation
  /// added in key order, before `"series"`.
  public static func insert(_ r: Recommendation?, findings: [String], into json: String) -> String {
    var node = ""
    node += "{\"findings\":["
    for (i, f) in findings.enumerated() {
      if i > 0 { node += "," }
      _JSONNode.writeString(f, to: &node)
    }
    node += "]"
    if let r {
      node += ",\"meetsObjective\":" + (r.meetsTarget ? "true" : "false")
      node += ",\"objective\":"
      _JSONNode.writeString(r.objective, to: &node)
      node += ",\"reason\":"
      _JSONNode.writeString(r.reason, to: &node)
      node += ",\"runnerUp\":"
      if let up = r.runnerUp { _JSONNode.writeString(up, to: &node) } else { node += "null" }
      node += ",\"strategy\":"
      _JSONNode.writeString(r.strategy, to: &node)
    }
    node += "}"
    guard let at = json.firstRange(of: ",\"series\":") else { return json }
    return json[..<at.lowerBound] + ",\"recommendation\":" + node + json[at.lowerBound...]
  }
}
