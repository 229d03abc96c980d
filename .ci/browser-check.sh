#!/usr/bin/env bash
# Renders a ReloadBench report.html or sweep.html in headless Chromium and
# fails when the page does not render: the screenshot is missing or
# essentially blank, or the DOM lacks the charts or the embedded data.
#
#   .ci/browser-check.sh Reports/default/report.html [OUT_DIR]
#   MIN_CHARTS=7 MIN_SATURATED_PCT=0.1 .ci/browser-check.sh Reports/sweep-poll-interval/sweep.html
#
# MIN_CHARTS: the fewest <svg role="img"> charts the page must have (default 6).
# MIN_SATURATED_PCT: the least share of strongly coloured pixels in the
# screenshot, in percent (default 0.2; a sweep page of thin line charts under
# a long text header needs about 0.1).
# NARROW_WIDTH: a phone's width in CSS px (default 390; 0 skips): the page
# fails when it is wider than that there (it would pan sideways).
# Writes OUT_DIR/screenshot.png (a half-scale thumbnail of the top of the
# page) and OUT_DIR/dom.html (default OUT_DIR: a new temporary folder).
# Installs chromium (and python3 and a font, if missing) with apt-get, so
# it works from a clean Debian machine as root.
# Exit status: 0 rendered; 1 failed a check; 2 bad usage or no browser.
set -euo pipefail

usage() { echo "usage: $0 REPORT.html [OUT_DIR]" >&2; exit 2; }
[[ $# -ge 1 && $# -le 2 ]] || usage
[[ -f "$1" ]] || { echo "error: no such file: $1" >&2; exit 2; }
report="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
out="${2:-$(mktemp -d /tmp/browser-check.XXXXXX)}"
mkdir -p "$out"
min_charts="${MIN_CHARTS:-6}"
min_saturated="${MIN_SATURATED_PCT:-0.2}"

browser=""
for b in chromium chromium-browser; do
  if command -v "$b" >/dev/null 2>&1; then browser="$b"; break; fi
done
missing=()
[[ -n "$browser" ]] || missing+=(chromium)
command -v python3 >/dev/null 2>&1 || missing+=(python3)
[[ -n "$(ls /usr/share/fonts 2>/dev/null)" ]] || missing+=(fonts-dejavu-core)
if [[ ${#missing[@]} -gt 0 ]]; then
  if [[ $(id -u) -ne 0 ]] || ! command -v apt-get >/dev/null 2>&1; then
    echo "error: missing ${missing[*]}; install them (apt-get install ${missing[*]}) or run as root on Debian" >&2
    exit 2
  fi
  echo "installing ${missing[*]} ..." >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  browser="$(command -v chromium || command -v chromium-browser)"
fi

flags=(--headless --no-sandbox --disable-gpu --disable-dev-shm-usage --hide-scrollbars
  --no-first-run --disable-extensions --mute-audio)
# A 1280 x 4800 CSS-pixel page drawn at half scale: the header, the table and
# the first charts, small enough to check with the Python standard library.
timeout 120 "$browser" "${flags[@]}" --force-device-scale-factor=0.5 --window-size=1280,4800 \
  --screenshot="$out/screenshot.png" "file://$report" >"$out/chromium.log" 2>&1 || true
timeout 120 "$browser" "${flags[@]}" --dump-dom "file://$report" >"$out/dom.html" 2>>"$out/chromium.log" || true
# The page's script (Sources/ReloadReports/HTML/PageScript.swift): with the
# first strategy in the address's #hide= list, every mark of that strategy
# is hidden once the script has run.
first="$(grep -o 'data-strategy="[^"]*"' "$report" | head -1 | sed 's/^data-strategy="//; s/"$//' || true)"
if [[ -n "$first" ]]; then
  hide="$(python3 -c 'import html, sys, urllib.parse; print(urllib.parse.quote(html.unescape(sys.argv[1]), safe=""))' "$first")"
  timeout 120 "$browser" "${flags[@]}" --dump-dom "file://$report#hide=$hide" >"$out/dom-hidden.html" \
    2>>"$out/chromium.log" || true
fi

# The page at a phone's width (NARROW_WIDTH, default 390 CSS px; 0 skips):
# it must not pan sideways, so document.documentElement.scrollWidth may not
# exceed the viewport. Headless Chromium's window is at least 500 px wide,
# so the page loads in an iframe that wide, from a copy with a script that
# measures it (and names what sticks out) appended.
narrow="${NARROW_WIDTH:-390}"
if [[ "$narrow" -gt 0 ]]; then
  mkdir -p "$out/narrow"
  cp "$report" "$out/narrow/page.html"
  cat >>"$out/narrow/page.html" <<'JS'
<script>
addEventListener('load', () => {
  const vw = document.documentElement.clientWidth, wide = [];
  for (const el of document.querySelectorAll('body *')) {
    const r = el.getBoundingClientRect();
    // Its box, or its text (a long word), reaches past the viewport.
    const right = Math.max(r.right, getComputedStyle(el).overflowX === 'visible' ? r.left + el.scrollWidth : 0);
    if (right <= vw + 0.5 || r.width === 0) continue;
    let clipped = false;
    for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
      if (getComputedStyle(a).overflowX !== 'visible') { clipped = true; break; }
    }
    if (!clipped) wide.push([el, right]);
  }
  // The innermost: what sticks out, not the boxes around it.
  const named = wide.filter(([el]) => !wide.some(([o]) => o !== el && el.contains(o))).map(([el, right]) =>
    el.tagName.toLowerCase() + (el.className ? '.' + el.className : '') + ' (to ' + Math.round(right) + ' px: ' + (el.textContent || '').trim().slice(0, 40) + ')');
  const pre = document.createElement('pre');
  pre.id = 'narrow-measure';
  pre.textContent = 'scrollWidth=' + document.documentElement.scrollWidth + ' viewport=' + vw + (named.length ? ' wide: ' + named.slice(0, 5).join('; ') : '');
  document.body.appendChild(pre);
});
</script>
JS
  cat >"$out/narrow/index.html" <<HTML
<!doctype html><html><body style="margin:0"><iframe id="f" src="page.html" style="border:0;width:${narrow}px;height:2000px"></iframe>
<pre id="result">no measurement</pre><script>
document.getElementById('f').addEventListener('load', () => setTimeout(() => {
  document.getElementById('result').textContent = document.getElementById('f').contentDocument.getElementById('narrow-measure').textContent;
}, 200));
</script></body></html>
HTML
  timeout 120 "$browser" "${flags[@]}" --allow-file-access-from-files --virtual-time-budget=3000 \
    --window-size=$((narrow < 500 ? 500 : narrow)),2000 --dump-dom "file://$out/narrow/index.html" \
    >"$out/narrow/dom.html" 2>>"$out/chromium.log" || true
fi

status=0
python3 - "$out/screenshot.png" "$out/dom.html" "$min_charts" "$min_saturated" "$narrow" "$out/narrow/dom.html" \
  "$first" "$out/dom-hidden.html" <<'PY' || status=$?
import html, re, struct, sys, zlib
from collections import Counter
from operator import add

png, dom_path, min_charts = sys.argv[1], sys.argv[2], int(sys.argv[3])
min_saturated = float(sys.argv[4]) / 100
narrow, narrow_dom = int(sys.argv[5]), sys.argv[6]
problems = []

if narrow > 0:
    try:
        text = open(narrow_dom, encoding="utf-8", errors="replace").read()
    except OSError:
        text = ""
    m = re.search(r'<pre id="result">(.*?)</pre>', text, re.S)
    found = re.match(r"scrollWidth=(\d+) viewport=(\d+)", html.unescape(m.group(1))) if m else None
    if not found:
        problems.append(f"could not measure the page at {narrow} px")
    else:
        print(f"at {narrow} px: {html.unescape(m.group(1))}")
        if int(found.group(1)) > int(found.group(2)):
            problems.append(f"the page pans sideways at {narrow} px: {html.unescape(m.group(1))}")

def pixels(path):
    """Decodes an 8-bit RGB/RGBA PNG (what Chromium writes) to rows of bytes."""
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, w = 8, [], None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        pos += 12 + n
        if kind == b"IHDR":
            w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
            if depth != 8 or ctype not in (2, 6) or interlace:
                raise ValueError(f"unsupported PNG: depth {depth}, colour type {ctype}")
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"IEND":
            break
    bpp = 3 if ctype == 2 else 4
    raw, stride = zlib.decompress(b"".join(idat)), w * bpp
    wrap = bytes(range(256)) * 2  # (a + b) % 256 by table lookup
    prev, rows = bytes(stride), []
    for y in range(h):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        if f == 2:
            line = bytearray(map(wrap.__getitem__, map(add, line, prev)))
        elif f == 1:
            for x in range(bpp, stride):
                line[x] = (line[x] + line[x - bpp]) & 255
        elif f == 3:
            for x in range(stride):
                line[x] = (line[x] + (((line[x - bpp] if x >= bpp else 0) + prev[x]) >> 1)) & 255
        elif f == 4:
            for x in range(stride):
                a = line[x - bpp] if x >= bpp else 0
                b, c = prev[x], (prev[x - bpp] if x >= bpp else 0)
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        prev = bytes(line)
        rows.append(prev)
    return w, h, bpp, rows

try:
    w, h, bpp, rows = pixels(png)
except (OSError, ValueError, zlib.error) as e:
    problems.append(f"screenshot missing or unreadable: {e}")
else:
    counts = Counter()
    colourful = 0
    for row in rows[::2]:
        for x in range(0, w * bpp, 2 * bpp):
            r, g, b = row[x], row[x + 1], row[x + 2]
            counts[(r, g, b)] += 1
            if max(r, g, b) - min(r, g, b) > 80:
                colourful += 1
    total = sum(counts.values())
    background, bg_count = counts.most_common(1)[0]
    ink = 1 - bg_count / total
    coarse = len({(r >> 5, g >> 5, b >> 5) for (r, g, b) in counts})
    print(f"screenshot {w}x{h}: {ink:.1%} non-background, {colourful / total:.2%} saturated, {coarse} colour groups")
    if ink < 0.03:
        problems.append(f"screenshot is essentially blank ({ink:.2%} non-background pixels)")
    if colourful / total < min_saturated or coarse < 8:
        problems.append("screenshot has (almost) no colour: the charts did not draw")

try:
    dom = open(dom_path, encoding="utf-8", errors="replace").read()
except OSError as e:
    dom = ""
    problems.append(f"no DOM dump: {e}")
charts = len(re.findall(r'<svg\b[^>]*\brole="img"', dom))
tables = len(re.findall(r'<details class="datatable"', dom))
scripts = re.findall(r"<script\b[^>]*>", dom, flags=re.I)
print(f"DOM: {len(dom)} bytes, {charts} charts (svg role=img), {tables} data tables, {len(scripts)} script element(s)")
if charts < min_charts:
    problems.append(f"DOM has {charts} charts, expected at least {min_charts}")
if not any(f'id="{i}"' in dom for i in ("results-data", "sweep-data", "calibration-data", "robustness-data", "compare-data")):
    problems.append(
        "DOM lacks the embedded results (script#results-data, #sweep-data, #calibration-data, #robustness-data or #compare-data)")
# One executable script, the page's own, and it ran to its end.
executable = [s for s in scripts if 'type="application/json"' not in s]
if len(executable) != 1:
    problems.append(f"DOM has {len(executable)} executable script elements, expected 1 (the page's own)")
if 'data-page-script="ready"' not in dom:
    problems.append("the page's script did not run to its end (no data-page-script=\"ready\" on <html>)")
first, hidden_path = sys.argv[7], sys.argv[8]
if first:
    try:
        hidden = open(hidden_path, encoding="utf-8", errors="replace").read()
    except OSError:
        hidden = ""
    m = re.search(r'data-hidden-strategies="([^"]*)"', hidden)
    off = len(re.findall(r'class="[^"]*\brb-off\b', hidden))
    marked = len(re.findall(r'data-strategy="' + re.escape(first) + '"', hidden))
    print(f"#hide={html.unescape(first)}: {off} hidden elements of {marked} marked, "
          f"data-hidden-strategies={m.group(1) if m else None!r}")
    if not m or m.group(1) != first or off < 1:
        problems.append(f"#hide={html.unescape(first)} did not hide that strategy's marks")
    if 'class="rb-ui rb-toggles"' not in hidden:
        problems.append("the page's script made no strategy buttons")

for p in problems:
    print("FAIL:", p, file=sys.stderr)
sys.exit(1 if problems else 0)
PY
echo "artifacts: $out/screenshot.png $out/dom.html"
exit $status
