#include "passes/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/PatternMatch.h"

namespace kiln {
#define GEN_PASS_DEF_KILNPARALLELTHREADS
#include "passes/Passes.h.inc"
} // namespace kiln

using namespace mlir;

namespace kiln {
namespace {

// runtime/kiln_parallel.c's rule.
constexpr llvm::StringLiteral kThreadCountFunction = "kiln_parallel_thread_count";

class ParallelThreads : public impl::KilnParallelThreadsBase<ParallelThreads> {
public:
  void runOnOperation() override {
    ModuleOp module = getOperation();
    // convert-scf-to-openmp wraps each loop body in memref.alloca_scope,
    // which must stay one block, and scf-to-cf is about to make the body
    // many. memref's own canonicalization inlines a scope only when nothing
    // in it might allocate on the stack, and counts every op without
    // declared memory effects (a libm call, a check) as might. Kiln's
    // bodies allocate arrays on the heap; a stack allocation inlined here
    // lives until its thread leaves the parallel region, which runs at most
    // one block of iterations per loop iteration, so the stack it can take
    // is bounded: inline every scope.
    SmallVector<memref::AllocaScopeOp> scopes;
    module.walk([&](memref::AllocaScopeOp scope) {
      if (isa<omp::LoopNestOp>(scope->getParentOp()))
        scopes.push_back(scope);
    });
    IRRewriter rewriter(&getContext());
    for (memref::AllocaScopeOp scope : scopes) {
      Block *body = &scope.getBodyRegion().front();
      auto terminator = cast<memref::AllocaScopeReturnOp>(body->getTerminator());
      SmallVector<Value> results(terminator.getResults());
      rewriter.eraseOp(terminator);
      rewriter.inlineBlockBefore(body, scope);
      rewriter.replaceOp(scope, results);
    }
    SmallVector<omp::ParallelOp> regions;
    module.walk([&](omp::ParallelOp region) { regions.push_back(region); });
    if (regions.empty())
      return;
    OpBuilder builder(module.getContext());
    func::FuncOp threadCount = module.lookupSymbol<func::FuncOp>(kThreadCountFunction);
    if (!threadCount) {
      builder.setInsertionPointToStart(module.getBody());
      threadCount = func::FuncOp::create(
          builder, module.getLoc(), kThreadCountFunction,
          builder.getFunctionType({}, {builder.getI32Type()}));
      threadCount.setPrivate();
    }
    for (omp::ParallelOp region : regions) {
      dropBarrierBeforeJoin(region);
      if (!region.getNumThreads()) {
        builder.setInsertionPoint(region);
        Value threads =
            func::CallOp::create(builder, region.getLoc(), threadCount, ValueRange{})
                .getResult(0);
        region.getNumThreadsMutable().assign(threads);
      }
      if (!region.getIfExpr())
        if (Value several = severalIterations(builder, region))
          region.getIfExprMutable().assign(several);
    }
  }

private:
  // A worksharing loop ends in a barrier unless it is `nowait`; when it is
  // the last thing its parallel region does, the region's own join barrier
  // follows at once and the loop's is a second wait for the same threads
  // (a tenth of entering a region on a small input). Kiln's loops hand
  // their results over through memory (the blocks' partials), not through
  // OpenMP reductions, so the join's barrier is all they need.
  static void dropBarrierBeforeJoin(omp::ParallelOp region) {
    Block &body = region.getRegion().front();
    Operation *terminator = body.getTerminator();
    if (!terminator || terminator == &body.front())
      return;
    if (auto loop = dyn_cast<omp::WsloopOp>(terminator->getPrevNode()))
      if (loop.getReductionVars().empty())
        loop.setNowait(true);
  }

  // "The region's loop has more than one iteration" (the iterations are
  // blocks of the user's loop), when the bounds are visible before the
  // region; null otherwise.
  static Value severalIterations(OpBuilder &builder, omp::ParallelOp region) {
    omp::LoopNestOp nest;
    region.walk([&](omp::LoopNestOp found) {
      if (!nest)
        nest = found;
    });
    if (!nest || nest.getLoopLowerBounds().size() != 1)
      return nullptr;
    Value lower = nest.getLoopLowerBounds()[0], upper = nest.getLoopUpperBounds()[0],
          step = nest.getLoopSteps()[0];
    for (Value bound : {lower, upper, step})
      if (region->isAncestor(bound.getParentRegion()->getParentOp()))
        return nullptr;
    builder.setInsertionPoint(region);
    Location loc = region.getLoc();
    Value span = arith::SubIOp::create(builder, loc, upper, lower);
    return arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::sgt, span, step);
  }
};

} // namespace
} // namespace kiln
