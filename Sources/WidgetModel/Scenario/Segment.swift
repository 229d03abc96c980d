import ReloadEngine

/// A group of similar devices: their time zones, daily rhythm, how often the
/// user looks at the widget and opens the app, Low Power Mode habits, and
/// which widgets sit where.
public struct Segment: Sendable {
  public var name: String
  /// Relative share of the scenario's devices.
  public var weight: Double
  /// Time-zone offsets (hours east of UTC) with relative weights.
  public var utcOffsets: [WeightedOffset]
  /// The local hour the user wakes up: drawn uniformly per device in
  /// `wakeHour.lowerBound ... wakeHour.upperBound` (whole hours).
  public var wakeHour: ClosedRange<Int>
  /// The local hour the user goes to sleep (may exceed 24: 25 = 01:00).
  public var sleepHour: ClosedRange<Int>
  /// Home Screen views per day (while awake).
  public var homeViewsPerDay: Double
  /// Lock Screen views per day (while awake).
  public var lockViewsPerDay: Double
  /// Wrist raises per day that show the watch face (while awake), the views
  /// of watch complications (docs/model.md#watch-complications).
  public var watchViewsPerDay: Double
  /// When the phone shows StandBy and how often the user looks at it
  /// (docs/model.md#standby).
  public var standby: StandByHabit
  /// Views (all surfaces) and button taps on Saturdays and Sundays relative
  /// to weekdays (docs/model.md#weekday-patterns).
  public var weekendViewsFactor: Double
  /// App and audio sessions on Saturdays and Sundays relative to weekdays.
  public var weekendSessionsFactor: Double
  /// Relative weight of each local hour for views and taps (24 values).
  public var viewProfile: [Double]
  /// Foreground app sessions per day.
  public var appSessionsPerDay: Double
  /// Relative weight of each local hour for app sessions (24 values).
  public var sessionProfile: [Double]
  public var sessionLength: DurationDistribution
  /// Audio or navigation sessions per day (the app runs, reloads are free).
  public var audioSessionsPerDay: Double
  public var audioLength: DurationDistribution
  /// Button taps per day on each interactive widget.
  public var tapsPerDay: Double
  public var lowPowerMode: LowPowerHabit
  /// Share of devices with Background App Refresh switched off.
  public var backgroundRefreshOffShare: Double
  /// Share of devices whose users force-quit the app from the switcher.
  public var forceQuitShare: Double
  /// For those users, the probability of force-quitting after a session.
  public var forceQuitProbability: Double
  /// Locale, Dynamic Type or accessibility changes per 30 days (free reloads).
  public var settingsChangesPer30Days: Double
  /// Times per 30 days the user adds (or removes and re-adds) each widget;
  /// a newly added widget's first timeline is a free reload.
  public var widgetAddsPer30Days: Double
  /// Device restarts per 30 days (an update, a flat battery, the user):
  /// WidgetKit asks every widget for a timeline (docs/model.md#device-restart).
  public var restartsPer30Days: Double
  /// The widgets on each device of the segment.
  public var widgets: [WidgetSlot]

  public init(
    name: String, weight: Double = 1, utcOffsets: [WeightedOffset] = [.init(hours: 0, weight: 1)],
    wakeHour: ClosedRange<Int> = 7...7, sleepHour: ClosedRange<Int> = 23...23,
    homeViewsPerDay: Double = 40, lockViewsPerDay: Double = 60,
    viewProfile: [Double] = Segment.flatProfile, appSessionsPerDay: Double = 5,
    sessionProfile: [Double] = Segment.flatProfile,
    sessionLength: DurationDistribution = .logNormal(median: .minutes(2), sigma: 0.8),
    audioSessionsPerDay: Double = 0,
    audioLength: DurationDistribution = .logNormal(median: .minutes(30), sigma: 0.5),
    tapsPerDay: Double = 0, lowPowerMode: LowPowerHabit = .none,
    backgroundRefreshOffShare: Double = 0, forceQuitShare: Double = 0,
    forceQuitProbability: Double = 0.5, settingsChangesPer30Days: Double = 0,
    widgetAddsPer30Days: Double = 0, widgets: [WidgetSlot], watchViewsPerDay: Double = 60,
    standby: StandByHabit = .standard, weekendViewsFactor: Double = 1, weekendSessionsFactor: Double = 1,
    restartsPer30Days: Double = 0
  ) {
    self.restartsPer30Days = restartsPer30Days
    self.name = name
    self.weight = weight
    self.utcOffsets = utcOffsets
    self.wakeHour = wakeHour
    self.sleepHour = sleepHour
    self.homeViewsPerDay = homeViewsPerDay
    self.lockViewsPerDay = lockViewsPerDay
    self.viewProfile = viewProfile
    self.appSessionsPerDay = appSessionsPerDay
    self.sessionProfile = sessionProfile
    self.sessionLength = sessionLength
    self.audioSessionsPerDay = audioSessionsPerDay
    self.audioLength = audioLength
    self.tapsPerDay = tapsPerDay
    self.lowPowerMode = lowPowerMode
    self.backgroundRefreshOffShare = backgroundRefreshOffShare
    self.forceQuitShare = forceQuitShare
    self.forceQuitProbability = forceQuitProbability
    self.settingsChangesPer30Days = settingsChangesPer30Days
    self.widgetAddsPer30Days = widgetAddsPer30Days
    self.widgets = widgets
    self.watchViewsPerDay = watchViewsPerDay
    self.standby = standby
    self.weekendViewsFactor = weekendViewsFactor
    self.weekendSessionsFactor = weekendSessionsFactor
  }

  /// Every hour weighs the same.
  public static let flatProfile = [Double](repeating: 1, count: 24)
}

/// A time-zone offset and how common it is.
public struct WeightedOffset: Sendable, Equatable {
  public var hours: Double
  public var weight: Double
  public init(hours: Double, weight: Double) {
    self.hours = hours
    self.weight = weight
  }
}

/// When Low Power Mode is on.
public struct LowPowerHabit: Sendable, Equatable {
  /// Share of devices that ever use Low Power Mode.
  public var share: Double
  /// On a given day, the probability that such a device turns it on.
  public var dailyProbability: Double
  /// Local hour it turns on, and the local hour it goes off (charging);
  /// `toHour` may exceed 24 for "until 01:00".
  public var fromHour: Int
  public var toHour: Int

  public init(share: Double, dailyProbability: Double = 1, fromHour: Int = 19, toHour: Int = 23) {
    self.share = share
    self.dailyProbability = dailyProbability
    self.fromHour = fromHour
    self.toHour = toHour
  }

  public static let none = LowPowerHabit(share: 0)
}

/// When the phone is in StandBy (charging on its side, assumed at night)
/// and how often the user looks at it then (docs/model.md#standby).
public struct StandByHabit: Sendable, Equatable {
  /// Looks at the StandBy screen per day, spread evenly over the window.
  public var viewsPerDay: Double
  /// Local hour StandBy starts, and the local hour it ends; `toHour` may
  /// exceed 24 (31 = 07:00 the next morning).
  public var fromHour: Int
  public var toHour: Int

  public init(viewsPerDay: Double = 6, fromHour: Int = 22, toHour: Int = 31) {
    self.viewsPerDay = viewsPerDay
    self.fromHour = fromHour
    self.toHour = toHour
  }

  public static let standard = StandByHabit()
}

/// Where a widget sits, which sets how often it is seen (and, for a watch
/// complication, its budget: docs/model.md#visibility, #watch-complications, #standby).
public enum Placement: String, Sendable, CaseIterable {
  case homeFirstPage = "home_first_page"
  case homeOtherPage = "home_other_page"
  case smartStack = "smart_stack"
  case lockScreen = "lock_screen"
  /// A complication on the active watch face.
  case watchComplication = "watch_complication"
  /// A widget in StandBy (the phone charging on its side).
  case standby

  /// The stream of views the placement takes its share of.
  public var surface: ViewSurface {
    switch self {
    case .homeFirstPage, .homeOtherPage, .smartStack: return .homeScreen
    case .lockScreen: return .lockScreen
    case .watchComplication: return .watchFace
    case .standby: return .standby
    }
  }
}

/// A place the user looks at: each has its own stream of views per device.
public enum ViewSurface: Int, Sendable, CaseIterable {
  case homeScreen, lockScreen, watchFace, standby

  /// The segment's views per day of this surface (weekdays).
  public func viewsPerDay(_ segment: Segment) -> Double {
    switch self {
    case .homeScreen: return segment.homeViewsPerDay
    case .lockScreen: return segment.lockViewsPerDay
    case .watchFace: return segment.watchViewsPerDay
    case .standby: return segment.standby.viewsPerDay
    }
  }
}

/// Widgets of one kind at one placement on a segment's devices.
public struct WidgetSlot: Sendable, Equatable {
  /// Index into `Scenario.kinds`.
  public var kind: Int
  public var placement: Placement
  /// Instances on a device that has this slot.
  public var count: Int
  /// Probability that a device has this slot at all.
  public var probability: Double

  public init(kind: Int, placement: Placement = .homeFirstPage, count: Int = 1, probability: Double = 1) {
    self.kind = kind
    self.placement = placement
    self.count = count
    self.probability = probability
  }
}
