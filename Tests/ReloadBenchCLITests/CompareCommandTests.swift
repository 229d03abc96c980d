import Foundation
import Testing

/// `reloadbench compare BASE NEW` on the built binary.
@Suite struct CompareCommandTests {
  @Test func aChangedStrategyIsComparedSideBySide() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let before = smallScenario(name: "cmp")
    let after = before.replacingOccurrences(
      of: #"["poll-15m", "hybrid", "on-demand"]"#,
      with:
        #"[{ "name": "poll-15m", "preset": "poll-15m", "timeline": { "policy": "after", "after_min": 60 } }, "hybrid", "on-demand"]"#
    )
    try before.write(to: dir.appendingPathComponent("a.json"), atomically: true, encoding: .utf8)
    try after.write(to: dir.appendingPathComponent("b.json"), atomically: true, encoding: .utf8)
    let r = try Binary.run(["compare", "a.json", "b.json", "--out", "c"], in: dir)
    #expect(r.status == 0, "\(r.stderr)")
    let md = try String(contentsOf: dir.appendingPathComponent("c/compare.md"), encoding: .utf8)
    #expect(md.contains("**Changed scenario:** strategies\\[poll-15m\\]."), "\(md)")
    // Polling hourly instead of every 15 minutes spends fewer reloads and shows fresh data less often.
    // The planning figure, the fleet's p99.9 second, not the sample's busiest second.
    let header = try #require(md.split(separator: "\n").first { $0.hasPrefix("| strategy |") })
    #expect(header.contains("Fleet peak second (p99.9)") && !header.contains("Backend peak"), "\(header)")
    let poll = try #require(md.split(separator: "\n").first { $0.hasPrefix("| poll-15m |") })
    #expect(poll.contains("❌") && poll.contains("✅"), "\(poll)")
    // The other strategies ran on the same users and streams: they did not move.
    let hybrid = try #require(md.split(separator: "\n").first { $0.hasPrefix("| hybrid |") })
    #expect(!hybrid.contains("→"), "\(hybrid)")
    let html = try String(contentsOf: dir.appendingPathComponent("c/compare.html"), encoding: .utf8)
    #expect(html.contains("<svg") && html.contains("Changed in the scenario: strategies[poll-15m]."))
    // Self-contained: the comparison embedded as JSON data, the page's own script, nothing fetched.
    let scripts = html.components(separatedBy: "<script").count - 1
    let data = html.components(separatedBy: "<script type=\"application/json\" id=\"compare-data\">").count - 1
    let own = html.components(separatedBy: "<script>").count - 1
    #expect(scripts == 2 && data == 1 && own == 1, "two script elements: the data and the page's script")
    #expect(!html.contains("src=\"http") && !html.contains("href=\"http"), "self-contained")

    // A run folder and a baseline compare the same way, with nothing to run.
    #expect(try Binary.run(["run", "a.json", "--out", "ra", "--quiet"], in: dir).status == 0)
    #expect(try Binary.run(["baseline", "save", "b.json", "--to", "b-base.json", "--quiet"], in: dir).status == 0)
    let mixed = try Binary.run(["compare", "ra", "b-base.json", "--out", "c2", "--quiet"], in: dir)
    #expect(mixed.status == 0, "\(mixed.stderr)")
    let md2 = try String(contentsOf: dir.appendingPathComponent("c2/compare.md"), encoding: .utf8)
    let poll2 = try #require(md2.split(separator: "\n").first { $0.hasPrefix("| poll-15m |") })
    #expect(poll2 == poll, "the same comparison from stored results")
  }

  @Test func badInputIsOneLineAndExitTwo() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    try "not json".write(to: dir.appendingPathComponent("x.json"), atomically: true, encoding: .utf8)
    for args in [["compare", "x.json", "x.json"], ["compare", "missing", "x.json"], ["compare", "x.json"]] {
      let r = try Binary.run(args, in: dir)
      #expect(r.status == 2 && r.stderr.split(separator: "\n").count == 1, "\(args): \(r.stderr)")
    }
    #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("Reports").path))
  }
}
