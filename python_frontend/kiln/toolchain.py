"""Finding and running kilnc, and what it answers about itself.

Its answers to the probes every build makes (`--print-capabilities`, and
whether it knows a --target-cpu) depend only on the kilnc binary: they are
kept on disk under the cache root per binary (path, size, modification
time), so a warm `kiln build` starts kilnc once, for the module."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import tempfile

from .cache_dir import KILNC_PROBES, cache_root
from .errors import KilnToolchainError


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
    installed = os.path.join(here, "_bin", "kilnc")
    if os.access(installed, os.X_OK):
        return installed
    in_tree = os.path.normpath(os.path.join(here, "..", "..", "build", "bin", "kilnc"))
    if os.access(in_tree, os.X_OK):
        return in_tree
    on_path = shutil.which("kilnc")
    if on_path:
        return on_path
    raise KilnToolchainError("kilnc not found: build Kiln (cmake --build build) or set "
                             "KILN_KILNC")


def kilnc_identity(kilnc: str) -> str:
    """Which kilnc binary this is: a rebuilt or replaced kilnc is another."""
    info = os.stat(kilnc)
    return f"{kilnc}:{info.st_size}:{info.st_mtime_ns}"


def compiler_fingerprint() -> str:
    """Identity of the compiler itself: Kiln's Python sources (wrappers and
    code generation live there) and the kilnc binary. A rebuilt Kiln must
    not load code an older one made."""
    digest = hashlib.sha256()
    package = os.path.dirname(os.path.abspath(__file__))
    for root, _, files in sorted(os.walk(package)):
        for name in sorted(files):
            if name.endswith(".py"):
                with open(os.path.join(root, name), "rb") as handle:
                    digest.update(handle.read())
    try:
        info = os.stat(find_kilnc())
        digest.update(f"{info.st_size}:{info.st_mtime_ns}".encode())
    except Exception:  # noqa: BLE001 - no kilnc: the build itself will say so
        pass
    return digest.hexdigest()[:16]


def probe_kilnc(kilnc: str, question: str, ask, keep=lambda answer: True) -> dict:
    """kilnc's answer to `question`: `ask(kilnc)` returns it (a JSON-able
    dict) the first time for this binary; later calls read it from disk.
    An answer `keep` refuses (a failure that may not happen again) is not
    stored. A cache that cannot be read or written only means asking again."""
    key = hashlib.sha256(f"{kilnc_identity(kilnc)}\0{question}".encode()).hexdigest()[:24]
    record = os.path.join(cache_root(), KILNC_PROBES, f"{key}.json")
    try:
        with open(record, encoding="utf-8") as handle:
            stored = json.load(handle)
        if stored.get("question") == question:
            return stored["answer"]
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        pass
    answer = ask(kilnc)
    if not keep(answer):
        return answer
    try:
        os.makedirs(os.path.dirname(record), exist_ok=True)
        fd, temporary = tempfile.mkstemp(dir=os.path.dirname(record))
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump({"question": question, "answer": answer}, handle)
        os.replace(temporary, record)
    except OSError:
        pass
    return answer


def ask_capabilities(kilnc: str) -> dict:
    result = subprocess.run([kilnc, "--print-capabilities"], capture_output=True, text=True)
    return {"returncode": result.returncode, "stdout": result.stdout, "stderr": result.stderr}


_CAPABILITIES: dict = {}


def kilnc_capabilities() -> dict:
    """What the kilnc in use supports (`kilnc --print-capabilities`): its
    version, --emit kinds, option names and the C ABI (exception kinds,
    error record layout, the text of kiln_abi.h). Asked once per kilnc
    binary (probe_kilnc), read once per process."""
    kilnc = find_kilnc()
    if kilnc not in _CAPABILITIES:
        result = probe_kilnc(kilnc, "--print-capabilities", ask_capabilities,
                             keep=lambda answer: answer["returncode"] == 0)
        try:
            if result["returncode"] != 0:
                raise ValueError(result["stderr"].strip() or f"exit {result['returncode']}")
            capabilities = json.loads(result["stdout"])
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


def ask_target_cpu(target_cpu: str):
    def ask(kilnc: str) -> dict:
        with tempfile.TemporaryDirectory(prefix="kiln-cpu-") as scratch:
            empty = os.path.join(scratch, "empty.mlir")
            with open(empty, "w", encoding="utf-8") as handle:
                handle.write("module {}\n")
            result = subprocess.run([kilnc, empty, "--emit=obj", f"--target-cpu={target_cpu}",
                                     "-o", os.path.join(scratch, "empty.o")],
                                    capture_output=True, text=True)
        return {"returncode": result.returncode, "stderr": result.stderr}
    return ask


def target_cpu_rejection(target_cpu: str):
    """Why kilnc rejects --target-cpu=`target_cpu` (compiling an empty
    module for it), or None when it accepts it. Asked once per kilnc binary
    and CPU name."""
    answer = probe_kilnc(find_kilnc(), f"--target-cpu={target_cpu}", ask_target_cpu(target_cpu),
                         # A crash (killed by a signal) says nothing about the name.
                         keep=lambda answer: answer["returncode"] >= 0)
    if answer["returncode"] == 0:
        return None
    lines = [line for line in answer["stderr"].splitlines() if "error:" in line]
    return lines[-1].split("error:", 1)[1].strip() if lines else "kilnc rejects it"


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
