import ReloadEngine
import Testing

import WidgetModel

/// The simulator's one storage type: columns read and write in place, and
/// an index out of range traps in a debug build instead of corrupting
/// another widget's state.
@Suite struct DeviceStorageTests {
  @Test func columnsHoldTheirOwnValues() {
    let storage = _DeviceStorage()
    let a = storage.column(4, SimTime.zero)
    let b = storage.column(4, 7)
    for i in 0..<4 { a[i] = SimTime(milliseconds: Int64(i) * 10) }
    b[2] &+= 5
    #expect((0..<4).map { a[$0].milliseconds } == [0, 10, 20, 30])
    #expect((0..<4).map { b[$0] } == [7, 7, 12, 7])
    let copied = storage.column(copying: [3, 1, 2], filler: 0)
    #expect(copied.count == 3 && copied[0] == 3 && copied[2] == 2)
  }

  #if DEBUG
    @Test func outOfRangeColumnAccessTrapsInDebug() async {
      await #expect(processExitsWith: .failure) {
        let storage = _DeviceStorage()
        let column = storage.column(4, 0)
        column[4] = 1  // one past the end
      }
      await #expect(processExitsWith: .failure) {
        let storage = _DeviceStorage()
        let column = storage.column(4, 0)
        _ = column[-1]
      }
    }
  #endif

  /// A copy of a simulator would share its storage, so running one traps
  /// (in release builds too).
  @Test func aCopiedSimulatorRefusesToRun() async {
    await #expect(processExitsWith: .failure) {
      let scenario = TestScenarios.r1(devices: 1, days: 1)
      let prepared = PreparedScenario(scenario)
      let original = DeviceSimulator(
        prepared: prepared, strategy: scenario.strategies[0], provider: scenario.strategies[0].timeline)
      var copy = original
      var env = DeviceEnvironment()
      env.generate(device: 0, in: prepared)
      copy.run(env)
      _ = original.tally
    }
  }
}
