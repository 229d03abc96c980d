import Testing

import ReloadCalibration

@Suite struct LogFormatTests {
  @Test func timestampsRoundTripAndOffsetsConvertToUTC() throws {
    let t = try #require(LogParser.parseTime("2026-01-05T07:13:02.123Z"))
    #expect(LogTime.format(t) == "2026-01-05T07:13:02.123Z")
    #expect(LogParser.parseTime("2026-01-05T09:13:02.123+02:00") == t)
    #expect(LogParser.parseTime("2026-01-05T07:13:02Z") == t - 123)
    #expect(LogParser.parseTime("2026-01-05T07:13:02.1234567Z") == t + 0)
    #expect(LogParser.parseTime("2026-13-05T07:13:02Z") == nil)
    #expect(LogParser.parseTime("2026-01-05 07:13") == nil)
    #expect(LogTime.simulationEpoch == 1_767_571_200_000)
  }
}
