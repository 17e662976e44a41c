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
    as the callee filled it. The pass runs after `convert-scf-to-cf`, because
    an early return needs an unstructured CFG.

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
  ];
}

#endif // KILN_PASSES_TD
