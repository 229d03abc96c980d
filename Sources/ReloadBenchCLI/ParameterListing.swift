import ReloadMetrics

/// The scenario's parameters as the report lists them: every model
/// assumption and energy cost with its effective value, whether the file set
/// it, and its source tag (docs/model.md#source-tags).
enum ParameterListing {
  static func facts(_ json: JSONValue) -> [ParameterFact] {
    var out: [ParameterFact] = []
    func root(_ key: String) -> JSONValue? {
      if case .object(let o) = json { return o[key] }
      return nil
    }
    walk(ScenarioSchema.model, root("model"), prefix: "model", into: &out)
    walk(ScenarioSchema.energy, root("energy"), prefix: "energy", into: &out)
    return out
  }

  static func walk(_ spec: SchemaObject, _ value: JSONValue?, prefix: String, into out: inout [ParameterFact]) {
    var object: [String: JSONValue] = [:]
    if case .object(let o)? = value { object = o }
    for field in spec.fields {
      let path = "\(prefix).\(field.key)"
      if case .object(let nested) = field.type {
        walk(nested, object[field.key], prefix: path, into: &out)
        continue
      }
      let set = object[field.key]
      let effective = set ?? field.defaultValue ?? .null
      var text = effective.jsonText
      if case .string(let s) = effective { text = s }
      if let unit = field.unit, case .number = effective { text += " " + unit }
      out.append(
        ParameterFact(
          path: path, value: text, source: field.source ?? "scenario",
          note: (set == nil ? "default" : "set in scenario") + ": " + field.doc))
    }
  }
}
