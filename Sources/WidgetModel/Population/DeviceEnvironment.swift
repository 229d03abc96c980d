import ReloadEngine

/// Everything about one device that does not depend on the strategy: who
/// the user is, when they look at each widget, open the app, tap, charge,
/// and when the data behind each widget changes.
///
/// Drawn once per device from streams keyed by the device (never by
/// simulation order) and then shared by every strategy of the scenario,
/// which is what makes the comparison fair. The buffers are reused from
/// device to device, so generating a device allocates nothing once warm.
public struct DeviceEnvironment: Sendable {
  public package(set) var device: Int = 0
  public package(set) var segment: Int = 0
  public package(set) var utcOffset: SimDuration = .zero
  /// Bit `h` set when the user is awake in local hour `h`.
  public package(set) var awakeHours: UInt32 = 0
  public package(set) var appSessionsPerDay: Double = 0
  public package(set) var backgroundRefreshOff = false
  public package(set) var usesLowPowerMode = false

  // Widgets (structure of arrays, one entry per widget instance).
  public package(set) var widgetKind: [Int] = []
  public package(set) var widgetBudget: [Int] = []
  public package(set) var widgetViewsPerDay: [Double] = []
  /// `glances[glanceStart[w] ..< glanceStart[w + 1]]` are widget `w`'s glances.
  public package(set) var glanceStart: [Int] = []
  public package(set) var glances: [SimTime] = []
  /// Button taps of each interactive widget, same layout.
  public package(set) var tapStart: [Int] = []
  public package(set) var taps: [SimTime] = []
  /// Times each widget is (re-)added by the user, same layout.
  public package(set) var addStart: [Int] = []
  public package(set) var adds: [SimTime] = []

  // App and system activity, sorted, non-overlapping intervals.
  public package(set) var sessionStart: [SimTime] = []
  public package(set) var sessionEnd: [SimTime] = []
  public package(set) var sessionForceQuit: [Bool] = []
  public package(set) var audioStart: [SimTime] = []
  public package(set) var audioEnd: [SimTime] = []
  public package(set) var lowPowerStart: [SimTime] = []
  public package(set) var lowPowerEnd: [SimTime] = []
  public package(set) var settingsChanges: [SimTime] = []
  /// Device restarts (docs/model.md#device-restart).
  public package(set) var restarts: [SimTime] = []

  // Content, per scenario kind.
  /// Per-user unpredictable changes: `changes[changeStart[k] ..< changeStart[k + 1]]`.
  public package(set) var changeStart: [Int] = []
  public package(set) var changes: [SimTime] = []
  /// The schedule of each kind as this device sees it.
  public package(set) var schedules: [ChangeSchedule?] = []
  /// Data changes per kind in the measured days (scheduled + unpredictable).
  public package(set) var measuredChanges: [Int] = []
  /// Whether the device has a widget of each kind.
  public package(set) var hasKind: [Bool] = []

  /// Scratch hourly rates, reused.
  var rates: [Double] = Array(repeating: 0, count: 24)
  var scratch: [SimTime] = []
  var placements: [Placement] = []

  public init() {}

  public var widgetCount: Int { widgetKind.count }

  /// `true` when the user is awake at `time`.
  @inlinable
  public func isAwake(at time: SimTime) -> Bool {
    awakeHours & (1 << UInt32(localHour(of: time))) != 0
  }

  /// The local hour of day (0...23) at `time`.
  @inlinable @inline(__always)
  public func localHour(of time: SimTime) -> Int {
    let day = SimDuration.day.milliseconds
    var local = (time.milliseconds &+ utcOffset.milliseconds) % day
    if local < 0 { local &+= day }
    return Int(local / SimDuration.hour.milliseconds)
  }

  /// The local day index at `time` (day 0 starts at local midnight before UTC 0 or after).
  @inlinable @inline(__always)
  public func localDay(of time: SimTime) -> Int {
    let local = time.milliseconds &+ utcOffset.milliseconds
    return Int(ChangeSchedule.floorDiv(local, SimDuration.day.milliseconds))
  }

  /// The next time at or after `time` when the user is awake (`time` if awake).
  public func nextAwakeTime(atOrAfter time: SimTime) -> SimTime {
    if awakeHours == 0 { return .never }
    let h = localHour(of: time)
    if awakeHours & (1 << UInt32(h)) != 0 { return time }
    // The local hours after `h`, in order, are bits h+1, h+2, ... of the
    // day's mask written twice; the first awake one is `k` hours after
    // the start of `h` (O(1) rather than an hour-by-hour walk through the
    // night; NOTE: for performance).
    let twoDays = UInt64(awakeHours) | UInt64(awakeHours) << 24
    let k = (twoDays >> UInt64(h + 1)).trailingZeroBitCount + 1
    let hour = SimDuration.hour.milliseconds
    var local = (time.milliseconds + utcOffset.milliseconds) % hour
    if local < 0 { local += hour }
    return SimTime(milliseconds: time.milliseconds - local + Int64(k) * hour)
  }

  /// The end of the low-power interval containing `time`, or nil when off.
  public func lowPowerEnd(containing time: SimTime) -> SimTime? {
    for i in lowPowerStart.indices where lowPowerStart[i] <= time && time < lowPowerEnd[i] {
      return lowPowerEnd[i]
    }
    return nil
  }
}
