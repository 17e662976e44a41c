"""Kiln's type vocabulary: the scalar dtypes and strided array views.

Annotations name these objects (``kiln.f64``, ``kiln.f64[:]``,
``kiln.i32[:, :]``); the frontend also resolves them from source text, so a
module is compiled without being imported.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ScalarType:
    """One row of the dtype table: every fact a stage needs about a dtype."""
    name: str          # Kiln's spelling: `kiln.<name>` ("f64", "u8", "bool", ...)
    mlir: str          # MLIR type in kernels (integers are signless: see `signed`)
    kind: str          # "float", "int", "bool", "complex"
    bits: int
    signed: bool       # picks the MLIR ops: divsi/divui, extsi/extui, sitofp/uitofp, ...
    c_type: str        # C type in the generated header
    buffer_formats: tuple  # struct-module format codes accepted for arrays
    numpy_name: str    # numpy's type name (`numpy.<numpy_name>`, .pyi annotations)
    char: str          # numpy's dtype.char on LP64 Linux (the wrapper's fast path)

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
            return {"float": float, "int": int, "bool": bool, "complex": complex}[self.kind](value)
        return getattr(numpy, self.numpy_name)(value)

    @property
    def display(self) -> str:
        """How error messages name the type: Python's names where they exist."""
        return {"f64": "float", "i64": "int", "bool": "bool", "c128": "complex"}.get(
            self.name, f"kiln.{self.name}")

    @property
    def result_format(self) -> str:
        """The PEP 3118 format of arrays Kiln returns: numpy's dtype.char
        (so int64 arrays print as numpy's do), "Zd" for complex128, "Zf"
        for complex64."""
        return "Z" + self.part.char if self.is_complex else self.char

    @property
    def part(self) -> "ScalarType":
        """The float type of a complex number's real and imaginary parts."""
        assert self.is_complex, self
        return f32 if self.bits == 64 else f64

    @staticmethod
    def complex_of(part: "ScalarType") -> "ScalarType":
        """The complex type whose parts are float type `part`."""
        return c64 if part == f32 else c128

    @property
    def itemsize(self) -> int:
        """Bytes per array element (a bool is stored in one byte)."""
        return max(self.bits // 8, 1)

    @property
    def array_spelling(self) -> str:
        """`kiln.b1[:]` is a numpy bool array; other dtypes keep their name."""
        return "b1" if self.is_bool else self.name

    @property
    def is_float(self) -> bool:
        return self.kind == "float"

    @property
    def is_int(self) -> bool:
        return self.kind == "int"

    @property
    def is_bool(self) -> bool:
        return self.kind == "bool"

    @property
    def is_complex(self) -> bool:
        return self.kind == "complex"

    @property
    def is_unsigned(self) -> bool:
        return self.kind == "int" and not self.signed

    @property
    def min_value(self) -> int:
        return -(1 << (self.bits - 1)) if self.signed else 0

    @property
    def max_value(self) -> int:
        return (1 << (self.bits - 1 if self.signed else self.bits)) - 1


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
        return f"{self.dtype.array_spelling}[{', '.join(':' * self.ndim)}]"

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


class _NewListDefault:
    """The default of a parameter that gets a new empty list each time it
    is left out: a dataclass field's `field(default_factory=list)` (the
    parameter of its generated `__init__`)."""

    def __repr__(self) -> str:
        return "NEW_LIST_DEFAULT"


NEW_LIST_DEFAULT = _NewListDefault()


@dataclass(frozen=True)
class ListType:
    """A Python list whose items are all of one type, held natively
    (runtime/kiln_abi.h's `kiln_list`): int, float and bool items
    (LIST_ITEM_TYPES), stored unboxed as int64_t, double and one byte, and
    str items, each a counted reference to a kiln_str."""
    item: ScalarType

    @property
    def mlir(self) -> str:
        return f"!kiln.list<{self.item.mlir}>"

    @property
    def name(self) -> str:
        return f"list[{self.item.display}]"

    @property
    def display(self) -> str:
        return self.name

    @property
    def item_size(self) -> int:
        """Bytes per item in `kiln_list.items` (a bool is one byte)."""
        return self.item.itemsize

    def with_item(self, item) -> "ListType":
        return ListType(item)

    def __repr__(self) -> str:
        return self.name


@dataclass(frozen=True)
class DictType:
    """A Python dict whose keys are of one type and values of one type,
    held natively (runtime/kiln_abi.h's `kiln_dict`): Python's int, float
    and bool (DICT_ITEM_TYPES), each stored in 8 bytes, in insertion order.

    `dict_class` is collections' subclass the dict is, which changes what
    reading a missing key does (the MLIR type is the same): None, a dict
    (KeyError); "defaultdict", `default` (its factory's value: 0 for
    `defaultdict(int)`, 0.0, False, or a lambda's constant) is inserted and
    read; "Counter", 0 is read and nothing inserted (Counter.__missing__)."""
    key: ScalarType
    value: ScalarType
    dict_class: str | None = None
    default: object = None

    @property
    def mlir(self) -> str:
        return f"!kiln.dict<{self.key.mlir}, {self.value.mlir}>"

    @property
    def name(self) -> str:
        if self.dict_class == "Counter":
            return f"Counter[{self.key.display}]"
        if self.dict_class == "defaultdict":
            factory = "" if self.default == 0 else f" (default {self.default!r})"
            return f"defaultdict[{self.key.display}, {self.value.display}]{factory}"
        return f"dict[{self.key.display}, {self.value.display}]"

    def with_items(self, key, value) -> "DictType":
        """The same class of dict (its default kept) with other key and
        value types."""
        return DictType(key, value, self.dict_class, self.default)

    @property
    def plain(self) -> "DictType":
        """A dict of the same keys and values (`dict(d)` of a Counter)."""
        return DictType(self.key, self.value)

    @property
    def display(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return self.name


@dataclass(frozen=True)
class SetType:
    """A Python set whose elements are all of one type, held natively as a
    dict without values (runtime/kiln_abi.h's `kiln_dict`, `value_kind`
    KILN_ITEM_NONE): Python's int, float and bool (SET_ITEM_TYPES), each
    stored in 8 bytes, in the order they were first added. The elements
    are `key` (a dict's keys, walked the same way); `item` says it as a
    list's `item` does."""
    key: ScalarType

    @property
    def item(self):
        return self.key

    @property
    def mlir(self) -> str:
        return f"!kiln.set<{self.key.mlir}>"

    @property
    def name(self) -> str:
        return f"set[{self.key.display}]"

    @property
    def display(self) -> str:
        return self.name

    def with_item(self, item) -> "SetType":
        return SetType(item)

    def __repr__(self) -> str:
        return self.name


@dataclass(frozen=True)
class StrType:
    """Python's str, held natively (runtime/kiln_abi.h's `kiln_str`: the
    code points in CPython's PEP 393 layout, reference counted like a
    list, never changed once made). One type: `kt.string`. As a list's
    item or a dict's key or value it is a pointer held by reference
    (runtime/kiln_abi.h's KILN_ITEM_STR); the `is_*` flags say it is no
    number, so code that asks an item type whether it is one can."""
    is_bool = False
    is_int = False
    is_float = False
    is_complex = False
    kind = "str"
    itemsize = 8

    @property
    def mlir(self) -> str:
        return "!kiln.str"

    @property
    def name(self) -> str:
        return "str"

    @property
    def display(self) -> str:
        return "str"

    def __repr__(self) -> str:
        return "str"


string = StrType()


@dataclass(frozen=True)
class ClassType:
    """An instance of a class the module exports (issue 31,
    frontend/classes.py): a CPython object of the heap type the extension
    makes, its fields unboxed in 8-byte slots after the object header,
    reference counted like a container. `optional`: the value may also be
    None (`Optional[Node]`, `Node | None`), held as a NULL pointer."""
    class_name: str
    optional: bool = False
    is_bool = False
    is_int = False
    is_float = False
    is_complex = False
    kind = "object"
    itemsize = 8

    @property
    def mlir(self) -> str:
        return f'!kiln.object<"{self.class_name}">'

    @property
    def c_type(self) -> str:
        return "void *"

    @property
    def name(self) -> str:
        return f"{self.class_name} | None" if self.optional else self.class_name

    @property
    def display(self) -> str:
        return self.name

    @property
    def required(self) -> "ClassType":
        """The same class without None."""
        return ClassType(self.class_name) if self.optional else self

    @property
    def as_optional(self) -> "ClassType":
        return self if self.optional else ClassType(self.class_name, True)

    def __repr__(self) -> str:
        return self.name


@dataclass(frozen=True)
class DTypeValue:
    """A dtype used as a value: `dt = x.dtype`, `np.float32` passed to a
    helper, a helper's `dtype=np.float64` default. Each dtype is its own
    type, so what it is is known at compile time wherever it is used
    (`np.zeros(n, dtype=dt)`, `x.astype(dt)`, `dt == np.float32`); a helper
    called with two of them is compiled once for each
    (typecheck/specialization.py). At run time it is a one-byte code that
    nothing reads.

    `origin` is what Python would hold: the numpy type object
    (`np.float64`: "numpy"), Python's (`float`: "python") or an array's
    dtype (`x.dtype`: "array"). Comparisons need it: an array's dtype equals
    every name of its type, two type objects only themselves (`float ==
    np.float64` is False in Python)."""
    dtype: ScalarType
    origin: str = "numpy"
    is_bool = False
    is_int = False
    is_float = False
    is_complex = False
    kind = "dtype"

    @property
    def name(self) -> str:
        return f"dtype_{self.dtype.name}" + ("" if self.origin == "numpy" else f"_{self.origin}")

    @property
    def display(self) -> str:
        if self.origin == "python":
            return {"f64": "float", "i64": "int", "bool": "bool", "c128": "complex"}[
                self.dtype.name]
        if self.origin == "array":
            return f"an array's dtype {self.dtype.numpy_name}"
        return f"np.{self.dtype.numpy_name}"

    def equals(self, other: "DTypeValue") -> bool:
        """Python's `==` of the two values."""
        return self.dtype == other.dtype and (
            "array" in (self.origin, other.origin) or self.origin == other.origin)

    @property
    def code(self) -> int:
        """Its value at run time: the dtype's row in SCALAR_DTYPES."""
        return SCALAR_DTYPES.index(self.dtype)


@dataclass(frozen=True)
class NoneType:
    """The type of the `None` literal before it joins a class type (`x =
    None` then `x = Node(...)` makes x a `Node | None`)."""
    is_bool = False
    is_int = False
    is_float = False
    is_complex = False
    kind = "none"

    @property
    def name(self) -> str:
        return "None"

    @property
    def display(self) -> str:
        return "None"

    def __repr__(self) -> str:
        return "None"


none_type = NoneType()


# The dtype table. Every stage (annotations, typing, MLIR, wrapper, header,
# stubs, report) reads these rows; tests/test_dtype_table.py round-trips
# each row through all of them.
f64 = ScalarType("f64", "f64", "float", 64, True, "double", ("d",), "float64", "d")
f32 = ScalarType("f32", "f32", "float", 32, True, "float", ("f",), "float32", "f")
i64 = ScalarType("i64", "i64", "int", 64, True, "int64_t", ("q", "l"), "int64", "l")
i32 = ScalarType("i32", "i32", "int", 32, True, "int32_t", ("i",), "int32", "i")
i16 = ScalarType("i16", "i16", "int", 16, True, "int16_t", ("h",), "int16", "h")
i8 = ScalarType("i8", "i8", "int", 8, True, "int8_t", ("b",), "int8", "b")
u64 = ScalarType("u64", "i64", "int", 64, False, "uint64_t", ("Q", "L"), "uint64", "L")
u32 = ScalarType("u32", "i32", "int", 32, False, "uint32_t", ("I",), "uint32", "I")
u16 = ScalarType("u16", "i16", "int", 16, False, "uint16_t", ("H",), "uint16", "H")
u8 = ScalarType("u8", "i8", "int", 8, False, "uint8_t", ("B",), "uint8", "B")
boolean = ScalarType("bool", "i1", "bool", 1, False, "bool", ("?",), "bool_", "?")
# Python's complex: two float64 parts, C99's `double _Complex` (the same
# registers as two doubles in the x86-64 C ABI). Not in DTYPES (the tables
# of real dtypes the promotion and cast rules iterate); arrays of it are in
# ARRAY_DTYPES. Its buffer format is "Zd", which the runtime reads as 'D'.
c128 = ScalarType("c128", "complex<f64>", "complex", 128, True, "double _Complex", ("D",),
                  "complex128", "D")
# numpy's complex64: two float32 parts, C99's `float _Complex` (in the
# x86-64 C ABI, both parts in one SSE register: `<2 x float>`, so it crosses
# the C ABI as an MLIR vector<2xf32>). Buffer format "Zf", read as 'F'.
c64 = ScalarType("c64", "complex<f32>", "complex", 64, True, "float _Complex", ("F",),
                 "complex64", "F")
COMPLEX_DTYPES = (c128, c64)

b1 = boolean
DTYPES = (f64, f32, i64, i32, i16, i8, u64, u32, u16, u8, boolean)
# Python's own scalar types are the 64-bit ones.
PYTHON_SCALARS = {"int": i64, "float": f64, "bool": boolean, "complex": c128}
SCALAR_DTYPES = DTYPES + COMPLEX_DTYPES
# `kiln.<name>`: every row by its name; `kiln.b1` is numpy's bool (arrays
# of it are numpy bool arrays).
KILN_SCALARS = {**{t.name: t for t in SCALAR_DTYPES if t is not boolean}, "b1": boolean}
ARRAY_DTYPES = DTYPES + COMPLEX_DTYPES
BY_NUMPY_NAME = {t.numpy_name: t for t in DTYPES}
# The item types a list may have: Python's own scalars, unboxed, and str
# (a reference to a kiln_str).
LIST_ITEM_TYPES = (i64, f64, boolean, string)
# The key and value types a dict may have (each stored in 8 bytes: a str
# as a reference).
DICT_ITEM_TYPES = (i64, f64, boolean, string)
# The element types a set may have (a dict's keys).
SET_ITEM_TYPES = DICT_ITEM_TYPES
