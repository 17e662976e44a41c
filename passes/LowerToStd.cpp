#include "passes/Passes.h"

#include "lib/Dialect/KilnDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cmath>
#include <limits>

namespace kiln {
#define GEN_PASS_DEF_KILNLOWERTOSTD
#include "passes/Passes.h.inc"
} // namespace kiln

using namespace mlir;

namespace kiln {
namespace {

// Small arith vocabulary with the builder and location bound once.
class Emitter {
public:
  Emitter(Operation *anchor) : builder(anchor), loc(anchor->getLoc()) {}

  OpBuilder builder;
  Location loc;

  Value constant(Type type, double value) {
    if (auto floatType = dyn_cast<FloatType>(type))
      return arith::ConstantOp::create(builder, loc,
                                       builder.getFloatAttr(floatType, value));
    return arith::ConstantOp::create(
        builder, loc, builder.getIntegerAttr(type, static_cast<int64_t>(value)));
  }
  Value boolean(bool value) {
    return arith::ConstantOp::create(builder, loc, builder.getBoolAttr(value));
  }
  Value cmpi(arith::CmpIPredicate predicate, Value a, Value b) {
    return arith::CmpIOp::create(builder, loc, predicate, a, b);
  }
  Value cmpf(arith::CmpFPredicate predicate, Value a, Value b) {
    return arith::CmpFOp::create(builder, loc, predicate, a, b);
  }
  Value select(Value condition, Value a, Value b) {
    return arith::SelectOp::create(builder, loc, condition, a, b);
  }
  Value andi(Value a, Value b) { return arith::AndIOp::create(builder, loc, a, b); }
  Value ori(Value a, Value b) { return arith::OrIOp::create(builder, loc, a, b); }
  Value xori(Value a, Value b) { return arith::XOrIOp::create(builder, loc, a, b); }
  Value negate(Value flag) { return xori(flag, boolean(true)); }
  Value isInf(Value x) {
    Value magnitude = math::AbsFOp::create(builder, loc, x);
    return cmpf(arith::CmpFPredicate::OEQ, magnitude,
                constant(x.getType(), std::numeric_limits<double>::infinity()));
  }
  Value isFinite(Value x) {
    Value magnitude = math::AbsFOp::create(builder, loc, x);
    return cmpf(arith::CmpFPredicate::OLT, magnitude,
                constant(x.getType(), std::numeric_limits<double>::infinity()));
  }
  void check(Value condition, StringRef kind, StringRef message,
             ValueRange args = {}) {
    CheckOp::create(builder, loc, condition, kind, message, args);
  }
};

bool isNonZeroConstant(Value value) {
  APInt intValue;
  if (matchPattern(value, m_ConstantInt(&intValue)))
    return !intValue.isZero();
  APFloat floatValue(0.0);
  if (matchPattern(value, m_ConstantFloat(&floatValue)))
    return !floatValue.isZero();
  return false;
}

bool isConstantInt(Value value, int64_t expected) {
  APInt intValue;
  return matchPattern(value, m_ConstantInt(&intValue)) &&
         intValue.getSExtValue() == expected;
}

// Integer // and %: the hardware traps on a zero divisor and on
// INT_MIN / -1, which Python (with wrapping 64-bit ints) defines as
// -INT_MIN = INT_MIN and 0.
//
// The division itself must be total, not merely guarded by the kiln.check
// before it: upstream marks arith.floordivsi and arith.remsi `Pure`, so
// loop-invariant code motion hoists them above the check (and out of loops
// that run zero times), where a zero divisor would raise SIGFPE. The divisor
// is therefore replaced by 1 whenever it is 0 or -1; the check still raises
// ZeroDivisionError at the right place and the -1 case is patched after.
Value lowerIntegerDivision(Emitter &e, Value a, Value b, bool isFloorDiv) {
  Type type = a.getType();
  Value zero = e.constant(type, 0);
  bool mayBeZero = !isNonZeroConstant(b);
  if (mayBeZero)
    e.check(e.cmpi(arith::CmpIPredicate::ne, b, zero), "ZeroDivisionError",
            isFloorDiv ? "integer division or modulo by zero"
                       : "integer modulo by zero");
  bool mayBeMinusOne = !(isNonZeroConstant(b) && !isConstantInt(b, -1));
  Value isMinusOne, divisor = b;
  if (mayBeMinusOne) {
    isMinusOne = e.cmpi(arith::CmpIPredicate::eq, b, e.constant(type, -1));
    Value trapping = isMinusOne;
    if (mayBeZero)
      trapping = e.ori(trapping, e.cmpi(arith::CmpIPredicate::eq, b, zero));
    divisor = e.select(trapping, e.constant(type, 1), b);
  }
  Value result;
  if (isFloorDiv) {
    result = arith::FloorDivSIOp::create(e.builder, e.loc, a, divisor);
    if (mayBeMinusOne)
      result = e.select(isMinusOne,
                        arith::SubIOp::create(e.builder, e.loc, zero, a), result);
    return result;
  }
  Value remainder = arith::RemSIOp::create(e.builder, e.loc, a, divisor);
  Value signsDiffer =
      e.xori(e.cmpi(arith::CmpIPredicate::slt, remainder, zero),
             e.cmpi(arith::CmpIPredicate::slt, divisor, zero));
  Value adjust =
      e.andi(e.cmpi(arith::CmpIPredicate::ne, remainder, zero), signsDiffer);
  result = e.select(adjust,
                    arith::AddIOp::create(e.builder, e.loc, remainder, divisor),
                    remainder);
  if (mayBeMinusOne)
    result = e.select(isMinusOne, zero, result);
  return result;
}

// CPython's float_divmod: mod = fmod(a, b) moved to the divisor's sign;
// div = (a - mod) / b rounded to the nearest integer; signed zeros where
// the result is zero.
Value lowerFloatDivision(Emitter &e, Value a, Value b, bool isFloorDiv) {
  Type type = a.getType();
  Value zero = e.constant(type, 0.0);
  if (!isNonZeroConstant(b))
    e.check(e.cmpf(arith::CmpFPredicate::UNE, b, zero), "ZeroDivisionError",
            isFloorDiv ? "float floor division by zero" : "float modulo");
  Value mod = arith::RemFOp::create(e.builder, e.loc, a, b);
  Value modNonZero = e.cmpf(arith::CmpFPredicate::UNE, mod, zero);
  Value signsDiffer = e.xori(e.cmpf(arith::CmpFPredicate::OLT, b, zero),
                             e.cmpf(arith::CmpFPredicate::OLT, mod, zero));
  Value fix = e.andi(modNonZero, signsDiffer);
  if (!isFloorDiv) {
    Value signedZero = math::CopySignOp::create(e.builder, e.loc, zero, b);
    Value modOrZero = e.select(modNonZero, mod, signedZero);
    return e.select(fix, arith::AddFOp::create(e.builder, e.loc, mod, b),
                    modOrZero);
  }
  Value one = e.constant(type, 1.0);
  Value div = arith::DivFOp::create(
      e.builder, e.loc, arith::SubFOp::create(e.builder, e.loc, a, mod), b);
  div = e.select(fix, arith::SubFOp::create(e.builder, e.loc, div, one), div);
  Value floor = math::FloorOp::create(e.builder, e.loc, div);
  Value roundUp = e.cmpf(arith::CmpFPredicate::OGT,
                         arith::SubFOp::create(e.builder, e.loc, div, floor),
                         e.constant(type, 0.5));
  Value rounded =
      e.select(roundUp, arith::AddFOp::create(e.builder, e.loc, floor, one), floor);
  Value quotientSign = math::CopySignOp::create(
      e.builder, e.loc, zero, arith::DivFOp::create(e.builder, e.loc, a, b));
  return e.select(e.cmpf(arith::CmpFPredicate::UNE, div, zero), rounded,
                  quotientSign);
}

Value lowerPow(Emitter &e, Value base, Value exponent) {
  Type type = base.getType();
  if (type.isInteger()) {
    Value zero = e.constant(type, 0);
    e.check(e.negate(e.andi(e.cmpi(arith::CmpIPredicate::eq, base, zero),
                            e.cmpi(arith::CmpIPredicate::slt, exponent, zero))),
            "ZeroDivisionError", "0.0 cannot be raised to a negative power");
    e.check(e.cmpi(arith::CmpIPredicate::sge, exponent, e.constant(type, 0)),
            "ValueError",
            "negative exponent: int ** negative int would be a float; write "
            "float(x) ** n");
    return math::IPowIOp::create(e.builder, e.loc, base, exponent);
  }
  Value zero = e.constant(type, 0.0);
  Value finite = e.andi(e.isFinite(base), e.isFinite(exponent));
  // CPython raises only for a finite negative exponent; 0.0 ** -inf is inf.
  e.check(e.negate(e.andi(e.andi(e.cmpf(arith::CmpFPredicate::OEQ, base, zero),
                                 e.cmpf(arith::CmpFPredicate::OLT, exponent, zero)),
                          e.isFinite(exponent))),
          "ZeroDivisionError", "0.0 cannot be raised to a negative power");
  Value fractional = e.cmpf(arith::CmpFPredicate::ONE,
                            math::FloorOp::create(e.builder, e.loc, exponent),
                            exponent);
  e.check(e.negate(e.andi(e.andi(e.cmpf(arith::CmpFPredicate::OLT, base, zero),
                                 finite),
                          fractional)),
          "ValueError",
          "a negative number raised to a fractional power is complex, which "
          "Kiln does not support");
  Value result = math::PowFOp::create(e.builder, e.loc, base, exponent);
  e.check(e.negate(e.andi(e.isInf(result), finite)), "OverflowError",
          "(34, 'Numerical result out of range')");
  return result;
}

Value lowerIndex(Emitter &e, IndexOp op) {
  Type i64 = e.builder.getI64Type();
  Value index = op.getIndex(), size = op.getSize();
  Value position = index;
  if (!op.getNonnegative()) {
    Value negative = e.cmpi(arith::CmpIPredicate::slt, index, e.constant(i64, 0));
    position = e.select(negative, arith::AddIOp::create(e.builder, e.loc, index, size),
                        index);
  }
  if (!op.getUnchecked()) {
    // One unsigned compare covers position < 0 and position >= size.
    Value inside = e.cmpi(arith::CmpIPredicate::ult, position, size);
    std::string message = "index {} is out of bounds for axis " +
                          std::to_string(op.getAxis()) + " with size {}";
    e.check(inside, "IndexError", message, ValueRange{index, size});
  }
  return arith::IndexCastOp::create(e.builder, e.loc, e.builder.getIndexType(),
                                    position);
}

Value lowerTruthy(Emitter &e, TruthyOp op) {
  Value value = op.getValue();
  Value zero = e.constant(value.getType(), 0);
  if (isa<FloatType>(value.getType()))
    return e.cmpf(arith::CmpFPredicate::UNE, value, zero);
  return e.cmpi(arith::CmpIPredicate::ne, value, zero);
}

// Upstream's math.atan2 folder returns NaN for two zero operands, where C99
// Annex F (glibc, and so CPython's math.atan2 and numpy) gives +-0 or +-pi.
// Operands can become constant zeros in any later canonicalization
// (`(n * 0) * 1.0`), so folding constants here is not enough: each atan2 is
// followed by a select of C99's zero result when both operands are zero.
// With constant operands the select folds to that result; otherwise it is
// a compare and a select beside the call (both vectorize).
void guardAtan2OfZeros(ModuleOp module) {
  SmallVector<math::Atan2Op> calls;
  module.walk([&](math::Atan2Op op) { calls.push_back(op); });
  for (math::Atan2Op op : calls) {
    Emitter e(op);
    e.builder.setInsertionPointAfter(op);
    Value y = op.getLhs(), x = op.getRhs();
    Type type = op.getType();
    Value zero = e.constant(type, 0.0);
    Value bothZero = e.andi(e.cmpf(arith::CmpFPredicate::OEQ, y, zero),
                            e.cmpf(arith::CmpFPredicate::OEQ, x, zero));
    // atan2(+-0, +0) = +-0 and atan2(+-0, -0) = +-pi: x's sign picks the
    // magnitude, y's sign the sign.
    Value xNegative = e.cmpf(
        arith::CmpFPredicate::OLT,
        math::CopySignOp::create(e.builder, e.loc, e.constant(type, 1.0), x), zero);
    Value magnitude = e.select(xNegative, e.constant(type, M_PI), zero);
    Value zeroCase = math::CopySignOp::create(e.builder, e.loc, magnitude, y);
    Value result = e.select(bothZero, zeroCase, op.getResult());
    op.getResult().replaceAllUsesExcept(result, result.getDefiningOp());
  }
}

class LowerToStd : public impl::KilnLowerToStdBase<LowerToStd> {
public:
  void runOnOperation() override {
    guardAtan2OfZeros(getOperation());
    SmallVector<Operation *> ops;
    getOperation().walk([&](Operation *op) {
      if (isa<FloorDivOp, ModOp, PowOp, IndexOp, TruthyOp, ToFloatOp>(op))
        ops.push_back(op);
    });
    for (Operation *op : ops) {
      Emitter e(op);
      Value replacement =
          llvm::TypeSwitch<Operation *, Value>(op)
              .Case([&](FloorDivOp div) {
                return isa<FloatType>(div.getType())
                           ? lowerFloatDivision(e, div.getLhs(), div.getRhs(), true)
                           : lowerIntegerDivision(e, div.getLhs(), div.getRhs(), true);
              })
              .Case([&](ModOp mod) {
                return isa<FloatType>(mod.getType())
                           ? lowerFloatDivision(e, mod.getLhs(), mod.getRhs(), false)
                           : lowerIntegerDivision(e, mod.getLhs(), mod.getRhs(), false);
              })
              .Case([&](PowOp pow) { return lowerPow(e, pow.getLhs(), pow.getRhs()); })
              .Case([&](IndexOp index) { return lowerIndex(e, index); })
              .Case([&](TruthyOp truthy) { return lowerTruthy(e, truthy); })
              .Case([&](ToFloatOp convert) -> Value {
                return arith::SIToFPOp::create(e.builder, e.loc, convert.getType(),
                                               convert.getValue());
              });
      op->getResult(0).replaceAllUsesWith(replacement);
      op->erase();
    }
  }
};

} // namespace
} // namespace kiln
