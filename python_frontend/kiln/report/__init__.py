"""Stage 7, report: loop verdicts, and how much of each function and line became SIMD code."""
