import WidgetModel

extension ModelPatch {
  /// The patch as a scenario's `model` block (Scenarios/README.md#model):
  /// an object per group in the catalogue's order, each value as the
  /// scenario format writes it (a distribution by
  /// `DurationDistribution.scenarioFields`), indented by `indent` spaces.
  func scenarioJSON(indent: Int = 0) -> String {
    func number(_ v: Double) -> String {
      v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v)
    }
    func text(_ value: ParameterValue) -> String {
      switch value {
      case .number(let x): return number(x)
      case .choice(let word): return "\"\(word)\""
      case .flag(let b): return b ? "true" : "false"
      case .null: return "null"
      case .distribution(let d):
        let (dist, fields) = d.scenarioFields
        return "{\"dist\": \"\(dist)\"" + fields.map { ", \"\($0.key)\": \(number($0.value))" }.joined() + "}"
      }
    }
    var groups: [(key: String, fields: [String])] = []
    for s in settings {
      let d = s.parameter.declaration
      // Calibration fits no wake source rule (the groups nested under `wake_sources`).
      assert(d.group.parent == nil, "model.\(s.parameter.path) is nested one level deeper")
      let field = "\"\(d.key)\": \(text(s.value))"
      if groups.last?.key == d.group.key {
        groups[groups.count - 1].fields.append(field)
      } else {
        groups.append((d.group.key, [field]))
      }
    }
    let pad = String(repeating: " ", count: indent)
    let blocks = groups.map { g in
      "\(pad)  \"\(g.key)\": {\n" + g.fields.map { "\(pad)    \($0)" }.joined(separator: ",\n") + "\n\(pad)  }"
    }
    return blocks.isEmpty ? "{}" : "{\n" + blocks.joined(separator: ",\n") + "\n\(pad)}"
  }
}
