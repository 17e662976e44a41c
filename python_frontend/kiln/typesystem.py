"""Kiln's type vocabulary: the scalar dtypes and strided array views.

Annotations name these objects (``kiln.f64``, ``kiln.f64[:]``,
``kiln.i32[:, :]``); the frontend also resolves them from source text, so a
module is compiled without being imported.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ScalarType:
    name: str          # user-facing: "f64", "int", ...
    mlir: str          # MLIR type in kernels
    kind: str          # "float", "int" or "bool"
    bits: int
    c_type: str        # C type in the generated header
    buffer_formats: tuple = ()  # struct-module format codes accepted for arrays
    numpy_name: str = ""

    def __getitem__(self, dims) -> "ArrayType":
        dims = dims if isinstance(dims, tuple) else (dims,)
        if not dims or not all(isinstance(d, slice) and d == slice(None) for d in dims):
            raise TypeError(f"array annotations are written {self.name}[:], {self.name}[:, :], ...")
        return ArrayType(self, len(dims))

    def __repr__(self) -> str:
        return self.name

    def __call__(self, value):
        """`kiln.f32(x)` in plain Python converts like numpy's scalar types."""
        try:
            import numpy
        except ImportError:
            return {"float": float, "int": int, "bool": bool}[self.kind](value)
        return getattr(numpy, self.numpy_name)(value)

    @property
    def display(self) -> str:
        """How error messages name the type: Python's names where they exist."""
        return {"f64": "float", "i64": "int", "bool": "bool"}.get(self.name, f"kiln.{self.name}")

    @property
    def is_float(self) -> bool:
        return self.kind == "float"

    @property
    def is_int(self) -> bool:
        return self.kind == "int"

    @property
    def is_bool(self) -> bool:
        return self.kind == "bool"


@dataclass(frozen=True)
class ArrayType:
    dtype: ScalarType
    ndim: int

    @property
    def mlir(self) -> str:
        shape = "x".join("?" * self.ndim)
        strides = ", ".join("?" * self.ndim)
        return f"memref<{shape}x{self.dtype.mlir}, strided<[{strides}], offset: ?>>"

    @property
    def name(self) -> str:
        return f"{self.dtype.name}[{', '.join(':' * self.ndim)}]"

    @property
    def display(self) -> str:
        return "kiln." + self.name

    def __repr__(self) -> str:
        return self.name


@dataclass(frozen=True)
class TupleType:
    """A tuple of scalars: returned from functions and unpacked by callers."""
    elements: tuple

    @property
    def name(self) -> str:
        return "tuple[" + ", ".join(e.name for e in self.elements) + "]"

    @property
    def display(self) -> str:
        return "tuple[" + ", ".join(e.display for e in self.elements) + "]"


f64 = ScalarType("f64", "f64", "float", 64, "double", ("d",), "float64")
f32 = ScalarType("f32", "f32", "float", 32, "float", ("f",), "float32")
i64 = ScalarType("i64", "i64", "int", 64, "int64_t", ("q", "l"), "int64")
i32 = ScalarType("i32", "i32", "int", 32, "int32_t", ("i",), "int32")
boolean = ScalarType("bool", "i1", "bool", 1, "bool", ("?",), "bool_")

# Python's own scalar types are the 64-bit ones.
PYTHON_SCALARS = {"int": i64, "float": f64, "bool": boolean}
KILN_SCALARS = {"f64": f64, "f32": f32, "i64": i64, "i32": i32}
ARRAY_DTYPES = (f64, f32, i64, i32)


# The promotion rules live with the other typing rules; they stay importable
# from here (PEP 562 lazy attributes: typing_rules imports this module).
_TYPING_RULES = ("promote", "weak_promote", "default_for_kind")


def __getattr__(name):
    if name in _TYPING_RULES:
        from .compiler import typing_rules
        value = globals()[name] = getattr(typing_rules, name)
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
