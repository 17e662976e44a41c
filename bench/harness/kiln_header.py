"""Reads the declarations ctypes and cffi need from the header `kiln build`
writes (<mod>.h), so both bindings follow the C ABI as Kiln documents it
rather than a copy of it kept here."""

import ctypes
import re

C_TYPES = {
    "double": ctypes.c_double, "float": ctypes.c_float, "int64_t": ctypes.c_int64,
    "int32_t": ctypes.c_int32, "bool": ctypes.c_bool,
}


def struct_body(header: str, name: str) -> str:
    match = re.search(r"typedef struct %s \{(.*?)\} %s;" % (name, name), header, re.S)
    if not match:
        raise ValueError(f"{name} is not declared in the Kiln header")
    return match.group(1)


def struct_declaration(header: str, name: str) -> str:
    """The C text of `typedef struct NAME {...} NAME;` (for cffi's cdef)."""
    return f"typedef struct {name} {{{struct_body(header, name)}}} {name};"


def ctypes_struct(header: str, name: str):
    """A ctypes.Structure with the fields of the header's struct NAME."""
    fields = []
    for declaration in struct_body(header, name).split(";"):
        declaration = declaration.strip()
        if not declaration:
            continue
        match = re.fullmatch(r"(const\s+)?(\w+)\s*(\*?)\s*(\w+)(\[(\d+)\])?", declaration)
        if not match:
            raise ValueError(f"cannot read the field '{declaration}' of {name}")
        _, base, pointer, field, _, count = match.groups()
        if pointer:
            field_type = ctypes.c_char_p if base == "char" else ctypes.POINTER(C_TYPES[base])
        else:
            field_type = C_TYPES[base]
        if count:
            field_type = field_type * int(count)
        fields.append((field, field_type))
    return type(name, (ctypes.Structure,), {"_fields_": fields})


def prototype(header: str, symbol: str) -> str:
    match = re.search(r"^[^\n;]*\b%s\([^;]*\);" % re.escape(symbol), header, re.M)
    if not match:
        raise ValueError(f"{symbol} is not declared in the Kiln header")
    return match.group(0)
