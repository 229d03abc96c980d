import WidgetModel

extension ScenarioDecoder {
  /// The model version a file says it was written for (`model_version`;
  /// absent: 1, written before the field existed), refused when newer than
  /// this reloadbench's (docs/model.md#model-versions).
  static func modelVersion(_ r: SchemaReader) throws(ScenarioError) -> Int {
    let key = ScenarioSchema.modelVersionKey
    guard let declared = r.optionalNumber(key) else { return 1 }
    let version = Int(declared)
    if version > ModelVersion.current {
      throw ScenarioError(
        path: "$.\(key)",
        message: "is \(version), newer than the model this reloadbench simulates (version \(ModelVersion.current))",
        fix: "use a reloadbench that simulates model version \(version), or set \"\(key)\": \(ModelVersion.current) "
          + "to run it under this one's model")
    }
    return version
  }

  /// Refuses a `model.profile` that names no profile, before validation, so
  /// that the error lists every profile with what it reads.
  static func checkProfile(_ json: JSONValue) throws(ScenarioError) {
    guard case .object(let root) = json, case .object(let model)? = root["model"],
      case .string(let name)? = model[ScenarioSchema.profileKey], ModelProfile.named(name) == nil
    else { return }
    let names = ModelProfile.all.map(\.name)
    let near = SchemaValidator.nearest(name, in: names).map { "did you mean \"\($0)\"? " } ?? ""
    throw ScenarioError(
      path: "$.model.\(ScenarioSchema.profileKey)", message: "\(TerminalText.quoted(name)) is not a model profile",
      fix: near + "use one of " + names.map { "\"\($0)\"" }.joined(separator: ", ")
        + " ('reloadbench list --profiles' says what each sets)")
  }

  /// The warning for a file written for model version `version` (nil when it
  /// is the current one, or when the file sets every default changed since
  /// itself, in its own fields or through its profile): one line naming
  /// those defaults, old value to new, and how to pin them or silence it.
  static func versionWarning(_ r: SchemaReader, version: Int) -> String? {
    guard version < ModelVersion.current else { return nil }
    let model = r.defaultedObject("model", ScenarioSchema.model)
    let profile = ModelProfile.named(model.string(ScenarioSchema.profileKey))
    let unpinned = ModelVersion.changes(since: version).filter { c in
      let d = c.parameter.declaration
      return profile?.patch[c.parameter] == nil && !groupReader(model, d.group).has(d.key)
    }
    let figures = ModelVersion.figureChanges(since: version)
    guard !unpinned.isEmpty || !figures.isEmpty else { return nil }
    let declared = r.has(ScenarioSchema.modelVersionKey) ? "" : " (it has no \"\(ScenarioSchema.modelVersionKey)\")"
    let accept = "to accept today's: \"\(ScenarioSchema.modelVersionKey)\": \(ModelVersion.current); "
      + "see docs/model.md#model-versions)"
    let changedFigures = figures.isEmpty ? "" : "; its figures changed: " + figures.joined(separator: "; ")
    guard !unpinned.isEmpty else {
      return "written for model version \(version)\(declared), run under model version \(ModelVersion.current), "
        + "which changed no default it leaves unset\(changedFigures) (" + accept
    }
    let changes = unpinned.map {
      "\($0.parameter.path) \(AssumptionReference.text($0.old, of: $0.parameter)) -> "
        + AssumptionReference.text($0.new, of: $0.parameter)
    }
    var pin = "set these fields in \"model\""
    if let p = ModelProfile.pinning(version: version) { pin = "\"model\": {\"profile\": \"\(p.name)\"} or " + pin }
    return "written for model version \(version)\(declared), run under model version \(ModelVersion.current), "
      + "whose defaults changed: \(changes.joined(separator: ", "))\(changedFigures) (to keep version \(version)'s "
      + "rules: \(pin); " + accept
  }
}
