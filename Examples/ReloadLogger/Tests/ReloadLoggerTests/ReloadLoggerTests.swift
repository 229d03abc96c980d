import Foundation
import Testing

@testable import ReloadLogger

final class Clock: @unchecked Sendable {
  var now = Date(timeIntervalSince1970: 1_767_600_000)
}

@Suite struct ReloadLoggerTests {
  func folder() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("reload-logger-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  func rows(_ url: URL) throws -> [[String]] {
    try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map {
      $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    }
  }

  @Test func linesFollowTheHeaderAndTheTriggerPassesFromTheAppToTheExtension() throws {
    let dir = try folder()
    defer { try? FileManager.default.removeItem(at: dir) }
    let clock = Clock()
    let log = ReloadLogger(directory: dir, now: { clock.now }, lowPower: { true })
    log.reloadTimelines(ofKind: "prices", trigger: "silent_push")
    clock.now += 20
    log.timeline(kind: "prices", family: "systemSmall", instance: "a1", entries: 3, policy: .after(clock.now + 900))
    clock.now += 900
    log.timeline(kind: "prices", family: "systemSmall", instance: "a1", entries: 1, policy: .atEnd(lastEntry: clock.now))
    log.event("bg_refresh")
    let r = try rows(log.fileURL)
    let header = ReloadLogger.header.split(separator: ",").map(String.init)
    #expect(r[0] == header)
    #expect(r.count == 5)
    for row in r.dropFirst() { #expect(row.count == header.count, "\(row)") }
    #expect(r[1][0] == "reload_call" && r[1][11] == "silent_push")
    // The first timeline after the call carries its trigger; the next one is the system's own.
    #expect(r[2][0] == "timeline" && r[2][11] == "silent_push" && r[2][7] == "after")
    #expect(r[2][1] == "2026-01-05T08:00:20.000Z" && r[2][8] == "2026-01-05T08:15:20.000Z")
    #expect(r[3][11] == "" && r[3][7] == "at_end" && r[3][8] == r[3][1])
    #expect(r[4][0] == "bg_refresh" && r[4][9] == "true")
    // One install id on every line, random, not a device name.
    #expect(Set(r.dropFirst().map { $0[2] }).count == 1)
    #expect(r[1][2].hasPrefix("d") && r[1][2].count == 17)
  }

  @Test func aStaleTriggerIsNotCopied() throws {
    let dir = try folder()
    defer { try? FileManager.default.removeItem(at: dir) }
    let clock = Clock()
    let log = ReloadLogger(directory: dir, now: { clock.now })
    log.reloadTimelines(ofKind: "k", trigger: "app")
    clock.now += 3600
    log.timeline(kind: "k", family: "systemSmall", instance: "i", entries: 1, policy: .never)
    #expect(try rows(log.fileURL)[2][11] == "")
  }

  @Test func theFileRotatesAndStaysBounded() throws {
    let dir = try folder()
    defer { try? FileManager.default.removeItem(at: dir) }
    let log = ReloadLogger(directory: dir, maxBytes: 4096)
    for i in 0..<200 { log.timeline(kind: "k", family: "systemSmall", instance: "i\(i)", entries: 1, policy: .never) }
    func size(_ name: String) -> Int {
      (try? FileManager.default.attributesOfItem(atPath: dir.appendingPathComponent(name).path)[.size] as? Int) ?? 0
    }
    #expect(size(ReloadLogger.fileName) <= 4096)
    #expect(size(ReloadLogger.previousFileName) > 0 && size(ReloadLogger.previousFileName) <= 4096)
    // Each file starts with the header, so either can be read alone.
    #expect(try rows(dir.appendingPathComponent(ReloadLogger.previousFileName))[0][0] == "type")
    #expect(try rows(log.fileURL)[0][0] == "type")
  }

  @Test func fieldsWithCommasAreQuoted() {
    #expect(ReloadLogger.field("a,b") == "\"a,b\"")
    #expect(ReloadLogger.field("say \"hi\"") == "\"say \"\"hi\"\"\"")
    #expect(ReloadLogger.field("plain") == "plain")
  }
}
