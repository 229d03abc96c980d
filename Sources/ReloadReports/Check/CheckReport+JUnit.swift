import ReloadMetrics

extension CheckReport {
  /// JUnit XML, the format CI systems show as test results (GitLab's
  /// `artifacts:reports:junit`, Jenkins, GitHub test-report actions).
  ///
  /// One `<testsuite>` per scenario; one `<testcase>` per expectation and
  /// strategy (class `<scenario>.expectations`) and per compared metric
  /// (class `<scenario>.<strategy>.<segment>`, name the metric). Failed
  /// expectations and failing comparisons carry a `<failure>`;
  /// expectations without a value are `<skipped>`. Every count attribute
  /// is the count of the elements written.
  public static func junit(_ run: CheckRun) -> String {
    var suites = ""
    var tests = 0
    var failures = 0
    var skipped = 0
    var seconds = 0.0
    for s in run.scenarios {
      var cases = ""
      var t = 0
      var f = 0
      var k = 0
      for r in s.expectations {
        t += 1
        let e = r.expectation
        let name = "\(r.strategy) / \(e.place): \(e.column) \(e.boundText)"
        cases += "    <testcase classname=\"\(xml(s.scenario)).expectations\" name=\"\(xml(name))\" time=\"0\""
        switch r.verdict {
        case .holds:
          cases += "/>\n"
        case .failed:
          f += 1
          let message = sentence(r)
          cases += ">\n      <failure type=\"expectation\" message=\"\(xml(message))\">\(xml(message))</failure>\n"
          cases += "    </testcase>\n"
        case .notApplicable:
          k += 1
          cases += ">\n      <skipped message=\"\(xml(sentence(r)))\"/>\n    </testcase>\n"
        }
      }
      for c in s.comparisons {
        t += 1
        cases +=
          "    <testcase classname=\"\(xml("\(s.scenario).\(c.strategy).\(c.segment)"))\" "
          + "name=\"\(xml(c.metric.name))\" time=\"0\""
        if s.fails(c) {
          f += 1
          let message = sentence(c, in: s)
          cases +=
            ">\n      <failure type=\"\(c.verdict.rawValue)\" message=\"\(xml(message))\">\(xml(message))</failure>\n"
          cases += "    </testcase>\n"
        } else {
          cases += "/>\n"
        }
      }
      tests += t
      failures += f
      skipped += k
      seconds += s.seconds
      suites +=
        "  <testsuite name=\"\(xml(s.scenario))\" tests=\"\(t)\" failures=\"\(f)\" errors=\"0\" skipped=\"\(k)\" "
        + "time=\"\(time(s.seconds))\">\n"
      suites += "    <properties>\n"
      var properties: [(String, String)] = [
        ("scenario_file", s.file), ("scenario_sha256", s.scenarioSHA256), ("seed", String(s.seed)),
        ("replications", String(s.replications)), ("tolerances", s.toleranceSource),
      ]
      if let b = s.baseline {
        properties += [
          ("baseline_file", b.file), ("baseline_tool_version", b.toolVersion),
          ("baseline_model_version", b.modelVersion),
        ]
      }
      for (i, note) in s.notes.enumerated() { properties.append(("note_\(i + 1)", note)) }
      for (name, value) in properties {
        suites += "      <property name=\"\(name)\" value=\"\(xml(value))\"/>\n"
      }
      suites += "    </properties>\n" + cases + "  </testsuite>\n"
    }
    var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    out +=
      "<testsuites name=\"reloadbench check\" tests=\"\(tests)\" failures=\"\(failures)\" errors=\"0\" "
      + "skipped=\"\(skipped)\" time=\"\(time(seconds))\">\n"
    out += suites
    out += "</testsuites>\n"
    return out
  }

  static func time(_ seconds: Double) -> String { NumberFormat.fixed(max(0, seconds), decimals: 3) }

  /// `s` escaped for XML 1.0 element content and double-quoted attribute
  /// values: the five special characters become references, line breaks
  /// and tabs become character references (attribute values keep them),
  /// and characters XML 1.0 cannot carry at all become U+FFFD.
  static func xml(_ s: String) -> String {
    var out = ""
    out.reserveCapacity(s.utf8.count)
    for u in s.unicodeScalars {
      switch u {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "'": out += "&apos;"
      case "\n": out += "&#10;"
      case "\r": out += "&#13;"
      case "\t": out += "&#9;"
      default:
        if u.value < 0x20 || u.value == 0xFFFE || u.value == 0xFFFF {
          out += "\u{FFFD}"
        } else {
          out.unicodeScalars.append(u)
        }
      }
    }
    return out
  }
}
