"""What code generation records of each compiled function for the
wrapper, header and stub generators (native/)."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class FunctionSignature:
    """What the wrapper and header generators need to know of a function."""
    name: str
    params: list
    return_type: object          # ScalarType, or None for None
    raises: bool
    written_arrays: set
    line: int
    source_line: str = ""
    # Per position of the returned values: the array parameters it may view.
    returned_parameters: dict = field(default_factory=dict)
    exported: bool = True
    # Array functions do enough work that releasing the GIL pays; scalar
    # ones would spend more on the release than on the call.
    release_gil: bool = False
    elementwise: bool = False   # @kiln.vectorize: also an array kernel <name>__array
    # @kiln.vectorize(identity=...): the ufunc's identity (native/ufuncs.py).
    ufunc_identity: object = None
    # The ufunc whose loop this is: the function's own name, or for a copy
    # of one signature (frontend/ufunc_signatures.py) the function's.
    ufunc_name: str = ""
    # @kiln.guvectorize's signature, "(n),(n)->()" (native/gufuncs.py).
    gufunc_signature: str = ""
    options_given: frozenset = frozenset()
    # Runs kiln.prange loops (its own or its callees'): the GIL is released
    # for any input, and the artifact needs LLVM's OpenMP runtime.
    parallel: bool = False
    # The record's description of the function's own prange loops, and
    # (parallel=True) of the outermost loops left sequential.
    parallel_loops: list = field(default_factory=list)
    sequential_loops: list = field(default_factory=list)
    # A method of a compiled class (frontend/classes.py): the class, the
    # method's name and kind ("method", "staticmethod", "property"); None
    # and "" for a module function.
    class_name: str | None = None
    method_name: str | None = None
    method_kind: str = ""
    symbol: str = ""            # the C symbol: `<mod>_<name>`, `<mod>_<Class>__<method>`
    # Parameters compiled as their function default, left out of `params`
    # (frontend/function_arguments.py): (position in the Python signature,
    # name, the Python signature's parameter count, its defaults' count).
    function_parameters: list = field(default_factory=list)
    # Tuple parameters, whose elements the C ABI takes one by one: Python
    # name -> the elements' parameters (`mask__t0`, ...), and the Python
    # signature (names, how many without a default) when it differs.
    tuple_parameters: dict = field(default_factory=dict)
    python_parameters: tuple = ()
