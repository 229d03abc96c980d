/// Values for some of the model's parameters, typed by the catalogue
/// (`ModelParameter`): an assumption's alternative, what a calibration
/// fitted, a profile laid over a scenario's model.
///
///     var patch = ModelPatch()
///     patch.set(.budgetAccrual, .choice("sliding_window"))
///     let model = patch.applied(to: scenario.model)
public struct ModelPatch: Sendable, Equatable {
  /// One parameter's value.
  public struct Setting: Sendable, Equatable {
    public let parameter: ModelParameter
    public let value: ParameterValue
  }

  /// The settings in the catalogue's order, one per parameter.
  public private(set) var settings: [Setting] = []

  public init() {}

  /// A patch of `settings`; each value must be of its parameter's kind and
  /// in its range (a programming error otherwise).
  public init(_ settings: [(ModelParameter, ParameterValue)]) {
    for (p, v) in settings { set(p, v) }
  }

  public var isEmpty: Bool { settings.isEmpty }

  /// The value the patch gives `parameter`, if any.
  public subscript(parameter: ModelParameter) -> ParameterValue? {
    settings.first { $0.parameter == parameter }?.value
  }

  /// Gives `parameter` the value `value`, replacing an earlier one.
  ///
  /// - Important: `value` must be of the parameter's kind and inside its
  ///   range; use `setClamped` for a value from outside the code (an estimate).
  public mutating func set(_ parameter: ModelParameter, _ value: ParameterValue) {
    precondition(
      parameter.declaration.kind.clamped(value) == value,
      "\(value) is not a value of model.\(parameter.path) (\(parameter.declaration.kind))")
    settings.removeAll { $0.parameter == parameter }
    let at = settings.firstIndex { $0.parameter.rawValue > parameter.rawValue } ?? settings.endIndex
    settings.insert(Setting(parameter: parameter, value: value), at: at)
  }

  /// Gives `parameter` `value` brought into its range (a number clamped and,
  /// for an integer, rounded); `false` and no change when `value` is not of
  /// the parameter's kind (a word for a number, a name not among its choices).
  @discardableResult
  public mutating func setClamped(_ parameter: ModelParameter, _ value: ParameterValue) -> Bool {
    guard let v = parameter.declaration.kind.clamped(value) else { return false }
    set(parameter, v)
    return true
  }

  /// `model` with the patch's values.
  public func applied(to model: ModelParameters) -> ModelParameters {
    var out = model
    for s in settings {
      let ok = s.parameter.set(s.value, in: &out)
      assert(ok, "a patch holds only values of their parameters' kinds")
    }
    return out
  }

  /// The patch with `other`'s values laid over its own.
  public func merging(_ other: ModelPatch) -> ModelPatch {
    var out = self
    for s in other.settings { out.set(s.parameter, s.value) }
    return out
  }
}
