"""Kiln's IR-quality reporter: how much of each function, loop, block and
Python line became SIMD code, and what fell back, from the build record."""
