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
    let placements = usedPlacements(json)
    walk(ScenarioSchema.model, root("model"), prefix: "model", placements: placements, into: &out)
    walk(ScenarioSchema.energy, root("energy"), prefix: "energy", placements: placements, into: &out)
    return out
  }

  /// The placements of the scenario's widget slots.
  static func usedPlacements(_ json: JSONValue) -> Set<String> {
    var used: Set<String> = []
    guard case .object(let o) = json, case .array(let segments)? = o["segments"] else { return used }
    let defaultPlacement = ScenarioSchema.widgetSlot.field("placement")?.defaultValue
    for case .object(let segment) in segments {
      guard case .array(let widgets)? = segment["widgets"] else { continue }
      for case .object(let slot) in widgets {
        if case .string(let p)? = slot["placement"] ?? defaultPlacement { used.insert(p) }
      }
    }
    return used
  }

  /// Lists `spec`'s fields; a parameter of a placement (`SchemaField.placement`)
  /// the scenario does not use is left out unless the file sets it.
  static func walk(
    _ spec: SchemaObject, _ value: JSONValue?, prefix: String, placements: Set<String>, into out: inout [ParameterFact]
  ) {
    var object: [String: JSONValue] = [:]
    if case .object(let o)? = value { object = o }
    for field in spec.fields {
      let path = "\(prefix).\(field.key)"
      if case .object(let nested) = field.type {
        walk(nested, object[field.key], prefix: path, placements: placements, into: &out)
        continue
      }
      let set = object[field.key]
      if let p = field.placement, !placements.contains(p), set == nil { continue }
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
