#ifndef KILN_PASSES_TD
#define KILN_PASSES_TD

include "mlir/Pass/PassBase.td"

def KilnLowerChecks : Pass<"kiln-lower-checks", "::mlir::ModuleOp"> {
  let summary = "Turn kiln.check into an early return that fills the error record";
  let description = [{
    Compiled Python functions report exceptions through a `kiln_error` record
    owned by the caller: the function argument carrying the
    `kiln.error_slot` attribute points to it. This pass rewrites every
    `kiln.check` into a conditional branch to a cold block that stores the
    exception kind, the op's source line and column, the message and its
    operands into the record, and returns zero values. Each
    `kiln.propagate_error` (after a call to a function that can raise) becomes
    a test of the record's kind and the same early return, leaving the record
    as the callee filled it. Arrays the function allocated before the error
    (`memref.alloc` marked `kiln.owned`) are freed on the error path. The pass
    runs after `convert-scf-to-cf`, because an early return needs an
    unstructured CFG.

    Before:

    ```mlir
    func.func @div(%a: i64, %b: i64, %err: !llvm.ptr {kiln.error_slot}) -> i64 {
      %nonzero = arith.cmpi ne, %b, %c0 : i64
      kiln.check %nonzero, "ZeroDivisionError", "integer division or modulo by zero"
      %q = arith.floordivsi %a, %b : i64
      return %q : i64
    }
    ```

    After:

    ```mlir
    func.func @div(%a: i64, %b: i64, %err: !llvm.ptr {kiln.error_slot}) -> i64 {
      %nonzero = arith.cmpi ne, %b, %c0 : i64
      %failed = arith.xori %nonzero, %true : i1
      cf.cond_br %failed, ^raise, ^continue
    ^raise:
      llvm.store %kind, %err : i32, !llvm.ptr      // plus line, column, message
      return %zero : i64
    ^continue:
      %q = arith.floordivsi %a, %b : i64
      return %q : i64
    }
    ```
  }];
  let dependentDialects = [
    "::mlir::LLVM::LLVMDialect",
    "::mlir::cf::ControlFlowDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::ub::UBDialect",
    "::mlir::memref::MemRefDialect",
  ];
}

def KilnStripMetadata : Pass<"kiln-strip-metadata", "::mlir::ModuleOp"> {
  let summary = "Drop source locations and Kiln's frontend attributes once "
                "nothing reads them";
  let description = [{
    Release builds carry nothing the machine code does not need. Locations
    exist for reporting and for DWARF; Kiln's discardable `kiln.*`
    attributes only tell the lowering what the frontend meant. This pass
    replaces every location (of ops and of block arguments) with
    `loc(unknown)` and removes `kiln.*` attributes from ops, function
    arguments and results, except `kiln.error_slot` and `kiln.owned`, which
    `kiln-lower-checks` reads. Attributes of other dialects stay:
    `llvm.emit_c_interface`, for one, makes `convert-func-to-llvm` emit the
    C interface.

    Run it after `kiln-lower-checks`, which copies each check's line and
    column into the error record, and after whatever reports on locations;
    without locations the LLVM module has no debug info.

    Before:

    ```mlir
    func.func @scale(%x: f64, %err: !llvm.ptr {kiln.error_slot})
        -> f64 attributes {kiln.export, llvm.emit_c_interface} {
      %two = arith.constant 2.0 : f64 loc("kernels.py":3:12)
      %y = arith.mulf %x, %two : f64 loc(fused["kernels.py":3:12, "mulf"])
      return %y : f64 loc("kernels.py":3:5)
    } loc("kernels.py":2:1)
    ```

    After (`keep-locations=true` would keep `loc("kernels.py":3:12)` for
    the fused location and every other file:line:col):

    ```mlir
    func.func @scale(%x: f64, %err: !llvm.ptr {kiln.error_slot})
        -> f64 attributes {llvm.emit_c_interface} {
      %two = arith.constant 2.0 : f64 loc(unknown)
      %y = arith.mulf %x, %two : f64 loc(unknown)
      return %y : f64 loc(unknown)
    } loc(unknown)
    ```
  }];
  let options = [
    Option<"keepLocations", "keep-locations", "bool", /*default=*/"false",
           "Keep file:line:col: each location becomes the first "
           "FileLineColLoc it contains (unknown if none); names, call sites "
           "and fused metadata are dropped">,
    ListOption<"keepAttributes", "keep-attributes", "std::string",
               "Further `kiln.*` attributes to keep, by full name (e.g. "
               "kiln.export); kiln.error_slot and kiln.owned are always "
               "kept">,
  ];
}

def KilnHoistBoundsChecks : Pass<"kiln-hoist-bounds-checks", "::mlir::func::FuncOp"> {
  let summary = "Version loops so that provably in-bounds accesses run unchecked";
  let description = [{
    For each `scf.for` whose body indexes arrays with `kiln.index` at
    `a * iv + b` (`a` a constant, `b` and the axis size loop-invariant), one
    test before the loop checks the first and the last index of every such
    access. When all are inside `[0, size)` (or the loop runs zero times) a
    copy of the loop runs with those accesses `unchecked` and `nonnegative`:
    no branch stops vectorization. Otherwise the original loop runs, checks
    included, so an IndexError is raised at exactly the iteration and with
    exactly the side effects CPython would have. Accesses that do not fit
    the pattern stay checked in both copies.

    Before:

    ```mlir
    scf.for %i = %c0 to %n step %c1 : i64 {
      %k = kiln.index %i, %size {axis = 0 : i64} : i64 -> index
      ...
    }
    ```

    After:

    ```mlir
    %ok = ...  // %n <= 0, or 0 <= first, last < %size
    scf.if %ok {
      scf.for %i = %c0 to %n step %c1 : i64 {
        %k = kiln.index %i, %size {axis = 0 : i64, nonnegative, unchecked} : i64 -> index
        ...
      }
    } else {
      scf.for ... // the original loop
    }
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::scf::SCFDialect",
                           "::mlir::LLVM::LLVMDialect"];
}

def KilnLowerToStd : Pass<"kiln-lower-to-std", "::mlir::ModuleOp"> {
  let summary = "Lower kiln ops with Python semantics to arith, math and kiln.check";
  let description = [{
    Expands `kiln.floordiv`, `kiln.mod`, `kiln.pow`, `kiln.index`,
    `kiln.to_float` and `kiln.truthy` into upstream ops. Each error CPython would raise becomes a
    `kiln.check` (lowered later by `kiln-lower-checks`); a check whose
    divisor is a non-zero constant is not emitted at all.

    Before:

    ```mlir
    %q = kiln.floordiv %a, %b : i64
    ```

    After:

    ```mlir
    %nonzero = arith.cmpi ne, %b, %c0 : i64
    kiln.check %nonzero, "ZeroDivisionError", "integer division or modulo by zero"
    %is_m1 = arith.cmpi eq, %b, %cm1 : i64
    %safe = arith.select %is_m1, %c1, %b : i64
    %floor = arith.floordivsi %a, %safe : i64
    %neg = arith.subi %c0, %a : i64
    %q = arith.select %is_m1, %neg, %floor : i64
    ```
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::math::MathDialect",
    "::kiln::KilnDialect",
  ];
}

#endif // KILN_PASSES_TD
