import ReloadMetrics
import ReloadReports
import Testing

@Suite struct NiceTicksTests {
  @Test func stepsAreOneTwoOrFiveTimesAPowerOfTen() {
    #expect(NiceTicks.step(span: 100, maxCount: 5).value == 20)
    #expect(NiceTicks.step(span: 67.2, maxCount: 5).value == 20)
    #expect(NiceTicks.step(span: 67.2, maxCount: 8).value == 10)
    #expect(NiceTicks.step(span: 0.93, maxCount: 5).value == 0.2)
    #expect(NiceTicks.step(span: 7, maxCount: 7).value == 1)
    #expect(NiceTicks.step(span: 3e6, maxCount: 6).value == 500_000)
    for span in [0.003, 0.7, 1, 9.9, 42, 250_000] {
      for count in 2...9 {
        let step = NiceTicks.step(span: span, maxCount: count)
        #expect([1, 2, 5].contains(step.mantissa))
        #expect(span / step.value <= Double(count) + 1e-9, "span \(span) count \(count)")
      }
    }
  }

  @Test func linearTicksCoverTheDataOnWholeSteps() {
    let a = NiceTicks.linear(0, 67.2)
    #expect(a.lo == 0 && a.hi == 80)
    #expect(a.ticks == [0, 20, 40, 60, 80])
    // Exact decimals, not 0.30000000000000004.
    #expect(NiceTicks.linear(0.1, 0.93).ticks == [0, 0.2, 0.4, 0.6, 0.8, 1])
    #expect(NiceTicks.linear(-3, 7).ticks == [-4, -2, 0, 2, 4, 6, 8])
    #expect(NiceTicks.linear(0, 100).ticks == [0, 20, 40, 60, 80, 100])
    // Already-nice ends stay put.
    #expect(NiceTicks.linear(20, 60, maxCount: 4).ticks == [20, 30, 40, 50, 60])
    // A single value still gets an axis.
    let flat = NiceTicks.linear(5, 5)
    #expect(flat.lo <= 5 && flat.hi > 5 && flat.ticks.count >= 2)
    #expect(NiceTicks.linear(0, 0).ticks.count >= 2)
  }

  @Test func logTicksAreDecadesOrOneTwoFive() {
    #expect(NiceTicks.log(12, 250_000, maxCount: 8).ticks == [10, 100, 1000, 10_000, 100_000, 1_000_000])
    #expect(NiceTicks.log(1, 100).ticks == [1, 2, 5, 10, 20, 50, 100])
    let many = NiceTicks.log(0.001, 1e9, maxCount: 6)
    #expect(many.ticks.count <= 7 && many.lo == 0.001 && many.hi == 1e9)
  }

  @Test func durationTicksReadAsTime() {
    let ticks = NiceTicks.durationMinutes(10.0 / 60, 11_000, maxCount: 8)
    #expect(ticks.map(NumberFormat.durationTick) == ["10 s", "1 min", "10 min", "1 h", "6 h", "1 d", "7 d"])
    #expect(NiceTicks.durationMinutes(10.0 / 60, 11_000, maxCount: 4).count == 4)
  }

  @Test func numbersReadLikeAPersonWroteThem() {
    #expect(NumberFormat.percent(37.2) == "37 %")
    #expect(NumberFormat.percent(4.24) == "4.2 %")
    #expect(NumberFormat.percent(99.54) == "99.5 %")
    #expect(NumberFormat.short(1234) == "1.2k")
    #expect(NumberFormat.minutes(4.5) == "4.5 min")
    #expect(NumberFormat.significant(2.8657) == "2.87")
    #expect(NumberFormat.significant(0.0523) == "0.0523")
    #expect(NumberFormat.significant(250_000) == "250k")
    #expect(NumberFormat.significant(0) == "0")
    #expect(NumberFormat.metric(82.52, unit: .percent) == "82.5 %")
    #expect(NumberFormat.metric(8.87, unit: .hourOfDay) == "08:52")
    // Not zero, but too small to print: a bound, never "0" or "0.0000411".
    #expect(NumberFormat.metric(0.02, unit: .percent) == "< 0.1 %")
    #expect(NumberFormat.metric(0, unit: .percent) == "0 %")
    #expect(NumberFormat.metric(0.0000411, unit: .hours) == "< 0.01 h")
    #expect(NumberFormat.metric(0.001, unit: .minutes) == "< 1 s")
    #expect(NumberFormat.metric(0.0004, unit: .count) == "< 0.001")
    #expect(NumberFormat.metric(-0.01, unit: .percent) == "> -0.1 %")
    #expect(NumberFormat.grouped(3940) == "3,940")
    #expect(NumberFormat.grouped(1_234_567) == "1,234,567")
    #expect(NumberFormat.seconds(0.0657) == "66 ms")
    #expect(NumberFormat.tick(20, unit: .percent) == "20 %")
    #expect(
      SVGChart.number(12.04) == "12" && SVGChart.number(-0.26) == "-0.3" && SVGChart.number(3.25) == "3.3")
  }
}

@Suite struct ChartLayoutTests {
  @Test func spreadKeepsOrderGapAndBounds() {
    #expect(_LabelPlacer.spread([10, 11, 12], gap: 10, lo: 0, hi: 100) == [1, 11, 21])
    let ys = _LabelPlacer.spread([50, 5, 52, 51, 99, 98], gap: 12, lo: 0, hi: 100)
    let sorted = ys.sorted()
    for (a, b) in zip(sorted, sorted.dropFirst()) { #expect(b - a >= 12 - 1e-9) }
    #expect(sorted.first! >= 0 && sorted.last! <= 100)
    // The order of the input is kept: 5 stays lowest, 99 stays above 98.
    #expect(ys[1] == sorted.first! && ys[4] > ys[5])
  }

  @Test func twelveLabelsAroundAClusterDoNotOverlap() {
    let bounds = SVGChart.Rect(x: 0, y: 0, width: 420, height: 280)
    var placer = _LabelPlacer(bounds: bounds)
    let names = [
      "poll-15m", "poll-30m", "poll-60m", "future-entries", "silent-push", "bg-refresh",
      "hybrid", "on-demand", "anti-pattern-now", "widget-push", "poll-5m", "adaptive",
    ]
    // Twelve points in a tight cluster, 9 px apart.
    let points = (0..<12).map { i in
      SVGChart.Point(x: 150 + Double(i % 4) * 9, y: 120 + Double(i / 4) * 9)
    }
    for p in points { placer.reserve(around: p, radius: 5) }
    var boxes: [SVGChart.Rect] = []
    for (i, p) in points.enumerated() {
      let placed = placer.place(names[i], near: p, clearance: 7)
      boxes.append(placed.box)
      #expect(bounds.contains(placed.box))
    }
    for i in boxes.indices {
      for j in boxes.indices where j > i {
        #expect(!boxes[i].intersects(boxes[j]), "labels \(i) and \(j) overlap")
      }
      for (k, p) in points.enumerated() {
        let marker = SVGChart.Rect(x: p.x - 4, y: p.y - 4, width: 8, height: 8)
        #expect(!boxes[i].intersects(marker), "label \(i) covers point \(k)")
      }
    }
  }
}
