#ifndef KILN_LIB_PIPELINE_LOWERINGPIPELINE_H
#define KILN_LIB_PIPELINE_LOWERINGPIPELINE_H

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassManager.h"

namespace kiln {

struct LoweringOptions {
  // Attach DISubprograms so Python locations reach the DWARF line table.
  bool debugInfo = true;
  // Run kiln-vectorize (off: leave every loop to LLVM's vectorizers).
  bool vectorize = true;
};

// Dialects the frontend emits and the lowering produces, plus the LLVM IR
// translation interfaces; nothing else is registered, to keep start-up and
// build time small.
void registerKilnDialects(mlir::DialectRegistry &registry);

// linalg on tensors (the frontend's array expressions) -> scf loops on the
// arrays' memrefs; the first stage of buildLowerToLLVMPipeline.
void buildArrayExpressionPipeline(mlir::OpPassManager &pm);

// Ownership-based buffer deallocation of every array, lowered to
// memref.dealloc (after buildArrayExpressionPipeline).
void buildDeallocationPipeline(mlir::OpPassManager &pm);

// Frontend MLIR (func, arith, math, scf, memref, linalg, tensor, kiln) ->
// LLVM dialect.
void buildLowerToLLVMPipeline(mlir::OpPassManager &pm,
                              const LoweringOptions &options = {});

// Makes the upstream passes Kiln uses, Kiln's own passes and the
// `kiln-lower-to-llvm` pipeline available to textual pipelines (kiln-opt).
void registerKilnPassesAndPipelines();

} // namespace kiln

#endif // KILN_LIB_PIPELINE_LOWERINGPIPELINE_H
