"""Finding and running kilnc."""

from __future__ import annotations

import json
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
    # Installed by pip (setup.py puts the tools inside the package), then a
    # checkout's own build.
    installed = os.path.normpath(os.path.join(here, "..", "_bin", "kilnc"))
    if os.access(installed, os.X_OK):
        return installed
    in_tree = os.path.normpath(os.path.join(here, "..", "..", "..", "build", "bin", "kilnc"))
    if os.access(in_tree, os.X_OK):
        return in_tree
    on_path = shutil.which("kilnc")
    if on_path:
        return on_path
    raise KilnToolchainError("kilnc not found: build Kiln (cmake --build build) or set "
                             "KILN_KILNC")


_CAPABILITIES: dict = {}


def kilnc_capabilities() -> dict:
    """What the kilnc in use supports (`kilnc --print-capabilities`): its
    version, --emit kinds, option names and the C ABI (exception kinds,
    error record layout, the text of kiln_abi.h). Asked once per process
    and kilnc."""
    kilnc = find_kilnc()
    if kilnc not in _CAPABILITIES:
        result = subprocess.run([kilnc, "--print-capabilities"], capture_output=True,
                                text=True)
        try:
            if result.returncode != 0:
                raise ValueError(result.stderr.strip() or f"exit {result.returncode}")
            capabilities = json.loads(result.stdout)
            if capabilities.get("schema") != "kilnc-capabilities/1":
                raise ValueError(f"unknown schema {capabilities.get('schema')!r}")
            # Facts the frontend generates code for must be kilnc's (a kilnc
            # from another tree read other strides than the calls passed).
            from .typing_rules import MAX_ARRAY_NDIM
            max_ndim = capabilities.get("abi", {}).get("max_ndim")
            if max_ndim != MAX_ARRAY_NDIM:
                raise ValueError(f"its runtime takes arrays of up to {max_ndim} dimensions, "
                                 f"this frontend makes up to {MAX_ARRAY_NDIM}")
        except ValueError as error:
            raise KilnToolchainError(
                f"{kilnc} is not a kilnc this Kiln can drive (--print-capabilities: "
                f"{error}); rebuild Kiln or point KILN_KILNC at a matching kilnc") from None
        _CAPABILITIES[kilnc] = capabilities
    return _CAPABILITIES[kilnc]


def kilnc_supports(option: str) -> bool:
    """Whether kilnc has the option, named without dashes (`vector-report`)."""
    return option.lstrip("-") in kilnc_capabilities()["options"]


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
