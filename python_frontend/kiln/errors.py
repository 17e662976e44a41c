"""Errors the compiler reports to users."""

from __future__ import annotations

import re
from dataclasses import dataclass

# The names frontend/variable_webs.py gives the second and later webs of a
# variable (`y__kv1`): every message shows the user's name instead.
VARIABLE_WEB_SUFFIX = re.compile(r"__kv\d+\b")
# The copies of a helper typed at other argument types
# (typecheck/specialization.py: `relu__ks_f64_2d`), shown as the helper.
SPECIALIZATION_SUFFIX = "__ks_"
# The copies of a helper for the functions passed to it
# (frontend/function_arguments.py: `apply__kf_square`), shown as the helper.
FUNCTION_ARGUMENT_SUFFIX = "__kf_"
# A caller's variable a lambda passed to a helper reads, as the parameter
# of the helper's copy holding it (`scale__kc`), shown as the variable.
CAPTURED_SUFFIX = "__kc"
_CAPTURED_NAME = re.compile(r"(?:__kc)+\b")
# An element of an exported function's tuple parameter, as the C ABI takes
# it (`mask__t0`; frontend/function_arguments.py), shown as the tuple.
TUPLE_ELEMENT_SUFFIX = "__t"
_TUPLE_ELEMENT_NAME = re.compile(r"__t\d+\b")
_SPECIALIZATION_NAME = re.compile(
    f"(?:{SPECIALIZATION_SUFFIX}|{FUNCTION_ARGUMENT_SUFFIX})" + r"\w*")


def display_name(text: str) -> str:
    """`text` with every web's name shown as the user's variable, and every
    specialization's as its helper."""
    for generated in (VARIABLE_WEB_SUFFIX, _TUPLE_ELEMENT_NAME, _CAPTURED_NAME,
                      _SPECIALIZATION_NAME):
        text = generated.sub("", text)
    return text


def with_article(noun: str) -> str:
    """`noun` after "a" or "an", as messages name one thing ("an int8")."""
    return f"{'an' if str(noun)[:1] in 'aeiou' else 'a'} {noun}"


@dataclass(frozen=True)
class Diagnostic:
    file: str
    line: int
    column: int       # 1-based, like the MLIR locations Kiln emits
    message: str
    function: str = ""

    def __post_init__(self):
        object.__setattr__(self, "message", display_name(self.message))

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}: {self.message}"


# Why a class marked @kiln.export runs as Python (kiln/__init__.py at import,
# the build record's fallbacks at `kiln build`).
CLASS_FALLBACK = "classes are not compiled yet: the class and its methods run as Python"


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


class KilnFallbackWarning(UserWarning):
    """A decorated function could not be compiled and runs as Python
    (`kiln.KilnFallbackWarning`; here so that the `%%kiln` magic, which
    kiln itself does not import, can name it too)."""


KilnFallbackWarning.__module__ = "kiln"     # where users import it from


# --- printing diagnostics like a compiler ----------------------------------
#
#   bad.py:5:12: error: bytes is not supported yet
#       5 |     return b'x' and x
#         |            ^
#
# The layout of clang and mypy: editors and CI annotators parse the first
# line, people read the other two.

_STYLES = {"error": "\033[1;31m", "warning": "\033[1;35m", "note": "\033[1;36m",
           "location": "\033[1m", "caret": "\033[1;32m", "reset": "\033[0m"}


def colour_wanted(stream, choice: str = "auto") -> bool:
    """`always`/`never`, or (`auto`) only on a terminal, and never when
    NO_COLOR is set (https://no-color.org) or the terminal is dumb."""
    if choice in ("always", "never"):
        return choice == "always"
    import os
    if os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


class SourceLines:
    """The lines of the files diagnostics point into, each file read once
    (with its coding declaration; undecodable bytes shown as U+FFFD)."""

    def __init__(self):
        self._files: dict = {}

    def line(self, path: str, number: int):
        if path not in self._files:
            self._files[path] = self._read(path)
        lines = self._files[path]
        return lines[number - 1] if lines and 1 <= number <= len(lines) else None

    @staticmethod
    def _read(path: str):
        import tokenize
        try:
            with open(path, "rb") as handle:
                data = handle.read()
        except OSError:
            return None
        try:
            import io
            encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        except SyntaxError:
            encoding = "utf-8"
        try:
            text = data.decode(encoding, errors="replace")
        except LookupError:
            text = data.decode("utf-8", errors="replace")
        return text.splitlines()


def caret_offset(text: str, column: int) -> int:
    """Characters before the caret. Diagnostic columns count UTF-8 bytes
    (as `ast` col_offset does, and clang); the caret goes under the
    character that starts at that byte."""
    encoded = text.encode("utf-8")
    prefix = encoded[:max(column - 1, 0)]
    return len(prefix.decode("utf-8", errors="ignore"))


def render_diagnostic(diagnostic: Diagnostic, severity: str = "error", *, shown_path=None,
                      sources: SourceLines | None = None, colour: bool = False,
                      note: str = "") -> str:
    """`path:line:col: severity: message`, the source line and a caret under
    the column; `shown_path` is the path as the user wrote it (diagnostics
    carry absolute paths)."""
    def style(kind, text):
        return f"{_STYLES[kind]}{text}{_STYLES['reset']}" if colour else text

    path = shown_path or diagnostic.file
    head = style("location", f"{path}:{diagnostic.line}:{diagnostic.column}:")
    out = [f"{head} {style(severity, severity + ':')} {diagnostic.message}"]
    text = (sources or SourceLines()).line(diagnostic.file, diagnostic.line)
    if text is not None:
        text = text.rstrip()
        gutter = f"{diagnostic.line:5d} | "
        # Tabs stay tabs so the caret lines up however the terminal shows them.
        indent = "".join(c if c == "\t" else " " for c in text[:caret_offset(text,
                                                                            diagnostic.column)])
        out.append(f"{gutter}{text}")
        out.append(f"{' ' * (len(gutter) - 2)}| {indent}{style('caret', '^')}")
    if note:
        out.append(f"{head} {style('note', 'note:')} {note}")
    return "\n".join(out)
