#include "passes/Passes.h"

#include "mlir/IR/Matchers.h"

namespace kiln {
#define GEN_PASS_DEF_KILNIEEEEXACTNESS
#include "passes/Passes.h.inc"
} // namespace kiln

using namespace mlir;

namespace kiln {
namespace {

// CPython's float arithmetic is the hardware's and its `**` is libm's pow.
// LLVM may change two things a Python program can observe, which this pass
// pins down once kiln-vectorize has run:
//
// * LLVM rewrites pow(x, 2.0) as x * x, pow(x, -1.0) as 1 / x, pow(x, 0.5)
//   as sqrt and pow(2.0, x) as exp2. glibc's pow is not correctly rounded,
//   so these differ from CPython's x ** 2 ... in the last bit for some x.
//   Scalar math.powf becomes a call to glibc's `powf64` / `powf32`: the same
//   code as pow / powf (aliases), under names LLVM does not rewrite. Vector
//   pow (libmvec, see docs/language.md) is left alone.
// * LLVM treats the sign of a NaN made by arithmetic as unspecified and
//   folds (-a) + b into b - a, a - (-b) into a + b, x * -1.0 and x / -1.0
//   into -x, -0.0 - x into -x: each gives a NaN the other sign than x86
//   arithmetic in source order, which is what CPython computes. An
//   llvm.arithmetic.fence (no instruction) on a negation that feeds
//   arithmetic, and on such -1.0 / -0.0 constants, keeps the operations as
//   written.
class IeeeExactness : public impl::KilnIeeeExactnessBase<IeeeExactness> {
public:

  static bool isArithmetic(Operation *op) {
    return isa<arith::AddFOp, arith::SubFOp, arith::MulFOp, arith::DivFOp,
               arith::RemFOp>(op);
  }

  static bool isConstantFloat(Value value, double expected) {
    APFloat constant(0.0);
    if (!matchPattern(value, m_ConstantFloat(&constant)))
      return false;
    APFloat wanted(expected);
    bool losesInfo = false;
    wanted.convert(constant.getSemantics(), APFloat::rmNearestTiesToEven,
                   &losesInfo);
    return constant.bitwiseIsEqual(wanted);
  }

  static Value fence(OpBuilder &builder, Location loc, Value value) {
    return LLVM::CallIntrinsicOp::create(
               builder, loc, value.getType(),
               builder.getStringAttr("llvm.arithmetic.fence"),
               ValueRange{value})
        .getResult(0);
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *context = module.getContext();

    SmallVector<math::PowFOp> pows;
    SmallVector<arith::NegFOp> negations;
    SmallVector<std::pair<Operation *, unsigned>> constants;
    module.walk([&](Operation *op) {
      if (auto pow = dyn_cast<math::PowFOp>(op)) {
        if (pow.getType().isF64() || pow.getType().isF32())
          pows.push_back(pow);
      } else if (auto negation = dyn_cast<arith::NegFOp>(op)) {
        if (llvm::any_of(negation->getUsers(), isArithmetic))
          negations.push_back(negation);
      } else if (isa<arith::MulFOp>(op)) {
        for (unsigned k = 0; k < 2; ++k)
          if (isConstantFloat(op->getOperand(k), -1.0))
            constants.push_back({op, k});
      } else if (isa<arith::DivFOp>(op)) {
        if (isConstantFloat(op->getOperand(1), -1.0))
          constants.push_back({op, 1});
      } else if (isa<arith::SubFOp>(op)) {
        if (isConstantFloat(op->getOperand(0), -0.0))
          constants.push_back({op, 0});
      }
    });

    for (math::PowFOp pow : pows) {
      Type type = pow.getType();
      StringRef name = type.isF64() ? "powf64" : "powf32";
      auto callee = module.lookupSymbol<LLVM::LLVMFuncOp>(name);
      if (!callee) {
        OpBuilder builder = OpBuilder::atBlockBegin(module.getBody());
        callee = LLVM::LLVMFuncOp::create(
            builder, module.getLoc(), name,
            LLVM::LLVMFunctionType::get(type, {type, type}));
        // As LLVM knows pow: no memory, no unwinding (errno is not read).
        auto none = LLVM::ModRefInfo::NoModRef;
        callee.setMemoryEffectsAttr(LLVM::MemoryEffectsAttr::get(
            context, none, none, none, none, none, none));
        callee.setNoUnwind(true);
        callee.setWillReturn(true);
      }
      OpBuilder builder(pow);
      auto call = LLVM::CallOp::create(builder, pow.getLoc(), callee,
                                       ValueRange{pow.getLhs(), pow.getRhs()});
      pow.replaceAllUsesWith(call.getResult());
      pow.erase();
    }

    for (arith::NegFOp negation : negations) {
      OpBuilder builder(negation);
      builder.setInsertionPointAfter(negation);
      Value fenced = fence(builder, negation.getLoc(), negation.getResult());
      negation.getResult().replaceUsesWithIf(fenced, [&](OpOperand &use) {
        return isArithmetic(use.getOwner());
      });
    }

    for (auto [op, index] : constants) {
      OpBuilder builder(op);
      op->setOperand(index,
                     fence(builder, op->getLoc(), op->getOperand(index)));
    }
  }
};

} // namespace
} // namespace kiln
