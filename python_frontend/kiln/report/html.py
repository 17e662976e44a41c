"""The HTML heatmap: the source (from the record itself, so it works on
another machine) syntax-highlighted and heat-coloured by SIMD coverage,
with a colour legend and each loop's verdict under its line (as LLVM's
opt-viewer shows remarks); click a line for its lanes, remarks,
machine-code facts and the generated instructions of that line (as
`cython -a` shows the C of a line); block rows link to their lines.

One renderer, two hosts: `fragment` is a self-contained element (no
network, no external assets) that a Jupyter output shows
(`kiln.report(f)._repr_html_()`), and `render` wraps the same fragment in
the page `kiln report --html` writes. Several fragments share one notebook
page, so each has its own id, every CSS rule is scoped under that id, and
the script is one closure that only looks inside its own element."""

from __future__ import annotations

import html
import json
import uuid

# __ROOT__ is the fragment's id; __DATA__ (filled last, so the record's own
# text is never substituted into) the record as JSON.
FRAGMENT = """<div class="kiln-report" id="__ROOT__">
<style>
#__ROOT__ { font: 14px/1.4 system-ui, sans-serif; display: flex; height: 36em; color: #000;
  background: #fff; border: 1px solid #ccc; resize: vertical; overflow: hidden; text-align: left; }
#__ROOT__.standalone { height: 100vh; border: 0; resize: none; }
#__ROOT__ .source { flex: 3; overflow: auto; border-right: 1px solid #ccc; }
#__ROOT__ .side { flex: 2; overflow: auto; padding: 12px; }
#__ROOT__ .line { font: 13px/1.5 ui-monospace, monospace; white-space: pre; cursor: pointer;
  padding: 0 8px; }
#__ROOT__ .line .no { color: #888; display: inline-block; width: 3.5em; text-align: right;
  margin-right: 1em; }
#__ROOT__ .line.selected { outline: 2px solid #333; }
#__ROOT__ .badge { font: 11px system-ui; border-radius: 3px; padding: 0 4px; margin-left: 8px;
  background: #eee; }
#__ROOT__ .badge.fallback { background: #f8c; }
#__ROOT__ .badge.allocation { background: #fd8; }
#__ROOT__ .badge.scalar { background: #fc8; }
#__ROOT__ .verdict { font: 12px system-ui; white-space: pre-wrap; margin: 0 8px 2px 5.5em;
  padding: 1px 6px; border-left: 3px solid #888; background: #f7f7f7; }
#__ROOT__ .verdict.vectorized { border-color: #2a2; }
#__ROOT__ .verdict.scalar { border-color: #d80; }
#__ROOT__ .kw { color: #7a1fa2; font-weight: 600; } #__ROOT__ .num { color: #1c6b9c; }
#__ROOT__ .str { color: #a65e00; } #__ROOT__ .com { color: #888; font-style: italic; }
#__ROOT__ .legend { display: flex; align-items: center; gap: 6px; font-size: 12px;
  margin: 4px 0 8px; }
#__ROOT__ .legend .swatch { width: 28px; height: 14px; display: inline-block;
  border: 1px solid #ccc; }
#__ROOT__ .code { font: 12px/1.4 ui-monospace, monospace; white-space: pre; background: #f4f4f4;
  padding: 4px; margin-top: 4px; max-height: 300px; overflow: auto; }
#__ROOT__ tr.block-row { cursor: pointer; } #__ROOT__ tr.block-row:hover { background: #eef; }
#__ROOT__ .selftest-result { position: fixed; left: 0; bottom: 0; font-size: 11px;
  background: #ffd; padding: 1px 6px; max-width: 100%; }
#__ROOT__ table { border-collapse: collapse; margin: 8px 0 16px; }
#__ROOT__ td, #__ROOT__ th { border: 1px solid #ddd; padding: 2px 6px; font-size: 12px;
  text-align: left; }
#__ROOT__ .heat { width: 18px; height: 18px; }
#__ROOT__ h1 { font-size: 18px; margin: 0 0 8px; }
#__ROOT__ h2 { font-size: 16px; margin: 16px 0 4px; }
</style>
<div class="source"></div>
<div class="side"><h1>Kiln report: __MODULE__</h1>
<div class="summary"></div>
<div class="legend">SIMD coverage of a line: <span class="swatch" style="background:hsl(0,75%,82%)"></span>0%
<span class="swatch" style="background:hsl(60,75%,82%)"></span>50%
<span class="swatch" style="background:hsl(120,75%,82%)"></span>100%
<span class="swatch" style="background:transparent"></span>no compiled work</div>
<h2>Line details</h2><div class="details">Click a source line.</div>
<h2>Functions</h2><div class="functions"></div><h2>Functions left to Python</h2><div class="fallbacks"></div>
<h2>Scalar code in compiled functions</h2><div class="findings"></div>
<h2>Basic blocks &times; instruction classes</h2><div class="heatmap"></div></div>
<script class="data" type="application/json">__DATA__</script>
<script>
"use strict";
(() => {
// The element this script sits in (a notebook may hold many reports).
const root = (document.currentScript && document.currentScript.closest(".kiln-report"))
  || document.getElementById("__ROOT__");
const part = name => root.querySelector("." + name);
const report = JSON.parse(part("data").textContent);
const source = (report.source_text || "").split("\\n");
const pct = v => v === null || v === undefined ? "-" : Math.round(v * 100) + "%";
const heat = v => v === null || v === undefined ? "transparent"
  : `hsl(${Math.round(v * 120)}, 75%, 82%)`;
const lineInfo = {}, lineFunction = {};
for (const f of report.functions) {
  for (const l of f.lines || []) { lineInfo[l.line] = l; lineFunction[l.line] = f; }
}
const fallbackAt = {}, findingAt = {}, codeAt = {};
for (const fb of report.fallbacks) (fallbackAt[fb.line] = fallbackAt[fb.line] || []).push(fb);
for (const fi of report.findings || []) (findingAt[fi.line] = findingAt[fi.line] || []).push(fi);
for (const f of report.functions) for (const i of f.instructions || [])
  (codeAt[i.line] = codeAt[i.line] || []).push(i);
const loopAt = {}, allocationAt = {};
for (const f of report.functions) for (const loop of f.loops || []) loopAt[loop.line] = loop;
for (const f of report.functions) for (const a of f.allocations || [])
  (allocationAt[a.line] = allocationAt[a.line] || []).push(a);
const allocationText = a => `makes a ${a.type}` +
  (a.in_loop ? `, once per iteration of the loop at line ${a.in_loop}` : "") +
  `: ${a.storage}; ${a.reason}`;

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") node.className = v; else if (k === "style") node.style.cssText = v;
    else node.setAttribute(k, v);
  }
  for (const c of children) node.append(c);
  return node;
}

function showDetails(number) {
  root.querySelectorAll(".line.selected").forEach(n => n.classList.remove("selected"));
  const row = root.querySelector(`.line[data-line="${number}"]`);
  if (row) row.classList.add("selected");
  const box = part("details");
  box.textContent = "";
  const info = lineInfo[number];
  box.append(el("div", {}, `Line ${number}: ${source[number - 1] || ""}`));
  if (info) {
    box.append(el("div", {class: "coverage"}, `coverage ${pct(info.coverage)}, lanes ` +
      `${pct(info.lane_utilization)}, ${info.vector_ops} vector / ${info.scalar_ops} scalar ops`));
    if (info.machine) box.append(el("div", {class: "machine"}, `machine code: ` +
      `${info.machine.vector} SIMD, ${info.machine.scalar} scalar instructions` +
      (info.machine.max_bits ? `, up to ${info.machine.max_bits}-bit registers` : "") +
      (info.machine.calls.length ? `, calls ${info.machine.calls.join(", ")}` : "")));
    for (const r of info.remarks || []) box.append(el("div", {class: "remark"}, "remark: " + r));
  } else {
    box.append(el("div", {class: "coverage"}, "no compiled work on this line"));
  }
  const loop = loopAt[number];
  if (loop) {
    box.append(el("div", {class: "remark"}, verdictText(loop)));
    for (const c of loop.copies || []) box.append(el("div", {class: "remark"},
      `${c.vectorizer === "kiln" ? "Kiln" : "LLVM"} remark: ${c.message}`));
  }
  for (const fb of fallbackAt[number] || [])
    box.append(el("div", {class: "fallback"}, `left to Python: ${fb.reason}`));
  for (const a of allocationAt[number] || [])
    box.append(el("div", {class: "allocation"}, allocationText(a)));
  for (const fi of findingAt[number] || [])
    box.append(el("div", {class: "finding"}, `${fi.kind.replace("-", " ")}: ${fi.reason}`));
  const code = codeAt[number] || [];
  if (code.length) {
    box.append(el("div", {}, `generated code (${code.length} LLVM instructions):`));
    box.append(el("div", {class: "code"}, code.map(i => `${i.block.padEnd(18)} ` +
      `${i.opcode}${i.vector ? `  <${i.elements} lanes>` : ""}`).join("\\n")));
  }
}

function verdictText(loop) {
  return loop.vectorized
    ? `loop vectorized by ${loop.vectorizer === "kiln" ? "Kiln" : "LLVM"}: VF=${loop.width}, ` +
      `interleave ${loop.interleave}${loop.tail ? ", " + loop.tail : ""}`
    : `scalar loop: ${loop.verdict || (loop.reasons || []).join("; ") || "no reason given"}`;
}

const KEYWORDS = new Set(("def return for while if elif else in and or not is None True False " +
  "import from as break continue pass raise assert lambda with try except finally").split(" "));
function highlighted(text) {
  // comments, strings, numbers and keywords of one line of Python
  const out = [], pattern = /(#.*$)|("[^"]*"|'[^']*')|(\\b\\d[\\d_.eE+-]*j?\\b)|([A-Za-z_]\\w*)/g;
  let last = 0, m;
  while ((m = pattern.exec(text)) !== null) {
    if (m.index > last) out.push(text.slice(last, m.index));
    const cls = m[1] ? "com" : m[2] ? "str" : m[3] ? "num" : KEYWORDS.has(m[4]) ? "kw" : null;
    out.push(cls ? el("span", {class: cls}, m[0]) : m[0]);
    last = pattern.lastIndex;
  }
  if (last < text.length) out.push(text.slice(last));
  return out.length ? out : [" "];
}

const sourceBox = part("source");
source.forEach((text, index) => {
  const number = index + 1, info = lineInfo[number];
  const row = el("div", {class: "line" + (info ? " heat-line" : ""), "data-line": String(number),
    style: `background:${heat(info ? info.coverage : null)}`},
    el("span", {class: "no"}, String(number)), ...highlighted(text));
  const loop = loopAt[number];
  if (loop) row.append(el("span", {class: "badge" + (loop.vectorized ? "" : " scalar")},
    loop.vectorized ? `VF=${loop.width}` : "scalar loop"));
  if (fallbackAt[number]) row.append(el("span", {class: "badge fallback"}, "left to Python"));
  for (const a of (allocationAt[number] || []).filter(a => a.in_loop))
    row.append(el("span", {class: "badge allocation", title: allocationText(a)},
      `makes a ${a.kind} per iteration`));
  row.addEventListener("click", () => showDetails(number));
  sourceBox.append(row);
  if (loop) sourceBox.append(el("div", {class: "verdict " + (loop.vectorized ? "vectorized"
    : "scalar"), "data-verdict-line": String(number)}, verdictText(loop)));
});

part("summary").append(el("div", {}, `module coverage ` +
  `${pct(report.module_coverage)}, lane utilisation ${pct(report.module_lane_utilization)} of ` +
  `${report.vector_register_bits}-bit registers (${report.weighting} block weights)`));
const functions = el("table", {}, el("tr", {}, ...["function", "compiled", "coverage", "lanes",
  "time share"].map(h => el("th", {}, h))));
for (const f of report.functions) {
  const share = report.profile && report.profile.functions[f.name];
  functions.append(el("tr", {}, el("td", {}, f.name), el("td", {}, f.compiled ? "yes" : "no"),
    el("td", {style: `background:${heat(f.coverage)}`}, pct(f.coverage)),
    el("td", {}, pct(f.lane_utilization)), el("td", {}, share ? pct(share.share) : "-")));
}
part("functions").append(functions);
const fallbacks = el("table", {}, el("tr", {}, ...["function", "line", "reason",
  "time share"].map(h => el("th", {}, h))));
for (const fb of report.fallbacks) {
  const share = report.profile && report.profile.functions[fb.function];
  const row = el("tr", {class: "fallback-row block-row"}, el("td", {}, fb.function),
    el("td", {}, String(fb.line)), el("td", {}, fb.reason),
    el("td", {}, share ? pct(share.share) : "-"));
  row.addEventListener("click", () => showDetails(fb.line));
  fallbacks.append(row);
}
part("fallbacks").append(fallbacks);
const findings = el("table", {}, el("tr", {}, ...["kind", "function", "line", "reason"]
  .map(h => el("th", {}, h))));
for (const fi of report.findings || []) {
  const row = el("tr", {class: "finding-row block-row"}, el("td", {}, fi.kind),
    el("td", {}, fi.function), el("td", {}, String(fi.line)), el("td", {}, fi.reason));
  row.addEventListener("click", () => showDetails(fi.line));
  findings.append(row);
}
part("findings").append(findings);
const classes = ["fp-arith", "int-arith", "compare", "select", "math", "load", "store",
  "masked-memory", "gather-scatter", "shuffle", "other"];
const grid = el("table", {}, el("tr", {}, el("th", {}, "block"), el("th", {}, "coverage"),
  ...classes.map(c => el("th", {}, c))));
for (const f of report.functions) for (const b of (f.basic_blocks || []).slice(0, 40)) {
  const counts = b.classes || {}, most = Math.max(1, ...Object.values(counts));
  const blockRow = el("tr", {class: "block-row", "data-block-line": String(b.line)},
    el("td", {}, `${f.name}: ${b.name} (line ${b.line})`),
    el("td", {class: "heat", style: `background:${heat(b.coverage)}`}, pct(b.coverage)),
    ...classes.map(c => el("td", {class: "heat",
      style: `background:rgba(40,90,200,${(counts[c] || 0) / most})`}, String(counts[c] || ""))));
  blockRow.addEventListener("click", () => showDetails(b.line));
  grid.append(blockRow);
}
part("heatmap").append(grid);

if (location.hash === "#selftest") {
  // What test_report.test_html_page_in_chromium checks in a headless browser
  const found = [];
  const first = root.querySelector(".line.heat-line");
  if (first) first.click();
  if (first && root.querySelector(".details .coverage"))
    found.push("details shown for line " + first.dataset.line);
  if (root.querySelector(".details .code")) found.push("generated code shown");
  if (root.querySelectorAll(".legend .swatch").length === 4) found.push("legend");
  const verdict = root.querySelector(".verdict");
  if (verdict) found.push("verdict under line " + verdict.dataset.verdictLine + ": " +
                          verdict.textContent);
  const block = [...root.querySelectorAll("tr.block-row[data-block-line]")]
    .find(row => row.dataset.blockLine !== "0");
  if (block) {
    block.click();
    const selected = root.querySelector(".line.selected");
    if (selected && selected.dataset.line === block.dataset.blockLine)
      found.push("block row links to line " + block.dataset.blockLine);
  }
  root.append(el("div", {class: "selftest-result"},
    (found.length === 5 ? "selftest ok: " : "selftest failed: ") + found.join("; ")));
}
})();
</script></div>
"""

PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>Kiln report: __MODULE__</title>
<style>body { margin: 0; }</style>
</head><body>
__FRAGMENT__
</body></html>
"""


def record_with_source(record: dict) -> dict:
    source = record.get("source_text")
    if source is None:          # a record written before it embedded its source
        try:
            with open(record.get("source", ""), encoding="utf-8") as handle:
                source = handle.read()
        except OSError:
            source = ""
    return dict(record, source_text=source)


def fragment(record: dict, element_id: str | None = None, standalone: bool = False) -> str:
    """The heatmap as one self-contained element, with id `element_id`
    (default: a new unique one)."""
    element_id = element_id or f"kiln-report-{uuid.uuid4().hex[:12]}"
    # "<\/" inside a JSON string is "</" again once parsed, and cannot end
    # the script element early.
    data = json.dumps(record_with_source(record)).replace("</", "<\\/")
    text = FRAGMENT.replace("__ROOT__", element_id)
    if standalone:
        text = text.replace('class="kiln-report"', 'class="kiln-report standalone"', 1)
    return (text.replace("__MODULE__", html.escape(str(record.get("module", ""))))
            .replace("__DATA__", data))


def render(record: dict) -> str:
    """`kiln report --html`: the fragment as a whole page."""
    module = html.escape(str(record.get("module", "")))
    return PAGE.replace("__MODULE__", module).replace(
        "__FRAGMENT__", fragment(record, "kiln-report", standalone=True))
