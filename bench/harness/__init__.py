"""Kiln's performance suite: `bench/run.py` drives these modules in order
(builds, checks, side-by-side timings, physical limits, call overhead,
compile times, report)."""
