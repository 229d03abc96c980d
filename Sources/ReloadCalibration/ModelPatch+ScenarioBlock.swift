import ReloadReports
import WidgetModel

extension ModelPatch {
  /// The patch as a scenario's `model` block (Scenarios/README.md#model):
  /// an object per group in the catalogue's order (the wake source rules
  /// under `wake_sources`), each value as `ModelParameter.written` says, a
  /// distribution on one line.
  package var scenarioBlock: JSON {
    var top: [(key: String, fields: [(key: String, value: JSON)])] = []
    var wakes: [(key: String, fields: [(key: String, value: JSON)])] = []
    for s in settings {
      let d = s.parameter.declaration
      let field = (key: d.key, value: Self.json(s.parameter.written(s.value)))
      if d.group.parent == nil {
        Self.append(field, to: d.group.key, in: &top)
      } else {
        Self.append(field, to: d.group.key, in: &wakes)
      }
    }
    func object(_ groups: [(key: String, fields: [(key: String, value: JSON)])]) -> [(key: String, value: JSON)] {
      groups.map { (key: $0.key, value: .object($0.fields, layout: .lines)) }
    }
    var members = object(top)
    if !wakes.isEmpty {
      members.append((key: ModelParameterGroup.wakeSourcesKey, value: .object(object(wakes), layout: .lines)))
    }
    return .object(members, layout: .lines)
  }

  private static func append(
    _ field: (key: String, value: JSON), to group: String,
    in groups: inout [(key: String, fields: [(key: String, value: JSON)])]
  ) {
    if groups.last?.key == group {
      groups[groups.count - 1].fields.append(field)
    } else {
      groups.append((key: group, fields: [field]))
    }
  }

  /// A written value as JSON.
  static func json(_ w: WrittenValue) -> JSON {
    switch w {
    case .number(let x): return .number(x)
    case .string(let s): return .string(s)
    case .bool(let b): return .bool(b)
    case .null: return .null
    case .distribution(let dist, let fields):
      return .object(
        [(key: "dist", value: .string(dist))] + fields.map { (key: $0.key, value: .number($0.value)) }, layout: .inline)
    }
  }
}
