import ReloadMetrics

/// How one strategy looks in every chart: a colour from the Okabe-Ito
/// palette, a marker shape and a dash pattern, all from its position in
/// the scenario, so a strategy keeps its look across the page.
///
/// Okabe and Ito's eight colours ("Color Universal Design", 2008) stay
/// distinct for the common colour-vision deficiencies. Colour is never the
/// only cue: every series also has a direct label, and shape (points) or
/// dash (lines) varies too. Colour and dash together are unique for the
/// first 24 strategies (index mod 8 and index mod 3 fix index mod 24).
///
///     SeriesStyle(index: 9).colorClass   // "s1"
///     SeriesStyle(index: 9).shape        // .square
struct SeriesStyle {
  /// Palette slots; the stylesheet maps `s0` ... `s7` to colours, with
  /// lighter variants in dark mode.
  static let paletteSize = 8
  /// The palette in slot order (light mode), for the legend and tests.
  static let okabeIto = [
    "#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#F0E442",
  ]

  let index: Int

  /// `s0` ... `s7`.
  var colorClass: String { "s" + String(index % Self.paletteSize) }
  var shape: SVGChart.Shape { SVGChart.Shape.allCases[index % SVGChart.Shape.allCases.count] }
  /// `""`, `d1` or `d2`: solid, dashed, dotted.
  var dashClass: String {
    switch index % 3 {
    case 1: return "d1"
    case 2: return "d2"
    default: return ""
    }
  }

  /// Classes for a line of this series.
  var line: String { "ln " + colorClass + (dashClass.isEmpty ? "" : " " + dashClass) }
  /// Classes for a marker or bar of this series.
  var fill: String { "pt " + colorClass }
  /// Classes for a translucent band of this series.
  var band: String { "band " + colorClass }
  /// Classes for a label of this series (text in the series colour, darkened).
  var label: String { "lbl " + colorClass }
}

extension SeriesStyle {
  /// The style of each strategy of a run, by its position in the scenario
  /// (`facts.strategies`), then in `series`, then in the summary.
  static func styles(for results: ScenarioResults) -> [String: SeriesStyle] {
    var out: [String: SeriesStyle] = [:]
    var next = 0
    let names =
      results.facts.strategies + results.series.map(\.strategy) + results.summary.overallRows.map(\.strategy)
    for name in names where out[name] == nil {
      out[name] = SeriesStyle(index: next)
      next += 1
    }
    return out
  }
}
