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
