#include "lib/Pipeline/LoweringPipeline.h"

#include "lib/Dialect/KilnDialect.h"
#include "passes/Passes.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/BufferizationToMemRef/BufferizationToMemRef.h"
#include "mlir/Conversion/ComplexToLLVM/ComplexToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVMPass.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MathToFuncs/MathToFuncs.h"
#include "mlir/Conversion/MathToLibm/MathToLibm.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/OpenMPToLLVM/ConvertOpenMPToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToOpenMP/SCFToOpenMP.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVMPass.h"
#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Affine/IR/ValueBoundsOpInterfaceImpl.h"
#include "mlir/Dialect/Arith/IR/ValueBoundsOpInterfaceImpl.h"
#include "mlir/Dialect/Arith/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Linalg/TransformOps/DialectExtension.h"
#include "mlir/Dialect/Linalg/Transforms/TilingInterfaceImpl.h"
#include "mlir/Dialect/SCF/IR/ValueBoundsOpInterfaceImpl.h"
#include "mlir/Dialect/SCF/TransformOps/SCFTransformOps.h"
#include "mlir/Dialect/SCF/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Tensor/IR/ValueBoundsOpInterfaceImpl.h"
#include "mlir/Dialect/Tensor/Transforms/SubsetInsertionOpInterfaceImpl.h"
#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Dialect/Transform/LoopExtension/LoopExtension.h"
#include "mlir/Dialect/Vector/TransformOps/VectorTransformOps.h"
#include "mlir/Dialect/Vector/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Vector/Transforms/SubsetOpInterfaceImpl.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/BufferDeallocationOpInterfaceImpl.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/ControlFlow/Transforms/BufferDeallocationOpInterfaceImpl.h"
#include "mlir/Dialect/Func/Extensions/InlinerExtension.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Index/IR/IndexDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/Linalg/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/AllocationOpInterfaceImpl.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Passes.h"
#include "mlir/Dialect/SCF/Transforms/BufferDeallocationOpInterfaceImpl.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/OpenMP/OpenMPToLLVMIRTranslation.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

namespace kiln {

void registerKilnDialects(DialectRegistry &registry) {
  registry.insert<KilnDialect, func::FuncDialect, arith::ArithDialect,
                  math::MathDialect, scf::SCFDialect, memref::MemRefDialect,
                  cf::ControlFlowDialect, index::IndexDialect,
                  LLVM::LLVMDialect, ub::UBDialect, vector::VectorDialect,
                  // Whole-array expressions (docs/architecture.md, "Array
                  // expressions"): linalg on tensors, bufferized in place.
                  linalg::LinalgDialect, tensor::TensorDialect,
                  bufferization::BufferizationDialect,
                  // Complex scalars: the frontend builds complex.create/re/im
                  // and computes on the parts (CPython's algorithms).
                  complex::ComplexDialect>();
  // func.call and func.return through MLIR's inliner (kiln-inline-helpers).
  func::registerInlinerExtension(registry);
  // Matrix products (kiln-tile-matmul): the transform dialect's tiling,
  // peeling, vectorization and hoisting, and what they need of the
  // dialects (tiling, value bounds, subsets), then the tiled loops and
  // vector transfers bufferized with the rest.
  registry.insert<transform::TransformDialect, affine::AffineDialect>();
  linalg::registerTransformDialectExtension(registry);
  scf::registerTransformDialectExtension(registry);
  vector::registerTransformDialectExtension(registry);
  transform::registerLoopExtension(registry);
  linalg::registerTilingInterfaceExternalModels(registry);
  affine::registerValueBoundsOpInterfaceExternalModels(registry);
  arith::registerValueBoundsOpInterfaceExternalModels(registry);
  scf::registerValueBoundsOpInterfaceExternalModels(registry);
  tensor::registerValueBoundsOpInterfaceExternalModels(registry);
  tensor::registerSubsetOpInterfaceExternalModels(registry);
  vector::registerSubsetOpInterfaceExternalModels(registry);
  arith::registerBufferizableOpInterfaceExternalModels(registry);
  scf::registerBufferizableOpInterfaceExternalModels(registry);
  vector::registerBufferizableOpInterfaceExternalModels(registry);
  linalg::registerBufferizableOpInterfaceExternalModels(registry);
  tensor::registerBufferizableOpInterfaceExternalModels(registry);
  // Ownership-based buffer deallocation frees the arrays through these
  // dialects' control flow and selects.
  arith::registerBufferDeallocationOpInterfaceExternalModels(registry);
  cf::registerBufferDeallocationOpInterfaceExternalModels(registry);
  scf::registerBufferDeallocationOpInterfaceExternalModels(registry);
  memref::registerAllocationOpInterfaceExternalModels(registry);
  // kiln.prange loops: scf.parallel -> OpenMP -> LLVM's OpenMP runtime.
  registry.insert<omp::OpenMPDialect>();
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  registerOpenMPDialectTranslation(registry);
}

namespace {

// The canonicalizer, minus upstream's fold of a `memref.cast` into the
// `memref.subview` that reads it. That fold does not check the bounds the
// subview verifier enforces: `np.zeros(0)[::-1]` becomes a cast of a static
// `memref<0xf64>` (SimplifyAllocConst), and folding the cast gives a subview
// with a static offset 0 into a static 0-sized dimension, which the verifier
// rejects ("offset 0 is out-of-bounds: 0 >= 0"). Kiln's views are dynamic
// anyway, so keeping the cast costs nothing. (The constant-argument folder
// of subview does check bounds and stays enabled.) The name is the pattern's
// default debug name; test/tools/kiln-opt/lower-to-llvm.mlir fails if it
// stops matching.
std::unique_ptr<Pass> createKilnCanonicalizer() {
  static const std::string kUncheckedSubViewCastFolder =
      "(anonymous namespace)::SubViewOpMemRefCastFolder";
  // A matrix product's mr x nr block of the result is a 2-D vector carried
  // through its k loop (kiln-tile-matmul), rebuilt row by row with
  // vector.insert. This pattern turns such a chain into one from_elements of
  // every scalar, which LLVM then assembles through the stack on every
  // iteration (10x slower kernels); rows stay rows without it.
  static const std::string kInsertChainToFromElements =
      "(anonymous namespace)::InsertChainFullyInitialized";
  GreedyRewriteConfig config; // the canonicalize pass's own defaults
  config.setUseTopDownTraversal(true);
  return createCanonicalizerPass(config,
                                 {kUncheckedSubViewCastFolder, kInsertChainToFromElements});
}

// Upstream's memref.dim and tensor.dim canonicalizations assert when the
// dimension is a constant outside the operand's rank (a negative one, say),
// which their verifiers do not check: such input gets a diagnostic and a
// failed pipeline here, first, instead of a crash (the mutation fuzzer
// found it).
struct RejectConstantDimOutOfRank
    : public PassWrapper<RejectConstantDimOutOfRank, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(RejectConstantDimOutOfRank)
  StringRef getArgument() const override { return "kiln-reject-dim-out-of-rank"; }
  StringRef getDescription() const override {
    return "Reject memref.dim/tensor.dim of a constant dimension outside the rank";
  }
  void runOnOperation() override {
    auto outOfRank = [](Operation *op, std::optional<int64_t> index, Type source) {
      auto shaped = dyn_cast<ShapedType>(source);
      if (!index || !shaped || !shaped.hasRank() ||
          (*index >= 0 && *index < shaped.getRank()))
        return false;
      op->emitOpError() << "dimension " << *index << " is outside the rank "
                        << shaped.getRank() << " of " << source;
      return true;
    };
    WalkResult result = getOperation().walk([&](Operation *op) {
      if (auto dim = dyn_cast<memref::DimOp>(op))
        if (outOfRank(op, dim.getConstantIndex(), dim.getSource().getType()))
          return WalkResult::interrupt();
      if (auto dim = dyn_cast<tensor::DimOp>(op))
        if (outOfRank(op, dim.getConstantIndex(), dim.getSource().getType()))
          return WalkResult::interrupt();
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace


void buildArrayExpressionPipeline(OpPassManager &pm) {
  pm.addPass(std::make_unique<RejectConstantDimOutOfRank>());
  // The frontend writes one linalg.generic per array operator, on tensors
  // read from the operands' views (`bufferization.to_tensor ... restrict`)
  // and written into the destination view (`materialize_in_destination`).
  // Fusion makes a statement's operators one loop nest; empty-tensor
  // elimination and one-shot bufferization then compute it straight into the
  // destination, with no temporary (the frontend gives every array variable
  // its own allocation, so a statement's operators form a tree that fuses
  // whole). The loops that remain are plain scf.for over memref.load/store,
  // which kiln-vectorize vectorizes like a user's loop.
  //
  // No CSE runs on tensors: a statement's ops that do not read memory (a
  // linalg.generic whose inputs the canonicalizer dropped: `np.isinf` of an
  // int array, `a * 0`) are pure, and CSE merged them with the same ops of
  // a later statement; that statement's result was then copied from the
  // buffer the first one was written into, after the program had changed
  // or freed it (`t = a * 0; t[0] = 7; u = a * 0` gave u[0] == 7; fuzzer,
  // 2026-12-04). Within a statement the frontend emits each operation once.
  pm.addPass(createLinalgElementwiseOpFusionPass());
  pm.addPass(createKilnCanonicalizer());
  // parallel=True: each fused array statement in slices for the threads.
  pm.addPass(createKilnParallelArrays());
  // Matrix products become cache- and register-blocked vector kernels.
  pm.addPass(createKilnTileMatmul());
  pm.addPass(bufferization::createEmptyTensorEliminationPass());
  pm.addPass(bufferization::createEmptyTensorToAllocTensorPass());
  pm.addPass(createKilnBufferize());
  // A product under parallel=True is an scf.forall over slices of rows:
  // as scf.parallel, convert-scf-to-openmp gives it to OpenMP later.
  pm.addPass(createForallToParallelLoopPass());
  // A tree computed in place leaves a copy of the destination onto itself.
  pm.addPass(createKilnCanonicalizer());
  pm.addPass(createConvertLinalgToLoopsPass());
  // kiln-tile-matmul's 2-D vector transfers, as 1-D ones (vector loads).
  VectorTransferToSCFOptions transfers;
  transfers.enableFullUnroll().setTargetRank(1);
  pm.addPass(createConvertVectorToSCFPass(transfers));
  pm.addPass(createKilnCanonicalizer());
}

void buildDeallocationPipeline(OpPassManager &pm) {
  // The frontend allocates arrays anywhere (in branches, in loops, as
  // loop-carried values, returned from helpers) and frees none: MLIR's
  // ownership-based buffer deallocation places every free, with run-time
  // ownership flags where control flow decides which buffer a value holds
  // (kiln-buffer-deallocation: with Kiln's rule at function boundaries).
  // Error exits come later (kiln-lower-checks) and free through
  // runtime/kiln_alloc.c's journal.
  pm.addPass(createKilnBufferDeallocation());
  pm.addPass(createKilnCanonicalizer());
  pm.addPass(bufferization::createBufferDeallocationSimplificationPass());
  pm.addPass(bufferization::createLowerDeallocationsPass());
  pm.addPass(createCSEPass());
  pm.addPass(createConvertBufferizationToMemRefPass());
  pm.addPass(createKilnCanonicalizer());
}

void buildLowerToLLVMPipeline(OpPassManager &pm,
                              const LoweringOptions &options) {
  pm.addPass(std::make_unique<RejectConstantDimOutOfRank>());
  // Small helpers of numbers become part of their callers' loops, which
  // kiln-vectorize can then vectorize (it vectorizes no calls).
  pm.addPass(createKilnInlineHelpers());
  // Lists indexed in loops that resize none: memref views, so that the
  // bounds-check hoisting and kiln-vectorize below treat them as arrays.
  pm.addNestedPass<func::FuncOp>(createKilnListViews());
  // Array sizes are read inside loops by the frontend; hoisting them first
  // lets kiln-hoist-bounds-checks see loop-invariant bounds.
  pm.addPass(createLoopInvariantCodeMotionPass());
  pm.addNestedPass<func::FuncOp>(createKilnHoistBoundsChecks());
  pm.addPass(createKilnLowerContainers());
  pm.addPass(createKilnLowerToStd());
  pm.addPass(createKilnCanonicalizer());
  // After kiln-lower-to-std: its atan2 guard must precede any folding.
  buildArrayExpressionPipeline(pm);
  buildDeallocationPipeline(pm);
  // On buffers now: safe to merge.
  pm.addPass(createCSEPass());
  if (options.vectorize) {
    // Between Python-semantics lowering and scf-to-cf: loops are still
    // structured and checks are still kiln.check ops.
    pm.addPass(createKilnVectorize());
    pm.addPass(createKilnCanonicalizer());
    // The stride and overlap guard of an inner loop reads only the arrays'
    // descriptors: hoisted, a nest computes it once, not once per row.
    pm.addPass(createLoopInvariantCodeMotionPass());
  }
  pm.addPass(createKilnIeeeExactness());
  // math.ipowi (Python's int ** int) becomes an outlined squaring loop.
  pm.addPass(createConvertMathToFuncs());
  // kiln.prange loops (scf.parallel over blocks of iterations, each block
  // a vectorized scf.for) become OpenMP worksharing loops, with Kiln's
  // thread count; kiln-lower-checks then raises from their iterations.
  pm.addPass(createConvertSCFToOpenMPPass());
  pm.addPass(createKilnParallelThreads());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createKilnLowerChecks());
  pm.addPass(arith::createArithExpandOpsPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  // Strided-metadata expansion computes view offsets with affine.apply.
  pm.addPass(createLowerAffinePass());
  // kiln-vectorize's views of complex and bool arrays as their scalars.
  pm.addPass(createKilnLowerScalarViews());
  pm.addPass(createConvertVectorToLLVMPass());
  // memref.alloc/dealloc call Kiln's allocator (runtime/kiln_alloc.c, linked
  // into every kernel object by kilnc), which reuses large blocks.
  FinalizeMemRefToLLVMConversionPassOptions memrefOptions;
  memrefOptions.useGenericFunctions = true;
  pm.addPass(createFinalizeMemRefToLLVMConversionPass(memrefOptions));
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createConvertMathToLibmPass());
  pm.addPass(createConvertComplexToLLVMPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createUBToLLVMConversionPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createConvertOpenMPToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createKilnClearAddressNuw());
  if (options.debugInfo)
    pm.addPass(LLVM::createDIScopeForLLVMFuncOpPass());
  pm.addPass(createKilnCanonicalizer());
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
           PassAllocatorFunction([] { return createConvertComplexToLLVMPass(); }),
           PassAllocatorFunction(
               [] { return createArithToLLVMConversionPass(); }),
           PassAllocatorFunction([] { return createConvertIndexToLLVMPass(); }),
           PassAllocatorFunction([] { return createUBToLLVMConversionPass(); }),
           PassAllocatorFunction(
               [] { return createConvertControlFlowToLLVMPass(); }),
           PassAllocatorFunction([] { return createConvertFuncToLLVMPass(); }),
           PassAllocatorFunction([] { return createConvertSCFToOpenMPPass(); }),
           PassAllocatorFunction([] { return createConvertOpenMPToLLVMPass(); }),
           PassAllocatorFunction(
               [] { return createReconcileUnrealizedCastsPass(); }),
           PassAllocatorFunction(
               [] { return LLVM::createDIScopeForLLVMFuncOpPass(); }),
           PassAllocatorFunction(
               [] { return createLinalgElementwiseOpFusionPass(); }),
           PassAllocatorFunction(
               [] { return bufferization::createEmptyTensorEliminationPass(); }),
           PassAllocatorFunction(
               [] { return bufferization::createEmptyTensorToAllocTensorPass(); }),
           PassAllocatorFunction(
               [] { return bufferization::createOneShotBufferizePass(); }),
           PassAllocatorFunction([] { return createConvertLinalgToLoopsPass(); }),
           PassAllocatorFunction(
               [] { return bufferization::createOwnershipBasedBufferDeallocationPass(); }),
           PassAllocatorFunction(
               [] { return bufferization::createBufferDeallocationSimplificationPass(); }),
           PassAllocatorFunction([] { return bufferization::createLowerDeallocationsPass(); }),
           PassAllocatorFunction([] { return createConvertBufferizationToMemRefPass(); }),
       })
    registerPass(allocate);

  PassPipelineRegistration<>(
      "kiln-lower-to-llvm",
      "Lower Kiln frontend MLIR (func/arith/math/scf/memref/kiln) to the LLVM "
      "dialect, with debug-info scopes so Python lines reach DWARF",
      [](OpPassManager &pm) { buildLowerToLLVMPipeline(pm); });
  PassPipelineRegistration<>(
      "kiln-deallocation",
      "The stage of kiln-lower-to-llvm after kiln-array-expressions: place every "
      "array's free with ownership-based buffer deallocation, then lower it",
      [](OpPassManager &pm) { buildDeallocationPipeline(pm); });
  PassPipelineRegistration<>(
      "kiln-array-expressions",
      "The first stage of kiln-lower-to-llvm: fuse the frontend's linalg.generic "
      "ops on tensors, bufferize them into their destinations, lower to loops",
      [](OpPassManager &pm) { buildArrayExpressionPipeline(pm); });
}

} // namespace kiln
