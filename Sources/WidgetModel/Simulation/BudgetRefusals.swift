import ReloadEngine

/// What the budget's refusals cost each widget (docs/model.md#budget-limited,
/// #frozen-widgets). A refusal is a budgeted request the budget held back
/// (`withhold`) or discarded (`drop`). Between two reloads of a widget, the
/// first refusal opens a *refused gap* that the next reload (of any kind,
/// or the end of the run) closes:
///
/// - *budget-limited*: every refusal is counted (the share of requests), a
///   day's first refusal is the hour the budget ran out that day, and the
///   widget is budget-limited from the gap's first refusal to the next
///   reload: that time, and every local day it touches;
/// - *frozen*: within the gap, the widget is frozen from the refusal or from
///   when its last reload became older than its limit (`frozen_after_min`,
///   or its kind's `tolerance_min`), whichever is later, until it reloads.
///   That time is counted per run hour (the hourly frozen share), every local
///   day it touches is frozen, and the start of a day's first frozen stretch
///   is the hour the widget froze that day.
///
/// Frozen time lies inside budget-limited time, so a frozen day is always a
/// budget-limited one.
///
/// The figures depend only on when the widget asked, was refused and
/// reloaded, not on how the budget accrues or whether it withholds or drops:
/// a widget polling every 3 or every 10 minutes that the budget holds to one
/// reload every 20 minutes has the same reloads, the same frozen time and
/// the same budget-limited days.
struct BudgetRefusals {
  /// The first refusal since the widget's last reload (`.never`: none).
  private let refusedAt: Column<SimTime>
  /// The latest local day counted budget-limited, frozen, and with a first
  /// frozen hour, per widget.
  private let lastLimitedDay: Column<Int>
  private let lastFirstLimitedDay: Column<Int>
  private let lastFrozenDay: Column<Int>
  private let lastFirstFrozenDay: Column<Int>
  /// Per widget kind: how old a refused widget's last reload is when it
  /// freezes, ms (`ReloadRules.frozenAfter`).
  private let frozenAfter: [Int64]
  private let end: SimTime

  init(widgets: Int, end: SimTime, frozenAfter: [Int64], storage: _DeviceStorage) {
    refusedAt = storage.column(widgets, .never)
    lastLimitedDay = storage.column(widgets, Int.min)
    lastFirstLimitedDay = storage.column(widgets, Int.min)
    lastFrozenDay = storage.column(widgets, Int.min)
    lastFirstFrozenDay = storage.column(widgets, Int.min)
    self.frozenAfter = frozenAfter.map { max(0, $0) }
    self.end = end
  }

  /// Widget `w` starts with no refusal.
  func reset(_ w: Int) {
    refusedAt[w] = .never
    lastLimitedDay[w] = Int.min
    lastFirstLimitedDay[w] = Int.min
    lastFrozenDay[w] = Int.min
    lastFirstFrozenDay[w] = Int.min
  }

  /// The budget refused a request of widget `w` at `t`. The day's first
  /// refusal is the hour the budget ran out that day.
  @inline(__always)
  func refused(_ w: Int, at t: SimTime, _ env: DeviceEnvironment, _ counts: TallyWriter) {
    if refusedAt[w] == .never { refusedAt[w] = t }
    let day = env.localDay(of: t)
    guard day > lastFirstLimitedDay[w] else { return }
    lastFirstLimitedDay[w] = day
    if Self.localDayIsMeasured(day, env, from: counts.measureStart, to: end) {
      counts.recordFirstLimited(tenth: Self.localTenth(of: t, env), kind: env.widgetKind[w])
    }
  }

  /// The tenth of an hour of `t`'s local day, 0 ..< 240.
  static func localTenth(of t: SimTime, _ env: DeviceEnvironment) -> Int {
    let day = SimDuration.day.milliseconds
    var local = (t.milliseconds + env.utcOffset.milliseconds) % day
    if local < 0 { local += day }
    return min(239, Int(local / (SimDuration.hour.milliseconds / 10)))
  }

  /// Widget `w`, last reloaded at `last`, reloads (or the run ends) at `t`:
  /// closes its refused gap, if it has one.
  @inline(__always)
  func reloads(_ w: Int, at t: SimTime, last: SimTime, _ env: DeviceEnvironment, _ counts: inout TallyWriter) {
    let refused = refusedAt[w]
    guard refused != .never else { return }
    refusedAt[w] = .never
    close(w, refused: refused, last: last, at: min(t, end), env, &counts)
  }

  @inline(never)
  private func close(
    _ w: Int, refused: SimTime, last: SimTime, at t: SimTime, _ env: DeviceEnvironment, _ counts: inout TallyWriter
  ) {
    let measureStart = counts.measureStart
    guard t > refused else { return }
    let limitedFrom = max(refused, measureStart)
    let k = env.widgetKind[w]
    if t > limitedFrom { counts.countBoth(.limitedMs, kind: k, UInt64(t.milliseconds - limitedFrom.milliseconds)) }
    for day in env.localDay(of: refused)...env.localDay(of: t - .milliseconds(1)) where day > lastLimitedDay[w] {
      lastLimitedDay[w] = day
      if Self.localDayIsMeasured(day, env, from: measureStart, to: end) {
        counts.countBoth(.limitedWidgetDays, kind: k)
      }
    }
    let frozenFrom = max(refused, max(last, .zero) + .milliseconds(frozenAfter[k]))
    guard t > frozenFrom else { return }
    markFrozenDay(w, at: frozenFrom, stretchStart: true, env, counts)
    // Local days the stretch runs into after its first are frozen from midnight.
    var day = env.localDay(of: frozenFrom) + 1
    while true {
      let midnight = SimTime.zero + .day * Int64(day) - env.utcOffset
      if midnight >= t { break }
      markFrozenDay(w, at: midnight, stretchStart: false, env, counts)
      day += 1
    }
    var a = max(frozenFrom, measureStart)
    while a < t {
      let hour = counts.hourIndex(a)
      let b = min(t, measureStart + .hour * Int64(hour + 1))
      let ms = UInt64(b.milliseconds - a.milliseconds)
      counts.countBoth(.frozenMs, kind: k, ms)
      counts.countHourly(.frozenMs, hour, ms)
      a = b
    }
  }

  /// Counts the local day of `t` as frozen (once per widget and day). The
  /// start of a frozen stretch (`stretchStart`) also records the hour the
  /// widget froze, once per day; a stretch carried over from the day
  /// before does not, so the median first frozen hour says when widgets
  /// freeze, not that they were still frozen at midnight.
  private func markFrozenDay(
    _ w: Int, at t: SimTime, stretchStart: Bool, _ env: DeviceEnvironment, _ counts: TallyWriter
  ) {
    let day = env.localDay(of: t)
    let newDay = day > lastFrozenDay[w]
    let firstToday = stretchStart && day > lastFirstFrozenDay[w]
    if newDay { lastFrozenDay[w] = day }
    if firstToday { lastFirstFrozenDay[w] = day }
    // Only local days wholly inside the measured window count, so the
    // shares of days have a clean denominator in every time zone.
    guard Self.localDayIsMeasured(day, env, from: counts.measureStart, to: end) else { return }
    if newDay { counts.countBoth(.frozenWidgetDays, kind: env.widgetKind[w]) }
    if firstToday { counts.recordFirstFrozen(tenth: Self.localTenth(of: t, env), kind: env.widgetKind[w]) }
  }

  /// `true` when local day `day` lies wholly inside the measured window.
  @inline(__always)
  static func localDayIsMeasured(_ day: Int, _ env: DeviceEnvironment, from measureStart: SimTime, to end: SimTime)
    -> Bool
  {
    let start = SimTime.zero + .day * Int64(day) - env.utcOffset
    return start >= measureStart && start + .day <= end
  }
}
