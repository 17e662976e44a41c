#include "lib/Pipeline/LoweringPipeline.h"

#include "lib/Dialect/KilnDialect.h"
#include "passes/Passes.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVMPass.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MathToFuncs/MathToFuncs.h"
#include "mlir/Conversion/MathToLibm/MathToLibm.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVMPass.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Index/IR/IndexDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/Transforms/Passes.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

namespace kiln {

void registerKilnDialects(DialectRegistry &registry) {
  registry.insert<KilnDialect, func::FuncDialect, arith::ArithDialect,
                  math::MathDialect, scf::SCFDialect, memref::MemRefDialect,
                  cf::ControlFlowDialect, index::IndexDialect,
                  LLVM::LLVMDialect, ub::UBDialect, vector::VectorDialect>();
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
}

void buildLowerToLLVMPipeline(OpPassManager &pm,
                              const LoweringOptions &options) {
  // Array sizes are read inside loops by the frontend; hoisting them first
  // lets kiln-hoist-bounds-checks see loop-invariant bounds.
  pm.addPass(createLoopInvariantCodeMotionPass());
  pm.addNestedPass<func::FuncOp>(createKilnHoistBoundsChecks());
  pm.addPass(createKilnLowerToStd());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  if (options.vectorize) {
    // Between Python-semantics lowering and scf-to-cf: loops are still
    // structured and checks are still kiln.check ops.
    pm.addPass(createKilnVectorize());
    pm.addPass(createCanonicalizerPass());
    // The stride and overlap guard of an inner loop reads only the arrays'
    // descriptors: hoisted, a nest computes it once, not once per row.
    pm.addPass(createLoopInvariantCodeMotionPass());
  }
  // math.ipowi (Python's int ** int) becomes an outlined squaring loop.
  pm.addPass(createConvertMathToFuncs());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createKilnLowerChecks());
  pm.addPass(arith::createArithExpandOpsPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  // Strided-metadata expansion computes view offsets with affine.apply.
  pm.addPass(createLowerAffinePass());
  pm.addPass(createConvertVectorToLLVMPass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createConvertMathToLibmPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createUBToLLVMConversionPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  if (options.debugInfo)
    pm.addPass(LLVM::createDIScopeForLLVMFuncOpPass());
  pm.addPass(createCanonicalizerPass());
}

void registerKilnPassesAndPipelines() {
  registerKilnPasses();
  for (PassAllocatorFunction allocate : {
           PassAllocatorFunction([] { return createCanonicalizerPass(); }),
           PassAllocatorFunction([] { return createCSEPass(); }),
           PassAllocatorFunction([] { return createLoopInvariantCodeMotionPass(); }),
           PassAllocatorFunction([] { return createSCFToControlFlowPass(); }),
           PassAllocatorFunction(
               [] { return arith::createArithExpandOpsPass(); }),
           PassAllocatorFunction(
               [] { return memref::createExpandStridedMetadataPass(); }),
           PassAllocatorFunction([] { return createLowerAffinePass(); }),
           PassAllocatorFunction([] { return createConvertVectorToLLVMPass(); }),
           PassAllocatorFunction(
               [] { return createFinalizeMemRefToLLVMConversionPass(); }),
           PassAllocatorFunction([] { return createConvertMathToLLVMPass(); }),
           PassAllocatorFunction([] { return createConvertMathToFuncs(); }),
           PassAllocatorFunction([] { return createConvertMathToLibmPass(); }),
           PassAllocatorFunction(
               [] { return createArithToLLVMConversionPass(); }),
           PassAllocatorFunction([] { return createConvertIndexToLLVMPass(); }),
           PassAllocatorFunction([] { return createUBToLLVMConversionPass(); }),
           PassAllocatorFunction(
               [] { return createConvertControlFlowToLLVMPass(); }),
           PassAllocatorFunction([] { return createConvertFuncToLLVMPass(); }),
           PassAllocatorFunction(
               [] { return createReconcileUnrealizedCastsPass(); }),
           PassAllocatorFunction(
               [] { return LLVM::createDIScopeForLLVMFuncOpPass(); }),
       })
    registerPass(allocate);

  PassPipelineRegistration<>(
      "kiln-lower-to-llvm",
      "Lower Kiln frontend MLIR (func/arith/math/scf/memref/kiln) to the LLVM "
      "dialect, with debug-info scopes so Python lines reach DWARF",
      [](OpPassManager &pm) { buildLowerToLLVMPipeline(pm); });
}

} // namespace kiln
