#include "passes/Passes.h"

#include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.h"
#include "mlir/Dialect/Bufferization/Transforms/OneShotAnalysis.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace kiln {
#define GEN_PASS_DEF_KILNBUFFERIZE
#include "passes/Passes.h.inc"
} // namespace kiln

using namespace mlir;

namespace kiln {
namespace {

// One-shot bufferization as upstream's pass runs it, except for the copies
// it inserts: `memref.copy` of Kiln's strided views lowers to a call into
// mlir_c_runner_utils (`memrefCopy`), which Kiln's artifacts do not link, so
// a kernel whose array expression folds to a copy (`x * 1.0`) would not
// load (fuzzer, 2026-12-03, switch A4). A linalg.copy is lowered to loops by
// convert-linalg-to-loops like every other linalg op of the array stage.
class Bufferize : public impl::KilnBufferizeBase<Bufferize> {
public:
  void runOnOperation() override {
    bufferization::OneShotBufferizationOptions options;
    options.memCpyFn = [](OpBuilder &builder, Location loc, Value from,
                          Value to) -> LogicalResult {
      linalg::CopyOp::create(builder, loc, from, to);
      return success();
    };
    bufferization::BufferizationState state;
    if (failed(bufferization::runOneShotBufferize(getOperation(), options, state)))
      signalPassFailure();
  }
};

} // namespace
} // namespace kiln
