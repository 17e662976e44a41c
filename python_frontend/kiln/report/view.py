"""What `kiln.report(...)` returns: one build record shown by the existing
renderers, never a third one -- in Jupyter the heatmap fragment of html.py
(`_repr_html_`), under `print()` or IPython's text view the terminal report
of terminal.py (without colours)."""

from __future__ import annotations

import json

from . import html, terminal
from .model import Tally


class ReportView:
    """A build record (`record`, the `kiln-report/1` dict of `<mod>.kiln.json`)
    that shows itself as Kiln's report."""

    def __init__(self, record: dict, source_name: str | None = None):
        self.record = record
        # How the source is named where it has no file of its own (a cell).
        self.source_name = source_name

    def _shown(self) -> dict:
        if self.source_name is None:
            return self.record
        return renamed_source(self.record, self.source_name)

    def _repr_html_(self) -> str:
        # A new id each time: the same report shown twice is two elements.
        return html.fragment(self._shown())

    def __str__(self) -> str:
        return terminal.render(self._shown(), use_colour=False)

    def _repr_pretty_(self, printer, cycle) -> None:
        printer.text(str(self))

    def __repr__(self) -> str:
        functions = self.record.get("functions", [])
        compiled = sum(1 for f in functions if f.get("compiled"))
        coverage = terminal.percent(self.record.get("module_coverage")).strip()
        return (f"<kiln report of {self.record.get('module')}: {compiled} of {len(functions)} "
                f"functions compiled, coverage {coverage}>")

    def save_html(self, path: str) -> None:
        """The same report as the page `kiln report --html` writes."""
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(html.render(self._shown()))


def renamed_source(record: dict, name: str) -> dict:
    """The record with its source file called `name` (`<cell In[3]>`) in
    the header and in every fallback and finding."""
    path = record.get("source")

    def rename(entries):
        return [dict(entry, file=name) if entry.get("file") == path else entry
                for entry in entries]
    return dict(record, module=name, source=name,
                fallbacks=rename(record.get("fallbacks", [])),
                findings=rename(record.get("findings", [])))


def merged_record(records: list) -> dict:
    """One record of a source from several builds of parts of it (the
    compile cache builds each function apart, with the functions it calls):
    each function as the build that compiled it describes it, the union of
    fallbacks, findings and remarks, and the module's coverage computed
    again over the compiled functions' instructions."""
    if len(records) == 1:
        return records[0]
    merged = dict(records[0])
    by_name: dict = {}
    for record in records:
        for function in record.get("functions", []):
            known = by_name.get(function["name"])
            # a build that did not compile a function lists it as not compiled
            if known is None or (function.get("compiled") and not known.get("compiled")):
                by_name[function["name"]] = function
    merged["functions"] = sorted(by_name.values(), key=lambda f: f.get("line", 0))
    for key in ("fallbacks", "findings", "llvm_remarks"):
        seen, entries = set(), []
        for record in records:
            for entry in record.get(key, []):
                identity = json.dumps(entry, sort_keys=True)
                if identity not in seen:
                    seen.add(identity)
                    entries.append(entry)
        merged[key] = entries
    total = Tally()
    bits = merged.get("vector_register_bits", 256)
    for function in merged["functions"]:
        if function.get("coverage") is not None:
            for instruction in function.get("instructions", []):
                total.add(instruction, bits)
    metrics = total.metrics()
    merged["module_coverage"] = metrics["coverage"]
    merged["module_lane_utilization"] = metrics["lane_utilization"]
    return merged
