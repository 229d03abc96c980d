import Testing

import ReloadCalibration

/// The byte-scanning parser: the same log whichever way a file is cut into
/// blocks, quoted CSV and JSON strings decoded, names interned once, and the
/// errors' columns.
@Suite struct LogParserTests {
  static let csv =
    [
      "type,time,device,kind,family,instance,entries,policy,next,low_power,foreground,trigger,utc_offset_min,ios",
      "timeline,2026-01-05T07:00:00.5Z,d1,live,systemSmall,w0,1,after,2026-01-05T07:05:00Z,false,,,60,17.4",
      #"timeline,2026-01-05T07:06:00Z,"d1",live,systemSmall,"w""0""",+2,at_end,2026-01-05T08:00:00+01:00,1,0,,-90,"#,
      "reload_call,2026-01-05T07:07:00Z,d2,,,,,,,,true,tap,,",
      "",
      "silent_push,2026-01-05T07:08:00.250Z,d1,live,,,,,,true,,,0,17.4",
    ].joined(separator: "\n") + "\n"

  static func parse(_ text: String, blocks: Int? = nil) throws(LogParser.Failure) -> ReloadLog {
    var log = ReloadLog()
    let bytes = Array(text.utf8)
    guard let blocks else {
      try LogParser.parse(bytes, file: "t", into: &log, maxBadLines: nil)
      return log
    }
    // Feed `blocks` bytes at a time, carrying the unused tail as the CLI does.
    var reader = LogParser.Reader(file: "t", maxBadLines: nil)
    var carry: [UInt8] = []
    var at = 0
    while true {
      let end = min(bytes.count, at + blocks)
      carry += bytes[at..<end]
      at = end
      let final = at == bytes.count
      let used = try reader.feed(carry, into: &log, final: final)
      carry.removeFirst(used)
      if final { break }
    }
    try reader.finish(into: &log)
    return log
  }

  @Test func anyCutIntoBlocksReadsTheSameLines() throws {
    let whole = try Self.parse(Self.csv)
    #expect(whole.count == 4)
    for size in [1, 2, 7, 50, 100_000] {
      let cut = try Self.parse(Self.csv, blocks: size)
      #expect((0..<cut.count).map(cut.line) == (0..<whole.count).map(whole.line), "blocks of \(size)")
    }
  }

  @Test func fieldsAreDecodedAndNamesInternedOnce() throws {
    let log = try Self.parse(Self.csv)
    let second = log.line(1)
    #expect(second.device == "d1" && second.instance == "w\"0\"")
    #expect(second.entries == 2 && second.policy == .atEnd)
    #expect(second.next == LogParser.parseTime("2026-01-05T07:00:00Z"))
    #expect(second.lowPower == true && second.foreground == false && second.utcOffsetMinutes == -90)
    #expect(log.line(0).time == LogParser.parseTime("2026-01-05T07:00:00Z")! + 500)
    #expect(log.devices.values == ["d1", "d2"])
    #expect(log.device == [0, 0, 1, 0])
    #expect(log.line(2).trigger == "tap" && log.line(2).kind == "")
    // JSON Lines: escapes, null, and the same line as the CSV's.
    let json = #"{"type":"timeline","time":"2026-01-05T07:06:00Z","device":"d1","kind":"live","family":"systemSmall","instance":"w\"0\"","entries":2,"policy":"at_end","next":"2026-01-05T07:00:00Z","low_power":true,"foreground":false,"trigger":null,"utc_offset_min":-90}"#
    let j = try Self.parse(json + "\n")
    var expected = second
    expected.ios = ""
    #expect(j.line(0) == expected)
  }

  @Test func errorsNameTheColumnAndBadLinesCanBeSkipped() {
    let text = Self.csv.replacing("+2,at_end", with: "+2,sometimes")
    #expect(throws: (any Error).self) { try Self.parse(text) }
    do throws(LogParser.Failure) {
      _ = try Self.parse(text)
    } catch {
      #expect(error.description.hasPrefix("t:3:65: unknown policy 'sometimes'"), "\(error.description)")
    }
    var log = ReloadLog()
    #expect(throws: Never.self) { try LogParser.parse(Array(text.utf8), file: "t", into: &log, maxBadLines: 1) }
    #expect(log.count == 3 && log.badLines == 1)
    do throws(LogParser.Failure) {
      var l = ReloadLog()
      try LogParser.parse(Array("type,time,device\ntimeline,x\n".utf8), file: "t", into: &l, maxBadLines: nil)
      Issue.record("a short line was accepted")
    } catch {
      #expect(error.description.hasPrefix("t:2:1: 2 fields, the header has 3"), "\(error.description)")
    }
  }
}
