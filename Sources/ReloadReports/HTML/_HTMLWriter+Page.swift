extension _HTMLWriter {
  /// The start of a self-contained page up to `<body>`: the document type,
  /// the viewport and colour schemes, the generator, the title and the
  /// stylesheets, as `report.html` and `sweep.html` begin.
  mutating func pageStart(title: String, toolVersion: String, stylesheets: [String]) {
    raw("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
    raw("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
    raw("<meta name=\"color-scheme\" content=\"light dark\">\n")
    raw("<meta name=\"generator\" content=\"ReloadBench ")
    text(toolVersion)
    raw("\">\n<title>")
    text(title)
    raw("</title>\n<style>")
    for s in stylesheets { raw(s) }
    raw(PageScript.stylesheet)
    raw("</style>\n</head>\n<body>\n")
  }
}
