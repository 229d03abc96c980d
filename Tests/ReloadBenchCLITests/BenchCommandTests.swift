import Foundation
import Testing

@Suite struct BenchCommandTests {
  /// A tiny bench run writes JSON that a later run can compare with; a
  /// doctored, much faster baseline is reported as a regression (exit 1).
  @Test func benchWritesJSONAndComparesWithABaseline() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let r = try Binary.run(["bench", "--cases", "hold-4ary-1e3", "--quick", "--repeat", "1", "--hold-ops", "20000", "--json", "b.json"], in: dir)
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout.contains("hold-4ary-1e3") && r.stdout.contains("events/s") && r.stdout.contains("noisy"))
    let data = try Data(contentsOf: dir.appendingPathComponent("b.json"))
    let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    #expect(json["tool"] as? String == "reloadbench-bench")
    #expect((json["machine"] as? [String: String])?["cores"] != nil)

    // Same machine, same code: within noise.
    let same = try Binary.run(
      ["bench", "--cases", "hold-4ary-1e3", "--quick", "--repeat", "1", "--hold-ops", "20000", "--baseline", "b.json", "--noise", "90"], in: dir)
    #expect(same.status == 0, "\(same.stdout)\(same.stderr)")
    #expect(same.stdout.contains("within noise") || same.stdout.contains("improved"))

    // A baseline ten times faster: regressed.
    var text = String(decoding: data, as: UTF8.self)
    let eps = #""eventsPerSecond" : "#
    var out = ""
    var rest = text[...]
    while let r = rest.range(of: eps) {
      out += rest[..<r.upperBound]
      rest = rest[r.upperBound...]
      let number = rest.prefix { "0123456789.e+-".contains($0) }
      out += String((Double(number) ?? 1) * 10)
      rest = rest.dropFirst(number.count)
    }
    out += rest
    text = out
    try text.write(to: dir.appendingPathComponent("fast.json"), atomically: true, encoding: .utf8)
    let slow = try Binary.run(["bench", "--cases", "hold-4ary-1e3", "--quick", "--repeat", "1", "--hold-ops", "20000", "--baseline", "fast.json"], in: dir)
    #expect(slow.status == 1, "\(slow.stdout)")
    #expect(slow.stdout.contains("regressed"))

    let bad = try Binary.run(["bench", "--baseline", "nope.json"], in: dir)
    #expect(bad.status == 2 && bad.stderr.contains("nope.json"))
  }

  /// A run that would need more memory than the machine has is refused
  /// before it starts, with the estimate and a way out.
  @Test func aRunTooBigForTheMachineIsRefusedUpFront() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    // 366 days x 32 strategies x 64 segments of per-second tallies.
    let strategies = (0..<32).map { #"{"name": "s\#($0)", "preset": "poll-15m"}"# }.joined(separator: ", ")
    let segments = (0..<64).map { #"{"name": "g\#($0)", "widgets": [{"kind": "k"}]}"# }.joined(separator: ", ")
    let json = """
      {"name": "huge", "days": 366, "devices": 10, "kinds": [{"name": "k", "unpredictable": {"per_day": 1}}],
       "segments": [\(segments)], "strategies": [\(strategies)]}
      """
    try json.write(to: dir.appendingPathComponent("huge.json"), atomically: true, encoding: .utf8)
    let r = try Binary.run(["run", "huge.json", "--quiet"], in: dir)
    #expect(r.status == 2)
    #expect(r.stderr.contains("would need about") && r.stderr.contains("GB") && r.stderr.contains("fix:"))
    #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("Reports").path))
  }
}
