/// A chart as a plain value: marks in pixel space, a title and a
/// description. Chart builders fill it; `write(to:)` serializes it as an
/// inline, accessible `<svg role="img">`.
///
/// Building a value first and writing it afterwards keeps layout decisions
/// (label collisions, scales) testable without parsing SVG, as
/// swift-collections-benchmark builds `Graphics` before rendering it.
/// Coordinates are written with one decimal: a tenth of a pixel is below
/// what a screen shows, and short numbers keep the page small.
///
///     var chart = SVGChart(id: "demo", width: 200, height: 100,
///                          title: "Demo", summary: "One line.")
///     chart.add(.line(.init(x: 0, y: 50), .init(x: 200, y: 50), cls: "grid"))
///     var w = _HTMLWriter()
///     chart.write(to: &w)
///
/// Colours are CSS classes (`s0` ... `s7` pick a palette slot, `d1`/`d2`
/// a dash pattern), so the page's stylesheet decides light and dark mode.
package struct SVGChart {
  /// A point in pixels, y down.
  package struct Point: Equatable {
    package var x: Double
    package var y: Double

    package init(x: Double, y: Double) {
      self.x = x
      self.y = y
    }
  }

  /// A rectangle in pixels.
  package struct Rect: Equatable {
    package var x: Double
    package var y: Double
    package var width: Double
    package var height: Double

    package init(x: Double, y: Double, width: Double, height: Double) {
      self.x = x
      self.y = y
      self.width = width
      self.height = height
    }

    package var maxX: Double { x + width }
    package var maxY: Double { y + height }

    package func intersects(_ o: Rect) -> Bool {
      x < o.maxX && o.x < maxX && y < o.maxY && o.y < maxY
    }

    /// The overlapping area with `o` (0 when apart).
    package func overlap(_ o: Rect) -> Double {
      let w = min(maxX, o.maxX) - max(x, o.x)
      let h = min(maxY, o.maxY) - max(y, o.y)
      return w > 0 && h > 0 ? w * h : 0
    }

    package func contains(_ o: Rect) -> Bool {
      o.x >= x && o.y >= y && o.maxX <= maxX && o.maxY <= maxY
    }
  }

  /// Marker shapes, so a series is never told apart by colour alone.
  package enum Shape: CaseIterable {
    case circle, square, triangle, diamond
  }

  /// Horizontal text alignment (SVG `text-anchor`).
  package enum Anchor: String {
    case start, middle, end
  }

  /// One thing to draw.
  package enum Mark {
    /// An open path through the points (a line series, an axis rule).
    case polyline([Point], cls: String)
    /// A closed, filled path (a band between two lines).
    case polygon([Point], cls: String)
    case rect(Rect, cls: String, tooltip: String? = nil)
    /// A symbol centred on a point; `size` is its half-width.
    case marker(Point, Shape, size: Double, cls: String, tooltip: String? = nil)
    /// Text whose baseline starts (or centres, or ends) at the point.
    case text(Point, String, anchor: Anchor = .start, cls: String = "")
    /// One strategy's marks (its line, points, label and leader), as
    /// `<g data-strategy="name">`, so the page's script can hide and show
    /// the strategy in every chart at once.
    case strategy(String, [Mark])
    /// Marks that join several strategies (a Pareto frontier through
    /// their points), as `<g data-needs="[names as JSON]">`: the page's
    /// script hides them while any of those strategies is hidden.
    case joining([String], [Mark])
  }

  /// A stable id, unique on the page (for `aria-labelledby`).
  var id: String
  var width: Double
  var height: Double
  /// The chart's accessible name (`<title>`).
  var title: String
  /// What the chart shows, in a sentence or two (`<desc>`).
  var summary: String
  var marks: [Mark] = []
  /// The strategy a small multiple shows alone (`data-strategy` on the
  /// `<svg>`), or nil when the chart shows several or none.
  var strategy: String?

  init(id: String, width: Double, height: Double, title: String, summary: String) {
    self.id = id
    self.width = width
    self.height = height
    self.title = title
    self.summary = summary
  }

  mutating func add(_ mark: Mark) { marks.append(mark) }

  mutating func add(_ marks: [Mark]) { self.marks += marks }
}

// MARK: - Serialization

extension SVGChart {
  /// Writes the chart as `<svg role="img">` with `<title>` and `<desc>`.
  ///
  /// - Complexity: O(marks + points).
  func write(to w: inout _HTMLWriter) {
    w.raw("<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 ")
    w.raw(Self.number(width) + " " + Self.number(height))
    w.raw("\" role=\"img\" class=\"chart\"")
    w.attribute("id", id)
    w.attribute("aria-labelledby", id + "-t " + id + "-d")
    if let strategy { w.attribute("data-strategy", strategy) }
    w.raw(">")
    w.element("title", ["id": id + "-t"], text: title)
    w.element("desc", ["id": id + "-d"], text: summary)
    for mark in marks { write(mark, to: &w) }
    w.raw("</svg>")
  }

  private func write(_ mark: Mark, to w: inout _HTMLWriter) {
    switch mark {
    case .polyline(let points, let cls):
      guard points.count > 1 else { return }
      w.raw("<path class=\"" + cls + "\" d=\"")
      Self.appendPath(points, closed: false, to: &w)
      w.raw("\"/>")
    case .polygon(let points, let cls):
      guard points.count > 2 else { return }
      w.raw("<path class=\"" + cls + "\" d=\"")
      Self.appendPath(points, closed: true, to: &w)
      w.raw("\"/>")
    case .rect(let r, let cls, let tooltip):
      w.raw("<rect class=\"" + cls + "\" x=\"" + Self.number(r.x) + "\" y=\"" + Self.number(r.y))
      w.raw(
        "\" width=\"" + Self.number(max(0, r.width)) + "\" height=\"" + Self.number(max(0, r.height)) + "\"")
      Self.close(tooltip: tooltip, element: "rect", to: &w)
    case .marker(let p, let shape, let size, let cls, let tooltip):
      switch shape {
      case .circle:
        w.raw("<circle class=\"" + cls + "\" cx=\"" + Self.number(p.x) + "\" cy=\"" + Self.number(p.y))
        w.raw("\" r=\"" + Self.number(size) + "\"")
        Self.close(tooltip: tooltip, element: "circle", to: &w)
      case .square, .triangle, .diamond:
        let s = size
        let points: [Point]
        switch shape {
        case .square:
          let h = s * 0.88  // same area as the circle, roughly
          points = [
            .init(x: p.x - h, y: p.y - h), .init(x: p.x + h, y: p.y - h),
            .init(x: p.x + h, y: p.y + h), .init(x: p.x - h, y: p.y + h),
          ]
        case .triangle:
          let h = s * 1.25
          points = [
            .init(x: p.x, y: p.y - h), .init(x: p.x + h, y: p.y + h * 0.8),
            .init(x: p.x - h, y: p.y + h * 0.8),
          ]
        default:
          let h = s * 1.25
          points = [
            .init(x: p.x, y: p.y - h), .init(x: p.x + h, y: p.y),
            .init(x: p.x, y: p.y + h), .init(x: p.x - h, y: p.y),
          ]
        }
        w.raw("<path class=\"" + cls + "\" d=\"")
        Self.appendPath(points, closed: true, to: &w)
        w.raw("\"")
        Self.close(tooltip: tooltip, element: "path", to: &w)
      }
    case .strategy(let name, let inner):
      writeGroup(inner, attribute: "data-strategy", name, to: &w)
    case .joining(let names, let inner):
      writeGroup(inner, attribute: "data-needs", JSON.array(names.map { JSON.string($0) }).text(.compact), to: &w)
    case .text(let p, let string, let anchor, let cls):
      w.raw("<text x=\"" + Self.number(p.x) + "\" y=\"" + Self.number(p.y) + "\"")
      if anchor != .start { w.raw(" text-anchor=\"" + anchor.rawValue + "\"") }
      if !cls.isEmpty { w.raw(" class=\"" + cls + "\"") }
      w.raw(">")
      w.text(string)
      w.raw("</text>")
    }
  }

  /// `<g key="value">` around `marks`.
  private func writeGroup(_ marks: [Mark], attribute key: String, _ value: String, to w: inout _HTMLWriter) {
    w.raw("<g")
    w.attribute(key, value)
    w.raw(">")
    for m in marks { write(m, to: &w) }
    w.raw("</g>")
  }

  private static func close(tooltip: String?, element: String, to w: inout _HTMLWriter) {
    if let tooltip {
      w.raw("><title>")
      w.text(tooltip)
      w.raw("</title></" + element + ">")
    } else {
      w.raw("/>")
    }
  }

  private static func appendPath(_ points: [Point], closed: Bool, to w: inout _HTMLWriter) {
    var last = ""
    var first = true
    for p in points {
      let xy = number(p.x) + "," + number(p.y)
      // Skip repeats: thinned series often land on the same tenth of a pixel.
      if xy == last { continue }
      w.raw(first ? "M" : "L")
      w.raw(xy)
      last = xy
      first = false
    }
    if closed { w.raw("Z") }
  }

  /// `x` with at most one decimal and no trailing zero: `12`, `3.5`, `-0.2`.
  ///
  /// NOTE: integer arithmetic instead of `String(format:)`, for performance
  /// (a report writes tens of thousands of coordinates).
  package static func number(_ x: Double) -> String {
    guard x.isFinite else { return "0" }
    // Far off the canvas either way (a bound of 1e300 on a chart of
    // percentages): clamped, so the conversion to Int cannot trap.
    let tenths = Int((min(max(x, -1e12), 1e12) * 10).rounded())
    let negative = tenths < 0
    let a = negative ? -tenths : tenths
    var s = negative ? "-" : ""
    s += String(a / 10)
    if a % 10 != 0 {
      s += "."
      s += String(a % 10)
    }
    return s
  }
}
