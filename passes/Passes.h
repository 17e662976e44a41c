#ifndef KILN_PASSES_PASSES_H
#define KILN_PASSES_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "lib/Dialect/KilnDialect.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/Pass.h"

namespace kiln {

// Loop copies kiln-hoist-bounds-checks keeps with their checks (the cold
// side of a version), which kiln-vectorize leaves alone or vectorizes
// without remarks: one loop's, and a whole nest's.
constexpr llvm::StringLiteral kBoundsCheckedCopyAttr = "kiln.bounds_checked_copy";
constexpr llvm::StringLiteral kNestCheckedCopyAttr = "kiln.nest_checked_copy";


// Values of kiln-vectorize's enum options (declared in Passes.td).
enum class VectorIsa { FromModule, SSE, AVX, AVX2, AVX512 };
enum class TailStrategy { Auto, Mask, Epilogue };

#define GEN_PASS_DECL
#include "passes/Passes.h.inc"

// kiln-buffer-deallocation's rule, which kiln-lower-checks applies too: a
// returned array is the caller's unless its buffer is the buffer of an
// array the caller passed. The aligned addresses of the memref `values`
// (the call's memref operands), and whether `resultAddress` is none of
// them (an i1).
llvm::SmallVector<mlir::Value> memrefAddresses(mlir::OpBuilder &builder, mlir::Location loc,
                                               mlir::ValueRange values);
mlir::Value callerOwnsResult(mlir::OpBuilder &builder, mlir::Location loc,
                             mlir::Value resultAddress,
                             llvm::ArrayRef<mlir::Value> argumentAddresses);

// Whether `a` and `b` hold the same values, each as many times, in any
// order: the references to instances two points of a function hold
// (kiln-lower-containers' walk, kiln-lower-checks' marker search).
bool sameValueMultiset(llvm::ArrayRef<mlir::Value> a, llvm::ArrayRef<mlir::Value> b);

#define GEN_PASS_REGISTRATION
#include "passes/Passes.h.inc"

} // namespace kiln

#endif // KILN_PASSES_PASSES_H
