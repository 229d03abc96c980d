/// Places text labels next to points without overlapping each other, the
/// points, or the edge of the plot: a greedy search over candidate
/// positions, then farther rings with a leader line.
///
/// Greedy placement in a fixed candidate order is the usual cartographic
/// heuristic (Imhof's preferred positions: right, left, above, below, then
/// diagonals); with a dozen labels it is instant and deterministic.
///
///     var placer = _LabelPlacer(bounds: plot)
///     for p in points { placer.reserve(around: p, radius: 5) }
///     let placed = placer.place("poll-15m", near: p, clearance: 6)
///
/// - Complexity: O(candidates x occupied) per label (48 candidates); 12
///   labels cost some ten thousand rectangle tests.
package struct _LabelPlacer {
  /// Where a label went: its text anchor point and alignment, and the
  /// point a leader line should start from when it sits away from its point.
  package struct Placement {
    package var at: SVGChart.Point
    package var anchor: SVGChart.Anchor
    package var box: SVGChart.Rect
    package var leaderFrom: SVGChart.Point?

    /// Where a leader line meets the label: the middle of its near edge.
    package var leaderTo: SVGChart.Point {
      switch anchor {
      case .start: return SVGChart.Point(x: box.x, y: box.y + box.height / 2)
      case .end: return SVGChart.Point(x: box.maxX, y: box.y + box.height / 2)
      case .middle:
        let above = (leaderFrom?.y ?? box.maxY) > box.maxY
        return SVGChart.Point(x: box.x + box.width / 2, y: above ? box.maxY : box.y)
      }
    }
  }

  package let bounds: SVGChart.Rect
  package let fontSize: Double
  package private(set) var occupied: [SVGChart.Rect] = []
  /// Every labelled point: a label whose box is nearer another of them than
  /// its own reads as that one's, so such a spot is taken only when no
  /// unambiguous one is free.
  package var points: [SVGChart.Point] = []

  package init(bounds: SVGChart.Rect, fontSize: Double = 12) {
    self.bounds = bounds
    self.fontSize = fontSize
  }

  /// Marks a square around a point (a marker) as taken.
  package mutating func reserve(around p: SVGChart.Point, radius: Double) {
    occupied.append(.init(x: p.x - radius, y: p.y - radius, width: 2 * radius, height: 2 * radius))
  }

  package mutating func reserve(_ rect: SVGChart.Rect) { occupied.append(rect) }

  /// Finds a free spot for `text` near `p`, reserves it and returns it.
  ///
  /// Tries eight positions at `clearance`, then on farther rings, 16 px
  /// apart (those get a leader line); when everything collides, takes the
  /// position that overlaps least.
  package mutating func place(_ text: String, near p: SVGChart.Point, clearance: Double) -> Placement {
    let w = ChartFrame.textWidth(text, fontSize: fontSize)
    let h = fontSize
    var best: (score: Double, placement: Placement)? = nil
    for ring in 0..<6 {
      let r = clearance + Double(ring) * 16
      for c in candidates(p, r: r, w: w, h: h) {
        var score = 0.0
        for o in occupied { score += c.box.overlap(o) }
        if !bounds.contains(c.box) {
          score += 1e6  // outside the plot: only as a last resort
        }
        score += Double(ring) * 0.5
        let centre = SVGChart.Point(x: c.box.x + c.box.width / 2, y: c.box.y + c.box.height / 2)
        func distance(_ a: SVGChart.Point, _ b: SVGChart.Point) -> Double {
          ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot()
        }
        let own = distance(centre, p)
        for q in points where q != p && distance(centre, q) < own { score += 2 }
        let placement = Placement(
          at: c.at, anchor: c.anchor, box: c.box, leaderFrom: ring == 0 ? nil : p)
        if score < 1 {
          occupied.append(c.box)
          return placement
        }
        if best == nil || score < best!.score { best = (score, placement) }
      }
    }
    // `best` is always set: there is at least one candidate.
    let chosen = best!.placement
    occupied.append(chosen.box)
    return chosen
  }

  private func candidates(_ p: SVGChart.Point, r: Double, w: Double, h: Double)
    -> [(at: SVGChart.Point, anchor: SVGChart.Anchor, box: SVGChart.Rect)]
  {
    // Text baselines sit about 0.35 em below the visual centre.
    let mid = p.y + h * 0.35
    let d = r * 0.75
    return [
      (.init(x: p.x + r, y: mid), .start, .init(x: p.x + r, y: p.y - h / 2, width: w, height: h)),
      (.init(x: p.x - r, y: mid), .end, .init(x: p.x - r - w, y: p.y - h / 2, width: w, height: h)),
      (.init(x: p.x, y: p.y - r), .middle, .init(x: p.x - w / 2, y: p.y - r - h * 0.8, width: w, height: h)),
      (
        .init(x: p.x, y: p.y + r + h * 0.75), .middle,
        .init(x: p.x - w / 2, y: p.y + r - h * 0.05, width: w, height: h)
      ),
      (.init(x: p.x + d, y: p.y - d), .start, .init(x: p.x + d, y: p.y - d - h * 0.8, width: w, height: h)),
      (
        .init(x: p.x + d, y: p.y + d + h * 0.7), .start,
        .init(x: p.x + d, y: p.y + d - h * 0.1, width: w, height: h)
      ),
      (.init(x: p.x - d, y: p.y - d), .end, .init(x: p.x - d - w, y: p.y - d - h * 0.8, width: w, height: h)),
      (
        .init(x: p.x - d, y: p.y + d + h * 0.7), .end,
        .init(x: p.x - d - w, y: p.y + d - h * 0.1, width: w, height: h)
      ),
    ]
  }

  /// Spreads 1-D positions (label centres on a vertical edge) so that
  /// neighbours are at least `gap` apart, inside `lo ... hi`, keeping their order
  /// and moving each as little as this simple two-pass scheme allows.
  ///
  ///     _LabelPlacer.spread([10, 11, 12], gap: 10, lo: 0, hi: 100)  // [1, 11, 21]
  package static func spread(_ positions: [Double], gap: Double, lo: Double, hi: Double) -> [Double] {
    guard !positions.isEmpty else { return [] }
    let order = positions.indices.sorted { (positions[$0], $0) < (positions[$1], $1) }
    var sorted = order.map { positions[$0] }
    // Centre each cluster of too-close labels on its mean; merging
    // clusters can create new ones, so repeat until none is left.
    for _ in 0..<sorted.count {
      var changed = false
      var i = 0
      while i < sorted.count {
        var j = i
        while j + 1 < sorted.count && sorted[j + 1] - sorted[j] < gap - 1e-9 { j += 1 }
        if j > i {
          let mean = sorted[i...j].reduce(0, +) / Double(j - i + 1)
          let start = mean - gap * Double(j - i) / 2
          for k in i...j { sorted[k] = start + gap * Double(k - i) }
          changed = true
        }
        i = j + 1
      }
      if !changed { break }
    }
    // Then respect the bounds: forwards from `lo`, backwards from `hi`.
    sorted[0] = max(sorted[0], lo)
    for k in 1..<sorted.count { sorted[k] = max(sorted[k], sorted[k - 1] + gap) }
    sorted[sorted.count - 1] = min(sorted[sorted.count - 1], hi)
    for k in stride(from: sorted.count - 2, through: 0, by: -1) {
      sorted[k] = min(sorted[k], sorted[k + 1] - gap)
    }
    var out = positions
    for (rank, index) in order.enumerated() { out[index] = sorted[rank] }
    return out
  }
}
