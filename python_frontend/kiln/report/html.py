"""`kiln report --html out.html`: one self-contained page (no network, no
external assets) showing the source heat-coloured by SIMD coverage; click a
line for its remarks, lanes and machine code facts."""

from __future__ import annotations

import html
import json

PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>Kiln report: __MODULE__</title>
<style>
body { font: 14px/1.4 system-ui, sans-serif; margin: 0; display: flex; height: 100vh; }
#source { flex: 3; overflow: auto; border-right: 1px solid #ccc; }
#side { flex: 2; overflow: auto; padding: 12px; }
.line { font: 13px/1.5 ui-monospace, monospace; white-space: pre; cursor: pointer; padding: 0 8px; }
.line .no { color: #888; display: inline-block; width: 3.5em; text-align: right; margin-right: 1em; }
.line.selected { outline: 2px solid #333; }
.badge { font: 11px system-ui; border-radius: 3px; padding: 0 4px; margin-left: 8px; background: #eee; }
.badge.fallback { background: #f8c; }
table { border-collapse: collapse; margin: 8px 0 16px; }
td, th { border: 1px solid #ddd; padding: 2px 6px; font-size: 12px; }
.heat { width: 18px; height: 18px; }
h2 { font-size: 16px; margin: 16px 0 4px; }
</style></head><body>
<div id="source"></div>
<div id="side"><h1 style="font-size:18px">Kiln report: __MODULE__</h1>
<div id="summary"></div><h2>Line details</h2><div id="details">Click a source line.</div>
<h2>Functions</h2><div id="functions"></div><h2>Fallback points</h2><div id="fallbacks"></div>
<h2>Basic blocks &times; instruction classes</h2><div id="heatmap"></div></div>
<script id="data" type="application/json">__DATA__</script>
<script>
"use strict";
const report = JSON.parse(document.getElementById("data").textContent);
const source = (report.source_text || "").split("\\n");
const pct = v => v === null || v === undefined ? "-" : Math.round(v * 100) + "%";
const heat = v => v === null || v === undefined ? "transparent"
  : `hsl(${Math.round(v * 120)}, 75%, 82%)`;
const lineInfo = {}, lineFunction = {};
for (const f of report.functions) {
  for (const l of f.lines || []) { lineInfo[l.line] = l; lineFunction[l.line] = f; }
}
const fallbackAt = {};
for (const fb of report.fallbacks) (fallbackAt[fb.line] = fallbackAt[fb.line] || []).push(fb);
const loopAt = {};
for (const f of report.functions) for (const loop of f.loops || []) loopAt[loop.line] = loop;

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
  document.querySelectorAll(".line.selected").forEach(n => n.classList.remove("selected"));
  const row = document.querySelector(`.line[data-line="${number}"]`);
  if (row) row.classList.add("selected");
  const box = document.getElementById("details");
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
  if (loop) box.append(el("div", {class: "remark"}, loop.vectorized
    ? `loop vectorized by ${loop.vectorizer === "kiln" ? "Kiln" : "LLVM"}: VF=${loop.width}, interleave ${loop.interleave}`
    : `loop not vectorized: ${loop.reasons.join("; ")}`));
  for (const fb of fallbackAt[number] || [])
    box.append(el("div", {class: "fallback"}, `fallback [${fb.kind}]: ${fb.reason}`));
}

const sourceBox = document.getElementById("source");
source.forEach((text, index) => {
  const number = index + 1, info = lineInfo[number];
  const row = el("div", {class: "line" + (info ? " heat-line" : ""), "data-line": String(number),
    style: `background:${heat(info ? info.coverage : null)}`},
    el("span", {class: "no"}, String(number)), text || " ");
  if (loopAt[number] && loopAt[number].vectorized)
    row.append(el("span", {class: "badge"}, `VF=${loopAt[number].width}`));
  if (fallbackAt[number]) row.append(el("span", {class: "badge fallback"}, "fallback"));
  row.addEventListener("click", () => showDetails(number));
  sourceBox.append(row);
});

document.getElementById("summary").append(el("div", {}, `module coverage ` +
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
document.getElementById("functions").append(functions);
const fallbacks = el("table", {}, el("tr", {}, ...["kind", "function", "line", "reason",
  "time share"].map(h => el("th", {}, h))));
for (const fb of report.fallbacks) {
  const share = report.profile && report.profile.functions[fb.function];
  fallbacks.append(el("tr", {class: "fallback-row"}, el("td", {}, fb.kind),
    el("td", {}, fb.function), el("td", {}, String(fb.line)), el("td", {}, fb.reason),
    el("td", {}, share && fb.kind === "function" ? pct(share.share) : "-")));
}
document.getElementById("fallbacks").append(fallbacks);
const classes = ["fp-arith", "int-arith", "compare", "select", "math", "load", "store",
  "masked-memory", "gather-scatter", "shuffle", "other"];
const grid = el("table", {}, el("tr", {}, el("th", {}, "block"), el("th", {}, "coverage"),
  ...classes.map(c => el("th", {}, c))));
for (const f of report.functions) for (const b of (f.basic_blocks || []).slice(0, 40)) {
  const counts = b.classes || {}, most = Math.max(1, ...Object.values(counts));
  grid.append(el("tr", {}, el("td", {}, `${f.name}: ${b.name}`),
    el("td", {class: "heat", style: `background:${heat(b.coverage)}`}, pct(b.coverage)),
    ...classes.map(c => el("td", {class: "heat",
      style: `background:rgba(40,90,200,${(counts[c] || 0) / most})`}, String(counts[c] || "")))));
}
document.getElementById("heatmap").append(grid);

if (location.hash === "#selftest") {
  const first = document.querySelector(".line.heat-line");
  if (first) first.click();
  const shown = document.querySelector("#details .coverage");
  document.body.append(el("div", {id: "selftest-result"},
    first && shown ? "selftest ok: details shown for line " + first.dataset.line : "selftest failed"));
}
</script></body></html>
"""


def render(record: dict) -> str:
    try:
        with open(record.get("source", ""), encoding="utf-8") as handle:
            source = handle.read()
    except OSError:
        source = ""
    # "<\/" inside a JSON string is "</" again once parsed, and cannot end
    # the script element early.
    data = json.dumps(dict(record, source_text=source)).replace("</", "<\\/")
    return (PAGE.replace("__MODULE__", html.escape(str(record.get("module", ""))))
            .replace("__DATA__", data))
