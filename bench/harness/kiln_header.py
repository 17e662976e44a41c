"""Reads the declarations ctypes and cffi need from the header `kiln build`
writes (<mod>.h), so both bindings follow the C ABI as Kiln documents it
rather than a copy of it kept here."""

import ctypes
import re

C_TYPES = {
    "double": ctypes.c_double, "float": ctypes.c_float, "int64_t": ctypes.c_int64,
    "int32_t": ctypes.c_int32, "bool": ctypes.c_bool,
}


# C comments, which the header uses to document fields (`int64_t args[24];
# /* why 24 */`): dropped before a declaration is read, as a C compiler does.
C_COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)


def struct_body(header: str, name: str) -> str:
    match = re.search(r"typedef struct %s \{(.*?)\} %s;" % (name, name), header, re.S)
    if not match:
        raise ValueError(f"{name} is not declared in the Kiln header")
    return C_COMMENT.sub(" ", match.group(1))


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


def error_record_struct(header: str, kilnc: str):
    """kiln_error as a ctypes.Structure whose layout is the one kilnc
    publishes (`kilnc --print-capabilities`, the ABI's one source; the same
    record test_abi.py checks against a C compiler): the header gives the
    field types, and any disagreement in an offset or size stops the run
    instead of reading errors at the wrong place."""
    import json
    import subprocess
    record = ctypes_struct(header, "kiln_error")
    capabilities = json.loads(subprocess.run([kilnc, "--print-capabilities"], check=True,
                                             capture_output=True, text=True).stdout)
    published = capabilities["abi"]["error_record"]
    read = [{"name": name, "offset": getattr(record, name).offset,
             "size": getattr(record, name).size} for name, _ in record._fields_]
    if read != published["fields"] or ctypes.sizeof(record) != published["size"]:
        raise ValueError(f"kiln_error as read from the header ({read}, "
                         f"{ctypes.sizeof(record)} bytes) is not kilnc's ABI ({published})")
    return record
