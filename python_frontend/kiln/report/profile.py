"""`kiln report mod.py --profile script.py`: run the script against the built
module and measure the time share of each compiled and fallback function."""

from __future__ import annotations

import cProfile
import os
import pstats
import runpy
import sys


def profile(script: str, outdir: str, record: dict) -> dict:
    names = {f["name"]: f["compiled"] for f in record["functions"]}
    stub = os.path.join(outdir, f"{record['module']}.py")
    sys.path.insert(0, outdir)
    sys.modules.pop(record["module"], None)
    profiler = cProfile.Profile()
    argv = sys.argv
    sys.argv = [script]
    try:
        profiler.enable()
        try:
            runpy.run_path(script, run_name="__main__")
        except SystemExit as stop:
            if stop.code not in (None, 0):
                raise  # a failed run measures nothing worth showing
    finally:
        profiler.disable()
        sys.argv = argv
        sys.path.remove(outdir)
    stats = pstats.Stats(profiler)
    total = max(stats.total_tt, 1e-12)
    seconds = {name: 0.0 for name in names}
    for (filename, _, function), entry in stats.stats.items():
        cumulative = entry[3]
        if function in names and not names[function] and os.path.samefile(filename, stub) \
                if os.path.exists(filename) else False:
            seconds[function] += cumulative
            continue
        for name, compiled in names.items():
            if compiled and function.endswith(f".{name}>") and "built-in" in function:
                seconds[name] += cumulative
    return {"script": script, "total_seconds": round(total, 6),
            "functions": {name: {"seconds": round(s, 6), "share": round(s / total, 4),
                                 "compiled": names[name]} for name, s in seconds.items()}}
