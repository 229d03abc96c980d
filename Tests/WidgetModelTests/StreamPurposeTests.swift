import ReloadEngine
import Testing
import WidgetModel

/// The model's stream purposes are part of the reproducibility contract:
/// their raw values must not change (every result would) and no two may
/// share one (two processes would draw the same numbers).
@Suite struct StreamPurposeTests {
  static let pinned: [(StreamPurpose, UInt64)] = [
    (.attributes, 1), (.homeViews, 2), (.lockViews, 3), (.visibility, 4), (.appSessions, 5),
    (.audioSessions, 6), (.taps, 7), (.lowPowerMode, 8), (.contentChanges, 9),
    (.settingsChanges, 10), (.widgetAdds, 11), (.restarts, 12), (.sessionChanges, 13), (.lateness, 20),
    (.pushDelivery, 21),
    (.backgroundRefresh, 22), (.firstRequest, 23), (.watchViews, 40), (.standbyViews, 41),
  ]

  @Test func rawValuesArePinned() {
    for (purpose, raw) in Self.pinned { #expect(purpose.rawValue == raw) }
  }

  @Test func purposesAreDistinctAndAvoidTheEnginesTestPurpose() {
    let all = Self.pinned.map(\.0) + [.test]
    #expect(Set(all).count == all.count)
  }
}
