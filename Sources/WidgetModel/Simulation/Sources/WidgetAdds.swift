import ReloadEngine

/// The user adds (or re-adds) a widget: WidgetKit asks for its first
/// timeline at once, for free (docs/model.md#exempt-reloads).
struct WidgetAdds: DeviceActivity {
  /// Each widget's next add (an index into `env.adds`).
  private let cursor: Column<Int>

  init(widgets: Int, storage: _DeviceStorage) {
    cursor = storage.column(widgets, 0)
  }

  mutating func start<D: ReloadingDevice>(widget w: Int, _ device: inout D, _ env: DeviceEnvironment) {
    cursor[w] = env.addStart[w]
    if cursor[w] < env.addStart[w + 1] { device.context.schedule(.widgetAdded, w, at: env.adds[cursor[w]]) }
  }

  /// `DeviceEvent.widgetAdded`.
  func added<D: ReloadingDevice>(_ w: Int, at t: SimTime, _ device: inout D, _ env: DeviceEnvironment) {
    device.context.countEvent(at: t)
    device.reload(w, at: t, charge: .free, cause: .added, env)
    cursor[w] += 1
    if cursor[w] < env.addStart[w + 1] { device.context.schedule(.widgetAdded, w, at: env.adds[cursor[w]]) }
  }
}
