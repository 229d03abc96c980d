import Foundation
import ReloadEngine
import Testing
import WidgetModel

/// The parameter catalogue (`ModelParameter`) and the assumptions' named
/// alternatives (`Assumption`): every declaration reads and writes its own
/// field of `ModelParameters` and no other, its default is a value of its
/// kind, and every alternative changes the model in its own assumption only.
@Suite struct ModelParameterTests {
  @Test func everyDefaultIsAValueOfItsKindAndInItsRange() {
    for p in ModelParameter.allCases {
      #expect(p.declaration.kind.clamped(p.defaultValue) == p.defaultValue, "\(p.path): \(p.defaultValue)")
    }
  }

  @Test func pathsAreUniqueAndFindTheirParameter() {
    let paths = ModelParameter.allCases.map(\.path)
    #expect(Set(paths).count == paths.count)
    for p in ModelParameter.allCases { #expect(ModelParameter(path: p.path) == p) }
    #expect(ModelParameter(path: "budget.max_per_day") == .budgetMaxPerDay)
    #expect(ModelParameter(path: "wake_sources.audio.stopped_by_force_quit") == .audioWakeStoppedByForceQuit)
    #expect(ModelParameter(path: "budget.nonsense") == nil)
  }

  /// A declaration that pointed at another parameter's field (a copied key
  /// path) would change two parameters, or leave its own at the default.
  @Test func settingAParameterChangesItAndNothingElse() {
    for p in ModelParameter.allCases {
      var model = ModelParameters.standard
      let v = p.otherValueForTesting
      #expect(v != p.defaultValue, "\(p.path): no other value to try")
      #expect(p.set(v, in: &model), "\(p.path) refused \(v)")
      #expect(p.value(in: model) == v, "\(p.path) reads back \(p.value(in: model)), not \(v)")
      for q in ModelParameter.allCases where q != p {
        #expect(q.value(in: model) == q.defaultValue, "setting \(p.path) changed \(q.path)")
      }
    }
  }

  @Test func aValueOfAnotherKindOrOutOfRangeIsRefused() {
    var model = ModelParameters.standard
    #expect(!ModelParameter.budgetAccrual.set(.choice("daily_reset"), in: &model))
    #expect(!ModelParameter.budgetAccrual.set(.number(1), in: &model))
    #expect(!ModelParameter.budgetMaxPerDay.set(.number(0), in: &model))
    #expect(!ModelParameter.budgetMaxPerDay.set(.number(40.5), in: &model))
    #expect(!ModelParameter.budgetTokenBucketBurstFraction.set(.number(0), in: &model))
    #expect(!ModelParameter.reloadLateness.set(.null, in: &model))
    #expect(model == .standard)
    #expect(ModelParameter.budgetWatchComplicationPerDay.set(.null, in: &model))
    #expect(model.budget.watchComplicationPerDay == nil)
  }

  /// The defaults the catalogue reports are the Swift types' own: the
  /// decoder's old fallbacks (`asap ?? .immediate`, `lateness_pressure ??
  /// .none`, `while_asleep ?? .spend`) disagreed with them.
  @Test func defaultsAreTheModelsStandardValues() {
    #expect(ModelParameter.reloadAsap.defaultValue == .choice(ReloadTiming.standard.asap.rawValue))
    #expect(ModelParameter.reloadAsap.defaultValue == .choice("paced"))
    #expect(ModelParameter.reloadLatenessPressure.defaultValue == .choice("budget"))
    #expect(ModelParameter.appReloadWhileAsleep.defaultValue == .choice("defer_to_wake"))
    #expect(ModelParameter.budgetMinInterval.defaultValue == .number(30))
    #expect(ModelParameter.budgetFrozenAfter.defaultValue == .null)
    #expect(ModelParameter.reloadLateness.defaultValue == .distribution(ReloadTiming.smallLateness))
  }

  @Test func everyParameterBelongsToAnAssumptionAndEveryAssumptionHasParametersAndAlternatives() {
    #expect(Assumption.allCases.count == 20)
    #expect(Assumption.allCases.map(\.number) == Array(1...20))
    var covered = 0
    for a in Assumption.allCases {
      #expect(!a.parameters.isEmpty, "assumption \(a.number) has no parameter")
      #expect(!a.alternatives.isEmpty, "assumption \(a.number) has no alternative")
      covered += a.parameters.count
      let names = a.alternatives.map(\.name)
      #expect(Set(names).count == names.count, "assumption \(a.number): alternative names repeat: \(names)")
    }
    #expect(covered == ModelParameter.allCases.count)
  }

  /// An alternative is another reading of its own assumption: it changes
  /// the model, and only in that assumption's parameters.
  @Test func everyAlternativeChangesTheModelWithinItsAssumption() {
    for a in Assumption.allCases {
      for alt in a.alternatives {
        let model = alt.patch.applied(to: .standard)
        #expect(model != .standard, "\(a.number) \(alt.name) changes nothing")
        for s in alt.patch.settings {
          #expect(a.parameters.contains(s.parameter), "\(a.number) \(alt.name) sets \(s.parameter.path)")
          #expect(
            s.value != s.parameter.defaultValue, "\(a.number) \(alt.name) sets \(s.parameter.path) to its default")
        }
      }
    }
  }

  @Test func aPatchKeepsOneValuePerParameterInCatalogueOrder() {
    var patch = ModelPatch()
    patch.set(.reloadAsap, .choice("immediate"))
    patch.set(.budgetAccrual, .choice("sliding_window"))
    patch.set(.reloadAsap, .choice("paced"))
    #expect(patch.settings.map(\.parameter) == [.budgetAccrual, .reloadAsap])
    #expect(patch[.reloadAsap] == .choice("paced"))
    let wordForNumber = patch.setClamped(.budgetAccrual, .number(3))
    #expect(!wordForNumber)
    let tooLarge = patch.setClamped(.budgetMaxPerDay, .number(2000.4))
    #expect(tooLarge)
    #expect(patch[.budgetMaxPerDay] == .number(1440))
    let negative = patch.setClamped(.budgetLowPowerMultiplier, .number(-0.2))
    #expect(negative)
    #expect(patch[.budgetLowPowerMultiplier] == .number(0))
    let model = patch.applied(to: .standard)
    #expect(model.budget.accrual == .slidingWindow && model.budget.maxPerDay == 1440)
    #expect(model.reload.asap == .paced && model.budget.lowPowerMultiplier == 0)
  }

  @Test func wakeStopNamesTheDeclaredFlag() {
    for type in WakeSource.SourceType.allCases {
      for stop in ModelParameterDeclaration.WakeStop.allCases {
        let p = ModelParameter.wakeStop(type, stop)
        #expect(p.declaration.group.wakeSource == type, "\(p.path)")
        let key: String
        switch stop {
        case .forceQuit: key = "stopped_by_force_quit"
        case .lowPowerMode: key = "stopped_by_low_power_mode"
        case .backgroundRefreshOff: key = "stopped_by_background_refresh_off"
        }
        #expect(p.declaration.key == key)
      }
    }
  }

  @Test func everyRuleAnchorIsDefinedInTheModelReference() throws {
    let text = try String(
      contentsOf: ModelReferenceTests.root.appendingPathComponent(ModelReferenceTests.referencePath), encoding: .utf8)
    for p in ModelParameter.allCases {
      #expect(text.contains("<a id=\"\(p.declaration.anchor)\"></a>"), "\(p.path): #\(p.declaration.anchor)")
    }
  }
}
