import Foundation
import ReloadBenchCLI
import Testing
import WidgetModel

/// The scenario format states the model through the parameter catalogue:
/// what a `model` block says is what the decoder sets, for every parameter
/// and for every named alternative of every assumption, and the generated
/// documents agree with the catalogue.
@Suite struct ModelParameterFormatTests {
  /// `smallScenario` with `model` as its model block.
  static func scenario(model: String) -> Data {
    var text = smallScenario(name: "model")
    text.removeLast(2)  // "\n}"
    return Data((text + ",\n\"model\": \(model)\n}\n").utf8)
  }

  static func decodedModel(_ patch: ModelPatch) throws -> ModelParameters {
    try CLITesting.scenario(scenario(model: CLITesting.modelBlock(patch))).get().model
  }

  @Test func aScenarioWithoutAModelBlockDecodesToTheStandardModel() throws {
    #expect(try Self.decodedModel(ModelPatch()) == .standard)
  }

  /// Each parameter, set alone to another value in a scenario file, is
  /// decoded into that parameter (and no other).
  @Test func everyParameterSetInAFileIsTheParameterDecoded() throws {
    for p in ModelParameter.allCases {
      var patch = ModelPatch()
      patch.set(p, p.otherValueForTesting)
      let model = try Self.decodedModel(patch)
      #expect(model == patch.applied(to: .standard), "model.\(p.path): \(CLITesting.modelBlock(patch))")
    }
  }

  /// Every alternative of every assumption survives the trip through the
  /// scenario format: what `robustness` and calibration write, a run reads.
  @Test func everyAlternativeWrittenAsAModelBlockDecodesToItsModel() throws {
    var count = 0
    for a in Assumption.allCases {
      for alt in a.alternatives {
        let model = try Self.decodedModel(alt.patch)
        #expect(model == alt.patch.applied(to: .standard), "assumption \(a.number) \(alt.name)")
        count += 1
      }
    }
    #expect(count >= 16)
  }

  @Test func aNamedLatenessIsTheNamedDistribution() throws {
    let model = try CLITesting.scenario(Self.scenario(model: #"{"reload": {"lateness": "realistic"}}"#)).get().model
    #expect(model.reload.lateness == ReloadTiming.realisticLateness)
  }

  @Test func theAssumptionTableOfTheModelReferenceIsUpToDate() throws {
    let doc = try String(contentsOf: repositoryRoot.appendingPathComponent("docs/model.md"), encoding: .utf8)
    let refreshed = try #require(CLITesting.refreshedModelDoc(doc), "docs/model.md lost its assumption table markers")
    #expect(doc == refreshed, "run 'reloadbench schema' to regenerate")
    for a in Assumption.allCases {
      for alt in a.alternatives { #expect(doc.contains("| \(a.number) | `\(alt.name)` |"), "\(alt.name)") }
    }
  }

  @Test func listAssumptionsPrintsEveryAssumptionAndAlternative() throws {
    let r = try Binary.run(["list", "--assumptions"], in: repositoryRoot)
    #expect(r.status == 0, "\(r.stderr)")
    for a in Assumption.allCases {
      #expect(r.stdout.contains("\(a.number). \(a.summary)"))
      for p in a.parameters { #expect(r.stdout.contains("model.\(p.path) = "), "\(p.path)") }
      for alt in a.alternatives { #expect(r.stdout.contains("   \(alt.name): \(alt.summary)"), "\(alt.name)") }
    }
    #expect(r.stdout.contains("sets model.budget.accrual = \"sliding_window\""))
  }
}
