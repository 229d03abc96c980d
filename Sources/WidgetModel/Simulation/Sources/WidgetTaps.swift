import ReloadEngine

/// A tap on an App Intent button in the widget (interactive widgets): the
/// tapped widget reloads at once, for free (docs/model.md#exempt-reloads, #reload-cost).
/// With `reloadKindOnTap` the intent's `perform()` also calls
/// `reloadTimelines(ofKind:)`, which reloads the kind's other widgets like
/// any app call (free only if the app runs).
struct WidgetTaps: DeviceActivity {
  let reloadKind: Bool
  /// Each widget's next tap (an index into `env.taps`).
  private let cursor: Column<Int>

  init(_ strategy: Strategy, widgets: Int, storage: _DeviceStorage) {
    reloadKind = strategy.app.reloadKindOnTap
    cursor = storage.column(widgets, 0)
  }

  mutating func start<D: ReloadingDevice>(widget w: Int, _ device: inout D, _ env: DeviceEnvironment) {
    cursor[w] = env.tapStart[w]
    if cursor[w] < env.tapStart[w + 1] { device.context.schedule(.tap, w, at: env.taps[cursor[w]]) }
  }

  /// `DeviceEvent.tap`: the user taps widget `w`'s button.
  func tapped<D: ReloadingDevice>(_ w: Int, at t: SimTime, _ device: inout D, _ env: DeviceEnvironment) {
    device.context.countEvent(at: t)
    device.reload(w, at: t, charge: .free, cause: .tap, env)
    if reloadKind {
      let k = env.widgetKind[w]
      for other in 0..<env.widgetCount where other != w && env.widgetKind[other] == k {
        device.appReload(other, at: t, cause: .tap, env)
      }
    }
    cursor[w] += 1
    if cursor[w] < env.tapStart[w + 1] { device.context.schedule(.tap, w, at: env.taps[cursor[w]]) }
  }
}
