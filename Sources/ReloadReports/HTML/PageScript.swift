/// The one script every HTML page ends with: interaction on top of a page
/// that works without it (every chart is a complete SVG, every value is in a
/// data table and in the marks' `<title>` tooltips, so nothing is lost when
/// scripts are off, in print or in a mail client).
///
/// What it adds, each control created by the script itself (a page without
/// scripts shows none):
/// - **Strategies shown**: a button per strategy (every `data-strategy` the
///   page's charts carry, see `SVGChart.Mark.strategy`) that hides or shows
///   that strategy in every chart at once; `#hide=a,b` in the address opens
///   the page with those hidden, and the address follows the buttons.
/// - **Values on hover and focus**: each mark with a tooltip shows it in a
///   box next to the pointer; a chart takes the keyboard focus (Tab), and
///   the arrow keys step through its values (Home, End; Escape hides).
/// - **Download**: each figure's charts as one SVG (the page's light
///   stylesheet inlined, so it opens anywhere) or a PNG at twice the size.
///
/// Plain ES2017 and DOM, no library; names are set as text, never parsed as
/// HTML, so a strategy name cannot inject markup.
package enum PageScript {
  package static let source = """
    (function () {
      "use strict";
      var doc = document, root = doc.documentElement;
      function el(tag, cls, text) {
        var e = doc.createElement(tag);
        if (cls) e.className = cls;
        if (text != null) e.textContent = text;
        return e;
      }
      function visible(e) { return e.getClientRects().length > 0; }

      // Strategies shown.
      var marked = Array.prototype.slice.call(doc.querySelectorAll("[data-strategy]"));
      // Names in order of first appearance, each in its set (a figure's
      // data-strategy-set: the Live Activity strategies; none: the widgets').
      var names = [], setOf = {}, sets = [];
      marked.forEach(function (e) {
        var n = e.getAttribute("data-strategy");
        if (names.indexOf(n) >= 0) return;
        names.push(n);
        var owner = e.closest("[data-strategy-set]");
        setOf[n] = owner ? owner.getAttribute("data-strategy-set") : "";
        if (sets.indexOf(setOf[n]) < 0) sets.push(setOf[n]);
      });
      var hidden = {};
      // Marks that join several strategies (a frontier): hidden while any of them is.
      var joining = Array.prototype.map.call(doc.querySelectorAll("[data-needs]"), function (e) {
        var list = [];
        try { list = JSON.parse(e.getAttribute("data-needs")); } catch (err) { list = []; }
        return { el: e, names: list };
      });
      function target(e) {
        return e.tagName.toLowerCase() === "svg" && e.parentNode.classList.contains("chartbox") ? e.parentNode : e;
      }
      var buttons = {};
      function apply() {
        marked.forEach(function (e) {
          target(e).classList.toggle("rb-off", !!hidden[e.getAttribute("data-strategy")]);
        });
        names.forEach(function (n) {
          if (buttons[n]) buttons[n].setAttribute("aria-pressed", hidden[n] ? "false" : "true");
        });
        joining.forEach(function (j) {
          j.el.classList.toggle("rb-off", j.names.some(function (n) { return hidden[n]; }));
        });
        var off = names.filter(function (n) { return hidden[n]; });
        var hash = off.length ? "#hide=" + off.map(encodeURIComponent).join(",") : "";
        if (history.replaceState && (location.hash.indexOf("#hide=") === 0 || hash))
          history.replaceState(null, "", location.pathname + location.search + hash);
        root.setAttribute("data-hidden-strategies", off.join(","));
      }
      if (location.hash.indexOf("#hide=") === 0) {
        location.hash.slice(6).split(",").forEach(function (n) {
          try { n = decodeURIComponent(n); } catch (err) { return; }
          if (names.indexOf(n) >= 0) hidden[n] = true;
        });
      }
      if (names.length > 1) {
        var bar = el("div", "rb-ui rb-toggles");
        bar.setAttribute("role", "group");
        bar.setAttribute("aria-label", "Strategies shown in the charts");
        var button = function (n) {
          var b = el("button", "rb-tog");
          b.type = "button";
          var sw = el("span", "sw");
          var slot = null;
          marked.some(function (e) {
            if (e.getAttribute("data-strategy") !== n) return false;
            return Array.prototype.some.call(e.querySelectorAll("[class]"), function (c) {
              slot = /(?:^|\\s)(s[0-7])(?:\\s|$)/.exec(c.getAttribute("class"));
              return !!slot;
            });
          });
          if (slot) sw.classList.add(slot[1]);
          sw.setAttribute("aria-hidden", "true");
          b.appendChild(sw);
          b.appendChild(doc.createTextNode(n));
          b.addEventListener("click", function () { hidden[n] = !hidden[n]; apply(); });
          buttons[n] = b;
          bar.appendChild(b);
        };
        sets.forEach(function (set, g) {
          if (g > 0) bar.appendChild(el("span", "rb-break"));
          var label = set !== "" ? set : sets.length > 1 ? "Widget strategies" : "Strategies shown";
          bar.appendChild(el("span", "rb-k", label + ":"));
          names.filter(function (n) { return setOf[n] === set; }).forEach(button);
        });
        var all = el("button", "rb-tog rb-all", "show all");
        all.type = "button";
        all.addEventListener("click", function () { hidden = {}; apply(); });
        bar.appendChild(all);
        var charts = doc.getElementById("charts");
        var at = charts ? charts.querySelector("h2") : null;
        var figure = marked[0].closest("figure") || marked[0];
        if (at) at.parentNode.insertBefore(bar, at.nextSibling);
        else figure.parentNode.insertBefore(bar, figure);
      }
      apply();

      // Values on hover and focus.
      var tip = el("div", "rb-ui rb-tip");
      tip.setAttribute("role", "status");
      tip.setAttribute("aria-live", "polite");
      doc.body.appendChild(tip);
      function show(text, x, y) {
        tip.textContent = text;
        tip.style.display = "block";
        var w = tip.offsetWidth, h = tip.offsetHeight;
        var left = Math.min(Math.max(4, x + 12), root.clientWidth - w - 4);
        var top = y - h - 10 < 4 ? y + 16 : y - h - 10;
        tip.style.left = left + "px";
        tip.style.top = top + "px";
      }
      function hide() { tip.style.display = "none"; }
      Array.prototype.forEach.call(doc.querySelectorAll("svg.chart"), function (svg) {
        var items = [];
        Array.prototype.forEach.call(svg.querySelectorAll("title"), function (t) {
          var mark = t.parentNode;
          if (mark === svg) return;
          mark.setAttribute("data-tip", t.textContent);
          mark.removeChild(t);
          items.push(mark);
          mark.addEventListener("mousemove", function (ev) {
            show(mark.getAttribute("data-tip"), ev.clientX, ev.clientY);
          });
          mark.addEventListener("mouseleave", hide);
        });
        if (!items.length) return;
        svg.setAttribute("tabindex", "0");
        var at = -1;
        function focusItem(k) {
          var shown = items.filter(function (m) { return !m.closest(".rb-off"); });
          if (!shown.length) return;
          if (at >= 0 && items[at]) items[at].classList.remove("rb-focus");
          var current = shown.indexOf(items[at]);
          var next = k === "first" ? 0 : k === "last" ? shown.length - 1
            : Math.min(shown.length - 1, Math.max(0, current + k));
          var m = shown[next];
          at = items.indexOf(m);
          m.classList.add("rb-focus");
          var r = m.getBoundingClientRect();
          show(m.getAttribute("data-tip"), r.left + r.width / 2, r.top);
        }
        svg.addEventListener("focus", function () { focusItem(at < 0 ? "first" : 0); });
        svg.addEventListener("blur", function () { if (items[at]) items[at].classList.remove("rb-focus"); hide(); });
        svg.addEventListener("keydown", function (ev) {
          var k = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1, Home: "first", End: "last" }[ev.key];
          if (ev.key === "Escape") { hide(); return; }
          if (k === undefined) return;
          ev.preventDefault();
          focusItem(k);
        });
      });
      window.addEventListener("scroll", hide, { passive: true });

      // Download a figure's charts as SVG or PNG.
      var css = Array.prototype.map.call(doc.querySelectorAll("style"), function (s) {
        return s.textContent;
      }).join("");
      function stripMedia(text) {
        var out = "", i = 0;
        while (i < text.length) {
          var m = text.indexOf("@media", i);
          if (m < 0) { out += text.slice(i); break; }
          out += text.slice(i, m);
          var open = text.indexOf("{", m), depth = 0, j = open;
          if (open < 0) break;
          for (; j < text.length; j++) {
            if (text[j] === "{") depth++;
            else if (text[j] === "}" && --depth === 0) break;
          }
          i = j + 1;
        }
        return out;
      }
      var exportCSS = stripMedia(css) + "svg{font:12px system-ui,-apple-system,'Segoe UI',Roboto,Arial,sans-serif;"
        + "color:#1b1d1f}";
      function compose(figure) {
        // Hidden strategies' small multiples and the other width's charts are not shown.
        var svgs = Array.prototype.filter.call(figure.querySelectorAll("svg.chart"), visible);
        if (!svgs.length) return null;
        var boxes = svgs.map(function (s) { return s.getBoundingClientRect(); });
        var x0 = Math.min.apply(null, boxes.map(function (b) { return b.left; }));
        var y0 = Math.min.apply(null, boxes.map(function (b) { return b.top; }));
        // The on-screen layout, with a margin of 8 px.
        var w = Math.ceil(Math.max.apply(null, boxes.map(function (b) { return b.right; })) - x0 + 16);
        var h = Math.ceil(Math.max.apply(null, boxes.map(function (b) { return b.bottom; })) - y0 + 16);
        var ns = svgs[0].namespaceURI;
        var out = doc.createElementNS(ns, "svg");
        out.setAttribute("xmlns", ns);
        out.setAttribute("width", w);
        out.setAttribute("height", h);
        out.setAttribute("viewBox", "0 0 " + w + " " + h);
        var style = doc.createElementNS(ns, "style");
        style.textContent = exportCSS;
        out.appendChild(style);
        var bg = doc.createElementNS(ns, "rect");
        bg.setAttribute("width", "100%");
        bg.setAttribute("height", "100%");
        bg.setAttribute("fill", "#fff");
        out.appendChild(bg);
        svgs.forEach(function (s, k) {
          var c = s.cloneNode(true);
          c.removeAttribute("tabindex");
          Array.prototype.forEach.call(c.querySelectorAll(".rb-off"), function (e) { e.parentNode.removeChild(e); });
          Array.prototype.forEach.call(c.querySelectorAll(".rb-focus"), function (e) {
            e.classList.remove("rb-focus");
          });
          c.setAttribute("x", boxes[k].left - x0 + 8);
          c.setAttribute("y", boxes[k].top - y0 + 8);
          c.setAttribute("width", boxes[k].width);
          c.setAttribute("height", boxes[k].height);
          out.appendChild(c);
        });
        return { text: new XMLSerializer().serializeToString(out), width: w, height: h };
      }
      function save(blob, name) {
        var a = el("a");
        a.href = URL.createObjectURL(blob);
        a.download = name;
        doc.body.appendChild(a);
        a.click();
        setTimeout(function () { URL.revokeObjectURL(a.href); a.parentNode.removeChild(a); }, 1000);
      }
      Array.prototype.forEach.call(doc.querySelectorAll("figure"), function (figure) {
        if (!figure.querySelector("svg.chart")) return;
        var name = figure.id || "chart";
        var tools = el("div", "rb-ui rb-dl");
        tools.appendChild(el("span", "rb-k", "Download:"));
        [["SVG", "svg"], ["PNG", "png"]].forEach(function (kind) {
          var b = el("button", "rb-tog", kind[0]);
          b.type = "button";
          var heading = (figure.querySelector("h3") || figure).textContent.trim();
          b.setAttribute("aria-label", "Download " + heading + " as " + kind[0]);
          b.addEventListener("click", function () {
            var svg = compose(figure);
            if (!svg) return;
            var blob = new Blob([svg.text], { type: "image/svg+xml" });
            if (kind[1] === "svg") { save(blob, name + ".svg"); return; }
            var img = new Image(), url = URL.createObjectURL(blob);
            img.onload = function () {
              var canvas = el("canvas");
              canvas.width = svg.width * 2;
              canvas.height = svg.height * 2;
              var ctx = canvas.getContext("2d");
              ctx.scale(2, 2);
              ctx.drawImage(img, 0, 0, svg.width, svg.height);
              URL.revokeObjectURL(url);
              canvas.toBlob(function (png) { if (png) save(png, name + ".png"); }, "image/png");
            };
            img.src = url;
          });
          tools.appendChild(b);
        });
        var caption = figure.querySelector("figcaption");
        figure.insertBefore(tools, caption ? caption.nextSibling : figure.firstChild);
      });
      root.setAttribute("data-page-script", "ready");
    })();
    """

  /// The stylesheet of the script's controls (in `HTMLReport.stylesheet`'s
  /// colours), hidden in print.
  static let stylesheet = """
    .rb-toggles{position:sticky;top:0;z-index:2;display:flex;flex-wrap:wrap;gap:4px 6px;align-items:center;
    padding:6px 0;margin:0 0 4px;background:var(--bg);border-bottom:1px solid var(--border);font-size:.85rem}
    .rb-dl{display:flex;gap:6px;align-items:center;margin:0 0 6px;font-size:.8rem}
    .rb-k{color:var(--muted);margin-right:2px}
    .rb-break{flex-basis:100%;height:0}
    .rb-tog{font:inherit;color:var(--fg);background:var(--panel);border:1px solid var(--border);border-radius:14px;
    padding:1px 10px;cursor:pointer;display:inline-flex;align-items:center}
    .rb-tog .sw{width:14px;border-top-color:var(--c,var(--fg));border-top-width:3px;margin-right:5px}
    .rb-tog[aria-pressed=false]{color:var(--faint);text-decoration:line-through;background:transparent}
    .rb-tog[aria-pressed=false] .sw{opacity:.3}
    .rb-tog:focus-visible,svg.chart:focus-visible{outline:2px solid var(--accent);outline-offset:2px}
    .rb-off{display:none!important}
    .rb-tip{position:fixed;z-index:5;display:none;max-width:22rem;padding:4px 8px;border-radius:4px;font-size:.8rem;
    background:var(--fg);color:var(--bg);pointer-events:none;box-shadow:0 1px 4px rgba(0,0,0,.3)}
    svg .hov{fill:transparent}
    svg .hov:hover,svg .hov.rb-focus{fill:var(--fg);fill-opacity:.08}
    svg .rb-focus:not(.hov){stroke:var(--fg);stroke-width:2.5}
    @media (max-width:640px){.rb-toggles{position:static}}
    @media print{.rb-ui{display:none!important}}

    """
}

extension _HTMLWriter {
  /// The page's script (`PageScript`), before `</body>`.
  mutating func pageScript() {
    raw("<script>")
    raw(PageScript.source)
    raw("</script>\n")
  }
}
