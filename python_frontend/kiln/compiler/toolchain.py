"""Finding and running kilnc."""

from __future__ import annotations

import os
import shutil
import subprocess

from ..errors import KilnToolchainError


def find_kilnc() -> str:
    configured = os.environ.get("KILN_KILNC")
    if configured:
        configured = os.path.abspath(configured)
        if not os.access(configured, os.X_OK):
            raise KilnToolchainError(f"KILN_KILNC={configured} is not an executable")
        return configured
    here = os.path.dirname(os.path.abspath(__file__))
    in_tree = os.path.normpath(os.path.join(here, "..", "..", "..", "build", "bin", "kilnc"))
    if os.access(in_tree, os.X_OK):
        return in_tree
    on_path = shutil.which("kilnc")
    if on_path:
        return on_path
    raise KilnToolchainError("kilnc not found: build Kiln (cmake --build build) or set "
                             "KILN_KILNC")


_OPTIONS_CACHE: dict = {}


def kilnc_supports(option: str) -> bool:
    kilnc = find_kilnc()
    if kilnc not in _OPTIONS_CACHE:
        result = subprocess.run([kilnc, "--help"], capture_output=True, text=True)
        _OPTIONS_CACHE[kilnc] = result.stdout
    return option in _OPTIONS_CACHE[kilnc]


def start_kilnc(args) -> subprocess.Popen:
    return subprocess.Popen([find_kilnc(), *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


class KilncFailed(KilnToolchainError):
    """kilnc ran and rejected its input (or crashed on it): the build finds
    the functions responsible (compiler.isolate_rejected)."""

    def __init__(self, message: str, output: str):
        super().__init__(message)
        self.output = output


def wait_kilnc(process: subprocess.Popen, what: str) -> None:
    out, err = process.communicate()
    if process.returncode != 0:
        raise KilncFailed(f"kilnc failed while building {what} "
                          f"(exit {process.returncode}):\n{err}{out}", f"{err}{out}")
