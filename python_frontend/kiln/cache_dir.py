"""Where Kiln keeps what it computes once and reuses: compiled modules
(compiler/cache.py), kilnc's answers to its probes (toolchain.py) and the
measured fastmath gain (report/fastmath_gain.py)."""

from __future__ import annotations

import os


def cache_root() -> str:
    configured = os.environ.get("KILN_CACHE_DIR")
    if configured:
        return configured
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "kiln")


# The root's own folders, beside the compiled entries (`<mod>.<function>.<key>`):
# `kiln cache list`, `prune` and `clear` manage entries and leave these alone.
SOURCES = "sources"                # sources of functions without a file (cache.py)
MEASUREMENTS = "measurements"      # report/fastmath_gain.py
KILNC_PROBES = "kilnc-probes"      # toolchain.probe_kilnc
OWN_FOLDERS = frozenset((SOURCES, MEASUREMENTS, KILNC_PROBES))
