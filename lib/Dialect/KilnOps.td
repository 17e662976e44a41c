#ifndef KILN_OPS_TD
#define KILN_OPS_TD

include "lib/Dialect/KilnDialect.td"
include "mlir/IR/EnumAttr.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/ViewLikeInterface.td"

// The numbers are the C ABI's (runtime/kiln_abi.h, KILN_ERROR_KINDS):
// lib/Dialect/KilnAbi.h static_asserts that both lists agree. An
// IntegerAttr-backed enum attribute: its storage is the builtin dialect's,
// allocated inside libMLIR (a dialect-allocated attribute storage, made by
// Kiln's ASan-instrumented code in the same allocator as libMLIR's
// uninstrumented code, trips ASan's allocator annotations in
// scripts/sanitize.sh). In kiln.check it is written bare or as a string
// (`IndexError` or `"IndexError"`; the frontend writes the string) and
// printed bare.
def Kiln_ErrorKind : I32EnumAttr<"ErrorKind",
    "the Python exception a compiled function raises", [
      I32EnumAttrCase<"ZeroDivisionError", 1>,
      I32EnumAttrCase<"IndexError", 2>,
      I32EnumAttrCase<"ValueError", 3>,
      I32EnumAttrCase<"OverflowError", 4>,
      I32EnumAttrCase<"AssertionError", 5>,
      I32EnumAttrCase<"RuntimeError", 6>,
      I32EnumAttrCase<"TypeError", 7>,
      I32EnumAttrCase<"MemoryError", 8>,
      I32EnumAttrCase<"RecursionError", 9>,
    ]> {
  let cppNamespace = "::kiln";
}

// kiln.check and kiln.propagate_error may end the function (through the
// error record, which is memory): they read and write memory as far as any
// pass knows, so none moves a load or store across them -- and, unlike an
// op of unknown effects, ownership-based buffer deallocation accepts them.
def Kiln_CheckOp : Kiln_Op<"check", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "Raise a Python exception unless a condition holds";
  let description = [{
    When `condition` is false, the function stops and the caller receives a
    Python exception of type `kind` whose text is `message`, with each `{}`
    replaced by the matching i64 operand (at most two) and the op's source
    location appended. `kiln-lower-checks` turns the op into an early return
    that fills the function's `kiln.error_slot` argument.

    `kind` is one of the exception kinds of the C ABI (`ErrorKind`), written
    bare or quoted.

    ```mlir
    kiln.check %in_bounds, IndexError,
        "index {} is out of bounds for axis 0 with size {}" (%i, %n)
    ```
  }];
  let arguments = (ins I1:$condition, Kiln_ErrorKind:$kind, StrAttr:$message,
                       Variadic<I64>:$args);
  let assemblyFormat = [{
    $condition `,` $kind `,` $message (`(` $args^ `)`)? attr-dict
  }];
  let hasVerifier = 1;
}

def Kiln_PropagateErrorOp : Kiln_Op<"propagate_error",
                                     [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "Return early if a call filled the error record";
  let description = [{
    Placed after a call to a function that can raise: when the callee filled
    the enclosing function's error record (passed on to it), this function
    returns too, leaving the record as the callee wrote it, so the exception
    reaches the Python caller unchanged. Lowered by `kiln-lower-checks`.

    ```mlir
    %r = func.call @helper(%x, %error) : (f64, !llvm.ptr) -> f64
    kiln.propagate_error
    ```
  }];
  let assemblyFormat = "attr-dict";
}

class Kiln_PythonBinaryOp<string mnemonic, string summaryText>
    : Kiln_Op<mnemonic, [AllTypesMatch<["lhs", "rhs", "result"]>]> {
  let summary = summaryText;
  // Integers are signless; `is_unsigned` says the operands are Kiln's
  // unsigned dtypes (kiln.u8 ... kiln.u64), which numpy divides, takes
  // remainders of and raises to powers as unsigned numbers.
  // `numpy_semantics` (// and % of array elements): numpy's ufuncs never
  // raise; a zero divisor gives 0 for ints and a / b (floor division) or
  // NaN (remainder) for floats.
  let arguments = (ins AnyTypeOf<[I64, I32, I16, I8, F64, F32]>:$lhs,
                       AnyTypeOf<[I64, I32, I16, I8, F64, F32]>:$rhs,
                       UnitAttr:$is_unsigned, UnitAttr:$numpy_semantics);
  let results = (outs AnyTypeOf<[I64, I32, I16, I8, F64, F32]>:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($result)";
}

def Kiln_FloorDivOp : Kiln_PythonBinaryOp<"floordiv", "Python's `//`"> {
  let description = [{
    Rounds toward negative infinity (ints) or computes CPython's
    `float_divmod` quotient (floats). A zero divisor raises
    ZeroDivisionError; `INT_MIN // -1` wraps, as all Kiln integers do.
    With `is_unsigned`, the unsigned quotient (`arith.divui`); a zero divisor
    still raises ZeroDivisionError (numpy would warn and give 0). With
    `numpy_semantics` (array elements) nothing raises: a zero divisor gives
    0 (ints) or `a / b` (floats), as numpy's `floor_divide`.

    ```mlir
    %q = kiln.floordiv %a, %b : i64
    %n = kiln.floordiv %x, %y {numpy_semantics} : f64
    ```
  }];
}

def Kiln_ModOp : Kiln_PythonBinaryOp<"mod", "Python's `%`"> {
  let description = [{
    The remainder takes the sign of the divisor (floats: CPython's
    `float_divmod` remainder, with signed zeros). A zero divisor raises
    ZeroDivisionError. With `is_unsigned`, the unsigned remainder
    (`arith.remui`). With `numpy_semantics` a zero divisor gives 0 (ints) or
    NaN (floats), as numpy's `remainder`.

    ```mlir
    %r = kiln.mod %a, %b : f64
    ```
  }];
}

def Kiln_PowOp : Kiln_PythonBinaryOp<"pow", "Python's `**`"> {
  let description = [{
    Integers: exact and wrapping; a negative exponent raises ValueError
    (CPython would return a float); with `is_unsigned` the exponent is
    unsigned and never negative. Floats: `0.0 ** negative` raises
    ZeroDivisionError, a negative base with a fractional exponent raises
    ValueError (CPython would return a complex number), and an infinite
    result from finite operands raises OverflowError.

    ```mlir
    %p = kiln.pow %x, %y : f64
    ```
  }];
}

def Kiln_IndexOp : Kiln_Op<"index"> {
  let summary = "A Python array index: negative values count from the end";
  let description = [{
    Turns index `index` of an axis of length `size` into a memref index:
    `index + size` when negative (skipped when `nonnegative` says the
    frontend proved `index >= 0`). Unless `unchecked` is set, the lowering
    raises IndexError when the result is outside `[0, size)`; the op has
    effects for that reason and is neither removed nor moved by generic
    passes. `kiln-hoist-bounds-checks` sets `unchecked` where a test before
    the loop proves every access in bounds.

    ```mlir
    %i = kiln.index %k, %n {axis = 0 : i64} : i64 -> index
    ```
  }];
  let arguments = (ins I64:$index, I64:$size, I64Attr:$axis, UnitAttr:$unchecked,
                       UnitAttr:$nonnegative);
  let results = (outs Index:$result);
  let assemblyFormat = "$index `,` $size attr-dict `:` type($index) `->` type($result)";
}

def Kiln_ToFloatOp : Kiln_Op<"to_float", [Pure]> {
  let summary = "Python's float(int): round to the nearest double, ties to even";
  let description = [{
    CPython converts an int to the nearest float; for Kiln's 64-bit ints that
    is exactly `arith.sitofp` in the default rounding mode, which is what the
    lowering emits. The op keeps the conversion visible as Python semantics.

    ```mlir
    %f = kiln.to_float %n : i64 to f64
    ```
  }];
  let arguments = (ins AnyTypeOf<[I64, I32, I16, I8]>:$value);
  let results = (outs AnyTypeOf<[F64, F32]>:$result);
  let assemblyFormat = "$value attr-dict `:` type($value) `to` type($result)";
}

def Kiln_TruthyOp : Kiln_Op<"truthy", [Pure]> {
  let summary = "Python truthiness of a number: non-zero (NaN is true)";
  let description = [{
    ```mlir
    %b = kiln.truthy %x : f64
    ```
  }];
  let arguments = (ins AnyTypeOf<[I64, I32, I16, I8, F64, F32]>:$value);
  let results = (outs I1:$result);
  let assemblyFormat = "$value attr-dict `:` type($value)";
}

// MLIR's memref dialect cannot change an element type (reinterpret_cast
// keeps it; view starts from i8), and a vector cannot hold complex numbers
// or be loaded as one byte per i1. kiln-vectorize needs both to vectorize
// loops over complex and bool arrays.
def Kiln_ScalarViewOp : Kiln_Op<"scalar_view",
    [Pure, DeclareOpInterfaceMethods<ViewLikeOpInterface>]> {
  let summary = "View an array's storage as the scalars it is stored as";
  let description = [{
    The same memory, read as the scalars it holds: an array of
    `complex<T>` (real and imaginary part side by side, as numpy and C
    store them) as an array of `T` whose last dimension is twice as long
    and whose other strides double; an array of `i1` (one byte per element,
    0 or 1, as numpy stores bools and LLVM stores `i1`) as an array of `i8`
    of the same shape. A complex source must have unit stride in its last
    dimension. Lowered to a new descriptor by `kiln-lower-scalar-views`.

    ```mlir
    %re_im = kiln.scalar_view %z : memref<?xcomplex<f64>, strided<[1], offset: ?>>
                                to memref<?xf64, strided<[1], offset: ?>>
    ```
  }];
  let arguments = (ins AnyStridedMemRef:$source);
  let results = (outs AnyStridedMemRef:$result);
  let assemblyFormat = "$source attr-dict `:` type($source) `to` type($result)";
  let hasVerifier = 1;
  let builders = [
    OpBuilder<(ins "::mlir::Value":$source), [{
      build($_builder, $_state,
            scalarViewType(::llvm::cast<::mlir::MemRefType>(source.getType())),
            source);
    }]>
  ];
  let extraClassDeclaration = [{
    /// The view's type, or null when `source` has no scalar view (its
    /// elements are neither complex nor i1, or a complex last stride is not
    /// statically 1).
    static ::mlir::MemRefType scalarViewType(::mlir::MemRefType source);
    /// How many scalars one element of `source` holds (2 for complex).
    static int64_t scalarsPerElement(::mlir::MemRefType source);
  }];
}

#endif // KILN_OPS_TD
