import ReloadEngine
import Testing

/// The samplers' one storage type: a table holds the values it was filled
/// with, and an index out of range traps in a debug build instead of
/// reading another table's memory.
@Suite struct SamplerTableTests {
  @Test func aTableHoldsItsValues() {
    let squares = _SamplerTable(count: 5) { Double($0 * $0) }
    let copied = _SamplerTable([UInt64(7), 3, 9])
    defer {
      squares.deallocate()
      copied.deallocate()
    }
    #expect((0..<5).map { squares[$0] } == [0, 1, 4, 9, 16])
    #expect(copied.count == 3 && copied[0] == 7 && copied[2] == 9)
  }

  #if DEBUG
    @Test func outOfRangeReadsTrapInDebug() async {
      await #expect(processExitsWith: .failure) {
        let table = _SamplerTable(count: 4) { Double($0) }
        _ = table[4]  // one past the end
      }
      await #expect(processExitsWith: .failure) {
        let table = _SamplerTable(count: 4) { Double($0) }
        _ = table[-1]
      }
    }
  #endif
}
