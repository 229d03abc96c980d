import WidgetModel

/// What one line of a calibration estimates: a parameter of the model,
/// named by the catalogue (`ModelParameter`), or a figure of the log that is
/// no model field (`ObservedQuantity`).
///
///     CalibratedField.model(.budgetMaxPerDay).path            // "budget.max_per_day"
///     CalibratedField.observed(.latenessMedian).path          // "observed.lateness_median_s"
public enum CalibratedField: Hashable, Sendable {
  case model(ModelParameter)
  case observed(ObservedQuantity)

  /// Its name in the reports: the parameter's path in a scenario's `model`
  /// block, or `observed.` and the quantity's key.
  public var path: String {
    switch self {
    case .model(let p): return p.path
    case .observed(let q): return "observed." + q.key
    }
  }

  /// The model parameter, if it is one.
  public var parameter: ModelParameter? {
    if case .model(let p) = self { return p }
    return nil
  }
}

/// A figure a calibration reads from a log that is not a model field: a
/// property of the users or of the deployment, for comparison with a run
/// (Scenarios/log-format.md#what-the-fit-reads).
public enum ObservedQuantity: Hashable, Sendable {
  /// The daily budget of the saturated widgets of one family
  /// (`systemSmall`): the log's proxy for how often a widget is seen.
  case budgetPerDay(family: String)
  /// The share of devices that used Low Power Mode (a segment's
  /// `low_power_mode.share`).
  case lowPowerDeviceShare
  /// The median lateness of `.after` / `.atEnd` reloads as seen, before
  /// any correction for budget pressure.
  case latenessMedian
  /// Silent pushes the app logged per complete device-day.
  case silentPushesPerDeviceDay
  /// BGAppRefresh runs the app logged per complete device-day.
  case bgRefreshesPerDeviceDay

  /// Its key under `observed.`.
  public var key: String {
    switch self {
    case .budgetPerDay(let family): return "budget_per_day." + family
    case .lowPowerDeviceShare: return "low_power_device_share"
    case .latenessMedian: return "lateness_median_s"
    case .silentPushesPerDeviceDay: return "silent_pushes_per_device_day"
    case .bgRefreshesPerDeviceDay: return "bg_refreshes_per_device_day"
    }
  }
}

extension ParameterValue {
  /// The value of a choice parameter that `value` is a case of
  /// (`.choice(of: BudgetParameters.Accrual.tokenBucket)`): the Swift enum
  /// names it, not a spelled-out word.
  static func choice<E: RawRepresentable>(of value: E) -> ParameterValue where E.RawValue == String {
    .choice(value.rawValue)
  }
}
