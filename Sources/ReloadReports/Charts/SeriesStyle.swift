import ReloadMetrics

/// How one strategy looks in every chart: a colour from the Okabe-Ito
/// palette, a marker shape and a dash pattern, all from its *name*, so a
/// strategy looks the same in every report: across runs, scenarios and
/// sweeps, in `report.html` and `sweep.html`.
///
/// Okabe and Ito's eight colours ("Color Universal Design", 2008) stay
/// distinct for the common colour-vision deficiencies (the stylesheet has
/// lighter variants for dark mode). Colour is never the only cue: every
/// series also has a direct label, and shape (points) or dash (lines)
/// varies too.
///
/// The built-in presets have fixed styles (`preferred`), eight distinct
/// colours for the default scenario's eight; any other name gets a style
/// from a hash of its name (FNV-1a) over the 96 combinations. In one report
/// two strategies never share a colour while a colour is free: names take
/// their preferred style in order (presets in table order, then the rest by
/// name), and one whose colour is taken moves to the next free colour,
/// keeping its shape and dash (a name without a fixed style also moves off
/// the dashes and shapes taken, while some are free). So a name keeps its
/// look in every report unless another strategy of that report wants the
/// same colour first.
///
///     SeriesStyle.preferred("hybrid").colorClass   // "s5", in every report
///     SeriesStyle.styles(for: ["poll", "hybrid"])  // by name, not position
struct SeriesStyle: Equatable {
  /// Palette slots; the stylesheet maps `s0` ... `s7` to colours, with
  /// lighter variants in dark mode.
  static let paletteSize = 8
  /// The palette in slot order (light mode), for the legend and tests.
  static let okabeIto = [
    "#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#F0E442",
  ]

  /// Palette slot, 0 ..< 8.
  var color: Int
  /// Index into `SVGChart.Shape.allCases`.
  var shapeIndex: Int
  /// 0 solid, 1 dashed, 2 dotted.
  var dash: Int

  init(color: Int, shape: Int, dash: Int) {
    self.color = color % Self.paletteSize
    shapeIndex = shape % SVGChart.Shape.allCases.count
    self.dash = dash % 3
  }

  /// The `index`-th of the 96 combinations (`color + 8 * shape + 32 * dash`).
  init(index: Int) {
    let i = ((index % 96) + 96) % 96
    self.init(color: i % 8, shape: i / 8 % 4, dash: i / 32)
  }

  /// This style's place among the 96 combinations.
  var index: Int { color + 8 * shapeIndex + 32 * dash }

  /// `s0` ... `s7`.
  var colorClass: String { "s" + String(color) }
  var shape: SVGChart.Shape { SVGChart.Shape.allCases[shapeIndex] }
  /// `""`, `d1` or `d2`: solid, dashed, dotted.
  var dashClass: String {
    switch dash {
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
  /// Classes for a legend swatch of this series (colour and dash).
  var swatch: String { "ser " + colorClass + (dashClass.isEmpty ? "" : " " + dashClass) }
}

extension SeriesStyle {
  /// The built-in presets' styles, in priority order: the default
  /// scenario's eight first, each a colour of its own.
  static let fixed: [(name: String, style: SeriesStyle)] = [
    ("poll-15m", .init(color: 0, shape: 0, dash: 0)),
    ("poll-60m", .init(color: 1, shape: 1, dash: 1)),
    ("future-entries", .init(color: 2, shape: 2, dash: 0)),
    ("silent-push", .init(color: 3, shape: 3, dash: 2)),
    ("bg-refresh", .init(color: 4, shape: 1, dash: 0)),
    ("hybrid", .init(color: 5, shape: 0, dash: 1)),
    ("on-demand", .init(color: 6, shape: 3, dash: 0)),
    ("anti-pattern-now", .init(color: 7, shape: 2, dash: 2)),
    ("poll-30m", .init(color: 1, shape: 2, dash: 2)),
    ("poll-5m", .init(color: 0, shape: 3, dash: 1)),
    ("widget-push", .init(color: 3, shape: 1, dash: 0)),
  ]

  /// The style `name` asks for: its fixed one, or one from a hash of the name.
  static func preferred(_ name: String) -> SeriesStyle {
    if let f = fixed.first(where: { $0.name == name }) { return f.style }
    // FNV-1a, 64 bits: the same on every platform and run (unlike `hashValue`).
    var h: UInt64 = 0xcbf2_9ce4_8422_2325
    for b in name.utf8 {
      h ^= UInt64(b)
      h = h &* 0x100_0000_01b3
    }
    return SeriesStyle(color: Int(h % 8), shape: Int((h >> 8) % 4), dash: Int((h >> 16) % 3))
  }

  /// The style of each of `names` in one report (see the type's note):
  /// preferred styles, colours kept apart while the palette lasts.
  static func styles(for names: [String]) -> [String: SeriesStyle] {
    var unique: [String] = []
    for n in names where !unique.contains(n) { unique.append(n) }
    let rank = { (n: String) in fixed.firstIndex { $0.name == n } ?? fixed.count }
    let order = unique.sorted { (rank($0), $0) < (rank($1), $1) }
    var out: [String: SeriesStyle] = [:]
    var taken = Set<Int>()
    for name in order {
      var style = preferred(name)
      if taken.contains(style.color), taken.count < paletteSize {
        while taken.contains(style.color) { style.color = (style.color + 1) % paletteSize }
      }
      // A name without a fixed style also avoids the dashes and shapes
      // already used, while some are free.
      if !fixed.contains(where: { $0.name == name }) {
        let dashes = Set(out.values.map(\.dash))
        if dashes.count < 3 { while dashes.contains(style.dash) { style.dash = (style.dash + 1) % 3 } }
        let shapes = Set(out.values.map(\.shapeIndex))
        if shapes.count < 4 {
          while shapes.contains(style.shapeIndex) { style.shapeIndex = (style.shapeIndex + 1) % 4 }
        }
      }
      // Every colour taken: at least keep the whole look unique.
      var probe = 0
      while out.values.contains(style) && probe < 96 {
        style = SeriesStyle(index: style.index + 8)
        probe += 1
      }
      taken.insert(style.color)
      out[name] = style
    }
    return out
  }

  /// The style of each strategy of a run (every name its results mention).
  static func styles(for results: ScenarioResults) -> [String: SeriesStyle] {
    styles(
      for: results.facts.strategies + results.series.map(\.strategy) + results.summary.overallRows.map(\.strategy))
  }

  /// The style of `name` in `styles`, or its preferred one.
  static func of(_ name: String, in styles: [String: SeriesStyle]) -> SeriesStyle {
    styles[name] ?? preferred(name)
  }
}
