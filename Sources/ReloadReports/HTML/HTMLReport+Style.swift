/// The page's one stylesheet: system fonts only, light and dark themes
/// from `prefers-color-scheme`, print rules, and the chart classes that
/// `SVGChart` marks use (`s0` ... `s7` palette slots, `d1`/`d2` dashes).
///
/// The palette is Okabe-Ito's (see `SeriesStyle`); in dark mode black
/// becomes near-white, blue a little lighter and sky blue much lighter (so
/// the two blues still differ in lightness, the cue colour-blind readers
/// keep); in light mode yellow is darkened (#A69200) to stay visible on white.
///
/// Print: the light theme whatever the screen's, landscape pages (the
/// comparison table is 13 columns wide), no navigation, the per-segment
/// tables and column definitions opened where the browser supports
/// `::details-content`, figures kept on one page.
extension HTMLReport {
  static let stylesheet = """
    :root{color-scheme:light dark;--bg:#fff;--fg:#1b1d1f;--muted:#5a6068;--faint:#8a9097;--grid:#e4e6e8;
    --axis:#9aa0a6;--panel:#f5f6f7;--border:#d9dcdf;--best:#e3f1e6;--bestfg:#0d5b2a;--accent:#0b5cad;
    --rec:#eef5fc;--miss:#fdf3e6;--peak:#c0392b;
    --c0:#0072B2;--c1:#D55E00;--c2:#009E73;--c3:#CC79A7;--c4:#E69F00;--c5:#56B4E9;--c6:#000000;--c7:#A69200;
    --outline:rgba(0,0,0,.55)}
    @media (prefers-color-scheme:dark){:root{--bg:#141618;--fg:#e6e7e8;--muted:#a9afb5;--faint:#7d848b;
    --grid:#2b3034;--axis:#5f666d;--panel:#1c1f22;--border:#353a40;--best:#1d3a28;--bestfg:#9fe0b4;
    --accent:#6fb3f2;--rec:#16283a;--miss:#3a2c17;--peak:#ff7b6b;--c0:#3b8ee0;--c5:#a8defa;--c6:#e6e7e8;--c7:#F0E442;
    --outline:rgba(0,0,0,.6)}}
    *{box-sizing:border-box}
    html{background:var(--bg);color:var(--fg);-webkit-text-size-adjust:100%}
    body{margin:0 auto;max-width:1220px;padding:0 20px 48px;
    font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif}
    h1{font-size:2rem;line-height:1.15;margin:.1em 0 .3em;overflow-wrap:anywhere}
    h2{font-size:1.4rem;margin:2.2em 0 .6em;padding-top:.6em;border-top:1px solid var(--border);overflow-wrap:anywhere}
    h3{font-size:1.1rem;margin:1.6em 0 .4em;overflow-wrap:anywhere}
    h4{margin:1.2em 0 .3em;overflow-wrap:anywhere}
    a{color:var(--accent)}
    code{font:.9em ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
    .top{padding-top:28px}
    .eyebrow{margin:0;color:var(--muted);text-transform:uppercase;letter-spacing:.08em;font-size:.8rem}
    .lead{font-size:1.15rem;margin:.2em 0;max-width:75ch}
    .desc{color:var(--muted);margin:.4em 0 0;max-width:70ch}
    nav ul{list-style:none;padding:0;margin:18px 0 0;display:flex;flex-wrap:wrap;gap:6px 14px;font-size:.9rem}
    .rec{background:var(--rec);border-left:5px solid var(--accent);padding:12px 18px;border-radius:6px;max-width:80ch}
    .rec.miss{background:var(--miss);border-left-color:var(--c4)}
    .rec p{margin:.2em 0}
    .rec-k{color:var(--muted);font-size:.85rem;text-transform:uppercase;letter-spacing:.06em}
    .rec-name{font-size:1.6rem;font-weight:700;overflow-wrap:anywhere}
    .findings{max-width:80ch;padding-left:1.2em}
    .findings li{margin:.3em 0}
    .facts{display:grid;grid-template-columns:repeat(auto-fill,minmax(190px,1fr));gap:8px;margin:0}
    .facts div{background:var(--panel);border-radius:6px;padding:6px 10px}
    .facts dt{color:var(--muted);font-size:.8rem}
    .facts dd{margin:0;font-weight:600;overflow-wrap:anywhere}
    .scroll{overflow-x:auto;max-width:100%;position:relative}
    table{border-collapse:collapse;font-variant-numeric:tabular-nums}
    caption{text-align:left;color:var(--muted);font-size:.85rem;padding:4px 0}
    th,td{padding:5px 7px;border-bottom:1px solid var(--border);vertical-align:top}
    thead th{text-align:left;font-weight:600;font-size:.85rem;vertical-align:bottom}
    table.cmp{font-size:.92rem}
    table.cmp td{text-align:right;white-space:nowrap}
    table.cmp thead th{text-align:right;min-width:5.5em;font-size:.8rem}
    table.cmp tr.groups th{text-align:center;color:var(--muted);font-weight:600;border-bottom:2px solid var(--border)}
    table.cmp tr.groups td{border:0}
    table.cmp .g{border-left:1px solid var(--border)}
    table.cmp thead th:first-child,table.cmp tbody th{text-align:left}
    table.cmp tbody th{position:sticky;left:0;background:var(--bg);white-space:nowrap}
    .unit,.dir{display:block;font-weight:400;color:var(--muted);font-size:.75rem}
    td.best{background:var(--best);color:var(--bestfg);font-weight:700}
    .star{font-size:.8em}
    td.na{color:var(--faint)}
    .ci{display:block;font-size:.75rem;color:var(--muted);font-weight:400}
    .recrow th{font-weight:700}
    table.cmp .recrow .badge{display:block;width:max-content;margin-top:2px}
    .badge{display:inline-block;font-size:.7rem;font-weight:600;padding:0 6px;border-radius:9px;
    border:1px solid var(--accent);color:var(--accent);vertical-align:middle;white-space:nowrap}
    .vh{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
    details{margin:.8em 0}
    summary{cursor:pointer;color:var(--accent)}
    .defs dt{font-weight:600;margin-top:.5em}
    .defs dd{margin:0 0 0 1em;color:var(--muted);max-width:80ch}
    .fig{margin:2em 0 0;padding:0}
    figcaption{color:var(--muted);max-width:80ch;margin-bottom:8px}
    .charts{display:grid;gap:14px 22px}
    .charts.single{grid-template-columns:minmax(0,820px)}
    .charts.pair{grid-template-columns:repeat(auto-fit,minmax(min(100%,400px),1fr))}
    .charts.multiples{grid-template-columns:repeat(auto-fill,minmax(min(100%,230px),1fr))}
    .chartbox{overflow-x:auto;position:relative}
    svg.chart{display:block;width:100%;height:auto;font-family:inherit;font-size:12px;overflow:visible}
    svg .grid{stroke:var(--grid);fill:none}
    svg .axis{stroke:var(--axis);fill:none}
    svg .tick{fill:var(--muted);font-size:11px}
    svg .axt{fill:var(--muted);font-size:12px}
    svg .lbl{fill:var(--fg);font-size:12px}
    svg .strong{font-weight:700}
    svg .ptitle{fill:var(--fg);font-size:13px;font-weight:600}
    svg .hint{fill:var(--faint);font-size:11px;font-style:italic}
    .s0{--c:var(--c0)}.s1{--c:var(--c1)}.s2{--c:var(--c2)}.s3{--c:var(--c3)}
    .s4{--c:var(--c4)}.s5{--c:var(--c5)}.s6{--c:var(--c6)}.s7{--c:var(--c7)}
    svg .ln{fill:none;stroke:var(--c);stroke-width:2.2;stroke-linejoin:round;stroke-linecap:round}
    svg .ln.thin{stroke-width:1;stroke-opacity:.75}
    svg .d1{stroke-dasharray:8 4}
    svg .d2{stroke-dasharray:2 4}
    svg .pt{fill:var(--c);stroke:var(--outline);stroke-width:.8}
    svg .band{fill:var(--c);fill-opacity:.25;stroke:none}
    svg .bar{fill:var(--c);stroke:var(--outline);stroke-width:.5}
    svg .frontier{fill:none;stroke:var(--fg);stroke-opacity:.6;stroke-width:1.5;stroke-dasharray:6 4}
    svg .leader{fill:none;stroke:var(--faint);stroke-width:.8;stroke-dasharray:1 2}
    svg .ref{fill:none;stroke:var(--faint);stroke-dasharray:3 3}
    svg .ref.target{stroke:var(--peak);stroke-width:1.3;stroke-dasharray:6 3}
    svg .hint.target{fill:var(--peak);font-style:normal;font-weight:600}
    svg .recring{fill:none;stroke:var(--fg);stroke-width:2}
    svg .peak{fill:var(--fg);stroke:var(--bg);stroke-width:1}
    svg .peak.overall{fill:var(--peak)}
    svg .peaktext{fill:var(--peak)}
    .key{list-style:none;padding:0;margin:0 0 8px;display:flex;flex-wrap:wrap;gap:4px 18px;\
    font-size:.85rem;color:var(--muted)}
    .sw{display:inline-block;width:22px;height:0;margin-right:6px;vertical-align:middle;\
    border-top:2.5px solid var(--fg)}
    .sw.thin{border-top-width:1px}
    .sw.bandsw{height:10px;border:0;background:var(--faint);opacity:.45}
    .sw.diamond{width:9px;height:9px;border:0;background:var(--peak);transform:rotate(45deg);margin:0 8px 0 4px}
    .datatable table{font-size:.85rem}
    .datatable td{text-align:right;white-space:nowrap}
    .legend{display:grid;grid-template-columns:repeat(auto-fill,minmax(260px,1fr));gap:6px 16px;margin:0}
    .legend div{display:flex;gap:8px;align-items:baseline}
    .legend dd{margin:0;color:var(--muted)}
    .chip{display:inline-block;min-width:1.6em;text-align:center;font-size:.72rem;font-weight:700;padding:1px 6px;
    margin:0 4px 2px 0;border-radius:4px;border:1px solid var(--border);background:var(--panel)}
    .chip.t-A{border-color:#0072B2}.chip.t-T{border-color:#56B4E9}.chip.t-S{border-color:#009E73}
    .chip.t-M{border-color:#E69F00}.chip.t-F{border-color:#D55E00;border-style:dashed}
    .chip.t-assumed{border-style:dotted}
    .srcnote{display:block;color:var(--muted);font-size:.75rem}
    table.params{font-size:.88rem;width:100%}
    table.params tbody th{text-align:left;font-weight:400;width:16em}
    table.params th:nth-child(2){width:11em}
    table.params th:nth-child(3){width:12em}
    table.params td.val{white-space:nowrap;font-weight:600}
    table.params td:last-child{min-width:24ch;color:var(--muted)}
    .narrow-only{display:none!important}
    @media (max-width:640px){body{padding:0 12px 32px;font-size:14px}h1{font-size:1.6rem}
    .wide-only{display:none!important}.narrow-only{display:grid!important}
    .facts{grid-template-columns:repeat(auto-fill,minmax(150px,1fr))}
    table.params,table.params tbody,table.params tr,table.params th,table.params td{display:block;width:auto}
    table.params thead{display:none}table.params tr{border-bottom:1px solid var(--border);padding:6px 0}
    table.params th,table.params td{border:0;padding:1px 0}table.params td:last-child{min-width:0}}
    @page{size:landscape;margin:12mm}
    @media print{:root{--bg:#fff;--fg:#000;--muted:#444;--faint:#777;--grid:#ddd;--axis:#888;--panel:#f4f4f4;
    --border:#ccc;--best:#e3f1e6;--bestfg:#0d5b2a;--accent:#0b5cad;--rec:#eef5fc;--miss:#fdf3e6;--peak:#c0392b;
    --c0:#0072B2;--c6:#000;--c7:#A69200}
    html,body{-webkit-print-color-adjust:exact;print-color-adjust:exact}
    body{max-width:none;padding:0;font-size:10.5pt}nav,summary{display:none}
    .fig,.rec,tr,.facts div{break-inside:avoid}h2,h3{break-after:avoid}
    table.cmp{font-size:7.5pt}table.cmp th,table.cmp td{padding:3px 4px}table.cmp thead th{min-width:0;font-size:7pt}
    table.cmp .unit,table.cmp .dir,table.cmp .badge{font-size:6.5pt}
    .chartbox,.scroll{overflow:visible}.wide-only{display:grid!important}.narrow-only{display:none!important}
    #charts>.fig~.fig,#parameters,#run,#data,details.datatable,details.segments,details.defs,
    figcaption,.desc,#kinds,#kinds+p,table.kinds{display:none}
    h1{font-size:18pt;margin:0}h2{font-size:13pt;margin:.6em 0 .3em;padding-top:.3em}h3{margin:.4em 0 .2em}
    .lead{font-size:10.5pt;margin:.2em 0}.fig{margin:0}.fig svg{max-height:62mm;width:auto;max-width:100%}
    .findings{margin:.2em 0}.findings li{margin:0}}

    """
}
