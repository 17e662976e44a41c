"""An example package built by meson-python: `kernels` is compiled by Kiln
when the wheel is built."""
from .kernels import smooth, total  # noqa: F401
