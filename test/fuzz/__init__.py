"""Kiln's random-program differential fuzzer (see docs/fuzzing.md).

Modules: generator (random programs of the documented subset), semantics and
oracle (CPython under the documented differences), inputs (edge values,
sizes, strided/reversed/aliased views), worker (crash-safe native calls),
compare, harness (build, run, classify), reducer (delta debugging),
campaign (command line: `python3 -m fuzz`)."""
