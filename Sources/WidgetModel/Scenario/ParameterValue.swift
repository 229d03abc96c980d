import ReloadEngine

/// The value of one model parameter as a scenario file states it, in the
/// parameter's own unit (`budget.min_interval_s` in seconds,
/// `budget.frozen_after_min` in minutes): what the decoder sets, what a
/// calibration fits and what an assumption's alternative changes.
public enum ParameterValue: Sendable, Equatable {
  /// A number in the parameter's unit (whole for integer parameters).
  case number(Double)
  /// One of a choice parameter's values (an enum's raw value).
  case choice(String)
  case flag(Bool)
  case distribution(DurationDistribution)
  /// Unset, for a parameter that may be null (a placement's own budget).
  case null
}

/// The type of a model parameter's value in a scenario file, with its range.
public enum ParameterKind: Sendable, Equatable {
  /// One of `values`: the raw values of the Swift enum, in its order.
  case choice([String])
  case integer(min: Double, max: Double)
  /// A number; `max: nil` leaves only the scenario format's limit for the
  /// unit (a year of time, one event a second).
  case number(min: Double, max: Double?, exclusiveMin: Bool)
  case flag
  /// An integer in the range, or null.
  case optionalInteger(min: Double, max: Double)
  /// A number above `min`, or null.
  case optionalNumber(min: Double, max: Double?)
  /// A duration distribution, or the name of one of `named`.
  case distribution(named: [NamedDistribution])

  /// `value` clamped into the range (numbers) or `nil` when it is not a
  /// value of this kind: what a fitted estimate becomes before it goes into
  /// a model. An exclusive minimum is kept as the smallest value above it
  /// that the scenario format's rounding can tell apart.
  public func clamped(_ value: ParameterValue) -> ParameterValue? {
    switch (self, value) {
    case (.choice(let values), .choice(let v)): return values.contains(v) ? value : nil
    case (.flag, .flag): return value
    case (.distribution, .distribution): return value
    case (.optionalInteger, .null), (.optionalNumber, .null): return value
    case (.integer(let lo, let hi), .number(let v)), (.optionalInteger(let lo, let hi), .number(let v)):
      guard v.isFinite else { return nil }
      return .number(Swift.min(hi, Swift.max(lo, v.rounded())))
    case (.number(let lo, let hi, let exclusive), .number(let v)):
      guard v.isFinite else { return nil }
      var x = Swift.max(lo, v)
      if exclusive && x <= lo { x = lo + 1e-6 }
      if let hi { x = Swift.min(hi, x) }
      return .number(x)
    case (.optionalNumber(let lo, let hi), .number(let v)):
      guard v.isFinite else { return nil }
      var x = Swift.max(lo + 1e-6, v)
      if let hi { x = Swift.min(hi, x) }
      return .number(x)
    default: return nil
    }
  }
}

/// A distribution a scenario may name instead of writing it out
/// (`"lateness": "realistic"`).
public struct NamedDistribution: Sendable, Equatable {
  public let name: String
  public let value: DurationDistribution

  public init(_ name: String, _ value: DurationDistribution) {
    self.name = name
    self.value = value
  }
}

extension DurationDistribution {
  /// The distribution as a scenario file writes it: the `dist` tag and its
  /// fields in order, durations in seconds (Scenarios/README.md, "Distribution").
  /// The one statement of the format, for the decoder's schema, the reports
  /// and a calibration's model block.
  public var scenarioFields: (dist: String, fields: [(key: String, value: Double)]) {
    switch self {
    case .constant(let v): return ("constant", [("value_s", v.seconds)])
    case .uniform(let a, let b): return ("uniform", [("min_s", a.seconds), ("max_s", b.seconds)])
    case .exponential(let m): return ("exponential", [("mean_s", m.seconds)])
    case .logNormal(let m, let s): return ("lognormal", [("median_s", m.seconds), ("sigma", s)])
    case .lateOrEarly(let m, let s, let p, let e):
      return (
        "late_or_early",
        [("median_s", m.seconds), ("sigma", s), ("early_probability", p), ("early_max_s", e.seconds)]
      )
    }
  }
}

/// A parameter's value as a scenario file writes it (Scenarios/README.md#model):
/// what the scenario decoder's schema shows as a default, and what a
/// calibration's or an alternative's model block says. The one rule for it,
/// so that every writer of a model block agrees.
public enum WrittenValue: Sendable, Equatable {
  case number(Double)
  case string(String)
  case bool(Bool)
  case null
  /// A distribution object: its `dist` tag, then its fields in order
  /// (`DurationDistribution.scenarioFields`).
  case distribution(dist: String, fields: [WrittenField])

  /// One field of a distribution object.
  public struct WrittenField: Sendable, Equatable {
    public let key: String
    public let value: Double
  }
}

extension ModelParameter {
  /// `value` as a scenario file writes this parameter: a distribution by its
  /// name where the parameter names it (`"lateness": "small"`), else as an
  /// object; a choice as its word.
  public func written(_ value: ParameterValue) -> WrittenValue {
    switch value {
    case .number(let x): return .number(x)
    case .choice(let s): return .string(s)
    case .flag(let b): return .bool(b)
    case .null: return .null
    case .distribution(let d):
      if case .distribution(let named) = declaration.kind, let n = named.first(where: { $0.value == d }) {
        return .string(n.name)
      }
      let (dist, fields) = d.scenarioFields
      return .distribution(dist: dist, fields: fields.map { WrittenValue.WrittenField(key: $0.key, value: $0.value) })
    }
  }
}
