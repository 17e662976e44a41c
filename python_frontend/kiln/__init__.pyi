# Types of `kiln` for mypy and pyright (PEP 561: this package ships
# py.typed). The dtypes are typed Any, so that the annotations of a Kiln
# module -- `x: kiln.f64[:]`, `n: kiln.i32` -- are valid types to a type
# checker (arrays and numbers of any kind); the decorators keep the
# signature of the function they decorate.
from typing import Any, Callable, TypeVar, overload

import numpy

_F = TypeVar("_F", bound=Callable[..., Any])

__version__: str

f64: Any
f32: Any
i64: Any
i32: Any
i16: Any
i8: Any
u64: Any
u32: Any
u16: Any
u8: Any
b1: Any
c64: Any
c128: Any


class KilnCompileError(Exception): ...


class KilnToolchainError(Exception): ...


class KilnFallbackWarning(UserWarning): ...


class CompiledFunction:
    py_func: Callable[..., Any]
    is_compiled: bool

    def __call__(self, *args: Any, **kwargs: Any) -> Any: ...

    async def aio(self, *args: Any, **kwargs: Any) -> Any: ...


@overload
def export(function: _F) -> _F: ...
@overload
def export(*, boundscheck: bool = ..., nogil: bool = ..., fastmath: bool = ...,
           vectorize: str = ..., strict: bool = ...) -> Callable[[_F], _F]: ...


# @kiln.vectorize makes a numpy ufunc (its calls take any arrays: numpy's
# own stubs type them loosely).
@overload
def vectorize(function: Callable[..., Any]) -> numpy.ufunc: ...
@overload
def vectorize(signatures: str | list[str] | tuple[str, ...] | None = ..., *,
              identity: float | str | None = ..., boundscheck: bool = ...,
              nogil: bool = ..., fastmath: bool = ..., vectorize: str = ...,
              strict: bool = ...) -> Callable[[Callable[..., Any]], numpy.ufunc]: ...


def guvectorize(signature: str, *, boundscheck: bool = ..., nogil: bool = ...,
                fastmath: bool = ..., vectorize: str = ...,
                strict: bool = ...) -> Callable[[Callable[..., Any]], numpy.ufunc]: ...


# kiln.report is the report stage's package (kiln.report.html, ...), made
# callable: kiln.report(f) is f's report (kiln/report_targets.py).
class _CallableReportPackage:
    def __call__(self, *targets: Any, source_name: str | None = ...) -> Any: ...
    def __getattr__(self, name: str) -> Any: ...


report: _CallableReportPackage


def load_ipython_extension(ipython: Any) -> None: ...
