#include "passes/Passes.h"

#include "mlir/IR/Matchers.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/TypeSwitch.h"

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

  // Scalar float32 transcendentals as glibc's `_Float32` aliases (`expf32`
  // is `expf`). LLVM constant-folds `expf`/`llvm.exp.f32` of constants by
  // computing in double and rounding, which is not glibc's float32 result
  // in the last bit (`np.log1p(np.float32(2.5))` is 1.2527630329 from glibc,
  // 1.2527629137 folded; fuzzer seed 629289651), and numpy calls glibc. The
  // alias names are not libcalls LLVM knows, so they stay calls.
  static std::optional<StringRef> float32Alias(Operation *op) {
    return llvm::TypeSwitch<Operation *, std::optional<StringRef>>(op)
        .Case([](math::ExpOp) { return StringRef("expf32"); })
        .Case([](math::ExpM1Op) { return StringRef("expm1f32"); })
        .Case([](math::LogOp) { return StringRef("logf32"); })
        .Case([](math::Log1pOp) { return StringRef("log1pf32"); })
        .Case([](math::Log2Op) { return StringRef("log2f32"); })
        .Case([](math::Log10Op) { return StringRef("log10f32"); })
        .Case([](math::SinOp) { return StringRef("sinf32"); })
        .Case([](math::CosOp) { return StringRef("cosf32"); })
        .Case([](math::TanOp) { return StringRef("tanf32"); })
        .Case([](math::AsinOp) { return StringRef("asinf32"); })
        .Case([](math::AcosOp) { return StringRef("acosf32"); })
        .Case([](math::AtanOp) { return StringRef("atanf32"); })
        .Case([](math::Atan2Op) { return StringRef("atan2f32"); })
        .Case([](math::SinhOp) { return StringRef("sinhf32"); })
        .Case([](math::CoshOp) { return StringRef("coshf32"); })
        .Case([](math::TanhOp) { return StringRef("tanhf32"); })
        .Default([](Operation *) { return std::nullopt; });
  }

  static std::optional<StringRef> float32LibmAlias(StringRef callee) {
    return llvm::StringSwitch<std::optional<StringRef>>(callee)
        .Case("log1pf", StringRef("log1pf32"))
        .Case("expm1f", StringRef("expm1f32"))
        .Case("hypotf", StringRef("hypotf32"))
        .Case("atan2f", StringRef("atan2f32"))
        .Default(std::nullopt);
  }

  // Replaces `op` (a scalar libm function of its operands) by a call to
  // `name`, declared once, with the effects LLVM gives libm functions.
  static void replaceByCall(ModuleOp module, Operation *op, StringRef name) {
    MLIRContext *context = module.getContext();
    Type type = op->getResult(0).getType();
    auto callee = module.lookupSymbol<LLVM::LLVMFuncOp>(name);
    if (!callee) {
      OpBuilder builder = OpBuilder::atBlockBegin(module.getBody());
      SmallVector<Type> inputs(op->getNumOperands(), type);
      callee = LLVM::LLVMFuncOp::create(builder, module.getLoc(), name,
                                        LLVM::LLVMFunctionType::get(type, inputs));
      // No memory, no unwinding (errno is not read).
      auto none = LLVM::ModRefInfo::NoModRef;
      callee.setMemoryEffectsAttr(LLVM::MemoryEffectsAttr::get(
          context, none, none, none, none, none, none));
      callee.setNoUnwind(true);
      callee.setWillReturn(true);
    }
    OpBuilder builder(op);
    auto call = LLVM::CallOp::create(builder, op->getLoc(), callee, op->getOperands());
    op->getResult(0).replaceAllUsesWith(call.getResult());
    op->erase();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();

    SmallVector<math::PowFOp> pows;
    SmallVector<std::pair<Operation *, StringRef>> float32Calls;
    SmallVector<arith::NegFOp> negations;
    SmallVector<std::pair<Operation *, unsigned>> constants;
    module.walk([&](Operation *op) {
      if (auto pow = dyn_cast<math::PowFOp>(op)) {
        if (pow.getType().isF64() || pow.getType().isF32())
          pows.push_back(pow);
      } else if (std::optional<StringRef> name = float32Alias(op);
                 name && op->getResult(0).getType().isF32()) {
        float32Calls.push_back({op, *name});
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
      } else if (isa<arith::RemFOp>(op)) {
        // Every divisor, not only constants: inlining can make one constant
        // after this pass. LLVM expands `frem x, C` for a power of two C as
        // copysign(x - trunc(x / C) * C, x), whose NaN for an infinite x
        // takes x's sign where glibc's fmod (CPython's `%` and `//`, numpy's
        // fmod) gives the x86 default NaN (`math.copysign(1, inf // 1.0)` is
        // -1.0; fuzzer seed 60349209, f96). The fence keeps the fmod call.
        constants.push_back({op, 1});
      }
    });

    for (math::PowFOp pow : pows) {
      StringRef name = pow.getType().isF64() ? "powf64" : "powf32";
      replaceByCall(module, pow, name);
    }
    for (auto [op, name] : float32Calls)
      replaceByCall(module, op, name);

    // The frontend calls some float32 functions of libm directly (log1pf,
    // expm1f, hypotf): the same renaming, on the calls.
    SmallVector<func::CallOp> libmCalls;
    module.walk([&](func::CallOp call) {
      if (float32LibmAlias(call.getCallee()))
        libmCalls.push_back(call);
    });
    for (func::CallOp call : libmCalls) {
      StringRef alias = *float32LibmAlias(call.getCallee());
      if (!module.lookupSymbol(alias)) {
        auto original = module.lookupSymbol<func::FuncOp>(call.getCallee());
        if (!original)
          continue;
        OpBuilder builder(original);
        auto declaration = cast<func::FuncOp>(builder.clone(*original));
        declaration.setSymName(alias);
      }
      call.setCallee(alias);
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
