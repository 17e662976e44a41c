#ifndef KILN_OPS_TD
#define KILN_OPS_TD

include "lib/Dialect/KilnDialect.td"
include "lib/Dialect/KilnTypes.td"
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
      I32EnumAttrCase<"KeyError", 10>,
      I32EnumAttrCase<"AttributeError", 11>,
      I32EnumAttrCase<"NotImplementedError", 12>,
      I32EnumAttrCase<"LinAlgError", 13>,
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

def Kiln_OwnedOp : Kiln_Op<"owned", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "The instance references a function holds from here on";
  let description = [{
    A marker kiln-lower-containers places where the references to instances
    a function holds change (after each retain, release, new instance,
    call, structured op, and at the start of each region): its operands are
    the references held from there to the next marker, one operand per
    reference. A raise leaves the function without the releases its names
    would do; `kiln-lower-checks` releases the operands of the marker that
    precedes an error exit instead, then erases every marker. Never
    written by the frontend.

    ```mlir
    kiln.owned %self, %node : !llvm.ptr, !llvm.ptr
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$references);
  let assemblyFormat = "($references^ `:` type($references))? attr-dict";
}

def Kiln_PropagateErrorOp : Kiln_Op<"propagate_error",
                                     [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "Return early if a call filled the error record";
  let description = [{
    Placed after a call to a function that can raise: when the callee filled
    the enclosing function's error record (passed on to it), this function
    returns too, leaving the record as the callee wrote it, so the exception
    reaches the Python caller unchanged. Lowered by `kiln-lower-checks`.

    With `at_call`, the record's line and column become this op's location
    before returning: the callee is one of Kiln's own kernels
    (`np.linalg.solve`), whose source lines mean nothing in the caller's
    file, so the exception points at the call, as numpy's does.

    ```mlir
    %r = func.call @helper(%x, %error) : (f64, !llvm.ptr) -> f64
    kiln.propagate_error
    %s = func.call @__kiln_linalg_det__f64(%a, %error) : (...) -> f64
    kiln.propagate_error at_call
    ```
  }];
  let arguments = (ins UnitAttr:$at_call);
  let assemblyFormat = "(`at_call` $at_call^)? attr-dict";
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
    the loop proves every access in bounds. The IndexError's text is numpy's
    ("index 7 is out of bounds for axis 0 with size 3") unless `message`
    gives another (a list's "list index out of range").

    ```mlir
    %i = kiln.index %k, %n {axis = 0 : i64} : i64 -> index
    ```
  }];
  let arguments = (ins I64:$index, I64:$size, I64Attr:$axis, UnitAttr:$unchecked,
                       UnitAttr:$nonnegative, OptionalAttr<StrAttr>:$message);
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

//===----------------------------------------------------------------------===//
// Lists. Each op keeps Python's semantics; kiln-lower-containers lowers it
// to inline code on the C ABI's kiln_list or a call of runtime/kiln_list.c.
// The ops that can raise read and write memory as kiln.check does.
//===----------------------------------------------------------------------===//

def Kiln_AnyList : Type<CPred<"::llvm::isa<::kiln::ListType>($_self)">,
                        "a Kiln list", "::kiln::ListType">;

class Kiln_ListOp<string mnemonic, list<Trait> traits = []>
    : Kiln_Op<"list." # mnemonic, traits>;

// The item operand or result has the list's item type.
class Kiln_ItemOf<string container, string item>
    : TypesMatchWith<"item type matches the list", container, item,
                     "::llvm::cast<::kiln::ListType>($_self).getItemType()">;

def Kiln_ListNewOp : Kiln_ListOp<"new", [MemoryEffects<[MemAlloc]>]> {
  let summary = "A new empty list, with room for `capacity` items";
  let description = [{
    The result holds the only reference. `capacity` is a hint (a list
    literal's length, a comprehension's trip count); negative means none.

    ```mlir
    %xs = kiln.list.new %c4 : !kiln.list<i64>
    ```
  }];
  let arguments = (ins I64:$capacity);
  let results = (outs Kiln_AnyList:$result);
  let assemblyFormat = "$capacity attr-dict `:` type($result)";
}

def Kiln_ListLenOp : Kiln_ListOp<"len", [MemoryEffects<[MemRead]>]> {
  let summary = "Python's len() of a list";
  let description = [{
    ```mlir
    %n = kiln.list.len %xs : !kiln.list<i64>
    ```
  }];
  let arguments = (ins Kiln_AnyList:$list);
  let results = (outs I64:$result);
  let assemblyFormat = "$list attr-dict `:` type($list)";
}

def Kiln_ListGetOp : Kiln_ListOp<"get", [MemoryEffects<[MemRead, MemWrite]>,
                                         Kiln_ItemOf<"list", "result">]> {
  let summary = "`xs[i]`: a negative index counts from the end";
  let description = [{
    Raises IndexError("list index out of range") outside `[-len, len)`.
    A string item is borrowed: the list keeps its reference.

    ```mlir
    %x = kiln.list.get %xs[%i] : !kiln.list<f64>
    ```
  }];
  let arguments = (ins Kiln_AnyList:$list, I64:$index);
  let results = (outs AnyType:$result);
  let assemblyFormat = "$list `[` $index `]` attr-dict `:` type($list)";
}

def Kiln_ListSetOp : Kiln_ListOp<"set", [MemoryEffects<[MemRead, MemWrite]>,
                                         Kiln_ItemOf<"list", "value">]> {
  let summary = "`xs[i] = x`: a negative index counts from the end";
  let description = [{
    Raises IndexError("list assignment index out of range") outside
    `[-len, len)`. A string item gets a reference of the list's own (the
    operand stays its holder's); the item it replaces is released.

    ```mlir
    kiln.list.set %xs[%i], %x : !kiln.list<f64>
    ```
  }];
  let arguments = (ins Kiln_AnyList:$list, I64:$index, AnyType:$value);
  let assemblyFormat = "$list `[` $index `]` `,` $value attr-dict `:` type($list)";
}

def Kiln_ListAppendOp : Kiln_ListOp<"append", [MemoryEffects<[MemRead, MemWrite]>,
                                               Kiln_ItemOf<"list", "value">]> {
  let summary = "`xs.append(x)`";
  let description = [{
    Grows the storage as CPython does (by about 1/8 plus a constant), so a
    loop of appends costs amortized constant time. Raises MemoryError when
    the system has no memory left. A string item gets a reference of the
    list's own (as `kiln.list.set`).

    ```mlir
    kiln.list.append %xs, %x : !kiln.list<i64>
    ```
  }];
  let arguments = (ins Kiln_AnyList:$list, AnyType:$value);
  let assemblyFormat = "$list `,` $value attr-dict `:` type($list)";
}

def Kiln_ListPopOp : Kiln_ListOp<"pop", [MemoryEffects<[MemRead, MemWrite]>,
                                         Kiln_ItemOf<"list", "result">]> {
  let summary = "`xs.pop(i)`: removes and returns item `i` (-1: the last)";
  let description = [{
    Raises IndexError("pop from empty list") on an empty list and
    IndexError("pop index out of range") outside `[-len, len)`. A string
    item leaves with the list's reference: the result owns it.

    ```mlir
    %last = kiln.list.pop %xs[%minus_one] : !kiln.list<i64>
    ```
  }];
  let arguments = (ins Kiln_AnyList:$list, I64:$index);
  let results = (outs AnyType:$result);
  let assemblyFormat = "$list `[` $index `]` attr-dict `:` type($list)";
}

def Kiln_ListInsertOp : Kiln_ListOp<"insert", [MemoryEffects<[MemRead, MemWrite]>,
                                               Kiln_ItemOf<"list", "value">]> {
  let summary = "`xs.insert(i, x)`: an index past either end clamps, as in Python";
  let description = [{
    ```mlir
    kiln.list.insert %xs[%i], %x : !kiln.list<i64>
    ```
  }];
  let arguments = (ins Kiln_AnyList:$list, I64:$index, AnyType:$value);
  let assemblyFormat = "$list `[` $index `]` `,` $value attr-dict `:` type($list)";
}

// In-place operations without results: each is one runtime call.
class Kiln_ListUpdateOp<string mnemonic, string summaryText, string example>
    : Kiln_ListOp<mnemonic, [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = summaryText;
  let description = "```mlir\n" # example # "\n```";
  let arguments = (ins Kiln_AnyList:$list);
  let assemblyFormat = "$list attr-dict `:` type($list)";
}

def Kiln_ListClearOp : Kiln_ListUpdateOp<"clear", "`xs.clear()`",
    "kiln.list.clear %xs : !kiln.list<i64>">;
def Kiln_ListReverseOp : Kiln_ListUpdateOp<"reverse", "`xs.reverse()`",
    "kiln.list.reverse %xs : !kiln.list<i64>">;

def Kiln_ListSortOp : Kiln_ListOp<"sort", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "`xs.sort()` / `xs.sort(reverse=True)`: stable, by `<`";
  let description = [{
    A stable merge sort that compares with `<` only, as CPython's sort
    does, so lists without NaN come out exactly as CPython orders them
    (with `reverse`, equal items keep their order, as in CPython).

    ```mlir
    kiln.list.sort %xs {reverse} : !kiln.list<f64>
    ```
  }];
  let arguments = (ins Kiln_AnyList:$list, UnitAttr:$reverse);
  let assemblyFormat = "$list attr-dict `:` type($list)";
}

def Kiln_ListExtendOp : Kiln_ListOp<"extend", [MemoryEffects<[MemRead, MemWrite]>,
                                               AllTypesMatch<["list", "other"]>]> {
  let summary = "`xs.extend(ys)` and `xs += ys` (`ys` may be `xs`)";
  let description = [{
    ```mlir
    kiln.list.extend %xs, %ys : !kiln.list<i64>
    ```
  }];
  let arguments = (ins Kiln_AnyList:$list, Kiln_AnyList:$other);
  let assemblyFormat = "$list `,` $other attr-dict `:` type($list)";
}

// Slices: `start` and `stop` are optional (Python's `xs[:b]`, `xs[a:]`),
// `step` is given (1 for `xs[a:b]`); each raises ValueError("slice step
// cannot be zero") for a zero step, and clamps `start`/`stop` as CPython's
// PySlice_AdjustIndices does.
def Kiln_ListSliceOp : Kiln_ListOp<"slice", [MemoryEffects<[MemAlloc, MemRead]>,
                                             AttrSizedOperandSegments,
                                             AllTypesMatch<["list", "result"]>]> {
  let summary = "`xs[a:b:c]`: a new list of the selected items";
  let description = [{
    ```mlir
    %tail = kiln.list.slice %xs[%c1 : : %c1] : !kiln.list<f64>
    %back = kiln.list.slice %xs[ : : %minus_one] : !kiln.list<f64>
    ```
  }];
  let arguments = (ins Kiln_AnyList:$list, Optional<I64>:$start, Optional<I64>:$stop,
                       I64:$step);
  let results = (outs Kiln_AnyList:$result);
  let assemblyFormat = [{
    $list `[` ($start^)? `:` ($stop^)? `:` $step `]` attr-dict `:` type($list)
  }];
}

def Kiln_ListAssignSliceOp : Kiln_ListOp<"assign_slice", [MemoryEffects<[MemRead, MemWrite]>,
                                                          AttrSizedOperandSegments,
                                                          AllTypesMatch<["list", "values"]>]> {
  let summary = "`xs[a:b:c] = ys` (`ys` may be `xs`)";
  let description = [{
    With step 1 the selected items are replaced by `ys`'s, and the list
    grows or shrinks; with another step `ys` must have as many items as the
    slice selects (ValueError "attempt to assign sequence of size 2 to
    extended slice of size 3" otherwise).

    ```mlir
    kiln.list.assign_slice %xs[%c1 : %c3 : %c1], %ys : !kiln.list<i64>
    ```
  }];
  let arguments = (ins Kiln_AnyList:$list, Optional<I64>:$start, Optional<I64>:$stop,
                       I64:$step, Kiln_AnyList:$values);
  let assemblyFormat = [{
    $list `[` ($start^)? `:` ($stop^)? `:` $step `]` `,` $values attr-dict `:` type($list)
  }];
}

def Kiln_ListDeleteSliceOp : Kiln_ListOp<"delete_slice", [MemoryEffects<[MemRead, MemWrite]>,
                                                          AttrSizedOperandSegments]> {
  let summary = "`del xs[a:b:c]`";
  let description = [{
    ```mlir
    kiln.list.delete_slice %xs[ : : %c2] : !kiln.list<i64>
    ```
  }];
  let arguments = (ins Kiln_AnyList:$list, Optional<I64>:$start, Optional<I64>:$stop,
                       I64:$step);
  let assemblyFormat = [{
    $list `[` ($start^)? `:` ($stop^)? `:` $step `]` attr-dict `:` type($list)
  }];
}

def Kiln_ListCopyOp : Kiln_ListOp<"copy", [MemoryEffects<[MemAlloc, MemRead]>,
                                           AllTypesMatch<["list", "result"]>]> {
  let summary = "`xs.copy()`, `xs[:]`, `list(xs)`: a new list of the same items";
  let description = [{
    ```mlir
    %ys = kiln.list.copy %xs : !kiln.list<i64>
    ```
  }];
  let arguments = (ins Kiln_AnyList:$list);
  let results = (outs Kiln_AnyList:$result);
  let assemblyFormat = "$list attr-dict `:` type($list)";
}

def Kiln_ListConcatOp : Kiln_ListOp<"concat", [MemoryEffects<[MemAlloc, MemRead]>,
                                               AllTypesMatch<["lhs", "rhs", "result"]>]> {
  let summary = "`xs + ys`: a new list";
  let description = [{
    ```mlir
    %zs = kiln.list.concat %xs, %ys : !kiln.list<i64>
    ```
  }];
  let arguments = (ins Kiln_AnyList:$lhs, Kiln_AnyList:$rhs);
  let results = (outs Kiln_AnyList:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($result)";
}

def Kiln_ListRepeatOp : Kiln_ListOp<"repeat", [MemoryEffects<[MemAlloc, MemRead]>,
                                               AllTypesMatch<["list", "result"]>]> {
  let summary = "`xs * n`: a new list, empty when `n <= 0`";
  let description = [{
    ```mlir
    %zs = kiln.list.repeat %xs, %n : !kiln.list<i64>
    ```
  }];
  let arguments = (ins Kiln_AnyList:$list, I64:$count);
  let results = (outs Kiln_AnyList:$result);
  let assemblyFormat = "$list `,` $count attr-dict `:` type($list)";
}

// Searches by Python's `==` (a float NaN equals nothing, not even itself:
// compiled code has no object identity to find it by).
def Kiln_ListCountOp : Kiln_ListOp<"count", [MemoryEffects<[MemRead]>,
                                             Kiln_ItemOf<"list", "value">]> {
  let summary = "`xs.count(x)`";
  let description = [{
    ```mlir
    %k = kiln.list.count %xs, %x : !kiln.list<i64>
    ```
  }];
  let arguments = (ins Kiln_AnyList:$list, AnyType:$value);
  let results = (outs I64:$result);
  let assemblyFormat = "$list `,` $value attr-dict `:` type($list)";
}

def Kiln_ListFindOp : Kiln_ListOp<"find", [MemoryEffects<[MemRead]>,
                                           Kiln_ItemOf<"list", "value">]> {
  let summary = "The first index of `x` in `xs`, or -1: `in`, `.index`, `.remove`";
  let description = [{
    The frontend builds `x in xs` (`find >= 0`), `xs.index(x)` (ValueError
    when -1) and `xs.remove(x)` from it.

    ```mlir
    %i = kiln.list.find %xs, %x : !kiln.list<i64>
    ```
  }];
  let arguments = (ins Kiln_AnyList:$list, AnyType:$value);
  let results = (outs I64:$result);
  let assemblyFormat = "$list `,` $value attr-dict `:` type($list)";
}

def Kiln_ListEqualOp : Kiln_ListOp<"equal", [MemoryEffects<[MemRead]>,
                                             AllTypesMatch<["lhs", "rhs"]>]> {
  let summary = "`xs == ys`: same length and items equal pairwise";
  let description = [{
    ```mlir
    %same = kiln.list.equal %xs, %ys : !kiln.list<f64>
    ```
  }];
  let arguments = (ins Kiln_AnyList:$lhs, Kiln_AnyList:$rhs);
  let results = (outs I1:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($lhs)";
}

def Kiln_ListViewOp : Kiln_ListOp<"view", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "A list's items as a 1-D memref, while nothing resizes the list";
  let description = [{
    The memref aliases the list's storage (`i8` items for bools): valid
    until the list is resized or freed, which `kiln-list-views` proves for
    the loop it makes the view for. `writes`: the loop stores through the
    view, so the list is marked changed (for write-back to the caller) when
    the view is made.

    ```mlir
    %items = kiln.list.view %xs {writes} : !kiln.list<f64> -> memref<?xf64>
    ```
  }];
  let arguments = (ins Kiln_AnyList:$list, UnitAttr:$writes);
  let results = (outs MemRefRankOf<[I64, F64, I8], [1]>:$result);
  let assemblyFormat = "$list attr-dict `:` type($list) `->` type($result)";
  let hasVerifier = 1;
}

def Kiln_AnyDict : Type<CPred<"::llvm::isa<::kiln::DictType>($_self)">,
                        "a Kiln dict", "::kiln::DictType">;
def Kiln_AnySet : Type<CPred<"::llvm::isa<::kiln::SetType>($_self)">,
                       "a Kiln set", "::kiln::SetType">;
def Kiln_Str : Type<CPred<"::llvm::isa<::kiln::StrType>($_self)">,
                    "a Kiln str", "::kiln::StrType">,
               BuildableType<"::kiln::StrType::get($_builder.getContext())">;
def Kiln_AnyObject : Type<CPred<"::llvm::isa<::kiln::ObjectType>($_self)">,
                          "an instance of an exported class", "::kiln::ObjectType">;
def Kiln_AnyContainer : AnyTypeOf<[Kiln_AnyList, Kiln_AnyDict, Kiln_AnySet, Kiln_Str,
                                   Kiln_AnyObject],
                                  "a Kiln list, dict, set, str or instance">;

def Kiln_RetainOp : Kiln_Op<"retain", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "One more reference to a container";
  let description = [{
    The frontend retains a list when a second name (or a result) starts to
    refer to it, and releases each reference where it goes.

    ```mlir
    kiln.retain %xs : !kiln.list<i64>
    ```
  }];
  let arguments = (ins Kiln_AnyContainer:$container);
  let assemblyFormat = "$container attr-dict `:` type($container)";
  // A retain whose release follows in the same block, with no release of
  // any list between, cancels with it: nothing between can drop the count
  // to zero, so the list lives through either way (a parameter's retain at
  // entry and release at return, a name bound to a name).
  let hasCanonicalizeMethod = 1;
}

def Kiln_ReleaseOp : Kiln_Op<"release", [MemoryEffects<[MemRead, MemWrite, MemFree]>]> {
  let summary = "One reference to a container less; the last frees it";
  let description = [{
    ```mlir
    kiln.release %xs : !kiln.list<i64>
    ```
  }];
  let arguments = (ins Kiln_AnyContainer:$container);
  let assemblyFormat = "$container attr-dict `:` type($container)";
}

//===----------------------------------------------------------------------===//
// Dicts. kiln-lower-containers lowers each to a call of runtime/kiln_dict.c
// or an inline load; entries are addressed by their position in insertion
// order (a "slot"), which `find`/`require` return, so that `d[k] += v`,
// `d.pop(k)` and `del d[k]` look the key up once.
//===----------------------------------------------------------------------===//

class Kiln_DictOp<string mnemonic, list<Trait> traits = []>
    : Kiln_Op<"dict." # mnemonic, traits>;

class Kiln_KeyOf<string container, string key>
    : TypesMatchWith<"key type matches the dict", container, key,
                     "::llvm::cast<::kiln::DictType>($_self).getKeyType()">;
class Kiln_ValueOf<string container, string value>
    : TypesMatchWith<"value type matches the dict", container, value,
                     "::llvm::cast<::kiln::DictType>($_self).getValueType()">;

def Kiln_DictNewOp : Kiln_DictOp<"new", [MemoryEffects<[MemAlloc]>]> {
  let summary = "A new empty dict with room for `capacity` entries (a hint)";
  let description = [{
    ```mlir
    %d = kiln.dict.new %c8 : !kiln.dict<i64, f64>
    ```
  }];
  let arguments = (ins I64:$capacity);
  let results = (outs Kiln_AnyDict:$result);
  let assemblyFormat = "$capacity attr-dict `:` type($result)";
}

def Kiln_DictLenOp : Kiln_DictOp<"len", [MemoryEffects<[MemRead]>]> {
  let summary = "Python's len() of a dict";
  let description = [{
    ```mlir
    %n = kiln.dict.len %d : !kiln.dict<i64, f64>
    ```
  }];
  let arguments = (ins Kiln_AnyDict:$dict);
  let results = (outs I64:$result);
  let assemblyFormat = "$dict attr-dict `:` type($dict)";
}

def Kiln_DictFindOp : Kiln_DictOp<"find", [MemoryEffects<[MemRead, MemWrite]>,
                                           Kiln_KeyOf<"dict", "key">]> {
  let summary = "The slot of key `k`, or -1: `k in d`, `d.get(k, default)`";
  let description = [{
    (Writes memory: the first lookup of a dict a caller built makes its
    table.)

    ```mlir
    %slot = kiln.dict.find %d, %k : !kiln.dict<i64, f64>
    ```
  }];
  let arguments = (ins Kiln_AnyDict:$dict, AnyType:$key);
  let results = (outs I64:$result);
  let assemblyFormat = "$dict `,` $key attr-dict `:` type($dict)";
}

def Kiln_DictRequireOp : Kiln_DictOp<"require", [MemoryEffects<[MemRead, MemWrite]>,
                                                 Kiln_KeyOf<"dict", "key">]> {
  let summary = "The slot of key `k`; KeyError(k) when it is absent: `d[k]`, `del d[k]`, `d.pop(k)`";
  let description = [{
    ```mlir
    %slot = kiln.dict.require %d, %k : !kiln.dict<i64, f64>
    %v = kiln.dict.value_at %d[%slot] : !kiln.dict<i64, f64>
    ```
  }];
  let arguments = (ins Kiln_AnyDict:$dict, AnyType:$key);
  let results = (outs I64:$result);
  let assemblyFormat = "$dict `,` $key attr-dict `:` type($dict)";
}

def Kiln_DictSetOp : Kiln_DictOp<"set", [MemoryEffects<[MemRead, MemWrite]>,
                                         Kiln_KeyOf<"dict", "key">,
                                         Kiln_ValueOf<"dict", "value">]> {
  let summary = "`d[k] = v`: a new entry at the end, or a new value for `k`";
  let description = [{
    ```mlir
    kiln.dict.set %d[%k], %v : !kiln.dict<i64, f64>
    ```
  }];
  let arguments = (ins Kiln_AnyDict:$dict, AnyType:$key, AnyType:$value);
  let assemblyFormat = "$dict `[` $key `]` `,` $value attr-dict `:` type($dict)";
}

def Kiln_DictUsedOp : Kiln_DictOp<"used", [MemoryEffects<[MemRead]>]> {
  let summary = "How many slots iteration visits (live entries and deleted ones)";
  let description = [{
    `for k in d` visits slots 0 .. used-1 and skips those not `live_at`.

    ```mlir
    %end = kiln.dict.used %d : !kiln.dict<i64, f64>
    ```
  }];
  let arguments = (ins Kiln_AnyDict:$dict);
  let results = (outs I64:$result);
  let assemblyFormat = "$dict attr-dict `:` type($dict)";
}

def Kiln_DictLiveAtOp : Kiln_DictOp<"live_at", [MemoryEffects<[MemRead]>]> {
  let summary = "Whether slot `slot` (in [0, used)) holds an entry";
  let description = [{
    ```mlir
    %here = kiln.dict.live_at %d[%slot] : !kiln.dict<i64, f64>
    ```
  }];
  let arguments = (ins Kiln_AnyDict:$dict, I64:$slot);
  let results = (outs I1:$result);
  let assemblyFormat = "$dict `[` $slot `]` attr-dict `:` type($dict)";
}

def Kiln_DictKeyAtOp : Kiln_DictOp<"key_at", [MemoryEffects<[MemRead]>,
                                              Kiln_KeyOf<"dict", "result">]> {
  let summary = "The key of the entry in slot `slot`";
  let description = [{
    ```mlir
    %k = kiln.dict.key_at %d[%slot] : !kiln.dict<i64, f64>
    ```
  }];
  let arguments = (ins Kiln_AnyDict:$dict, I64:$slot);
  let results = (outs AnyType:$result);
  let assemblyFormat = "$dict `[` $slot `]` attr-dict `:` type($dict)";
}

def Kiln_DictValueAtOp : Kiln_DictOp<"value_at", [MemoryEffects<[MemRead]>,
                                                  Kiln_ValueOf<"dict", "result">]> {
  let summary = "The value of the entry in slot `slot`";
  let description = [{
    ```mlir
    %v = kiln.dict.value_at %d[%slot] : !kiln.dict<i64, f64>
    ```
  }];
  let arguments = (ins Kiln_AnyDict:$dict, I64:$slot);
  let results = (outs AnyType:$result);
  let assemblyFormat = "$dict `[` $slot `]` attr-dict `:` type($dict)";
}

def Kiln_DictSetValueAtOp : Kiln_DictOp<"set_value_at", [MemoryEffects<[MemRead, MemWrite]>,
                                                         Kiln_ValueOf<"dict", "value">]> {
  let summary = "A new value for the entry in slot `slot`: `d[k] += v`";
  let description = [{
    ```mlir
    kiln.dict.set_value_at %d[%slot], %v : !kiln.dict<i64, f64>
    ```
  }];
  let arguments = (ins Kiln_AnyDict:$dict, I64:$slot, AnyType:$value);
  let assemblyFormat = "$dict `[` $slot `]` `,` $value attr-dict `:` type($dict)";
}

def Kiln_DictEraseAtOp : Kiln_DictOp<"erase_at", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "Deletes the entry in slot `slot`: `del d[k]`, `d.pop(k)`";
  let description = [{
    The slot stays (not live) until the dict is compacted, so iteration
    order and the other slots do not move.

    ```mlir
    kiln.dict.erase_at %d[%slot] : !kiln.dict<i64, f64>
    ```
  }];
  let arguments = (ins Kiln_AnyDict:$dict, I64:$slot);
  let assemblyFormat = "$dict `[` $slot `]` attr-dict `:` type($dict)";
}

def Kiln_DictClearOp : Kiln_DictOp<"clear", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "`d.clear()`";
  let description = [{
    ```mlir
    kiln.dict.clear %d : !kiln.dict<i64, f64>
    ```
  }];
  let arguments = (ins Kiln_AnyDict:$dict);
  let assemblyFormat = "$dict attr-dict `:` type($dict)";
}

def Kiln_DictCopyOp : Kiln_DictOp<"copy", [MemoryEffects<[MemAlloc, MemRead]>,
                                           AllTypesMatch<["dict", "result"]>]> {
  let summary = "`d.copy()`, `dict(d)`: a new dict of the same entries in the same order";
  let description = [{
    ```mlir
    %e = kiln.dict.copy %d : !kiln.dict<i64, f64>
    ```
  }];
  let arguments = (ins Kiln_AnyDict:$dict);
  let results = (outs Kiln_AnyDict:$result);
  let assemblyFormat = "$dict attr-dict `:` type($dict)";
}

def Kiln_DictUpdateOp : Kiln_DictOp<"update", [MemoryEffects<[MemRead, MemWrite]>,
                                               AllTypesMatch<["dict", "other"]>]> {
  let summary = "`d.update(e)`, `d |= e`: `e`'s entries set into `d` in `e`'s order";
  let description = [{
    ```mlir
    kiln.dict.update %d, %e : !kiln.dict<i64, f64>
    ```
  }];
  let arguments = (ins Kiln_AnyDict:$dict, Kiln_AnyDict:$other);
  let assemblyFormat = "$dict `,` $other attr-dict `:` type($dict)";
}

def Kiln_DictEqualOp : Kiln_DictOp<"equal", [MemoryEffects<[MemRead, MemWrite]>,
                                             AllTypesMatch<["lhs", "rhs"]>]> {
  let summary = "`d == e`: the same keys, each with equal values (order aside)";
  let description = [{
    ```mlir
    %same = kiln.dict.equal %d, %e : !kiln.dict<i64, f64>
    ```
  }];
  let arguments = (ins Kiln_AnyDict:$lhs, Kiln_AnyDict:$rhs);
  let results = (outs I1:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($lhs)";
}

//===----------------------------------------------------------------------===//
// Sets. A set is a dict without values (runtime/kiln_abi.h): the lookups,
// the slots iteration visits and the reference counts are the dicts';
// kiln-lower-containers lowers these to the same inline loads and to
// runtime/kiln_dict.c's set functions.
//===----------------------------------------------------------------------===//

class Kiln_SetOp<string mnemonic, list<Trait> traits = []>
    : Kiln_Op<"set." # mnemonic, traits>;

class Kiln_ElementOf<string container, string element>
    : TypesMatchWith<"element type matches the set", container, element,
                     "::llvm::cast<::kiln::SetType>($_self).getElementType()">;

// The numbers are the C ABI's (runtime/kiln_abi.h, KILN_SET_OPERATIONS),
// checked in lib/Dialect/KilnAbi.h. An IntegerAttr-backed enum, as ErrorKind
// (see there why).
def Kiln_SetOperation : I32EnumAttr<"SetOperation",
    "how a set operation combines two sets", [
      I32EnumAttrCase<"Union", 0, "union">,
      I32EnumAttrCase<"Intersection", 1, "intersection">,
      I32EnumAttrCase<"Difference", 2, "difference">,
      I32EnumAttrCase<"SymmetricDifference", 3, "symmetric_difference">,
    ]> {
  let cppNamespace = "::kiln";
}

def Kiln_SetNewOp : Kiln_SetOp<"new", [MemoryEffects<[MemAlloc]>]> {
  let summary = "A new empty set with room for `capacity` elements (a hint)";
  let description = [{
    ```mlir
    %s = kiln.set.new %c8 : !kiln.set<i64>
    ```
  }];
  let arguments = (ins I64:$capacity);
  let results = (outs Kiln_AnySet:$result);
  let assemblyFormat = "$capacity attr-dict `:` type($result)";
}

def Kiln_SetLenOp : Kiln_SetOp<"len", [MemoryEffects<[MemRead]>]> {
  let summary = "Python's len() of a set";
  let description = [{
    ```mlir
    %n = kiln.set.len %s : !kiln.set<i64>
    ```
  }];
  let arguments = (ins Kiln_AnySet:$set);
  let results = (outs I64:$result);
  let assemblyFormat = "$set attr-dict `:` type($set)";
}

def Kiln_SetContainsOp : Kiln_SetOp<"contains", [MemoryEffects<[MemRead, MemWrite]>,
                                                 Kiln_ElementOf<"set", "element">]> {
  let summary = "`x in s`";
  let description = [{
    (Writes memory: the first lookup of a set a caller built makes its
    table.)

    ```mlir
    %in = kiln.set.contains %s, %x : !kiln.set<i64>
    ```
  }];
  let arguments = (ins Kiln_AnySet:$set, AnyType:$element);
  let results = (outs I1:$result);
  let assemblyFormat = "$set `,` $element attr-dict `:` type($set)";
}

def Kiln_SetAddOp : Kiln_SetOp<"add", [MemoryEffects<[MemRead, MemWrite]>,
                                       Kiln_ElementOf<"set", "element">]> {
  let summary = "`s.add(x)`: a new element at the end of the order, if it is new";
  let description = [{
    ```mlir
    kiln.set.add %s, %x : !kiln.set<i64>
    ```
  }];
  let arguments = (ins Kiln_AnySet:$set, AnyType:$element);
  let assemblyFormat = "$set `,` $element attr-dict `:` type($set)";
}

def Kiln_SetDiscardOp : Kiln_SetOp<"discard", [MemoryEffects<[MemRead, MemWrite]>,
                                               Kiln_ElementOf<"set", "element">]> {
  let summary = "`s.discard(x)`: whether `x` was there";
  let description = [{
    ```mlir
    %was = kiln.set.discard %s, %x : !kiln.set<i64>
    ```
  }];
  let arguments = (ins Kiln_AnySet:$set, AnyType:$element);
  let results = (outs I1:$result);
  let assemblyFormat = "$set `,` $element attr-dict `:` type($set)";
}

def Kiln_SetRemoveOp : Kiln_SetOp<"remove", [MemoryEffects<[MemRead, MemWrite]>,
                                             Kiln_ElementOf<"set", "element">]> {
  let summary = "`s.remove(x)`: KeyError(x) when `x` is not there";
  let description = [{
    ```mlir
    kiln.set.remove %s, %x : !kiln.set<i64>
    ```
  }];
  let arguments = (ins Kiln_AnySet:$set, AnyType:$element);
  let assemblyFormat = "$set `,` $element attr-dict `:` type($set)";
}

def Kiln_SetPopOp : Kiln_SetOp<"pop", [MemoryEffects<[MemRead, MemWrite]>,
                                       Kiln_ElementOf<"set", "result">]> {
  let summary = "`s.pop()`: removes and returns the first element; KeyError when empty";
  let description = [{
    CPython pops the element its table holds first; Kiln pops the first in
    the set's own order (`KeyError: 'pop from an empty set'` alike).

    ```mlir
    %x = kiln.set.pop %s : !kiln.set<i64>
    ```
  }];
  let arguments = (ins Kiln_AnySet:$set);
  let results = (outs AnyType:$result);
  let assemblyFormat = "$set attr-dict `:` type($set)";
}

def Kiln_SetUsedOp : Kiln_SetOp<"used", [MemoryEffects<[MemRead]>]> {
  let summary = "How many slots iteration visits (elements and removed ones)";
  let description = [{
    `for x in s` visits slots 0 .. used-1 and skips those not `live_at`.

    ```mlir
    %end = kiln.set.used %s : !kiln.set<i64>
    ```
  }];
  let arguments = (ins Kiln_AnySet:$set);
  let results = (outs I64:$result);
  let assemblyFormat = "$set attr-dict `:` type($set)";
}

def Kiln_SetLiveAtOp : Kiln_SetOp<"live_at", [MemoryEffects<[MemRead]>]> {
  let summary = "Whether slot `slot` (in [0, used)) holds an element";
  let description = [{
    ```mlir
    %here = kiln.set.live_at %s[%slot] : !kiln.set<i64>
    ```
  }];
  let arguments = (ins Kiln_AnySet:$set, I64:$slot);
  let results = (outs I1:$result);
  let assemblyFormat = "$set `[` $slot `]` attr-dict `:` type($set)";
}

def Kiln_SetKeyAtOp : Kiln_SetOp<"key_at", [MemoryEffects<[MemRead]>,
                                            Kiln_ElementOf<"set", "result">]> {
  let summary = "The element in slot `slot`";
  let description = [{
    ```mlir
    %x = kiln.set.key_at %s[%slot] : !kiln.set<i64>
    ```
  }];
  let arguments = (ins Kiln_AnySet:$set, I64:$slot);
  let results = (outs AnyType:$result);
  let assemblyFormat = "$set `[` $slot `]` attr-dict `:` type($set)";
}

def Kiln_SetClearOp : Kiln_SetOp<"clear", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "`s.clear()`";
  let description = [{
    ```mlir
    kiln.set.clear %s : !kiln.set<i64>
    ```
  }];
  let arguments = (ins Kiln_AnySet:$set);
  let assemblyFormat = "$set attr-dict `:` type($set)";
}

def Kiln_SetCopyOp : Kiln_SetOp<"copy", [MemoryEffects<[MemAlloc, MemRead]>,
                                         AllTypesMatch<["set", "result"]>]> {
  let summary = "`s.copy()`, `set(s)`: a new set of the same elements in the same order";
  let description = [{
    ```mlir
    %t = kiln.set.copy %s : !kiln.set<i64>
    ```
  }];
  let arguments = (ins Kiln_AnySet:$set);
  let results = (outs Kiln_AnySet:$result);
  let assemblyFormat = "$set attr-dict `:` type($set)";
}

def Kiln_SetCombineOp : Kiln_SetOp<"combine", [MemoryEffects<[MemAlloc, MemRead, MemWrite]>,
                                               AllTypesMatch<["lhs", "rhs", "result"]>]> {
  let summary = "`a | b`, `a & b`, `a - b`, `a ^ b`: a new set";
  let description = [{
    The result keeps `lhs`'s order for its elements, then `rhs`'s for the
    elements only `rhs` has (union, symmetric difference).

    ```mlir
    %both = kiln.set.combine intersection %a, %b : !kiln.set<i64>
    ```
  }];
  let arguments = (ins Kiln_SetOperation:$kind, Kiln_AnySet:$lhs, Kiln_AnySet:$rhs);
  let results = (outs Kiln_AnySet:$result);
  let assemblyFormat = "$kind $lhs `,` $rhs attr-dict `:` type($lhs)";
}

def Kiln_SetUpdateOp : Kiln_SetOp<"update", [MemoryEffects<[MemRead, MemWrite]>,
                                             AllTypesMatch<["set", "other"]>]> {
  let summary = "`a |= b`, `a &= b`, `a -= b`, `a ^= b` (and `a.update(b)` ...): in place";
  let description = [{
    `other` may be `set` itself.

    ```mlir
    kiln.set.update difference %a, %b : !kiln.set<i64>
    ```
  }];
  let arguments = (ins Kiln_SetOperation:$kind, Kiln_AnySet:$set, Kiln_AnySet:$other);
  let assemblyFormat = "$kind $set `,` $other attr-dict `:` type($set)";
}

def Kiln_SetSubsetOp : Kiln_SetOp<"subset", [MemoryEffects<[MemRead, MemWrite]>,
                                             AllTypesMatch<["lhs", "rhs"]>]> {
  let summary = "`a <= b`, `a.issubset(b)`: every element of `a` is in `b`";
  let description = [{
    ```mlir
    %le = kiln.set.subset %a, %b : !kiln.set<i64>
    ```
  }];
  let arguments = (ins Kiln_AnySet:$lhs, Kiln_AnySet:$rhs);
  let results = (outs I1:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($lhs)";
}

def Kiln_SetEqualOp : Kiln_SetOp<"equal", [MemoryEffects<[MemRead, MemWrite]>,
                                           AllTypesMatch<["lhs", "rhs"]>]> {
  let summary = "`a == b`: the same elements (order aside)";
  let description = [{
    ```mlir
    %same = kiln.set.equal %a, %b : !kiln.set<i64>
    ```
  }];
  let arguments = (ins Kiln_AnySet:$lhs, Kiln_AnySet:$rhs);
  let results = (outs I1:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($lhs)";
}

def Kiln_SetDisjointOp : Kiln_SetOp<"disjoint", [MemoryEffects<[MemRead, MemWrite]>,
                                                 AllTypesMatch<["lhs", "rhs"]>]> {
  let summary = "`a.isdisjoint(b)`: no element in both";
  let description = [{
    ```mlir
    %none = kiln.set.disjoint %a, %b : !kiln.set<i64>
    ```
  }];
  let arguments = (ins Kiln_AnySet:$lhs, Kiln_AnySet:$rhs);
  let results = (outs I1:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($lhs)";
}

//===----------------------------------------------------------------------===//
// Strings. Immutable: an op that makes a string returns a new reference
// (owned by the frontend's names and temporaries as a list is); the others
// read. kiln-lower-containers lowers them to inline loads of kiln_str and
// calls of runtime/kiln_str.c. Ops that make a string allocate (so CSE never
// merges two of them: each result is a reference of its own to release).
//===----------------------------------------------------------------------===//

class Kiln_StrOp<string mnemonic, list<Trait> traits = []>
    : Kiln_Op<"str." # mnemonic, traits>;

// The numbers are the C ABI's (runtime/kiln_abi.h, KILN_STR_PROPERTIES),
// checked in lib/Dialect/KilnAbi.h.
def Kiln_StrProperty : I32EnumAttr<"StrProperty",
    "a str.is...() method", [
      I32EnumAttrCase<"Digit", 0, "isdigit">,
      I32EnumAttrCase<"Alpha", 1, "isalpha">,
      I32EnumAttrCase<"Alnum", 2, "isalnum">,
      I32EnumAttrCase<"Space", 3, "isspace">,
      I32EnumAttrCase<"Decimal", 4, "isdecimal">,
      I32EnumAttrCase<"Numeric", 5, "isnumeric">,
      I32EnumAttrCase<"Lower", 6, "islower">,
      I32EnumAttrCase<"Upper", 7, "isupper">,
    ]> {
  let cppNamespace = "::kiln";
}

def Kiln_StrConstantOp : Kiln_StrOp<"constant", [Pure]> {
  let summary = "A string literal";
  let description = [{
    `value` is the text in UTF-8. The string lives in the module's constant
    data: releasing it never frees it, so the op is pure and CSE may share
    it.

    ```mlir
    %comma = kiln.str.constant ", "
    ```
  }];
  let arguments = (ins StrAttr:$value);
  let results = (outs Kiln_Str:$result);
  let assemblyFormat = "$value attr-dict";
  let hasVerifier = 1;
}

def Kiln_StrLenOp : Kiln_StrOp<"len", [MemoryEffects<[MemRead]>]> {
  let summary = "len(s): the number of code points";
  let description = [{
    ```mlir
    %n = kiln.str.len %s
    ```
  }];
  let arguments = (ins Kiln_Str:$str);
  let results = (outs I64:$result);
  let assemblyFormat = "$str attr-dict";
}

def Kiln_StrCharAtOp : Kiln_StrOp<"char_at", [MemoryEffects<[MemAlloc, MemRead]>]> {
  let summary = "`s[i]`: a string of one code point";
  let description = [{
    A negative index counts from the end; IndexError("string index out of
    range") outside `[-len, len)`. Characters below 256 are shared strings
    that are never freed (no allocation in `for c in s`).

    ```mlir
    %c = kiln.str.char_at %s[%i]
    ```
  }];
  let arguments = (ins Kiln_Str:$str, I64:$index);
  let results = (outs Kiln_Str:$result);
  let assemblyFormat = "$str `[` $index `]` attr-dict";
}

def Kiln_StrCodeAtOp : Kiln_StrOp<"code_at", [MemoryEffects<[MemRead]>]> {
  let summary = "`ord(s[i])` without making `s[i]`";
  let description = [{
    Indexed as `kiln.str.char_at`, with its IndexError.

    ```mlir
    %code = kiln.str.code_at %s[%i]
    ```
  }];
  let arguments = (ins Kiln_Str:$str, I64:$index);
  let results = (outs I64:$result);
  let assemblyFormat = "$str `[` $index `]` attr-dict";
}

def Kiln_StrOrdOp : Kiln_StrOp<"ord", [MemoryEffects<[MemRead]>]> {
  let summary = "`ord(c)`";
  let description = [{
    TypeError("ord() expected a character, but string of length {} found")
    unless `c` has one code point.

    ```mlir
    %code = kiln.str.ord %c
    ```
  }];
  let arguments = (ins Kiln_Str:$str);
  let results = (outs I64:$result);
  let assemblyFormat = "$str attr-dict";
}

def Kiln_StrChrOp : Kiln_StrOp<"chr", [MemoryEffects<[MemAlloc]>]> {
  let summary = "`chr(i)`";
  let description = [{
    ValueError("chr() arg not in range(0x110000)") outside [0, 0x110000).

    ```mlir
    %c = kiln.str.chr %code
    ```
  }];
  let arguments = (ins I64:$code);
  let results = (outs Kiln_Str:$result);
  let assemblyFormat = "$code attr-dict";
}

def Kiln_StrConcatOp : Kiln_StrOp<"concat", [MemoryEffects<[MemAlloc, MemRead]>]> {
  let summary = "`a + b`";
  let description = [{
    ```mlir
    %ab = kiln.str.concat %a, %b
    ```
  }];
  let arguments = (ins Kiln_Str:$lhs, Kiln_Str:$rhs);
  let results = (outs Kiln_Str:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict";
}

def Kiln_StrAppendOp : Kiln_StrOp<"append", [MemoryEffects<[MemAlloc, MemRead, MemWrite,
                                                            MemFree]>]> {
  let summary = "`s += t`: consumes the reference `lhs` holds";
  let description = [{
    The result is `lhs + rhs` as a new reference, and the operand's
    reference is gone (as a `kiln.release` of it): when it was the string's
    only one, the string grows in place, so a loop of `s += c` costs
    amortized constant time per character (CPython resizes such a string in
    place too) instead of a copy of `s` per step.

    ```mlir
    %longer = kiln.str.append %s, %c
    ```
  }];
  let arguments = (ins Kiln_Str:$lhs, Kiln_Str:$rhs);
  let results = (outs Kiln_Str:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict";
}

def Kiln_StrRepeatOp : Kiln_StrOp<"repeat", [MemoryEffects<[MemAlloc, MemRead]>]> {
  let summary = "`s * n` (`n` <= 0: the empty string)";
  let description = [{
    ```mlir
    %line = kiln.str.repeat %dash, %n
    ```
  }];
  let arguments = (ins Kiln_Str:$str, I64:$count);
  let results = (outs Kiln_Str:$result);
  let assemblyFormat = "$str `,` $count attr-dict";
}

def Kiln_StrSliceOp : Kiln_StrOp<"slice", [MemoryEffects<[MemAlloc, MemRead]>,
                                           AttrSizedOperandSegments]> {
  let summary = "`s[a:b:c]`";
  let description = [{
    A missing bound is Python's None; ValueError("slice step cannot be
    zero") for a zero step.

    ```mlir
    %tail = kiln.str.slice %s[%c1 : : %c1]
    ```
  }];
  let arguments = (ins Kiln_Str:$str, Optional<I64>:$start, Optional<I64>:$stop, I64:$step);
  let results = (outs Kiln_Str:$result);
  let assemblyFormat = [{
    $str `[` ($start^)? `:` ($stop^)? `:` $step `]` attr-dict
  }];
}

def Kiln_StrEqualOp : Kiln_StrOp<"equal", [MemoryEffects<[MemRead]>]> {
  let summary = "`a == b`";
  let description = [{
    ```mlir
    %same = kiln.str.equal %a, %b
    ```
  }];
  let arguments = (ins Kiln_Str:$lhs, Kiln_Str:$rhs);
  let results = (outs I1:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict";
}

def Kiln_StrCompareOp : Kiln_StrOp<"compare", [MemoryEffects<[MemRead]>]> {
  let summary = "The order of `a` and `b`: < 0, 0 or > 0";
  let description = [{
    Python's `<` of strings: code point by code point, a prefix first.

    ```mlir
    %order = kiln.str.compare %a, %b
    %less = arith.cmpi slt, %order, %c0_i32 : i32
    ```
  }];
  let arguments = (ins Kiln_Str:$lhs, Kiln_Str:$rhs);
  let results = (outs I32:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict";
}

class Kiln_StrSearchOp<string mnemonic, string python>
    : Kiln_StrOp<mnemonic, [MemoryEffects<[MemRead]>, AttrSizedOperandSegments]> {
  let summary = "`s." # python # "(sub[, start[, end]])`";
  let description = [{
    `start` and `end` are as in a slice (missing: None).

    ```mlir
    %at = kiln.str.}] # mnemonic # [{ %s, %sub[%c2 : ]
    ```
  }];
  let arguments = (ins Kiln_Str:$str, Kiln_Str:$sub, Optional<I64>:$start, Optional<I64>:$end);
  let results = (outs I64:$result);
  let assemblyFormat = [{
    $str `,` $sub `[` ($start^)? `:` ($end^)? `]` attr-dict
  }];
}
def Kiln_StrFindOp : Kiln_StrSearchOp<"find", "find">;
def Kiln_StrRFindOp : Kiln_StrSearchOp<"rfind", "rfind">;
def Kiln_StrCountOp : Kiln_StrSearchOp<"count", "count">;

class Kiln_StrTestOp<string mnemonic, string python>
    : Kiln_StrOp<mnemonic, [MemoryEffects<[MemRead]>]> {
  let summary = "`" # python # "`";
  let description = [{
    ```mlir
    %yes = kiln.str.}] # mnemonic # [{ %s, %part
    ```
  }];
  let arguments = (ins Kiln_Str:$str, Kiln_Str:$part);
  let results = (outs I1:$result);
  let assemblyFormat = "$str `,` $part attr-dict";
}
def Kiln_StrContainsOp : Kiln_StrTestOp<"contains", "part in s">;
def Kiln_StrStartsWithOp : Kiln_StrTestOp<"startswith", "s.startswith(part)">;
def Kiln_StrEndsWithOp : Kiln_StrTestOp<"endswith", "s.endswith(part)">;

def Kiln_StrStripOp : Kiln_StrOp<"strip", [MemoryEffects<[MemAlloc, MemRead]>]> {
  let summary = "`s.strip([chars])`, `s.lstrip(...)`, `s.rstrip(...)`";
  let description = [{
    Without `chars`, whitespace (`str.isspace()`) goes. `left`/`right` say
    which ends are stripped.

    ```mlir
    %t = kiln.str.strip %s {left, right}
    %u = kiln.str.strip %s, %chars {right}
    ```
  }];
  let arguments = (ins Kiln_Str:$str, Optional<Kiln_Str>:$chars, UnitAttr:$left,
                       UnitAttr:$right);
  let results = (outs Kiln_Str:$result);
  let assemblyFormat = "$str (`,` $chars^)? attr-dict";
  let hasVerifier = 1;
}

def Kiln_StrReplaceOp : Kiln_StrOp<"replace", [MemoryEffects<[MemAlloc, MemRead]>]> {
  let summary = "`s.replace(old, new[, count])` (`count` < 0: every one)";
  let description = [{
    ```mlir
    %t = kiln.str.replace %s, %old, %new, %minus_one
    ```
  }];
  let arguments = (ins Kiln_Str:$str, Kiln_Str:$old, Kiln_Str:$replacement, I64:$count);
  let results = (outs Kiln_Str:$result);
  let assemblyFormat = "$str `,` $old `,` $replacement `,` $count attr-dict";
}

class Kiln_StrMapOp<string mnemonic> : Kiln_StrOp<mnemonic, [MemoryEffects<[MemAlloc, MemRead]>]> {
  let summary = "`s." # mnemonic # "()`, with Unicode's full case mappings";
  let description = [{
    ```mlir
    %t = kiln.str.}] # mnemonic # [{ %s
    ```
  }];
  let arguments = (ins Kiln_Str:$str);
  let results = (outs Kiln_Str:$result);
  let assemblyFormat = "$str attr-dict";
}
def Kiln_StrLowerOp : Kiln_StrMapOp<"lower">;
def Kiln_StrUpperOp : Kiln_StrMapOp<"upper">;

def Kiln_StrIsOp : Kiln_StrOp<"is", [MemoryEffects<[MemRead]>]> {
  let summary = "`s.isdigit()`, `s.isalpha()`, ... (`property`)";
  let description = [{
    ```mlir
    %digits = kiln.str.is %s, isdigit
    ```
  }];
  let arguments = (ins Kiln_Str:$str, Kiln_StrProperty:$property);
  let results = (outs I1:$result);
  let assemblyFormat = "$str `,` $property attr-dict";
}

def Kiln_StrFromIntOp : Kiln_StrOp<"from_int", [MemoryEffects<[MemAlloc]>]> {
  let summary = "`str(i)`";
  let description = [{
    ```mlir
    %text = kiln.str.from_int %i
    ```
  }];
  let arguments = (ins I64:$value);
  let results = (outs Kiln_Str:$result);
  let assemblyFormat = "$value attr-dict";
}

def Kiln_StrFromFloatOp : Kiln_StrOp<"from_float", [MemoryEffects<[MemAlloc]>]> {
  let summary = "`str(x)`, which is `repr(x)`: the shortest digits that read back as `x`";
  let description = [{
    ```mlir
    %text = kiln.str.from_float %x
    ```
  }];
  let arguments = (ins F64:$value);
  let results = (outs Kiln_Str:$result);
  let assemblyFormat = "$value attr-dict";
}

def Kiln_StrToIntOp : Kiln_StrOp<"to_int", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "`int(s)`";
  let description = [{
    ValueError("invalid literal for int() with base 10: ...") for text that
    is not an int; OverflowError for one outside 64 bits (Kiln's int).

    ```mlir
    %i = kiln.str.to_int %s
    ```
  }];
  let arguments = (ins Kiln_Str:$str);
  let results = (outs I64:$result);
  let assemblyFormat = "$str attr-dict";
}

def Kiln_StrToFloatOp : Kiln_StrOp<"to_float", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "`float(s)`";
  let description = [{
    ValueError("could not convert string to float: ...") for text that is
    not a float.

    ```mlir
    %x = kiln.str.to_float %s
    ```
  }];
  let arguments = (ins Kiln_Str:$str);
  let results = (outs F64:$result);
  let assemblyFormat = "$str attr-dict";
}

def Kiln_StrSplitOp : Kiln_StrOp<"split", [MemoryEffects<[MemAlloc, MemRead]>]> {
  let summary = "`s.split([sep[, maxsplit]])`: a new list of str";
  let description = [{
    Without `sep`, runs of whitespace separate and ends are dropped;
    ValueError("empty separator") for an empty `sep`. `maxsplit` < 0: no
    limit.

    ```mlir
    %words = kiln.str.split %line, %maxsplit : !kiln.list<!kiln.str>
    %fields = kiln.str.split %line, %maxsplit, %comma : !kiln.list<!kiln.str>
    ```
  }];
  let arguments = (ins Kiln_Str:$str, I64:$maxsplit, Optional<Kiln_Str>:$sep);
  let results = (outs Kiln_AnyList:$result);
  let assemblyFormat = "$str `,` $maxsplit (`,` $sep^)? attr-dict `:` qualified(type($result))";
  let hasVerifier = 1;
}

def Kiln_StrJoinOp : Kiln_StrOp<"join", [MemoryEffects<[MemAlloc, MemRead]>]> {
  let summary = "`sep.join(items)` of a list of str";
  let description = [{
    ```mlir
    %line = kiln.str.join %comma, %words : !kiln.list<!kiln.str>
    ```
  }];
  let arguments = (ins Kiln_Str:$sep, Kiln_AnyList:$items);
  let results = (outs Kiln_Str:$result);
  let assemblyFormat = "$sep `,` $items attr-dict `:` qualified(type($items))";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Instances of exported classes. kiln-lower-containers lowers each to inline
// loads and stores at the field's offset (runtime/kiln_abi.h, the
// frontend's kiln/frontend/classes.py computes the offsets), and to calls of
// the type's tp_alloc/tp_dealloc: compiled code touching instances holds
// the GIL.
//===----------------------------------------------------------------------===//

class Kiln_ObjectOp<string mnemonic, list<Trait> traits = []>
    : Kiln_Op<"object." # mnemonic, traits>;

def Kiln_FieldValue : AnyTypeOf<[I64, F64, I1, Kiln_AnyObject, Kiln_Str, Kiln_AnyList],
                                "i64, f64, i1, an instance, a str or a list">;

def Kiln_ObjectNewOp : Kiln_ObjectOp<"new", [MemoryEffects<[MemAlloc, MemRead, MemWrite]>]> {
  let summary = "A new instance: every field 0, 0.0, False or unset";
  let description = [{
    `slot` names the weak global (`!llvm.ptr`) where the extension stores
    the class's type object when it is imported; the instance comes from
    that type's `tp_alloc`. The result holds the only reference. Raises
    MemoryError when allocation fails, RuntimeError when the slot is still
    empty (the library is used without the extension that makes the type).

    ```mlir
    %node = kiln.object.new @mod_Node__kiln_type : !kiln.object<"Node">
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$slot);
  let results = (outs Kiln_AnyObject:$result);
  let assemblyFormat = "$slot attr-dict `:` qualified(type($result))";
}

def Kiln_ObjectGetOp : Kiln_ObjectOp<"get", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "`o.field`: the value in the field's slot";
  let description = [{
    `offset` is the field's byte offset in the instance. Raises
    AttributeError("'NoneType' object has no attribute '<field>'") when `o`
    is None. An instance-typed field that holds None is an unset attribute
    (AttributeError "'<class>' object has no attribute '<field>'") unless
    the op is `nullable` (an Optional field); so is a str or list field
    that holds none yet. An instance, str or list result is borrowed: `o`
    keeps its reference.

    ```mlir
    %x = kiln.object.get %p["x", 16] : !kiln.object<"Point"> -> f64
    %next = kiln.object.get %n["next", 24] {nullable} : !kiln.object<"Node"> -> !kiln.object<"Node">
    ```
  }];
  let arguments = (ins Kiln_AnyObject:$object, StrAttr:$field, I64Attr:$offset,
                       UnitAttr:$nullable);
  let results = (outs Kiln_FieldValue:$result);
  let assemblyFormat = [{
    $object `[` $field `,` $offset `]` attr-dict `:` qualified(type($object)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def Kiln_ObjectSetOp : Kiln_ObjectOp<"set", [MemoryEffects<[MemRead, MemWrite, MemFree]>]> {
  let summary = "`o.field = value`";
  let description = [{
    Raises AttributeError when `o` is None. An instance, str or list value
    is retained (the operand stays its holder's) and the one the field held
    before is released, after the store. A list leaves the containers'
    journal (an instance keeps it past a raise) and counts the field's
    reference in its `field_references` (runtime/kiln_abi.h).

    ```mlir
    kiln.object.set %p["x", 16], %x : !kiln.object<"Point">, f64
    kiln.object.set %q["items", 24], %xs : !kiln.object<"Queue">, !kiln.list<i64>
    ```
  }];
  let arguments = (ins Kiln_AnyObject:$object, StrAttr:$field, I64Attr:$offset,
                       Kiln_FieldValue:$value);
  let assemblyFormat = [{
    $object `[` $field `,` $offset `]` `,` $value attr-dict `:` qualified(type($object)) `,` qualified(type($value))
  }];
  let hasVerifier = 1;
}

def Kiln_ObjectNoneOp : Kiln_ObjectOp<"none", [Pure]> {
  let summary = "None, as a value of an instance type";
  let description = [{
    ```mlir
    %none = kiln.object.none : !kiln.object<"Node">
    ```
  }];
  let results = (outs Kiln_AnyObject:$result);
  let assemblyFormat = "attr-dict `:` qualified(type($result))";
}

def Kiln_ObjectIsNoneOp : Kiln_ObjectOp<"is_none", [Pure]> {
  let summary = "`o is None`";
  let description = [{
    ```mlir
    %leaf = kiln.object.is_none %left : !kiln.object<"Node">
    ```
  }];
  let arguments = (ins Kiln_AnyObject:$object);
  let results = (outs I1:$result);
  let assemblyFormat = "$object attr-dict `:` qualified(type($object))";
}

def Kiln_ObjectSameOp : Kiln_ObjectOp<"same", [Pure, SameTypeOperands]> {
  let summary = "`a is b` of two instances of one class";
  let description = [{
    ```mlir
    %same = kiln.object.same %a, %b : !kiln.object<"Node">
    ```
  }];
  let arguments = (ins Kiln_AnyObject:$lhs, Kiln_AnyObject:$rhs);
  let results = (outs I1:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` qualified(type($lhs))";
}

def Kiln_ObjectCastOp : Kiln_ObjectOp<"cast", [Pure]> {
  let summary = "An instance seen as one of another exported class";
  let description = [{
    The same object (no new reference) as a value of another class of its
    hierarchy: a subclass's instance where its base class is expected
    (always right), or a base class's instance as a subclass after a test
    of its type (`kiln.object.has_type`). Field offsets of a base class are
    the same in its subclasses (the frontend lays them out so), so nothing
    changes at run time; the frontend, which knows the hierarchy, is what
    makes each cast sound.

    ```mlir
    %shape = kiln.object.cast %circle : !kiln.object<"Circle"> to !kiln.object<"Shape">
    ```
  }];
  let arguments = (ins Kiln_AnyObject:$object);
  let results = (outs Kiln_AnyObject:$result);
  let assemblyFormat = "$object attr-dict `:` qualified(type($object)) `to` qualified(type($result))";
  let hasFolder = 1;
}

def Kiln_ObjectHasTypeOp : Kiln_ObjectOp<"has_type", [MemoryEffects<[MemRead]>]> {
  let summary = "`type(o) is C`: `o` is not None and its type is the class in `slot`";
  let description = [{
    `slot` is a class slot as in `kiln.object.new`. False when `o` is None
    or the slot is still empty. `isinstance(o, Shape)` is the disjunction
    of this test over Shape and its exported subclasses (the frontend's
    closed hierarchy), and a method overridden in a subclass dispatches on
    it.

    ```mlir
    %is_circle = kiln.object.has_type %shape, @mod_Circle__kiln_type : !kiln.object<"Shape">
    ```
  }];
  let arguments = (ins Kiln_AnyObject:$object, FlatSymbolRefAttr:$slot);
  let results = (outs I1:$result);
  let assemblyFormat = "$object `,` $slot attr-dict `:` qualified(type($object))";
}

#endif // KILN_OPS_TD
