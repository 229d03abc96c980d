import ReloadEngine

/// The kinds of events a device simulation schedules. Packed with an index
/// (widget or kind) and a generation into an `Event`'s 32-bit payload.
@usableFromInline
package enum DeviceEvent: UInt32, CaseIterable {
  /// A policy reload is due (`.atEnd` / `.after`): budget check, then exec.
  case policyRequest = 0
  /// An app-requested reload that waited for the minimum interval.
  case appRequest
  /// A reload executes (after lateness, or when withheld budget returns).
  case exec
  case sessionStart
  case sessionEnd
  case audioStart
  case audioEnd
  case tap
  case lowPowerStart
  case lowPowerEnd
  case settingsChange
  case silentPushSend
  case silentPushDeliver
  case silentPushRelease
  case widgetPushSend
  case backgroundRefreshRun
  case changeWhileRunning
  case learningEnd
  /// The user adds (or re-adds) a widget: its first timeline is free.
  case widgetAdded
  /// An in-app event of an app trigger (index: the trigger).
  case inAppEvent
  /// A delayed or repeated `WidgetCenter` call (index: its burst slot).
  case reloadCall
  /// A wake source runs the app (index: the source).
  case wake
  /// Event-by-event mode only.
  case glance
  case change
  /// The device restarts: WidgetKit asks every widget for a timeline
  /// (docs/model.md#device-restart).
  case restart

  /// Priority classes at the same millisecond: data changes first, then the
  /// model's events, glances last (a glance sees everything that happened
  /// at its millisecond). The elided path follows the same rule.
  @usableFromInline static let changePriority: UInt8 = 0
  @usableFromInline static let modelPriority: UInt8 = 1
  @usableFromInline static let glancePriority: UInt8 = 2

  @inlinable @inline(__always)
  static package func pack(_ kind: DeviceEvent, index: Int, generation: UInt32 = 0) -> UInt32 {
    kind.rawValue | UInt32(truncatingIfNeeded: index) << 5 | (generation & 0x7FFFF) << 13
  }

  /// The case of raw value `raw` (`raw < 32`). Written out so it inlines to
  /// a range check: the synthesised `init?(rawValue:)` is a call per event.
  @inlinable @inline(__always)
  static package func kind(_ raw: UInt32) -> DeviceEvent {
    switch raw {
    case 0: return .policyRequest
    case 1: return .appRequest
    case 2: return .exec
    case 3: return .sessionStart
    case 4: return .sessionEnd
    case 5: return .audioStart
    case 6: return .audioEnd
    case 7: return .tap
    case 8: return .lowPowerStart
    case 9: return .lowPowerEnd
    case 10: return .settingsChange
    case 11: return .silentPushSend
    case 12: return .silentPushDeliver
    case 13: return .silentPushRelease
    case 14: return .widgetPushSend
    case 15: return .backgroundRefreshRun
    case 16: return .changeWhileRunning
    case 17: return .learningEnd
    case 18: return .widgetAdded
    case 19: return .inAppEvent
    case 20: return .reloadCall
    case 21: return .wake
    case 22: return .glance
    case 23: return .change
    case 24: return .restart
    default: return .change
    }
  }

  @inlinable @inline(__always)
  static package func unpack(_ payload: UInt32) -> (kind: DeviceEvent, index: Int, generation: UInt32) {
    (kind(payload & 31), Int((payload >> 5) & 0xFF), payload >> 13)
  }
}

/// Why a reload happened, for the wake-up funnel.
@usableFromInline
package enum ReloadCause: UInt8 {
  case policy, foreground, silentPush, backgroundRefresh, tap, settings, widgetPush, running, added, appTrigger, restart
}

/// Who pays for a reload (docs/model.md#exempt-reloads, #budgeted-reloads, #widget-push).
enum Charge {
  /// Exempt from the budget: the app runs, a tap, a new widget, a settings change.
  case free
  /// Budgeted, and spent from the widget's timeline budget.
  case budget
  /// Budgeted, and paid from the kind's WidgetKit-push budget, which admitted the push.
  case pushBudget
}

extension Simulator {
  /// Schedules a model event of `kind` for widget or kind `index`.
  @inline(__always)
  mutating func schedule(_ kind: DeviceEvent, _ index: Int, at t: SimTime, generation: UInt32 = 0) {
    schedule(
      payload: DeviceEvent.pack(kind, index: index, generation: generation), at: t, priority: DeviceEvent.modelPriority)
  }

  /// Schedules a glance (event-by-event mode): after every other event of its millisecond.
  @inline(__always)
  mutating func scheduleGlance(_ widget: Int, at t: SimTime) {
    schedule(payload: DeviceEvent.pack(.glance, index: widget), at: t, priority: DeviceEvent.glancePriority)
  }

  /// Schedules a data change (event-by-event mode): before every other event of its millisecond.
  @inline(__always)
  mutating func scheduleChange(kind: Int, at t: SimTime) {
    schedule(payload: DeviceEvent.pack(.change, index: kind), at: t, priority: DeviceEvent.changePriority)
  }
}
