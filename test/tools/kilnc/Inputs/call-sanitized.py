"""Calls a function of a kilnc --sanitize shared object (sanitize.mlir).

    call-sanitized.py LIB load I    k_load_at on 8 malloc'ed doubles 0.5, 1.5, ...
    call-sanitized.py LIB shift N   kiln_test_shift(N)
    call-sanitized.py LIB disjoint N / racy N
                                    k_disjoint / k_racy on N malloc'ed zeros
                                    (sanitize-thread.mlir)
"""
import ctypes
import sys

lib = ctypes.CDLL(sys.argv[1])
kind, argument = sys.argv[2], int(sys.argv[3])
class Descriptor(ctypes.Structure):
    _fields_ = [("allocated", ctypes.c_void_p), ("aligned", ctypes.c_void_p),
                ("offset", ctypes.c_int64), ("size", ctypes.c_int64),
                ("stride", ctypes.c_int64)]


if kind in ("disjoint", "racy"):
    libc = ctypes.CDLL(None)
    libc.calloc.restype = ctypes.c_void_p
    data = libc.calloc(argument, 8)
    descriptor = Descriptor(data, data, 0, argument, 1)
    function = getattr(lib, f"k_{kind}")
    function.restype = ctypes.c_double
    function.argtypes = [ctypes.POINTER(Descriptor), ctypes.c_int64]
    print(function(ctypes.byref(descriptor), argument))
elif kind == "load":
    libc = ctypes.CDLL(None)
    libc.malloc.restype = ctypes.c_void_p
    # malloc, not a Python buffer: the ASan runtime owns the heap's redzones.
    data = libc.malloc(8 * 8)
    values = (ctypes.c_double * 8).from_address(data)
    for i in range(8):
        values[i] = i + 0.5
    descriptor = Descriptor(data, data, 0, 8, 1)
    lib.k_load_at.restype = ctypes.c_double
    lib.k_load_at.argtypes = [ctypes.POINTER(Descriptor), ctypes.c_int64]
    print(lib.k_load_at(ctypes.byref(descriptor), argument))
else:
    lib.kiln_test_shift.restype = ctypes.c_int
    lib.kiln_test_shift.argtypes = [ctypes.c_int]
    print(lib.kiln_test_shift(argument))
