import WidgetModel

extension ScenarioSchema {
  // MARK: - Robustness (`reloadbench robustness`, and the run report's verdict)

  static let robustness = SchemaObject(
    "Robustness",
    doc:
      "Whether the recommendation holds under every named alternative of the model's assumptions "
      + "(docs/model.md#assumptions; `reloadbench list --assumptions`) and the whole-model profiles: with this "
      + "block, `reloadbench run` also runs them and says, next to the recommendation in report.html and "
      + "results.json, whether it is robust; `reloadbench robustness` writes the full comparison (see "
      + "Robustness in Scenarios/README.md).",
    [
      flag(
        "enabled",
        "Say in the run report and results.json whether the recommendation is robust (false keeps the settings "
          + "for `reloadbench robustness` only).", default: true),
      SchemaField(
        "assumptions",
        .anyOf([.array(of: .string(choices: Assumption.allCases.map(\.key)), minItems: 1, maxItems: nil), .null]),
        "The assumptions whose alternatives run, by name; null = all of them.", default: .null),
      flag("profiles", "Also run the whole-model profiles.", default: true),
      SchemaField(
        "sample_devices", .anyOf([.integer(min: 64, max: 50_000_000), .null]),
        "Devices each reading of the model simulates when the scenario has more: the scenario as drawn with this "
          + "many devices, the same in every reading (the base is run again on it); null = every device. The "
          + "paired differences then carry a 95 % sampling uncertainty.",
        unit: "devices", default: .number(Double(RobustnessSpec.defaultSampleDevices))),
    ])
}

extension ScenarioDecoder {
  /// Reads `robustness` (nil when absent or null).
  static func robustness(_ root: SchemaReader) throws(ScenarioError) -> RobustnessSpec? {
    guard let r = root.object("robustness", ScenarioSchema.robustness) else { return nil }
    var spec = RobustnessSpec()
    spec.enabled = r.bool("enabled")
    spec.profiles = r.bool("profiles")
    spec.sampleDevices = r.optionalNumber("sample_devices").map { Int($0) }
    if case .array(let names) = r.value("assumptions") {
      var chosen: [Assumption] = []
      for (i, v) in names.enumerated() {
        // The schema admits only assumption names here.
        guard case .string(let name) = v, let a = Assumption(key: name) else { continue }
        if chosen.contains(a) {
          throw ScenarioError(
            path: "\(r.path).assumptions[\(i)]", message: "\(TerminalText.quoted(name)) is named twice",
            fix: "name each assumption once")
        }
        chosen.append(a)
      }
      // In docs/model.md's order, whatever order the file names them in.
      spec.assumptions = Assumption.allCases.filter(chosen.contains)
    }
    return spec
  }
}
