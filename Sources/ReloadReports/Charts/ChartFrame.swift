import ReloadMetrics

/// A map from data values to pixels along one axis, with its ticks.
///
/// Linear scales take their domain and ticks from `NiceTicks`; log scales
/// map `log10(value)` linearly and clamp values at or below the domain's
/// low end to it (so a zero sits on the floor instead of disappearing).
package struct ChartScale {
  var lo: Double
  var hi: Double
  var ticks: [Double]
  var isLog = false
  /// The pixel positions of `lo` and `hi` (set by `ChartFrame`).
  var from = 0.0
  var to = 1.0

  /// A linear scale over `lo ... hi`, widened to nice ticks; `includeZero`
  /// starts it at 0 (bars, counts, percentages).
  static package func linear(_ lo: Double, _ hi: Double, includeZero: Bool = true, maxTicks: Int = 5) -> ChartScale {
    var lo = lo.isFinite ? lo : 0
    let hi = hi.isFinite ? hi : 1
    if includeZero { lo = min(lo, 0) }
    let nice = NiceTicks.linear(lo, max(hi, lo), maxCount: maxTicks)
    return ChartScale(lo: nice.lo, hi: nice.hi, ticks: nice.ticks)
  }

  /// A fixed linear scale with given ticks (hours of the day, 0-100 %).
  static func fixed(_ lo: Double, _ hi: Double, ticks: [Double]) -> ChartScale {
    ChartScale(lo: lo, hi: hi, ticks: ticks)
  }

  /// A log scale over whole decades covering `lo ... hi`.
  static func log(_ lo: Double, _ hi: Double, maxTicks: Int = 8) -> ChartScale {
    let nice = NiceTicks.log(lo, hi, maxCount: maxTicks)
    return ChartScale(lo: nice.lo, hi: nice.hi, ticks: nice.ticks, isLog: true)
  }

  /// A log time axis in minutes, with ticks from the duration ladder.
  static func logMinutes(_ lo: Double, _ hi: Double, maxTicks: Int = 7) -> ChartScale {
    ChartScale(lo: lo, hi: hi, ticks: NiceTicks.durationMinutes(lo, hi, maxCount: maxTicks), isLog: true)
  }

  /// The pixel position of `value`.
  package func callAsFunction(_ value: Double) -> Double {
    let t: Double
    if isLog {
      let v = max(value, lo)
      t = (_log10(v) - _log10(lo)) / (_log10(hi) - _log10(lo))
    } else {
      t = hi == lo ? 0 : (value - lo) / (hi - lo)
    }
    return from + t * (to - from)
  }
}

/// The plot area of a chart and its two scales; makes the grid, tick
/// labels and axis titles as marks.
///
/// The y axis title sits above the plot, horizontal, where it reads
/// without turning one's head; the x title sits under the tick labels.
package struct ChartFrame {
  package var plot: SVGChart.Rect
  var x: ChartScale
  package var y: ChartScale

  package init(plot: SVGChart.Rect, x: ChartScale, y: ChartScale) {
    self.plot = plot
    self.x = x
    self.y = y
    self.x.from = plot.x
    self.x.to = plot.maxX
    self.y.from = plot.maxY
    self.y.to = plot.y
  }

  /// The pixel point of a data point.
  package func point(_ dx: Double, _ dy: Double) -> SVGChart.Point {
    SVGChart.Point(x: x(dx), y: y(dy))
  }

  /// Approximate width in pixels of `text` at `fontSize` (sans-serif),
  /// for layout: wide enough for digits and most lower-case text.
  static func textWidth(_ text: String, fontSize: Double = 12) -> Double {
    Double(text.count) * fontSize * 0.6
  }

  /// Grid lines, tick labels and titles.
  ///
  /// X tick labels that would touch are thinned (every second, third, ...)
  /// while their grid lines stay.
  func axes(
    xLabel: (Double) -> String, yLabel: (Double) -> String, xTitle: String, yTitle: String,
    xGrid: Bool = false
  ) -> [SVGChart.Mark] {
    var marks: [SVGChart.Mark] = []
    for t in y.ticks {
      let py = y(t)
      marks.append(.polyline([.init(x: plot.x, y: py), .init(x: plot.maxX, y: py)], cls: "grid"))
      marks.append(.text(.init(x: plot.x - 5, y: py + 4), yLabel(t), anchor: .end, cls: "tick"))
    }
    let labels = x.ticks.map(xLabel)
    var stride = 1
    if x.ticks.count > 1 {
      let widest = labels.map { ChartFrame.textWidth($0, fontSize: 11) }.max() ?? 0
      let gap = (plot.width) / Double(x.ticks.count - 1)
      while gap * Double(stride) < widest + 6 && stride < x.ticks.count { stride += 1 }
    }
    for (i, t) in x.ticks.enumerated() {
      let px = x(t)
      if xGrid {
        marks.append(.polyline([.init(x: px, y: plot.y), .init(x: px, y: plot.maxY)], cls: "grid"))
      }
      marks.append(.polyline([.init(x: px, y: plot.maxY), .init(x: px, y: plot.maxY + 4)], cls: "axis"))
      if i % stride == 0 {
        marks.append(.text(.init(x: px, y: plot.maxY + 16), labels[i], anchor: .middle, cls: "tick"))
      }
    }
    marks.append(.polyline([.init(x: plot.x, y: plot.maxY), .init(x: plot.maxX, y: plot.maxY)], cls: "axis"))
    if !xTitle.isEmpty {
      marks.append(
        .text(.init(x: plot.x + plot.width / 2, y: plot.maxY + 32), xTitle, anchor: .middle, cls: "axt"))
    }
    if !yTitle.isEmpty {
      marks.append(.text(.init(x: 4, y: plot.y - 10), yTitle, anchor: .start, cls: "axt"))
    }
    return marks
  }
}

extension ChartFrame {
  /// Invisible columns across the plot, one per slot of `width` data units
  /// from `start`, each carrying `text(slot)` as its tooltip: a line chart's
  /// values on hover (the browser's own tooltip; the page's script also
  /// shows them on focus). A nil text leaves its slot without a column.
  func hoverColumns(count: Int, start: Double = 0, width: Double, text: (Int) -> String?) -> [SVGChart.Mark] {
    (0..<max(count, 0)).compactMap { i in
      guard let t = text(i) else { return nil }
      let x0 = x(start + Double(i) * width)
      let x1 = Swift.min(x(start + Double(i + 1) * width), plot.maxX)
      return .rect(.init(x: x0, y: plot.y, width: x1 - x0, height: plot.height), cls: "hov", tooltip: t)
    }
  }

  /// `target ≥ 90 %`: how a chart names a bound the recommendation had to meet.
  static func targetText(_ b: Objective.Bound, unit: MetricUnit) -> String {
    "target " + (b.kind == .atLeast ? "≥ " : "≤ ") + NumberFormat.tick(b.value, unit: unit)
  }

  /// Where a horizontal target's label is written: its box (for a label
  /// placer to keep clear of) and where its text is anchored.
  package struct TargetLabel {
    package let box: SVGChart.Rect
    package let at: SVGChart.Point
    package let anchor: SVGChart.Anchor
  }

  /// The label of horizontal target `b`: above the line at its right end,
  /// unless that box covers one of `markers` (each a circle of `radius`
  /// around a point); then below it there, then above and below at the
  /// line's left end. When none is clear, the right end above.
  package func targetLabel(
    _ b: Objective.Bound, unit: MetricUnit, clearOf markers: [SVGChart.Point] = [], radius: Double = 0
  ) -> TargetLabel {
    let w = Self.textWidth(Self.targetText(b, unit: unit), fontSize: 11)
    let py = y(b.value)
    let spots: [TargetLabel] = [
      .init(
        box: .init(x: plot.maxX - 2 - w, y: py - 15, width: w, height: 13), at: .init(x: plot.maxX - 2, y: py - 4),
        anchor: .end),
      .init(
        box: .init(x: plot.maxX - 2 - w, y: py + 3, width: w, height: 13), at: .init(x: plot.maxX - 2, y: py + 14),
        anchor: .end),
      .init(
        box: .init(x: plot.x + 4, y: py - 15, width: w, height: 13), at: .init(x: plot.x + 4, y: py - 4), anchor: .start
      ),
      .init(
        box: .init(x: plot.x + 4, y: py + 3, width: w, height: 13), at: .init(x: plot.x + 4, y: py + 14), anchor: .start
      ),
    ]
    let clear = spots.first { spot in
      spot.box.y >= plot.y - 4 && spot.box.maxY <= plot.maxY
        && !markers.contains { m in
          spot.box.intersects(.init(x: m.x - radius, y: m.y - radius, width: 2 * radius, height: 2 * radius))
        }
    }
    return clear ?? spots[0]
  }

  /// Horizontal targets `bounds` (`target`), each labelled clear of
  /// `markers` (`targetLabel`), and what a label placer must keep point
  /// labels off: each target's label and a thin band along its line.
  func targets(
    _ bounds: [Objective.Bound], unit: MetricUnit, clearOf markers: [SVGChart.Point], radius: Double
  ) -> (marks: [SVGChart.Mark], keepClear: [SVGChart.Rect]) {
    var marks: [SVGChart.Mark] = []
    var keepClear: [SVGChart.Rect] = []
    for b in bounds {
      let spot = targetLabel(b, unit: unit, clearOf: markers, radius: radius)
      marks += target(b, unit: unit, horizontal: true, label: spot)
      keepClear.append(spot.box)
      keepClear.append(.init(x: plot.x, y: y(b.value) - 2, width: plot.width, height: 4))
    }
    return (marks, keepClear)
  }

  /// A target the recommendation had to meet, as a dashed line across the
  /// plot (`horizontal`: a y value; else an x value) with its label at the
  /// line's end, or nothing when the value lies outside the scale.
  ///
  ///     chart.add(frame.target(rec.targets[0], unit: .percent, horizontal: true))
  /// `labelAt`: where the label starts instead (a chart whose lines crowd
  /// the line's end).
  /// `label`: where a horizontal target's label goes (`targetLabel`).
  package func target(
    _ b: Objective.Bound, unit: MetricUnit, horizontal: Bool, text: String? = nil, labelAt: SVGChart.Point? = nil,
    label spot: TargetLabel? = nil
  ) -> [SVGChart.Mark] {
    let scale = horizontal ? y : x
    let (lo, hi) = (Swift.min(scale.lo, scale.hi), Swift.max(scale.lo, scale.hi))
    guard b.value.isFinite, b.value >= lo, b.value <= hi else { return [] }
    let label = text ?? Self.targetText(b, unit: unit)
    if horizontal {
      let py = y(b.value)
      return [
        .polyline([.init(x: plot.x, y: py), .init(x: plot.maxX, y: py)], cls: "ref target"),
        labelAt.map { .text($0, label, cls: "hint target") }
          ?? spot.map { .text($0.at, label, anchor: $0.anchor, cls: "hint target") }
          ?? .text(.init(x: plot.maxX - 2, y: py - 4), label, anchor: .end, cls: "hint target"),
      ]
    }
    let px = x(b.value)
    return [
      .polyline([.init(x: px, y: plot.y), .init(x: px, y: plot.maxY)], cls: "ref target"),
      .text(.init(x: px + 4, y: plot.y + 12), label, cls: "hint target"),
    ]
  }
}
