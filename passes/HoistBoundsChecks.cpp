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

// index = sum_k coefficients[k] * iv_k + offset over the loops of a nest
// (outermost first), `offset` defined outside the nest's root (null for
// zero): the extremes over the nest's iteration box are at its corners.
struct NestIndex {
  SmallVector<int64_t> coefficients;
  Value offset;
};

// Coefficients beyond this, or loop bounds and offsets beyond the limits
// below, could overflow i64 in the corner arithmetic; such accesses stay
// checked (each bound is tested at the nest's entry, a few compares).
constexpr int64_t kMaxCoefficient = int64_t(1) << 16;
constexpr int64_t kMaxBound = int64_t(1) << 40;
constexpr int64_t kMaxOffset = int64_t(1) << 60;

std::optional<NestIndex> matchNestIndex(Value value, ArrayRef<scf::ForOp> loops,
                                        OpBuilder &builder, int depth = 0) {
  scf::ForOp root = loops.front();
  NestIndex result;
  result.coefficients.assign(loops.size(), 0);
  for (size_t k = 0; k < loops.size(); ++k)
    if (value == scf::ForOp(loops[k]).getInductionVar()) {
      result.coefficients[k] = 1;
      return result;
    }
  if (root.isDefinedOutsideOfLoop(value)) {
    result.offset = value;
    return result;
  }
  // A constant made inside the nest (`i - 1` inside an `if`) is the same
  // constant before it.
  if (std::optional<int64_t> constant = constantOf(value)) {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPoint(root);
    result.offset = arith::ConstantOp::create(builder, root.getLoc(),
                                              builder.getIntegerAttr(value.getType(), *constant));
    return result;
  }
  if (depth > 6)
    return std::nullopt;
  Operation *op = value.getDefiningOp();
  if (!op)
    return std::nullopt;
  auto combine = [&](Value lhs, Value rhs, bool subtract) -> std::optional<NestIndex> {
    auto a = matchNestIndex(lhs, loops, builder, depth + 1);
    auto b = matchNestIndex(rhs, loops, builder, depth + 1);
    if (!a || !b)
      return std::nullopt;
    for (size_t k = 0; k < loops.size(); ++k)
      result.coefficients[k] =
          subtract ? a->coefficients[k] - b->coefficients[k] : a->coefficients[k] + b->coefficients[k];
    if (!a->offset && !b->offset)
      return result;
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPoint(root);
    Location loc = root.getLoc();
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
      if (!constant || *constant > kMaxCoefficient || *constant < -kMaxCoefficient)
        continue;
      auto inner = matchNestIndex(scaled, loops, builder, depth + 1);
      if (!inner || inner->offset)
        continue;
      for (int64_t &coefficient : inner->coefficients)
        coefficient *= *constant;
      return inner;
    }
  }
  return std::nullopt;
}

// The one-loop case of matchNestIndex.
std::optional<AffineIndex> matchAffine(Value value, scf::ForOp loop, OpBuilder &builder) {
  scf::ForOp loops[] = {loop};
  std::optional<NestIndex> nest = matchNestIndex(value, loops, builder);
  if (!nest)
    return std::nullopt;
  return AffineIndex{nest->coefficients.front(), nest->offset};
}

class HoistBoundsChecks
    : public impl::KilnHoistBoundsChecksBase<HoistBoundsChecks> {
public:
  void runOnOperation() override {
    // Loop nests first, outermost loops before the loops inside them: a
    // nest versioned at its root needs no test on each entry of its inner
    // loops. Then every loop on its own, for the accesses a nest's test
    // did not cover (and in the nest's checked copy, which keeps the
    // per-loop versions of its inner loops: a test over the whole box may
    // fail where each row's passes, e.g. `if i > 0: x[i - 1, j]`).
    SmallVector<scf::ForOp> outerFirst;
    getOperation().walk<WalkOrder::PreOrder>(
        [&](scf::ForOp loop) { outerFirst.push_back(loop); });
    llvm::SmallPtrSet<Operation *, 8> roots;
    for (scf::ForOp loop : outerFirst) {
      bool inVersionedNest = false;
      for (Operation *parent = loop->getParentOp(); parent; parent = parent->getParentOp())
        if (roots.contains(parent))
          inVersionedNest = true;
      if (!inVersionedNest && versionNest(loop))
        roots.insert(loop);
    }
    SmallVector<scf::ForOp> loops;
    getOperation().walk([&](scf::ForOp loop) { loops.push_back(loop); });
    for (scf::ForOp loop : loops)
      if (!loop->hasAttr(kNestCheckedCopyAttr))
        version(loop);
  }

private:

  struct NestAccess {
    IndexOp op;
    SmallVector<scf::ForOp> loops; // root first; the access's enclosing loops
    NestIndex index;
  };

  // Versions the nest rooted at `root` when some access inside one of its
  // inner loops is affine in the nest's induction variables. The test
  // before the root bounds each such index over the whole iteration box:
  // per loop, the term coefficient * iv is smallest and largest at the
  // loop's first or last value.
  bool versionNest(scf::ForOp root) {
    if (!root.getInductionVar().getType().isInteger(64) || root->hasAttr(kNestCheckedCopyAttr))
      return false;
    OpBuilder builder(root);
    // The loops of the nest whose bounds the root's entry knows.
    auto nestLoop = [&](scf::ForOp loop) {
      if (!loop.getInductionVar().getType().isInteger(64))
        return false;
      for (Value bound : {loop.getLowerBound(), loop.getUpperBound(), loop.getStep()})
        if (!hoistInvariantChain(bound, root))
          return false;
      return true;
    };
    SmallVector<NestAccess> accesses;
    bool reachesInnerLoop = false;
    root.getBody()->walk([&](IndexOp index) {
      if (index.getUnchecked() && index.getNonnegative())
        return;
      SmallVector<scf::ForOp> loops;
      for (Operation *parent = index->getParentOp(); parent != root.getOperation();
           parent = parent->getParentOp()) {
        auto loop = dyn_cast<scf::ForOp>(parent);
        if (!loop && !isa<scf::IfOp>(parent))
          return; // a while loop or a parallel region: left to other passes
        if (loop) {
          if (!nestLoop(loop))
            return;
          loops.push_back(loop);
        }
      }
      loops.push_back(root);
      std::reverse(loops.begin(), loops.end());
      if (!hoistInvariantChain(index.getSize(), root))
        return;
      auto affine = matchNestIndex(index.getIndex(), loops, builder);
      if (!affine)
        return;
      reachesInnerLoop |= loops.size() > 1;
      accesses.push_back({index, loops, *affine});
    });
    if (!reachesInnerLoop)
      return false;

    Location loc = root.getLoc();
    Type i64 = builder.getI64Type();
    auto constant = [&](int64_t value) -> Value {
      return arith::ConstantOp::create(builder, loc, builder.getIntegerAttr(i64, value));
    };
    auto within = [&](Value value, int64_t limit) -> Value {
      Value low = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::sge, value,
                                        constant(-limit));
      Value high = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::sle, value,
                                         constant(limit));
      return arith::AndIOp::create(builder, loc, low, high);
    };
    struct LoopRange {
      Value first, last, runsNever;
    };
    llvm::DenseMap<Operation *, LoopRange> ranges;
    Value allInside = arith::ConstantOp::create(builder, loc, builder.getBoolAttr(true));
    auto rangeOf = [&](scf::ForOp loop) -> LoopRange & {
      auto found = ranges.find(loop);
      if (found != ranges.end())
        return found->second;
      Value lower = loop.getLowerBound(), upper = loop.getUpperBound(), step = loop.getStep();
      // Bounds small enough that no corner product overflows; otherwise
      // the checked copy runs (its per-loop versions still apply).
      for (Value bound : {lower, upper, step})
        allInside = arith::AndIOp::create(builder, loc, allInside, within(bound, kMaxBound));
      Value trips = arith::CeilDivSIOp::create(
          builder, loc, arith::SubIOp::create(builder, loc, upper, lower), step);
      Value runsNever =
          arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::sle, trips, constant(0));
      Value last = arith::AddIOp::create(
          builder, loc, lower,
          arith::MulIOp::create(builder, loc,
                                arith::SubIOp::create(builder, loc, trips, constant(1)), step));
      return ranges[loop] = LoopRange{lower, last, runsNever};
    };
    for (NestAccess &access : accesses) {
      Value offset = access.index.offset ? access.index.offset : constant(0);
      if (access.index.offset)
        allInside = arith::AndIOp::create(builder, loc, allInside, within(offset, kMaxOffset));
      Value smallest = offset, largest = offset;
      Value vacuous = arith::ConstantOp::create(builder, loc, builder.getBoolAttr(false));
      for (auto [loop, coefficient] : llvm::zip(access.loops, access.index.coefficients)) {
        LoopRange &range = rangeOf(loop);
        vacuous = arith::OrIOp::create(builder, loc, vacuous, range.runsNever);
        if (coefficient == 0)
          continue;
        Value atFirst = arith::MulIOp::create(builder, loc, range.first, constant(coefficient));
        Value atLast = arith::MulIOp::create(builder, loc, range.last, constant(coefficient));
        smallest = arith::AddIOp::create(builder, loc, smallest,
                                         arith::MinSIOp::create(builder, loc, atFirst, atLast));
        largest = arith::AddIOp::create(builder, loc, largest,
                                        arith::MaxSIOp::create(builder, loc, atFirst, atLast));
      }
      // Unchecked accesses need only the sign: their bounds are the user's.
      Value inside = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::sge, smallest,
                                           constant(0));
      if (!access.op.getUnchecked())
        inside = arith::AndIOp::create(
            builder, loc, inside,
            arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::slt, largest,
                                  access.op.getSize()));
      allInside = arith::AndIOp::create(
          builder, loc, allInside, arith::OrIOp::create(builder, loc, vacuous, inside));
    }
    SmallVector<IndexOp> covered;
    for (NestAccess &access : accesses)
      covered.push_back(access.op);
    emitVersions(root, allInside, covered, kNestCheckedCopyAttr);
    return true;
  }

  // scf.if (fast) { a copy of `loop` with `covered` unchecked and
  // nonnegative } else { `loop` itself, marked `checkedCopyAttr` }.
  void emitVersions(scf::ForOp loop, Value fast, ArrayRef<IndexOp> covered,
                    StringRef checkedCopyAttr) {
    OpBuilder builder(loop);
    Location loc = loop.getLoc();
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
    for (IndexOp access : covered) {
      auto unchecked = cast<IndexOp>(mapping.lookup(access.getOperation()));
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
    loop->setAttr(checkedCopyAttr, builder.getUnitAttr());
  }

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
    SmallVector<IndexOp> covered;
    for (Access &access : accesses)
      covered.push_back(access.op);
    emitVersions(loop, fast, covered, kBoundsCheckedCopyAttr);
  }
};

} // namespace
} // namespace kiln
