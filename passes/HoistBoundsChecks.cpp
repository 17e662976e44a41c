#include "passes/Passes.h"

#include "lib/Dialect/KilnDialect.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace kiln {
#define GEN_PASS_DEF_KILNHOISTBOUNDSCHECKS
#include "passes/Passes.h.inc"
} // namespace kiln

using namespace mlir;

namespace kiln {
namespace {

// index = coefficient * iv + offset, with `offset` defined outside the loop
// (null for zero) and a constant coefficient, so the extremes over the
// iteration space are at its two ends.
struct AffineIndex {
  int64_t coefficient = 0;
  Value offset;
};

std::optional<int64_t> constantOf(Value value) {
  APInt constant;
  if (matchPattern(value, m_ConstantInt(&constant)))
    return constant.getSExtValue();
  return std::nullopt;
}

std::optional<AffineIndex> matchAffine(Value value, scf::ForOp loop,
                                       OpBuilder &builder, int depth = 0) {
  if (value == loop.getInductionVar())
    return AffineIndex{1, Value()};
  if (loop.isDefinedOutsideOfLoop(value))
    return AffineIndex{0, value};
  if (depth > 4)
    return std::nullopt;
  Operation *op = value.getDefiningOp();
  if (!op)
    return std::nullopt;
  auto combine = [&](Value lhs, Value rhs, bool subtract)
      -> std::optional<AffineIndex> {
    auto a = matchAffine(lhs, loop, builder, depth + 1);
    auto b = matchAffine(rhs, loop, builder, depth + 1);
    if (!a || !b)
      return std::nullopt;
    AffineIndex result;
    result.coefficient = subtract ? a->coefficient - b->coefficient
                                  : a->coefficient + b->coefficient;
    if (!a->offset && !b->offset)
      return result;
    // Offsets are loop-invariant values; their sum is materialized before
    // the loop when the access qualifies.
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPoint(loop);
    Location loc = loop.getLoc();
    Value zero = arith::ConstantOp::create(builder, loc, builder.getI64IntegerAttr(0));
    Value left = a->offset ? a->offset : zero;
    Value right = b->offset ? b->offset : zero;
    result.offset = subtract ? arith::SubIOp::create(builder, loc, left, right).getResult()
                             : arith::AddIOp::create(builder, loc, left, right).getResult();
    return result;
  };
  if (auto add = dyn_cast<arith::AddIOp>(op))
    return combine(add.getLhs(), add.getRhs(), false);
  if (auto sub = dyn_cast<arith::SubIOp>(op))
    return combine(sub.getLhs(), sub.getRhs(), true);
  if (auto mul = dyn_cast<arith::MulIOp>(op)) {
    for (auto [scaled, factor] : {std::pair(mul.getLhs(), mul.getRhs()),
                                  std::pair(mul.getRhs(), mul.getLhs())}) {
      std::optional<int64_t> constant = constantOf(factor);
      if (!constant)
        continue;
      auto inner = matchAffine(scaled, loop, builder, depth + 1);
      if (!inner || inner->offset)
        continue;
      return AffineIndex{inner->coefficient * *constant, Value()};
    }
  }
  return std::nullopt;
}

// Array sizes read inside an `if` in the loop body escape LICM, which
// only looks at the loop's own block; they are pure and loop-invariant, so
// they move in front of the loop.
bool hoistInvariantChain(Value value, scf::ForOp loop, int depth = 0) {
  if (loop.isDefinedOutsideOfLoop(value))
    return true;
  Operation *op = value.getDefiningOp();
  if (!op || depth > 4 || op->getNumRegions() != 0 || !isPure(op))
    return false;
  for (Value operand : op->getOperands())
    if (!hoistInvariantChain(operand, loop, depth + 1))
      return false;
  op->moveBefore(loop);
  return true;
}

class HoistBoundsChecks
    : public impl::KilnHoistBoundsChecksBase<HoistBoundsChecks> {
public:
  void runOnOperation() override {
    SmallVector<scf::ForOp> loops;
    getOperation().walk([&](scf::ForOp loop) { loops.push_back(loop); });
    for (scf::ForOp loop : loops)
      version(loop);
  }

private:
  void version(scf::ForOp loop) {
    if (!loop.getInductionVar().getType().isInteger(64))
      return;
    OpBuilder builder(loop);
    Location loc = loop.getLoc();
    struct Access {
      IndexOp op;
      AffineIndex affine;
    };
    SmallVector<Access> accesses;
    loop.getBody()->walk([&](IndexOp index) {
      // An unchecked index (boundscheck=False) still wraps negative values:
      // proving it nonnegative over the loop drops that select too, which
      // keeps the access affine for kiln-vectorize.
      if ((index.getUnchecked() && index.getNonnegative()) ||
          index->getParentOfType<scf::ForOp>() != loop)
        return;
      if (!hoistInvariantChain(index.getSize(), loop))
        return;
      if (auto affine = matchAffine(index.getIndex(), loop, builder))
        accesses.push_back({index, *affine});
    });
    if (accesses.empty())
      return;

    Type i64 = builder.getI64Type();
    auto constant = [&](int64_t value) -> Value {
      return arith::ConstantOp::create(builder, loc, builder.getIntegerAttr(i64, value));
    };
    Value lower = loop.getLowerBound(), upper = loop.getUpperBound();
    Value step = loop.getStep();
    Value trips = arith::CeilDivSIOp::create(
        builder, loc, arith::SubIOp::create(builder, loc, upper, lower), step);
    Value runsNever = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::sle,
                                            trips, constant(0));
    Value last = arith::AddIOp::create(
        builder, loc, lower,
        arith::MulIOp::create(builder, loc,
                              arith::SubIOp::create(builder, loc, trips, constant(1)),
                              step));
    Value allInside = arith::ConstantOp::create(builder, loc, builder.getBoolAttr(true));
    for (Access &access : accesses) {
      for (Value iv : {lower, last}) {
        Value index = access.affine.offset ? access.affine.offset : constant(0);
        if (access.affine.coefficient != 0)
          index = arith::AddIOp::create(
              builder, loc, index,
              arith::MulIOp::create(builder, loc, iv,
                                    constant(access.affine.coefficient)));
        // Unsigned: negative indices fail too, so no wraparound is needed.
        // Unchecked accesses need only the sign: their bounds are the user's.
        Value inside =
            access.op.getUnchecked()
                ? arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::sge, index,
                                        constant(0))
                : arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ult, index,
                                        access.op.getSize());
        allInside = arith::AndIOp::create(builder, loc, allInside, inside);
      }
    }
    Value fast = arith::OrIOp::create(builder, loc, runsNever, allInside);
    // In-bounds is the expected case: tell LLVM, so the checked copy is laid
    // out cold and block-frequency estimates (the reporter's weights) agree.
    fast = LLVM::ExpectOp::create(builder, loc, fast,
                                  arith::ConstantOp::create(builder, loc,
                                                            builder.getBoolAttr(true)));

    auto branch = scf::IfOp::create(builder, loc, loop.getResultTypes(), fast,
                                    /*withElseRegion=*/true);
    IRMapping mapping;
    builder.setInsertionPointToStart(branch.thenBlock());
    Operation *copy = builder.clone(*loop, mapping);
    for (Access &access : accesses) {
      auto unchecked = cast<IndexOp>(mapping.lookup(access.op.getOperation()));
      unchecked.setUnchecked(true);
      unchecked.setNonnegative(true);
    }
    // Without results the builder already terminated both blocks.
    bool hasResults = !loop.getResultTypes().empty();
    if (hasResults) {
      builder.setInsertionPointToEnd(branch.thenBlock());
      scf::YieldOp::create(builder, loc, copy->getResults());
    }
    loop->replaceAllUsesWith(branch.getResults());
    if (hasResults) {
      builder.setInsertionPointToEnd(branch.elseBlock());
      scf::YieldOp::create(builder, loc, loop.getResults());
    }
    loop->moveBefore(branch.elseBlock()->getTerminator());
    // The cold copy keeps Python's exact error behaviour; kiln-vectorize
    // leaves it alone and gives the loop its verdict on the fast copy.
    loop->setAttr("kiln.bounds_checked_copy", builder.getUnitAttr());
  }
};

} // namespace
} // namespace kiln
