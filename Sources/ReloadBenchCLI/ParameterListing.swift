import ReloadMetrics
import WidgetModel

/// The scenario's parameters as the report lists them: every model
/// assumption and energy cost with its effective value, whether the file set
/// it, and its source tag (docs/model.md#source-tags).
enum ParameterListing {
  /// The facts of a loaded scenario: its file's values, and the constructs its strategies use.
  static func facts(_ loaded: LoadedScenario) -> [ParameterFact] {
    facts(loaded.json, constructs: constructs(loaded.scenario))
  }

  /// `constructs`: the constructs of the strategy language the scenario's
  /// strategies use (`StrategyConstruct.isUsed(in:)`).
  static func facts(_ json: JSONValue, constructs: Set<String> = []) -> [ParameterFact] {
    var out: [ParameterFact] = []
    func root(_ key: String) -> JSONValue? {
      if case .object(let o) = json { return o[key] }
      return nil
    }
    let placements = usedPlacements(json)
    walk(
      ScenarioSchema.model, root("model"), prefix: "model", placements: placements.union(constructs),
      profile: profile(root("model")), into: &out)
    walk(ScenarioSchema.energy, root("energy"), prefix: "energy", placements: placements, into: &out)
    return out
  }

  /// The model profile a `model` block names, if it sets anything.
  static func profile(_ model: JSONValue?) -> ModelProfile? {
    guard case .object(let o)? = model, case .string(let name)? = o[ScenarioSchema.profileKey],
      let p = ModelProfile.named(name), !p.patch.isEmpty
    else { return nil }
    return p
  }

  /// The constructs `scenario`'s strategies use, by name.
  static func constructs(_ scenario: Scenario) -> Set<String> {
    Set(StrategyConstruct.allCases.filter { $0.isUsed(in: scenario) }.map(\.rawValue))
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
  /// or a construct (`SchemaField.construct`) the scenario does not use is
  /// left out unless the file sets it (`used` holds both kinds of name).
  /// A parameter the model's `profile` sets, and not the file itself, is
  /// listed with the profile's value; `model.profile` itself only when set.
  static func walk(
    _ spec: SchemaObject, _ value: JSONValue?, prefix: String, placements used: Set<String>,
    profile: ModelProfile? = nil, into out: inout [ParameterFact]
  ) {
    var object: [String: JSONValue] = [:]
    if case .object(let o)? = value { object = o }
    for field in spec.fields {
      let path = "\(prefix).\(field.key)"
      if case .object(let nested) = field.type {
        walk(nested, object[field.key], prefix: path, placements: used, profile: profile, into: &out)
        continue
      }
      let set = object[field.key]
      if path == "model.\(ScenarioSchema.profileKey)" && set == nil { continue }
      let fromProfile = profile.flatMap { p in
        ModelParameter(path: String(path.dropFirst("model.".count))).flatMap { q in
          p.patch[q].map { ScenarioSchema.json($0, of: q) }
        }
      }
      let condition = field.placement ?? field.construct
      if let c = condition, !used.contains(c), set == nil, fromProfile == nil { continue }
      let effective = set ?? fromProfile ?? field.defaultValue ?? .null
      var text = effective.jsonText
      if case .string(let s) = effective { text = s }
      if let unit = field.unit, case .number = effective { text += " " + unit }
      out.append(
        ParameterFact(
          path: path, value: text, source: field.source ?? "scenario",
          note: (set != nil ? "set in scenario" : fromProfile != nil ? "profile \(profile?.name ?? "")" : "default")
            + ": " + field.doc))
    }
  }
}
