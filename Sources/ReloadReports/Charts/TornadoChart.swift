import ReloadMetrics

/// A tornado chart: for one metric of one strategy, one bar per assumption
/// (and per whole-model profile) from the lowest to the highest difference
/// its alternatives make to the base, widest on top. The bar's part on the
/// better side of the base is green, on the worse side vermillion (by the
/// metric's polarity; blue and sky blue for a neutral metric).
///
/// Wide: labels left of the bars. Narrow (a phone): each label above its bar.
enum TornadoChart {
  static let wideWidth = 720.0
  static let narrowWidth = 360.0

  /// The chart of `swings` (widest first) of `metric` around `base`.
  static func chart(
    id: String, metric: SummaryMetric, strategy: String, base: Double?, swings: [RobustnessResults.Swing],
    narrow: Bool
  ) -> SVGChart {
    let m = metric.metric
    let width = narrow ? narrowWidth : wideWidth
    let labelWidth = narrow ? 0.0 : 200.0
    let rowHeight = narrow ? 36.0 : 24.0
    let top = 34.0
    let plotHeight = max(rowHeight, Double(swings.count) * rowHeight)
    let height = top + plotHeight + 46
    let lo = swings.map(\.low).min() ?? 0
    let hi = swings.map(\.high).max() ?? 0
    let scale = ChartScale.linear(lo == hi ? -1 : lo, lo == hi ? 1 : hi, includeZero: true, maxTicks: narrow ? 4 : 6)
    let plot = SVGChart.Rect(x: labelWidth + 14, y: top, width: width - labelWidth - 28, height: plotHeight)
    let frame = ChartFrame(plot: plot, x: scale, y: ChartScale.fixed(0, 1, ticks: []))
    let x = frame.x
    let unit = m.unit.symbol
    func signed(_ d: Double, unit: String = unit) -> String {
      (d > 0 ? "+" : d < 0 ? "−" : "") + NumberFormat.significant(abs(d)) + (unit.isEmpty ? "" : " " + unit)
    }
    let baseText = base.map { NumberFormat.metric($0, unit: m.unit) } ?? "–"
    var chart = SVGChart(
      id: id, width: width, height: height, title: "\(m.label): what moves it, for \(strategy)",
      summary: "Difference from the base (\(baseText)) under each assumption's alternatives, widest first: "
        + swings.map { "\($0.group) \(signed($0.low)) to \(signed($0.high))" }.joined(separator: "; ") + ".")
    chart.add(
      frame.axes(
        xLabel: { signed($0, unit: "") }, yLabel: { _ in "" },
        xTitle: "difference from the base (\(baseText))" + (unit.isEmpty ? "" : ", " + unit), yTitle: "",
        xGrid: true))
    chart.add(.text(.init(x: 4, y: 16), "\(m.label) · \(strategy)", cls: "ptitle"))
    let zero = x(0)
    func side(_ d: Double) -> String {
      switch m.polarity {
      case .prefersLarger: return d > 0 ? "s2" : "s1"
      case .prefersSmaller: return d < 0 ? "s2" : "s1"
      case .neutral: return d > 0 ? "s0" : "s5"
      }
    }
    for (i, s) in swings.enumerated() {
      let rowTop = top + Double(i) * rowHeight
      let barTop = rowTop + (narrow ? 16 : 4)
      let barHeight = rowHeight - (narrow ? 20 : 8)
      let label = s.isAssumption ? s.group : s.group + " (profile)"
      if narrow {
        chart.add(.text(.init(x: plot.x, y: rowTop + 12), label, cls: "lbl"))
      } else {
        chart.add(.text(.init(x: labelWidth, y: barTop + barHeight - 4), label, anchor: .end, cls: "lbl"))
      }
      if s.low < 0 {
        chart.add(
          .rect(
            .init(x: x(s.low), y: barTop, width: zero - x(s.low), height: barHeight), cls: "bar " + side(s.low),
            tooltip: "\(s.group): \(signed(s.low))\(s.lowVariant.map { " (\($0))" } ?? "")"))
      }
      if s.high > 0 {
        chart.add(
          .rect(
            .init(x: zero, y: barTop, width: x(s.high) - zero, height: barHeight), cls: "bar " + side(s.high),
            tooltip: "\(s.group): \(signed(s.high))\(s.highVariant.map { " (\($0))" } ?? "")"))
      }
      if s.low == 0 && s.high == 0 {
        chart.add(.text(.init(x: zero + 4, y: barTop + barHeight - 3), "no change", cls: "hint"))
      }
    }
    chart.add(.polyline([.init(x: zero, y: top - 4), .init(x: zero, y: top + plotHeight)], cls: "ref"))
    return chart
  }
}
