import WidgetModel

extension ScenarioDecoder {
  /// Warnings for what a scenario leaves to a default that is probably not
  /// what its author meant, one line each (the run goes on):
  ///
  /// - A `shared` kind's schedule or unpredictable profile without
  ///   `utc_offset_h` runs on UTC; when no device lives at UTC, its changes
  ///   come at hours nobody there expects (a market opening "09:30" at
  ///   04:30 in New York). Setting the field, even to 0, silences it; an
  ///   unpredictable feed with a flat profile and no bursts has no clock.
  static func clockWarnings(_ r: SchemaReader, scenario: Scenario) -> [String] {
    let offsets = DryRunPlan.zones(scenario)
    guard !offsets.contains(0) else { return [] }
    var warnings: [String] = []
    for (i, value) in r.array("kinds").enumerated() {
      guard case .object(let kind) = value, case .string("shared")? = kind["scope"] else { continue }
      for part in ["scheduled", "unpredictable"] {
        guard case .object(let content)? = kind[part], content["utc_offset_h"] == nil else { continue }
        // A flat profile has no clock: the same rate at every hour (bursts have hours of their own).
        if part == "unpredictable", i < scenario.kinds.count, let u = scenario.kinds[i].unpredictable,
          u.bursts == nil, Set(u.profile).count <= 1
        {
          continue
        }
        let zones = offsets.map(DryRunPlan.utc).joined(separator: ", ")
        let example =
          offsets.first.map {
            let local = (Int(((9 + $0) * 60).rounded()) % 1440 + 1440) % 1440
            return "e.g. 09:00 UTC is \(DryRunPlan.clock(local)) at \(DryRunPlan.utc($0))"
          } ?? ""
        warnings.append(
          "$.kinds[\(i)].\(part): shared content runs on UTC (no utc_offset_h) while every device lives elsewhere "
            + "(\(zones)): \(example) (fix: set utc_offset_h to the clock of the data's source, e.g. -5 for "
            + "New York; 0 keeps UTC and silences this)")
      }
    }
    return warnings
  }
}
