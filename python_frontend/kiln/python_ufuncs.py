"""A `@kiln.vectorize` function left to Python (KILN_DISABLE=1, or a
fallback): as close to the compiled numpy ufunc as Python gets.

It is numpy's `np.frompyfunc` ufunc of the function -- numpy's
broadcasting, `where=`, `.reduce`, `.accumulate`, `.reduceat`, `.outer` --
with the object results cast to the function's result type (its return
annotation: `float` is float64, `int` int64, `kiln.f32` float32, ...), and
`out=`, `dtype=` and `.at` done on top. It is no `numpy.ufunc` instance
(numpy's type cannot be subclassed); `isinstance(f, np.ufunc)` is False.
"""

from __future__ import annotations

import functools

NUMBER_ANNOTATIONS = {"float": "float64", "int": "int64", "bool": "bool"}


def result_dtype(function):
    """numpy's dtype of the return annotation, None when there is none
    that names a number type (the results stay Python objects)."""
    import numpy as np

    from . import typesystem as kt

    annotation = getattr(function, "__annotations__", {}).get("return")
    if isinstance(annotation, str):
        try:
            annotation = eval(annotation, function.__globals__)  # noqa: S307 - the user's own
        except Exception:  # noqa: BLE001 - an annotation Python cannot evaluate: no dtype
            return None
    if isinstance(annotation, kt.ArrayType):        # a gufunc's array result
        annotation = annotation.dtype
    if isinstance(annotation, kt.ScalarType) and not annotation.is_complex:
        return np.dtype(annotation.numpy_name)
    if isinstance(annotation, type) and annotation.__name__ in NUMBER_ANNOTATIONS:
        return np.dtype(NUMBER_ANNOTATIONS[annotation.__name__])
    return None


def signature_dtype(signatures):
    """The result dtype of the first of @kiln.vectorize's signatures."""
    import numpy as np

    from .frontend.ufunc_signatures import SIGNATURE, kiln_type_name
    from . import typesystem as kt

    first = signatures if isinstance(signatures, str) else signatures[0]
    found = SIGNATURE.fullmatch(first)
    name = kiln_type_name(found.group(1)) if found else None
    return np.dtype(kt.KILN_SCALARS[name].numpy_name) if name else None


class PythonUfunc:
    """The Python stand-in of a compiled ufunc (see the module's doc)."""

    def __init__(self, function, identity=None, signatures=None):
        import inspect

        import numpy as np

        functools.update_wrapper(self, function)
        self.py_func = function
        self.nin = len(inspect.signature(function).parameters)
        self.nout = 1
        self.nargs = self.nin + 1
        self.identity = None if identity == "reorderable" else identity
        self.signature = None
        self.dtype = result_dtype(function) if not signatures else signature_dtype(signatures)
        self._objects = np.frompyfunc(function, self.nin, 1, identity=identity) \
            if identity is not None else np.frompyfunc(function, self.nin, 1)

    def _typed(self, result, out=None, dtype=None, where=True):
        import numpy as np

        dtype = np.dtype(dtype) if dtype is not None else self.dtype
        if out is not None:
            target = out[0] if isinstance(out, tuple) else out
            np.copyto(target, result, casting="unsafe", where=where)
            return target
        if dtype is None:
            return result
        if isinstance(result, np.ndarray):
            return result.astype(dtype)
        return dtype.type(result)

    def __call__(self, *args, out=None, dtype=None, where=True, **kwargs):
        return self._typed(self._objects(*args, where=where, **kwargs), out, dtype, where)

    def reduce(self, array, axis=0, dtype=None, out=None, **kwargs):
        return self._typed(self._objects.reduce(array, axis=axis, **kwargs), out, dtype)

    def accumulate(self, array, axis=0, dtype=None, out=None):
        return self._typed(self._objects.accumulate(array, axis=axis), out, dtype)

    def reduceat(self, array, indices, axis=0, dtype=None, out=None):
        return self._typed(self._objects.reduceat(array, indices, axis=axis), out, dtype)

    def outer(self, a, b, **kwargs):
        return self._typed(self._objects.outer(a, b, **kwargs))

    def at(self, array, indices, b=None):
        """In place, unbuffered: a repeated index applies the function again."""
        import numpy as np

        positions = np.arange(array.size).reshape(array.shape)[indices]
        others = () if b is None else (np.broadcast_to(b, positions.shape).ravel(),)
        for k, position in enumerate(positions.ravel()):
            index = np.unravel_index(position, array.shape)
            array[index] = self.py_func(array[index], *(o[k] for o in others))

    def __reduce__(self):
        return self.__qualname__

    def __repr__(self) -> str:
        return f"<kiln ufunc {self.__qualname__} (python)>"
