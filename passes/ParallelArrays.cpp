#include "passes/Passes.h"
#include "passes/TransformSchedule.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Transform/IR/TransformOps.h"
#include "mlir/Dialect/Transform/Interfaces/TransformInterfaces.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <map>

namespace kiln {
#define GEN_PASS_DEF_KILNPARALLELARRAYS
#include "passes/Passes.h.inc"
} // namespace kiln

using namespace mlir;

namespace kiln {
namespace {

// Slices of the outermost dimension each elementwise operation is cut into
// (as kiln-tile-matmul's products): a fixed number keeps 2, 4 or 8 threads
// evenly loaded whatever the size.
constexpr int64_t kSlices = 8;

// The schedule for operations of one rank: upstream's tile_using_forall,
// slicing the outermost dimension only (the innermost stays whole for
// kiln-vectorize).
std::string scheduleFor(unsigned rank) {
  std::string threads = std::to_string(kSlices);
  for (unsigned i = 1; i < rank; ++i)
    threads += ", 0";
  return llvm::formatv(R"mlir(
module attributes {{transform.with_named_sequence} {
  transform.named_sequence @kiln_parallel_arrays(%root: !transform.any_op {{transform.readonly}) {
    %op = transform.structured.match ops{{["linalg.generic"]} attributes {{kiln.slice} in %root
        : (!transform.any_op) -> !transform.any_op
    %sliced, %forall = transform.structured.tile_using_forall %op num_threads [{0}]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
)mlir",
                       threads)
      .str();
}

// An elementwise operation on tensors: every loop parallel (reductions keep
// their order; kiln.prange's blocks are how a reduction is shared out). An
// operation with a dimension of constant size 0 (`np.zeros((7, 0)) + a`)
// has no iterations to share, and upstream's tiling of it reads past its
// size bounds (computeTileSizes, for a whole dimension of size 0).
bool isElementwise(linalg::GenericOp op) {
  return op.hasPureTensorSemantics() && op.getNumLoops() >= 1 &&
         !llvm::is_contained(op.getStaticLoopRanges(), 0) &&
         llvm::all_of(op.getIteratorTypesArray(), [](utils::IteratorType type) {
           return type == utils::IteratorType::parallel;
         });
}

class ParallelArrays : public impl::KilnParallelArraysBase<ParallelArrays> {
public:
  void runOnOperation() override {
    ModuleOp module = getOperation();
    std::map<unsigned, SmallVector<linalg::GenericOp>> byRank;
    module.walk([&](func::FuncOp function) {
      if (!function->hasAttr("kiln.parallel"))
        return;
      function.walk([&](linalg::GenericOp op) {
        if (isElementwise(op))
          byRank[op.getNumLoops()].push_back(op);
      });
    });
    for (auto &[rank, ops] : byRank) {
      SmallVector<Operation *> sliced(ops.begin(), ops.end());
      if (failed(applyScheduleToEach(module, scheduleFor(rank), "kiln_parallel_arrays", sliced,
                                     "kiln.slice")))
        return signalPassFailure();
    }
  }
};

} // namespace
} // namespace kiln
