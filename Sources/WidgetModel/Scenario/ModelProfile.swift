/// A named reading of the whole model (docs/model.md#model-profiles): a
/// `ModelPatch` laid over the defaults, which a scenario picks as the base
/// of its `model` block (`"model": {"profile": "seeds"}`) before its own
/// fields.
///
///     let model = ModelProfile.named("seeds")?.model ?? .standard
///
/// The profiles of the sources' readings are combinations of assumptions'
/// named alternatives (`Assumption.alternatives`); one profile per earlier
/// model version whose defaults differ (`model_1`) comes from the version
/// history (`ModelVersion`). Adding a reading: one entry in `readings`
/// below and its paragraph in docs/model.md#model-profiles; `reloadbench
/// schema` regenerates the profile table.
public struct ModelProfile: Sendable {
  /// What a scenario's `model.profile` names (`seeds`).
  public let name: String
  /// What the reading says, in a line.
  public let summary: String
  /// What it rests on: source tags (docs/model.md#source-tags) and which sources.
  public let sources: String
  /// The named alternatives it takes, as `(assumption, alternative name)`
  /// (empty for a version's profile).
  public let alternatives: [(assumption: Assumption, name: String)]
  /// What it sets; every other parameter keeps its default.
  public let patch: ModelPatch

  /// Its anchor in docs/model.md (`profile-seeds`, `profile-model-1`).
  public var anchor: String { "profile-" + String(name.map { $0 == "_" ? "-" : $0 }) }

  /// The defaults with the profile's settings.
  public var model: ModelParameters { patch.applied(to: .standard) }

  /// A profile made of assumptions' named alternatives (a name not among
  /// the assumption's alternatives is a programming error; a test checks).
  init(_ name: String, _ summary: String, sources: String, _ alternatives: [(Assumption, String)]) {
    self.name = name
    self.summary = summary
    self.sources = sources
    self.alternatives = alternatives.map { (assumption: $0.0, name: $0.1) }
    var patch = ModelPatch()
    for (a, alt) in alternatives {
      guard let reading = a.alternatives.first(where: { $0.name == alt }) else {
        preconditionFailure("assumption \(a.number) has no alternative \(alt)")
      }
      patch = patch.merging(reading.patch)
    }
    self.patch = patch
  }

  /// The profile that pins version `version`'s defaults.
  init(version: ModelVersion) {
    name = Self.versionPrefix + String(version.number)
    summary = "model version \(version.number)'s defaults, for a scenario written for it"
    sources = "the version history (docs/model.md#model-versions)"
    alternatives = []
    patch = ModelVersion.defaults(at: version.number)
  }

  /// `model_`: the prefix of a version's profile.
  public static let versionPrefix = "model_"

  /// The profile a scenario without `model.profile` has: today's defaults.
  public static let standardName = "evidence"

  /// The readings of the sources, declared here.
  static let readings: [ModelProfile] = [
    ModelProfile(
      standardName,
      "the evidence-fitted reading: today's defaults, where the sources disagree the reading that agrees with "
        + "the most evidence apps",
      sources: "A, T, S; M (the evidence apps, Scenarios/evidence/)", []),
    ModelProfile(
      "seeds",
      "the seeds' reading: a sliding 24 h budget that, once spent, stops the widget until it recovers, and a "
        + "request due now made at once",
      sources: "seeds 000 (a sliding budget; \"ask immediately\"), 004 (its figures)",
      [(.budgetAccrual, "sliding_window"), (.asapReloads, "immediate")]),
  ]

  /// Every profile: the readings, then one per earlier model version whose
  /// defaults differ from today's, oldest first.
  public static let all: [ModelProfile] =
    readings
    + ModelVersion.history.filter { $0.number < ModelVersion.current && !ModelVersion.defaults(at: $0.number).isEmpty }
    .map(ModelProfile.init(version:))

  /// The profile called `name`, if any.
  public static func named(_ name: String) -> ModelProfile? { all.first { $0.name == name } }

  /// The profile that pins version `number`'s defaults, if it differs from today's.
  public static func pinning(version number: Int) -> ModelProfile? { named(versionPrefix + String(number)) }
}
