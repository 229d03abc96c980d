/// One figure of the HTML report: a heading, a sentence on how to read it,
/// one or more charts, and the same numbers as a real table in a collapsed
/// `<details>` (for screen readers, copying and checking).
struct ReportFigure {
  /// How the charts sit on the page.
  enum Layout: String {
    /// One chart, full width.
    case single
    /// Two charts side by side (one above the other when narrow).
    case pair
    /// Small multiples: as many per row as fit.
    case multiples
  }

  /// A plain data table: a caption, column headers, and rows whose first
  /// cell is the row header.
  struct Table {
    var caption: String
    var columns: [String]
    var rows: [[String]]

    func write(to w: inout _HTMLWriter) {
      w.raw("<div class=\"scroll\"><table class=\"data\">")
      w.element("caption", text: caption)
      w.raw("<thead><tr>")
      for c in columns { w.element("th", ["scope": "col"], text: c) }
      w.raw("</tr></thead><tbody>")
      for row in rows {
        w.raw("<tr>")
        for (i, cell) in row.enumerated() {
          if i == 0 {
            w.element("th", ["scope": "row"], text: cell)
          } else {
            w.element("td", text: cell)
          }
        }
        w.raw("</tr>")
      }
      w.raw("</tbody></table></div>")
    }
  }

  var id: String
  var heading: String
  /// How to read the figure, in a sentence or two.
  var caption: String
  var layout: Layout = .single
  var charts: [SVGChart]
  /// Which strategies the charts show, when not the widget strategies
  /// (`data-strategy-set`: the page script gives each set its own row of
  /// buttons, "Live Activity strategies").
  var strategySet: String?
  /// The same charts laid out for a narrow screen, shown instead of
  /// `charts` below 640 px (empty: `charts` serve every width).
  var narrowCharts: [SVGChart] = []
  var table: Table
  /// An optional legend line under the charts (e.g. for bands and markers).
  var key: [(swatchClass: String, text: String)] = []

  func write(to w: inout _HTMLWriter) {
    w.raw("<figure class=\"fig\"")
    w.attribute("id", id)
    if let strategySet { w.attribute("data-strategy-set", strategySet) }
    w.raw(">")
    w.element("h3", text: heading)
    w.open("figcaption")
    w.text(caption)
    w.close("figcaption")
    if !key.isEmpty {
      w.raw("<ul class=\"key\">")
      for k in key {
        w.raw("<li><span class=\"sw " + k.swatchClass + "\" aria-hidden=\"true\"></span>")
        w.text(k.text)
        w.raw("</li>")
      }
      w.raw("</ul>")
    }
    Self.write(charts, cls: layout.rawValue + (narrowCharts.isEmpty ? "" : " wide-only"), to: &w)
    if !narrowCharts.isEmpty { Self.write(narrowCharts, cls: "single narrow-only", to: &w) }
    w.raw("<details class=\"datatable\"><summary>Data table: ")
    w.text(heading.lowercasedFirst)
    w.raw("</summary>")
    table.write(to: &w)
    w.raw("</details></figure>")
  }
}

extension ReportFigure {
  /// Writes a grid of charts; each box is at most the chart's own width,
  /// so text is never drawn larger than its design size.
  static func write(_ charts: [SVGChart], cls: String, to w: inout _HTMLWriter) {
    w.raw("<div class=\"charts " + cls + "\">")
    for chart in charts {
      w.raw("<div class=\"chartbox\" style=\"max-width:" + SVGChart.number(chart.width) + "px\">")
      chart.write(to: &w)
      w.raw("</div>")
    }
    w.raw("</div>")
  }
}

extension String {
  /// The string with its first character lower-cased ("Budget left" ->
  /// "budget left"), for use inside a sentence.
  var lowercasedFirst: String {
    guard let first else { return self }
    return first.lowercased() + dropFirst()
  }
}

extension ReportFigure {
  /// Writes the page's table of contents: the fixed sections before the
  /// figures (`leading`), one link per figure, then the fixed sections after
  /// them (`trailing`). Sections are `(id, label)` pairs.
  static func writeNavigation(
    leading: [(id: String, label: String)], figures: [ReportFigure],
    trailing: [(id: String, label: String)], to w: inout _HTMLWriter
  ) {
    w.raw("<nav aria-label=\"Contents\"><ul>")
    func link(_ id: String, _ label: String, _ w: inout _HTMLWriter) {
      w.raw("<li><a href=\"#" + id + "\">")
      w.text(label)
      w.raw("</a></li>")
    }
    for s in leading { link(s.id, s.label, &w) }
    for f in figures { link(f.id, f.heading, &w) }
    for s in trailing { link(s.id, s.label, &w) }
    w.raw("</ul></nav>\n")
  }
}
