import ReloadMetrics
import Testing

import ReloadReports

/// A target's label ("target ≥ 90 %") sits at the end of its dashed line
/// and must not cover a point or a best point's ring: it moves below the
/// line, then to the line's other end, when the first place is taken.
@Suite struct TargetLabelTests {
  let frame = ChartFrame(
    plot: .init(x: 44, y: 40, width: 500, height: 300), x: .linear(0, 100), y: .linear(0, 100))
  let bound = Objective.Bound(metric: .freshGlancePct, kind: .atLeast, value: 80)

  func covers(_ box: SVGChart.Rect, _ p: SVGChart.Point, radius: Double) -> Bool {
    box.intersects(.init(x: p.x - radius, y: p.y - radius, width: 2 * radius, height: 2 * radius))
  }

  @Test func withNothingInTheWayTheLabelSitsAboveTheRightEnd() {
    let spot = frame.targetLabel(bound, unit: .percent)
    let line = frame.y(80)
    #expect(spot.box.maxY <= line && spot.box.maxX <= frame.plot.maxX && spot.box.maxX > frame.plot.maxX - 10)
    #expect(spot.anchor == .end)
  }

  @Test func aPointUnderTheLabelMovesItBelowThenToTheLeft() {
    let line = frame.y(80)
    let aboveRight = frame.point(95, 83)  // just above the line, at its right end
    let below = frame.targetLabel(bound, unit: .percent, clearOf: [aboveRight], radius: 8)
    #expect(!covers(below.box, aboveRight, radius: 8))
    #expect(below.box.y >= line && below.anchor == .end)

    let belowRight = frame.point(95, 77)
    let left = frame.targetLabel(bound, unit: .percent, clearOf: [aboveRight, belowRight], radius: 8)
    #expect(!covers(left.box, aboveRight, radius: 8) && !covers(left.box, belowRight, radius: 8))
    #expect(left.anchor == .start && left.box.x < frame.plot.x + 10 && left.box.maxY <= line)
  }

  @Test func aTargetAtTheTopOfThePlotIsLabelledBelowIt() {
    let top = Objective.Bound(metric: .freshGlancePct, kind: .atMost, value: 100)
    let spot = frame.targetLabel(top, unit: .percent)
    #expect(spot.box.y >= frame.y(100) && spot.box.maxY <= frame.plot.maxY)
  }

  @Test func theLabelIsDrawnWhereItWasPlaced() {
    let blocker = frame.point(95, 83)
    let spot = frame.targetLabel(bound, unit: .percent, clearOf: [blocker], radius: 8)
    let texts = frame.target(bound, unit: .percent, horizontal: true, label: spot).compactMap { mark -> (SVGChart.Point, String, SVGChart.Anchor)? in
      if case .text(let at, let text, let anchor, _) = mark { return (at, text, anchor) }
      return nil
    }
    #expect(texts.count == 1)
    #expect(texts.first?.0 == spot.at && texts.first?.1 == "target ≥ 80 %" && texts.first?.2 == spot.anchor)
  }
}
