"""A script for `kiln report --profile`: mostly compiled work, some Python."""
import numpy as np

import report_kernels

x = np.random.default_rng(0).standard_normal(200_000)
out = np.empty_like(x)
for _ in range(50):
    report_kernels.saxpy(2.0, x, x, out)
    report_kernels.prefix_sum(x, out)
for n in range(20_000):
    report_kernels.uses_a_string(n)
