import ReloadEngine

/// One line of the reload log a deployment writes (Scenarios/log-format.md):
/// a timeline request the widget extension served, or an app event. Plain
/// values only, so a recorder keeps them in a `_DeviceStorage` column.
public struct LogRecord: Sendable, Equatable {
  /// What the line records.
  public enum Kind: UInt8, Sendable {
    /// The extension's `getTimeline` ran for one widget instance.
    case timeline
    /// The app came to the foreground / went to the background.
    case foreground, background
    /// The app called `reloadTimelines(ofKind:)` (`kind` < 0: `reloadAllTimelines()`).
    case reloadCall
    /// A background push woke the app.
    case silentPush
    /// A BGAppRefresh task ran.
    case backgroundRefresh
  }

  /// What the provider returned: `.atEnd`, `.after(date)`, `.never`.
  public enum Policy: UInt8, Sendable {
    case atEnd, after, never
  }

  public var kind: Kind
  public var time: SimTime
  /// The widget instance on its device (timeline lines), else -1.
  public var widget: Int16
  /// The scenario's widget kind, -1 for none or every kind.
  public var widgetKind: Int16
  public var entries: UInt16
  public var policy: Policy
  /// The date the returned policy makes the widget eligible again: the
  /// `.after` date or the last entry's date (`.atEnd`); `.never` for `.never`.
  public var next: SimTime
  /// The `ReloadCause` raw value: why the reload ran or the call was made.
  public var cause: UInt8
  public var lowPower: Bool
  public var foreground: Bool

  /// The reload ran because the system chose to (a policy reload), not
  /// because the app (or an App Intent) asked.
  public var isSystemReload: Bool { cause == ReloadCause.policy.rawValue }
}

/// Records a device's log lines into a column allocated once, when the
/// log is wanted; when it is not, every call is one predictable branch.
/// (`reloadbench run --emit-log`; docs/model.md is what the lines follow.)
struct LogRecorder {
  let enabled: Bool
  private let records: Column<LogRecord>
  private(set) var count = 0
  /// More lines than the column holds were made on this device.
  private(set) var overflowed = false
  let measureStart: SimTime

  static let capacity = 1 << 19

  init(enabled: Bool, measureStart: SimTime, storage: _DeviceStorage) {
    self.enabled = enabled
    self.measureStart = measureStart
    let blank = LogRecord(
      kind: .timeline, time: .zero, widget: -1, widgetKind: -1, entries: 0, policy: .never, next: .never, cause: 0,
      lowPower: false, foreground: false)
    records = storage.column(enabled ? Self.capacity : 0, blank)
  }

  mutating func reset() {
    count = 0
    overflowed = false
  }

  @inline(__always)
  mutating func record(_ r: LogRecord) {
    guard r.time >= measureStart else { return }
    guard count < Self.capacity else {
      overflowed = true
      return
    }
    records[count] = r
    count &+= 1
  }

  subscript(i: Int) -> LogRecord { records[i] }

  /// An app event of the device.
  @inline(never)
  mutating func event(_ kind: LogRecord.Kind, at t: SimTime, widgetKind: Int = -1, cause: ReloadCause, _ app: AppState)
  {
    record(
      LogRecord(
        kind: kind, time: t, widget: -1, widgetKind: Int16(widgetKind), entries: 0, policy: .never, next: .never,
        cause: cause.rawValue, lowPower: app.lowPower, foreground: app.foreground))
  }

  /// A timeline the extension returned for widget `w`.
  @inline(never)
  mutating func timeline(
    _ w: Int, kind k: Int, at t: SimTime, _ timeline: Timeline, next: SimTime, cause: ReloadCause, _ app: AppState
  ) {
    let entries: Int
    switch timeline.entries {
    case .now, .single: entries = 1
    case .spaced(let count, _), .content(let count): entries = max(1, count)
    }
    let policy: LogRecord.Policy
    switch timeline.policy {
    case .atEnd: policy = .atEnd
    case .never: policy = .never
    default: policy = .after
    }
    record(
      LogRecord(
        kind: .timeline, time: t, widget: Int16(w), widgetKind: Int16(k), entries: UInt16(min(entries, 65_535)),
        policy: policy, next: policy == .never ? .never : next, cause: cause.rawValue, lowPower: app.lowPower,
        foreground: app.foreground))
  }
}
