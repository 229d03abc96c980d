import WidgetModel

/// `reloadbench calibrate`: the model's parameters estimated from reload
/// logs, each with a bootstrap interval over devices, or a plain statement
/// that the log cannot identify it and what to log instead
/// (Scenarios/log-format.md#what-the-fit-reads; the rules are docs/model.md's).
public struct Calibration: Sendable {
  /// One estimated parameter.
  public struct Parameter: Sendable {
    public enum Status: String, Sendable {
      /// Estimated; goes into the `model` block.
      case identified
      /// The log has too few devices or days for it.
      case tooFewData = "too_few_data"
      /// The log cannot tell it, whatever its size.
      case notIdentifiable = "not_identifiable"
      /// Estimated, but not a model field (a property of the users, for comparison).
      case observed
    }

    /// A model parameter (`budget.max_per_day`) or an observed quantity
    /// (`observed.silent_pushes_per_device_day`).
    public var field: CalibratedField
    public var label: String
    public var unit: String
    public var status: Status
    public var estimate: Double?
    public var low: Double?
    public var high: Double?
    /// Devices and device-days whose lines the estimate rests on.
    public var devices: Int
    public var days: Int
    /// Why not identified and what to log; or how it was read.
    public var note: String
    /// What the estimate gives the model, each value in its parameter's
    /// unit and range: the number itself, the choice it decides
    /// (`budget.accrual` from a ratio of intervals) or a distribution. In
    /// the fitted model (`Calibration.model`) when `status` is identified.
    public var settings = ModelPatch()

    /// The word the estimate reads as when it decides a choice
    /// (`token_bucket`, `paced`).
    public var choice: String? {
      for s in settings.settings { if case .choice(let word) = s.value { return word } }
      return nil
    }
  }

  public var parameters: [Parameter] = []
  /// What the log says of each assumption it can speak to, in `Assumption` order.
  public var verdicts: [AssumptionVerdict] = []
  /// The log after cleaning: devices, complete device-days, lines.
  public var devices = 0
  public var deviceDays = 0
  public var lines = 0
  public var files: [String] = []
  /// What was dropped, in words and counts (`duplicate lines`: 12).
  public var dropped: [(what: String, count: Int)] = []
  /// The observed curves for the report.
  public var curves = Curves()
  /// The held requests observed and replayed under the leading readings of
  /// the accrual; nil when no request was answered by the system.
  public var holdReplay: HoldReplay?

  public struct Curves: Sendable {
    public var reloadsPerDay: [Double] = []
    public var intervalsMin: [Double] = []
    public var latenessS: [Double] = []
    public init() {}
  }

  public func parameter(_ field: CalibratedField) -> Parameter? { parameters.first { $0.field == field } }

  /// The identified parameters as a typed model patch: the `model` block
  /// calibration.json offers to paste, and what `calibrate --scenario`
  /// lays over the scenario's model to simulate it.
  public var model: ModelPatch {
    parameters.filter { $0.status == .identified }.reduce(ModelPatch()) { $0.merging($1.settings) }
  }

  /// Fits `log`; `seed` fixes the bootstrap, `replicates` its size.
  /// `assumed` gives values to use where the log cannot tell (the budget's
  /// capacity share when the lateness pressure needs it).
  public static func fit(_ log: ReloadLog, seed: UInt64 = 1, replicates: Int = 200) -> Calibration {
    var c = Calibration()
    c.files = log.files
    c.lines = log.count
    var summarizer = Summarizer()
    let groups = Summarizer.byDevice(log)
    let summaries = groups.map { summarizer.summarize(log, lines: $0) }.filter { $0.days > 0 || !$0.name.isEmpty }
    c.devices = summaries.filter { $0.days > 0 }.count
    c.deviceDays = summaries.reduce(0) { $0 + $1.days }
    c.dropped = [
      ("malformed lines skipped (--max-bad-lines)", log.badLines),
      ("duplicate lines", summarizer.dropped.duplicates),
      ("partial device-days (first or last day of a device, or next to a missing day)", summarizer.dropped.edgeDays),
      ("devices without utc_offset_min (days read in UTC)", summarizer.dropped.unknownOffsetDevices),
      ("devices without a complete day", summaries.filter { $0.days == 0 }.count),
    ]
    c.curves.reloadsPerDay = summaries.flatMap(\.reloadsPerDay)
    c.curves.intervalsMin = summaries.flatMap(\.intervals)
    let fitter = Fitter(
      summaries: summaries.filter { $0.days > 0 }, seed: seed, replicates: replicates, families: log.families)
    let fitted = fitter.fitAll()
    c.parameters = fitted.parameters
    c.curves.latenessS = fitted.lateness
    c.verdicts = fitted.verdicts
    c.holdReplay = fitted.replay
    return c
  }
}
