"""How many threads a kiln.prange loop uses: asked of the C rule the
artifacts run (runtime/kiln_parallel.c, in libkiln_cpu.so), never
re-derived here."""

from __future__ import annotations

import ctypes

from . import cpu_levels

_COUNT = None


def thread_count() -> int:
    global _COUNT
    if _COUNT is None:
        function = ctypes.CDLL(cpu_levels.library_path()).kiln_parallel_thread_count
        function.argtypes = []
        function.restype = ctypes.c_int32
        _COUNT = function
    return _COUNT()
