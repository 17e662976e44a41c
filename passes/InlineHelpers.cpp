#include "passes/Passes.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

#include "mlir/Analysis/CallGraph.h"
#include "mlir/Transforms/Inliner.h"
#include "mlir/Transforms/Passes.h"

namespace kiln {
#define GEN_PASS_DEF_KILNINLINEHELPERS
#include "passes/Passes.h.inc"
} // namespace kiln

using namespace mlir;

namespace kiln {
namespace {

// Numbers and the error record: what a helper of numbers passes.
bool isScalarOrErrorSlot(Type type) {
  return type.isIntOrIndexOrFloat() || isa<ComplexType, LLVM::LLVMPointerType>(type);
}

// Kiln's policy (see Passes.td): a small one-block helper of numbers that
// allocates no arrays.
bool isInlinableHelper(func::FuncOp callee, unsigned maxOps) {
  if (!callee || callee.isExternal() || !callee.getBody().hasOneBlock())
    return false;
  FunctionType type = callee.getFunctionType();
  if (!llvm::all_of(type.getInputs(), isScalarOrErrorSlot) ||
      !llvm::all_of(type.getResults(), isScalarOrErrorSlot))
    return false;
  unsigned count = 0;
  WalkResult walk = callee.getBody().walk([&](Operation *op) {
    // A parallel loop stays a call: inlined into another's body it would
    // nest worksharing loops in one team (OpenMP runs a called one's
    // region on the calling thread).
    if (++count > maxOps || isa<memref::AllocOp, memref::AllocaOp, scf::ParallelOp>(op) ||
        llvm::any_of(op->getResultTypes(), [](Type t) { return isa<ShapedType>(t); }))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return !walk.wasInterrupted();
}

// A kiln.propagate_error tests the record a call filled: the frontend puts
// one right after every call. One with no call before it in its block
// (back to the previous propagate_error) belonged to a call that is now
// inlined, whose checks return from this function themselves.
bool followsACall(Operation *propagate) {
  for (Operation *op = propagate->getPrevNode(); op; op = op->getPrevNode()) {
    if (isa<CallOpInterface>(op))
      return true;
    if (isa<PropagateErrorOp>(op))
      return false;
  }
  return false;
}

class InlineHelpers : public impl::KilnInlineHelpersBase<InlineHelpers> {
public:
  using KilnInlineHelpersBase::KilnInlineHelpersBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    CallGraph &callGraph = getAnalysis<CallGraph>();
    InlinerConfig config;
    config.setDefaultPipeline([](OpPassManager &) {});
    auto runPipeline = [this](Pass &, OpPassManager &pipeline, Operation *op) {
      return this->runPipeline(pipeline, op);
    };
    unsigned limit = maxOps;
    auto profitable = [limit](const Inliner::ResolvedCall &call) {
      auto callee = dyn_cast_or_null<func::FuncOp>(
          call.targetNode->getCallableRegion()->getParentOp());
      return isInlinableHelper(callee, limit);
    };
    Inliner inliner(module, callGraph, *this, getAnalysisManager(), runPipeline, config,
                    profitable);
    if (failed(inliner.doInlining()))
      return signalPassFailure();

    // MLIR's inliner gives inlined ops `callsite(callee at caller)`
    // locations. Kiln keeps one plain Python location per op: a check keeps
    // the helper's line (the line CPython's traceback shows raising), all
    // other work takes the calling line, where the report counts it. A
    // helper from another file (Kiln's own kernels, np.linalg.solve) raises
    // at the call, as numpy's functions do from the caller's view.
    auto fileOf = [](Location loc) {
      auto fileLoc = loc->findInstanceOf<FileLineColLoc>();
      return fileLoc ? fileLoc.getFilename() : StringAttr();
    };
    module.walk([&](Operation *op) {
      auto callSite = dyn_cast<CallSiteLoc>(op->getLoc());
      if (!callSite)
        return;
      Location caller = callSite.getCaller();
      while (auto outer = dyn_cast<CallSiteLoc>(caller))
        caller = outer.getCaller();
      Location callee = callSite.getCallee();
      while (auto inner = dyn_cast<CallSiteLoc>(callee))
        callee = inner.getCallee();
      op->setLoc(isa<CheckOp>(op) && fileOf(callee) == fileOf(caller) ? callee : caller);
    });

    SmallVector<Operation *> stale;
    module.walk([&](PropagateErrorOp propagate) {
      if (!followsACall(propagate))
        stale.push_back(propagate);
    });
    for (Operation *op : stale)
      op->erase();
    // Private helpers no call reaches any more.
    OpPassManager cleanup(ModuleOp::getOperationName());
    cleanup.addPass(createSymbolDCEPass());
    if (failed(this->runPipeline(cleanup, module)))
      return signalPassFailure();
  }
};

} // namespace
} // namespace kiln
