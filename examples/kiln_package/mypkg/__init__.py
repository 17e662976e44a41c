"""An example package: `kernels` is compiled by Kiln when the wheel is built."""
from .kernels import moving_average, rms  # noqa: F401
