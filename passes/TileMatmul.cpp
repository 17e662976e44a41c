#include "passes/Passes.h"
#include "passes/TransformSchedule.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Dialect/Transform/IR/TransformOps.h"
#include "mlir/Dialect/Transform/Interfaces/TransformInterfaces.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/FormatVariadic.h"

#include <map>

namespace kiln {
#define GEN_PASS_DEF_KILNTILEMATMUL
#include "passes/Passes.h.inc"
} // namespace kiln

using namespace mlir;

namespace kiln {
namespace {

// The register and cache blocking of a matrix product for one vector width.
// The micro-kernel keeps an mr x nr block of the result in registers
// (mr * nr / lanes accumulators, plus nr / lanes registers of B and one
// broadcast of A): 6 x 2 vectors fits the 16 registers of SSE and AVX2
// with one to spare, and AVX-512's 32 registers take 8 x 2 (rows of
// 3 vectors would be a <24 x double>, which LLVM legalizes through the
// stack: nr stays a power of two). The
// cache block keeps a 192 x 128 panel of A (192 KB of float64) and a
// 128 x nc panel of B in L2 while the kernel sweeps them (chosen by timing
// n = 256 ... 2048 on an AVX-512 Xeon: shallower k blocks and taller m
// blocks beat 96 x 256 at n >= 512; without packing, the panels are read in
// place).
struct MatmulTiles {
  int64_t mr, nr, mc, nc, kc;
};

MatmulTiles tilesFor(unsigned vectorBits, unsigned elementBits) {
  int64_t lanes = std::max<int64_t>(1, vectorBits / elementBits);
  if (vectorBits >= 512)
    return {8, 2 * lanes, 192, 2 * lanes * 32, 128};
  return {6, 2 * lanes, 192, 2 * lanes * 32, 128};
}

// The schedule, in MLIR's transform dialect: tile for the caches
// (loops m, k, n), tile for the registers (mr x nr x 1), peel the register
// loops so full tiles have static shapes, vectorize those (the edges stay
// linalg.matmul and become loops), lower each contraction to FMAs of
// broadcast A elements by B rows, and hoist the result block out of the
// k loop so it lives in registers across it. (No canonicalization after
// the contraction is lowered: upstream's folds a full chain of row inserts
// into one from_elements of scalars, which the pipeline's own canonicalizer
// leaves alone; see createKilnCanonicalizer.)
//
// A product under `@kiln.export(parallel=True)` (`kiln.parallel`) is first
// cut into `chunks` slices of rows as an scf.forall, which the pipeline
// hands to OpenMP (forall -> scf.parallel -> omp); each slice is then
// blocked as above. Slices of rows share B, which each thread streams
// through its own caches; a fixed number of them keeps 2, 4 or 8 threads
// evenly loaded whatever the size.
constexpr int64_t kParallelChunks = 8;

std::string scheduleFor(const MatmulTiles &t, bool parallel) {
  std::string slices =
      parallel ? llvm::formatv(R"mlir(
    %slice, %forall = transform.structured.tile_using_forall %matched num_threads [{0}, 0, 0]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
)mlir", kParallelChunks).str()
               : std::string();
  return llvm::formatv(R"mlir(
module attributes {{transform.with_named_sequence} {
  transform.named_sequence @kiln_tile_matmul(%root: !transform.any_op {{transform.readonly}) {
    %matched = transform.structured.match ops{{["linalg.matmul"]} attributes {{kiln.tile} in %root
        : (!transform.any_op) -> !transform.any_op
{5}
    %t1, %l1:3 = transform.structured.tile_using_for {6} tile_sizes [{0}, {1}, {2}]
        interchange = [0, 2, 1]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op,
                                 !transform.any_op)
    %t2, %l2:3 = transform.structured.tile_using_for %t1 tile_sizes [{3}, {4}, 1]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op,
                                 !transform.any_op)
    %li = transform.cast %l2#0 : !transform.any_op to !transform.op<"scf.for">
    %lj = transform.cast %l2#1 : !transform.any_op to !transform.op<"scf.for">
    %mj, %rj = transform.loop.peel %lj
        : (!transform.op<"scf.for">) -> (!transform.any_op, !transform.any_op)
    %mi, %ri = transform.loop.peel %li
        : (!transform.op<"scf.for">) -> (!transform.any_op, !transform.any_op)
    %f = transform.get_parent_op %mi {{op_name = "func.func"}
        : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {{
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    %full = transform.structured.match ops{{["linalg.matmul"]} in %mi
        : (!transform.any_op) -> !transform.any_op
    %each:2 = transform.split_handle %full {{overflow_result = 1}
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.structured.vectorize %each#0 {{create_named_contraction} : !transform.any_op
    transform.apply_patterns to %f {{
      transform.apply_patterns.vector.lower_contraction lowering_strategy = "outerproduct"
      transform.apply_patterns.vector.transfer_permutation_patterns
      transform.apply_patterns.vector.lower_outerproduct
    } : !transform.any_op
    %loops = transform.structured.match ops{{["scf.for"]} in %f
        : (!transform.any_op) -> !transform.any_op
    transform.apply_licm to %loops : !transform.any_op
    transform.loop.hoist_loop_invariant_subsets %loops : !transform.any_op
    transform.yield
  }
}
)mlir",
                       t.mc, t.nc, t.kc, t.mr, t.nr, slices,
                       parallel ? "%slice" : "%matched")
      .str();
}

class TileMatmul : public impl::KilnTileMatmulBase<TileMatmul> {
public:
  using KilnTileMatmulBase::KilnTileMatmulBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    unsigned vectorBits = 256;
    if (auto bits = module->getAttrOfType<IntegerAttr>("kiln.vector_bits"))
      vectorBits = bits.getInt();
    // One schedule per element width (the lanes differ); products of
    // numbers the vector dialect cannot hold (complex) stay loops.
    std::map<std::pair<unsigned, bool>, SmallVector<linalg::MatmulOp>> byWidth;
    module.walk([&](linalg::MatmulOp matmul) {
      // Plain products only (a transposed or broadcast operand's indexing
      // maps are not the schedule's).
      if (!matmul.hasPureTensorSemantics() || matmul.hasUserDefinedMaps())
        return;
      auto result = cast<ShapedType>(matmul.getResult(0).getType());
      Type element = result.getElementType();
      if (!element.isIntOrFloat() || result.getRank() != 2)
        return;
      // The schedule is written for sizes known at run time (the frontend's
      // arrays); a static product, perhaps smaller than a register tile,
      // stays a linalg.matmul and becomes loops.
      for (Value operand : matmul->getOperands())
        if (llvm::any_of(cast<ShapedType>(operand.getType()).getShape(),
                         [](int64_t size) { return !ShapedType::isDynamic(size); }))
          return;
      byWidth[{element.getIntOrFloatBitWidth(), matmul->hasAttr("kiln.parallel")}].push_back(
          matmul);
    });
    for (auto &[key, products] : byWidth) {
      auto [width, parallel] = key;
      SmallVector<Operation *> ops(products.begin(), products.end());
      if (failed(applyScheduleToEach(module, scheduleFor(tilesFor(vectorBits, width), parallel),
                                     "kiln_tile_matmul", ops, "kiln.tile")))
        return signalPassFailure();
    }
  }
};

} // namespace
} // namespace kiln
