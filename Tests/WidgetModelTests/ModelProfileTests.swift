import Testing
import WidgetModel

/// docs/model.md#model-profiles and #model-versions: each profile sets
/// exactly its patch over the defaults; the version history gives the
/// `model_N` profiles and the changes since an old version.
@Suite struct ModelProfileTests {
  @Test func eachProfileSetsExactlyItsPatchAndLeavesTheRestAtTheDefaults() {
    for profile in ModelProfile.all {
      let model = profile.model
      for p in ModelParameter.allCases {
        let expected = profile.patch[p] ?? p.defaultValue
        #expect(p.value(in: model) == expected, "\(profile.name): model.\(p.path)")
      }
      // A profile that sets a parameter to its default would read as a change.
      for s in profile.patch.settings {
        #expect(s.value != s.parameter.defaultValue, "\(profile.name) sets model.\(s.parameter.path) to its default")
      }
    }
  }

  @Test func namesAndAnchorsAreUniqueAndTheStandardProfileIsTheDefaults() {
    let names = ModelProfile.all.map(\.name)
    #expect(Set(names).count == names.count)
    #expect(Set(ModelProfile.all.map(\.anchor)).count == names.count)
    let standard = ModelProfile.named(ModelProfile.standardName)
    #expect(standard?.patch.isEmpty == true)
    #expect(standard?.model == ModelParameters.standard)
    #expect(ModelProfile.named("no-such-profile") == nil)
  }

  /// A reading's patch is its alternatives' patches, nothing more.
  @Test func aReadingIsTheUnionOfItsAlternatives() {
    for profile in ModelProfile.all where !profile.alternatives.isEmpty {
      var union = ModelPatch()
      for (assumption, name) in profile.alternatives {
        let alternative = assumption.alternatives.first { $0.name == name }
        #expect(alternative != nil, "\(profile.name): assumption \(assumption.number) has no \(name)")
        union = union.merging(alternative?.patch ?? ModelPatch())
      }
      #expect(union == profile.patch, "\(profile.name)")
    }
  }

  /// The seeds' reading (seeds 000, 004): a sliding budget, "ask immediately".
  @Test func theSeedsProfileReadsTheSeeds() throws {
    let seeds = try #require(ModelProfile.named("seeds"))
    #expect(seeds.model.budget.accrual == .slidingWindow)
    #expect(seeds.model.reload.asap == .immediate)
    #expect(seeds.patch.settings.count == 2)
  }

  @Test func theVersionHistoryCountsFromOneAndEndsAtTheCurrentVersion() {
    let numbers = ModelVersion.history.map(\.number)
    #expect(numbers == Array(1...numbers.count))
    #expect(ModelVersion.current == numbers.last)
    #expect(ModelVersion.defaults(at: ModelVersion.current).isEmpty)
    #expect(ModelVersion.changes(since: ModelVersion.current).isEmpty)
    for v in ModelVersion.history.dropFirst() {
      // A version changes a default, or says which figures it changed.
      #expect(!v.changes.isEmpty || v.figures != nil, "version \(v.number) changes nothing")
      for c in v.changes { #expect(c.old != c.new, "version \(v.number): model.\(c.parameter.path)") }
    }
  }

  /// Each earlier version whose defaults differ has a profile that pins
  /// them, made from the history: running it is running that version.
  @Test func eachEarlierVersionHasAProfileThatPinsItsDefaults() throws {
    for v in ModelVersion.history where v.number < ModelVersion.current {
      let back = ModelVersion.defaults(at: v.number)
      guard !back.isEmpty else { continue }
      let profile = try #require(ModelProfile.pinning(version: v.number), "no profile for version \(v.number)")
      #expect(profile.name == "model_\(v.number)")
      #expect(profile.patch == back)
      // Every default changed since is pinned at its value then.
      let changes = ModelVersion.changes(since: v.number)
      #expect(!changes.isEmpty)
      for c in changes {
        #expect(c.parameter.value(in: profile.model) == c.old, "model.\(c.parameter.path)")
        #expect(c.new == c.parameter.defaultValue)
      }
    }
    #expect(ModelProfile.pinning(version: ModelVersion.current) == nil)
  }

  /// Version 2 changed the five structural rules the evidence chose; the
  /// `model_1` profile gives them back (Scenarios/evidence/sensitivity.py
  /// ran them as "all rules as before").
  @Test func versionOnesProfileIsTheFirstModelsStructuralRules() throws {
    let v1 = try #require(ModelProfile.pinning(version: 1)).model
    #expect(v1.budget.accrual == .slidingWindow)
    #expect(v1.reload.asap == .immediate)
    #expect(v1.reload.latenessPressure == .none)
    #expect(v1.appReload.backgroundLatency.isZero)
    #expect(v1.appReload.whileAsleep == .spend)
    #expect(v1.reload.futureFirstEntry == .shownAtOnce)  // version 4's change, given back too
    #expect(ModelVersion.history[1].changes.count == 5)
    #expect(Set(ModelVersion.changes(since: 1).map(\.parameter)).count == 6)
  }
}
