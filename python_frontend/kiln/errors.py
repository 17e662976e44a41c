"""Errors the compiler reports to users."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Diagnostic:
    file: str
    line: int
    column: int       # 1-based, like the MLIR locations Kiln emits
    message: str
    function: str = ""

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}: {self.message}"


class KilnCompileError(Exception):
    """A function uses Python that Kiln cannot compile.

    ``diagnostics`` lists every problem found, each with file:line:col; the
    exception text shows them all.
    """

    def __init__(self, diagnostics):
        if isinstance(diagnostics, Diagnostic):
            diagnostics = [diagnostics]
        self.diagnostics = list(diagnostics)
        super().__init__("\n".join(str(d) for d in self.diagnostics))


class KilnToolchainError(Exception):
    """kilnc (or the C/Python toolchain behind it) failed or is missing."""
