import Foundation
import ReloadMetrics
import ReloadReports
import Testing

/// The one JSON writer: its styles, layouts, numbers, strings, and values
/// built from `Encodable`.
@Suite struct JSONTests {
  static let sample: JSON = [
    "name": "poll",
    "b": [1, 2.5, .null],
    "a": .object([("z", true), ("y", [:])]),
    "empty": [],
  ]

  @Test func eachStyleWritesItsSeparatorsLinesAndKeyOrder() {
    #expect(Self.sample.text(.compact) == #"{"a":{"y":{},"z":true},"b":[1,2.5,null],"empty":[],"name":"poll"}"#)
    #expect(
      Self.sample.text(.line) == #"{"a": {"y": {}, "z": true}, "b": [1, 2.5, null], "empty": [], "name": "poll"}"#)
    #expect(
      Self.sample.text(.pretty) == """
        {
          "a" : {
            "y" : {},
            "z" : true
          },
          "b" : [
            1,
            2.5,
            null
          ],
          "empty" : [],
          "name" : "poll"
        }
        """)
    // Keys in the order given, objects over lines, arrays on one line.
    #expect(
      Self.sample.text(.document) == """
        {
          "name": "poll",
          "b": [1, 2.5, null],
          "a": {
            "z": true,
            "y": {}
          },
          "empty": []
        }
        """)
  }

  @Test func aContainersLayoutOverridesTheStyleAndOneLineHoldsForItsContents() {
    let doc: JSON = [
      "oneOf": .array([.object([("$ref", "#/a")], layout: .inline), .object([("$ref", "#/b")])], layout: .lines),
      "default": .object([("dist", "lognormal"), ("median_s", 120), ("nested", ["x": 1])], layout: .inline),
      "items": [["k": 1]],
    ]
    #expect(
      doc.text(.document) == """
        {
          "oneOf": [
            {"$ref": "#/a"},
            {
              "$ref": "#/b"
            }
          ],
          "default": {"dist": "lognormal", "median_s": 120, "nested": {"x": 1}},
          "items": [{"k": 1}]
        }
        """)
  }

  @Test func numbersFollowOneRule() {
    func text(_ d: Double) -> String { JSON.number(d).text(.compact) }
    #expect(text(3) == "3" && text(-0.0) == "0" && text(-2) == "-2")
    #expect(text(0.1) == "0.1" && text(1e-5) == "1e-05" && text(1.0 / 3) == "0.3333333333333333")
    // Whole numbers exactly up to 2^53, beyond it Swift's shortest form.
    #expect(text(9_007_199_254_740_992) == "9007199254740992" && text(1e16) == "1e+16")
    #expect(text(.nan) == #""nan""# && text(.infinity) == #""inf""# && text(-.infinity) == #""-inf""#)
    #expect(JSON.number(2.5, decimals: 3).text(.compact) == "2.500")
    #expect(JSON.number(-0.0004, decimals: 3).text(.compact) == "0.000")
    #expect(JSON.integer(UInt64.max).text(.compact) == "18446744073709551615")
  }

  @Test func stringsEscapeQuotesBackslashesAndControlCharactersOnly() {
    #expect(JSON.quoted("a/b \"c\" \\ é") == #""a/b \"c\" \\ é""#)
    #expect(JSON.quoted("x\ny\r\t\u{1}") == #""x\ny\r\t\u0001""#)
  }

  /// In `.script` text no `<` is left but `<\/`, in values and keys alike.
  @Test func scriptSafeTextCannotEndOrConfuseAScriptElement() {
    let doc: JSON = ["<k": "a</script><!--<b<", "x": "/<"]
    #expect(doc.text(.script) == #"{"\u003ck":"a<\/script>\u003c!--\u003cb\u003c","x":"/\u003c"}"#)
    #expect(doc.text(.compact) == #"{"<k":"a</script><!--<b<","x":"/<"}"#)
  }

  struct Record: Codable, Equatable {
    var name: String
    var values: [Double?]
    var counts: [String: UInt64]
    var nested: [[Int]]
    var optional: String?
    var flag: Bool
  }

  /// `.pretty` is the layout of Foundation's pretty printer with sorted
  /// keys, so files written before the one writer read the same.
  @Test func prettyMatchesFoundationsEncoderByteForByte() throws {
    let r = Record(
      name: "a/b \"q\"\n", values: [0.1, nil, 1e-5, 1e16, 123_456_789_012_345, .infinity, -3],
      counts: ["widgets": 3, "widget_days": 1, "b": UInt64.max], nested: [[1, 2], [3]], optional: nil, flag: true)
    let foundation = JSONEncoder()
    foundation.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    foundation.nonConformingFloatEncodingStrategy = .convertToString(
      positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
    let expected = String(decoding: try foundation.encode(r), as: UTF8.self)
    #expect(try JSON(encoding: r).text(.pretty) == expected)
    foundation.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    #expect(try JSON(encoding: r).text(.compact) == String(decoding: try foundation.encode(r), as: UTF8.self))
  }

  /// A conformance that writes into nested containers after it made them,
  /// and an explicit `encodeNil`.
  struct Nested: Encodable {
    enum Keys: String, CodingKey { case inner, list, none }
    enum Inner: String, CodingKey { case x }
    func encode(to encoder: any Encoder) throws {
      var c = encoder.container(keyedBy: Keys.self)
      var inner = c.nestedContainer(keyedBy: Inner.self, forKey: .inner)
      var list = c.nestedUnkeyedContainer(forKey: .list)
      try c.encodeNil(forKey: .none)
      try inner.encode(1, forKey: .x)
      try list.encode("a")
      var deeper = list.nestedUnkeyedContainer()
      try deeper.encode(2)
      try list.encode("b")
    }
  }

  @Test func encodingFinishesNestedContainersWithTheirParent() throws {
    #expect(try JSON(encoding: Nested()).text(.compact) == #"{"inner":{"x":1},"list":["a",[2],"b"],"none":null}"#)
  }

  /// results.json reads back as the results it was written from.
  @Test func resultsRoundTripThroughFoundationsDecoder() throws {
    var results = ReportFixtures.results()
    results.summary.rows[0].ci95 = results.summary.rows[0].values.map { $0.map { $0 / 10 } }
    results.facts.phaseSeconds = ["simulation": 1.25, "report": 0.5, "merge": 0.0001]
    results.series[0].firstFrozenHour = nil
    let decoder = JSONDecoder()
    decoder.nonConformingFloatDecodingStrategy = .convertFromString(
      positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
    let decoded = try decoder.decode(ScenarioResults.self, from: Data(JSON.text(results).utf8))
    #expect(decoded.facts == results.facts)
    #expect(decoded.summary == results.summary)
    #expect(decoded.series == results.series)
  }

  /// results.json carries the conclusions in the model's one pass: the
  /// findings beside the recommendation's members (a runner-up of none as
  /// null), before "series"; the page's data leaves them out.
  @Test func resultsJSONCarriesTheConclusionsAndThePageDataDoesNot() throws {
    let rec = Recommendation(strategy: "beta", reason: "cheapest", meetsTarget: true, objective: "the rule")
    let results = ReportFixtures.concluded(ReportFixtures.results(), rec, findings: ["one", "two <3"])
    let json = HTMLReport.resultsJSON(results)
    let expected =
      #","recommendation":{"findings":["one","two \u003c3"],"meetsObjective":true,"objective":"the rule","#
      + #""reason":"cheapest","runnerUp":null,"strategy":"beta"},"series":["#
    #expect(json.contains(expected))
    var bare = results
    bare.conclusions = nil
    #expect(HTMLReport.dataJSON(results) == HTMLReport.resultsJSON(bare))
    #expect(!HTMLReport.dataJSON(results).contains("recommendation"))
    let none = HTMLReport.resultsJSON(ReportFixtures.concluded(results, nil, findings: ["x"]))
    #expect(none.contains(#","recommendation":{"findings":["x"]},"series":["#))
    let decoder = JSONDecoder()
    decoder.nonConformingFloatDecodingStrategy = .convertFromString(
      positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
    let decoded = try decoder.decode(ScenarioResults.self, from: Data(JSON.text(results).utf8))
    #expect(decoded.conclusions == results.conclusions)
  }

  /// A run's facts are the simulation's facts (a sweep's whole facts) and
  /// the run's own, written as one object.
  @Test func runFactsAreTheSimulationsFactsAndTheRunsOwnInOneObject() throws {
    var facts = ReportFixtures.results().facts
    facts.phaseSeconds = ["report": 0.5]
    facts.threads = 3
    #expect(facts.simulated.threads == 3, "read and written through")
    let run = JSON.text(facts)
    let sweep = JSON.text(facts.simulated)
    #expect(run.hasPrefix(#"{"days":3,"#) && run.contains(#""phaseSeconds":{"report":0.5}"#))
    for key in ["widgets", "fleetDevices", "toleranceMinutes", "phaseSeconds"] {
      #expect(run.contains("\"\(key)\":") && !sweep.contains("\"\(key)\":"), "\(key)")
    }
    #expect(try JSONDecoder().decode(RunFacts.self, from: Data(run.utf8)) == facts)
  }
}
