#include "passes/Passes.h"

#include "lib/Dialect/KilnDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/DialectConversion.h"

#include <cmath>
#include <optional>
#include <limits>

namespace kiln {
#define GEN_PASS_DEF_KILNLOWERTOSTD
#include "passes/Passes.h.inc"
} // namespace kiln

using namespace mlir;

namespace kiln {
namespace {

// Small arith vocabulary with the builder and location bound once. The
// builder is the conversion's rewriter, so that every op made here is known
// to the conversion driver.
class Emitter {
public:
  Emitter(OpBuilder &builder, Location loc) : builder(builder), loc(loc) {}

  OpBuilder &builder;
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
  void check(Value condition, ErrorKind kind, StringRef message,
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
// Unsigned operands (numpy's uint dtypes): the quotient and remainder are
// arith.divui/remui, which agree with floor division; only the zero divisor
// needs the check and, for the same hoisting reason, a total divisor.
Value lowerUnsignedDivision(Emitter &e, Value a, Value b, bool isFloorDiv,
                            bool numpySemantics) {
  Type type = a.getType();
  Value divisor = b, isZero;
  if (!isNonZeroConstant(b)) {
    Value zero = e.constant(type, 0);
    isZero = e.cmpi(arith::CmpIPredicate::eq, b, zero);
    if (!numpySemantics)
      e.check(e.negate(isZero), ErrorKind::ZeroDivisionError,
              isFloorDiv ? "integer division or modulo by zero"
                         : "integer modulo by zero");
    divisor = e.select(isZero, e.constant(type, 1), b);
  }
  Value result = isFloorDiv
                     ? arith::DivUIOp::create(e.builder, e.loc, a, divisor).getResult()
                     : arith::RemUIOp::create(e.builder, e.loc, a, divisor).getResult();
  if (numpySemantics && isZero)
    result = e.select(isZero, e.constant(type, 0), result);     // numpy: 0
  return result;
}

Value lowerIntegerDivision(Emitter &e, Value a, Value b, bool isFloorDiv,
                           bool numpySemantics) {
  Type type = a.getType();
  Value zero = e.constant(type, 0);
  bool mayBeZero = !isNonZeroConstant(b);
  if (mayBeZero && !numpySemantics)
    e.check(e.cmpi(arith::CmpIPredicate::ne, b, zero), ErrorKind::ZeroDivisionError,
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
  // numpy's ufuncs give 0 for a zero divisor (and warn).
  auto zeroForZeroDivisor = [&](Value value) {
    if (!numpySemantics || !mayBeZero)
      return value;
    return e.select(e.cmpi(arith::CmpIPredicate::eq, b, zero), zero, value);
  };
  if (isFloorDiv) {
    result = arith::FloorDivSIOp::create(e.builder, e.loc, a, divisor);
    if (mayBeMinusOne)
      result = e.select(isMinusOne,
                        arith::SubIOp::create(e.builder, e.loc, zero, a), result);
    return zeroForZeroDivisor(result);
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
  return zeroForZeroDivisor(result);
}

// lowerFloatDivision's arithmetic on constants, computed here by this
// machine's hardware and libm (kilnc compiles only for the machine it runs
// on). Folding the lowered ops instead would go through APFloat, whose NaN
// signs are not x86's: fmod(inf, 7) is x86's default NaN (sign set) where
// APFloat's mod makes a positive one, and APFloat flips a NaN's sign in
// `x - NaN`; `kiln.f32(1e300) // 7` then printed +nan where numpy prints
// -nan (fuzzer seed 847070162). Same steps, same order as the IR below.
template <typename T>
T hostFloatDivision(T a, T b, bool isFloorDiv, bool numpySemantics) {
  volatile T zero = 0, one = 1, half = 0.5;
  T mod = std::fmod(a, b);
  bool modNonZero = !(mod == zero);
  bool fix = modNonZero && ((b < zero) != (mod < zero));
  if (!isFloorDiv)
    return fix ? T(mod + b) : (modNonZero ? mod : std::copysign(zero, b));
  T div = T(a - mod) / b;
  if (fix)
    div = div - one;
  T floor = std::floor(div);
  T rounded = T(div - floor) > half ? T(floor + one) : floor;
  T quotient = a / b;
  T result = !(div == zero) ? rounded : std::copysign(zero, quotient);
  if (numpySemantics && b == zero)
    result = quotient;
  return result;
}

std::optional<APFloat> foldFloatDivision(Value a, Value b, bool isFloorDiv,
                                         bool numpySemantics) {
  FloatAttr left, right;
  if (!matchPattern(a, m_Constant(&left)) || !matchPattern(b, m_Constant(&right)))
    return std::nullopt;
  // A zero divisor raises (CPython), unless numpy's rule applies.
  if (right.getValue().isZero() && !numpySemantics)
    return std::nullopt;
  if (a.getType().isF64())
    return APFloat(hostFloatDivision(left.getValue().convertToDouble(),
                                     right.getValue().convertToDouble(), isFloorDiv,
                                     numpySemantics));
  if (a.getType().isF32())
    return APFloat(hostFloatDivision(left.getValue().convertToFloat(),
                                     right.getValue().convertToFloat(), isFloorDiv,
                                     numpySemantics));
  return std::nullopt;
}

// CPython's float_divmod: mod = fmod(a, b) moved to the divisor's sign;
// div = (a - mod) / b rounded to the nearest integer; signed zeros where
// the result is zero.
Value lowerFloatDivision(Emitter &e, Value a, Value b, bool isFloorDiv,
                         bool numpySemantics) {
  Type type = a.getType();
  if (std::optional<APFloat> folded = foldFloatDivision(a, b, isFloorDiv, numpySemantics))
    return arith::ConstantOp::create(e.builder, e.loc,
                                     e.builder.getFloatAttr(type, *folded));
  Value zero = e.constant(type, 0.0);
  if (!isNonZeroConstant(b) && !numpySemantics)
    e.check(e.cmpf(arith::CmpFPredicate::UNE, b, zero), ErrorKind::ZeroDivisionError,
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
  Value quotient = arith::DivFOp::create(e.builder, e.loc, a, b);
  Value quotientSign = math::CopySignOp::create(e.builder, e.loc, zero, quotient);
  Value result = e.select(e.cmpf(arith::CmpFPredicate::UNE, div, zero), rounded,
                          quotientSign);
  if (numpySemantics)       // numpy's floor_divide by zero: a / b (inf or NaN)
    result = e.select(e.cmpf(arith::CmpFPredicate::OEQ, b, zero), quotient, result);
  return result;
}

Value lowerPow(Emitter &e, Value base, Value exponent, bool isUnsigned) {
  Type type = base.getType();
  // Wrapping multiplication is the same for both signednesses, but
  // math.ipowi reads its exponent as signed (a uint8 exponent of 255 would
  // be -1). base ** e is (base ** (e >> 1))**2, times base when e is odd, and
  // e >> 1 (logical) is never negative.
  if (type.isInteger() && isUnsigned) {
    Value one = e.constant(type, 1);
    Value half = arith::ShRUIOp::create(e.builder, e.loc, exponent, one);
    Value root = math::IPowIOp::create(e.builder, e.loc, base, half);
    Value square = arith::MulIOp::create(e.builder, e.loc, root, root);
    Value odd = e.cmpi(arith::CmpIPredicate::ne, e.andi(exponent, one), e.constant(type, 0));
    return e.select(odd, arith::MulIOp::create(e.builder, e.loc, square, base), square);
  }
  if (type.isInteger()) {
    Value zero = e.constant(type, 0);
    e.check(e.negate(e.andi(e.cmpi(arith::CmpIPredicate::eq, base, zero),
                            e.cmpi(arith::CmpIPredicate::slt, exponent, zero))),
            ErrorKind::ZeroDivisionError, "0.0 cannot be raised to a negative power");
    e.check(e.cmpi(arith::CmpIPredicate::sge, exponent, e.constant(type, 0)),
            ErrorKind::ValueError,
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
          ErrorKind::ZeroDivisionError, "0.0 cannot be raised to a negative power");
  Value fractional = e.cmpf(arith::CmpFPredicate::ONE,
                            math::FloorOp::create(e.builder, e.loc, exponent),
                            exponent);
  e.check(e.negate(e.andi(e.andi(e.cmpf(arith::CmpFPredicate::OLT, base, zero),
                                 finite),
                          fractional)),
          ErrorKind::ValueError,
          "a negative number raised to a fractional power is complex, which "
          "Kiln does not support");
  Value result = math::PowFOp::create(e.builder, e.loc, base, exponent);
  // CPython's float_pow returns a NaN base as it is (unless the exponent
  // is 0); glibc's pow squares it and negates the square for an odd
  // integer exponent, which flips the NaN's sign (fuzzer seed 847070162:
  // `nan ** -12884901885.0`).
  Value nanBase = e.andi(e.cmpf(arith::CmpFPredicate::UNO, base, base),
                         e.cmpf(arith::CmpFPredicate::UNE, exponent, zero));
  result = e.select(nanBase, base, result);
  e.check(e.negate(e.andi(e.isInf(result), finite)), ErrorKind::OverflowError,
          "(34, 'Numerical result out of range')");
  return result;
}

Value lowerIndex(Emitter &e, IndexOp op, IndexOp::Adaptor operands) {
  Type i64 = e.builder.getI64Type();
  Value index = operands.getIndex(), size = operands.getSize();
  Value position = index;
  if (!op.getNonnegative()) {
    Value negative = e.cmpi(arith::CmpIPredicate::slt, index, e.constant(i64, 0));
    position = e.select(negative, arith::AddIOp::create(e.builder, e.loc, index, size),
                        index);
  }
  if (!op.getUnchecked()) {
    // One unsigned compare covers position < 0 and position >= size.
    Value inside = e.cmpi(arith::CmpIPredicate::ult, position, size);
    if (std::optional<StringRef> own = op.getMessage()) {
      e.check(inside, ErrorKind::IndexError, own->str(), ValueRange{});
    } else {
      std::string message = "index {} is out of bounds for axis " +
                            std::to_string(op.getAxis()) + " with size {}";
      e.check(inside, ErrorKind::IndexError, message, ValueRange{index, size});
    }
  }
  return arith::IndexCastOp::create(e.builder, e.loc, e.builder.getIndexType(),
                                    position);
}

Value lowerTruthy(Emitter &e, Value value) {
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
    OpBuilder builder(op);
    builder.setInsertionPointAfter(op);
    Emitter e(builder, op.getLoc());
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

// One pattern per kiln op with Python semantics: the op's expansion is
// built in front of it and replaces its result.
template <typename SourceOp>
class LowerKilnOp : public OpConversionPattern<SourceOp> {
public:
  using OpConversionPattern<SourceOp>::OpConversionPattern;
  using Adaptor = typename SourceOp::Adaptor;

  LogicalResult
  matchAndRewrite(SourceOp op, Adaptor operands,
                  ConversionPatternRewriter &rewriter) const override {
    Emitter e(rewriter, op.getLoc());
    rewriter.replaceOp(op, lower(e, op, operands));
    return success();
  }

private:
  Value lower(Emitter &e, SourceOp op, Adaptor operands) const;
};

template <>
Value LowerKilnOp<FloorDivOp>::lower(Emitter &e, FloorDivOp op,
                                     Adaptor operands) const {
  bool numpy = op.getNumpySemantics();
  if (isa<FloatType>(op.getType()))
    return lowerFloatDivision(e, operands.getLhs(), operands.getRhs(), true, numpy);
  if (op.getIsUnsigned())
    return lowerUnsignedDivision(e, operands.getLhs(), operands.getRhs(), true, numpy);
  return lowerIntegerDivision(e, operands.getLhs(), operands.getRhs(), true, numpy);
}

template <>
Value LowerKilnOp<ModOp>::lower(Emitter &e, ModOp op, Adaptor operands) const {
  bool numpy = op.getNumpySemantics();
  if (isa<FloatType>(op.getType()))
    return lowerFloatDivision(e, operands.getLhs(), operands.getRhs(), false, numpy);
  if (op.getIsUnsigned())
    return lowerUnsignedDivision(e, operands.getLhs(), operands.getRhs(), false, numpy);
  return lowerIntegerDivision(e, operands.getLhs(), operands.getRhs(), false, numpy);
}

template <>
Value LowerKilnOp<PowOp>::lower(Emitter &e, PowOp op, Adaptor operands) const {
  return lowerPow(e, operands.getLhs(), operands.getRhs(), op.getIsUnsigned());
}

template <>
Value LowerKilnOp<IndexOp>::lower(Emitter &e, IndexOp op,
                                  Adaptor operands) const {
  return lowerIndex(e, op, operands);
}

template <>
Value LowerKilnOp<TruthyOp>::lower(Emitter &e, TruthyOp,
                                   Adaptor operands) const {
  return lowerTruthy(e, operands.getValue());
}

template <>
Value LowerKilnOp<ToFloatOp>::lower(Emitter &e, ToFloatOp op,
                                    Adaptor operands) const {
  return arith::SIToFPOp::create(e.builder, e.loc, op.getType(),
                                 operands.getValue());
}

class LowerToStd : public impl::KilnLowerToStdBase<LowerToStd> {
public:
  void runOnOperation() override {
    guardAtan2OfZeros(getOperation());

    // Every kiln op must be gone afterwards except the three that
    // kiln-lower-checks lowers once the CFG is unstructured (kiln.owned,
    // kiln-lower-containers' marker of held references, among them): an op left over
    // is this pass's failure, with the op's location, not a translation
    // error later. Every other op is legal as it is: the driver would
    // otherwise try to fold the ops it does not know, which is the
    // canonicalizer's job, not this pass's.
    ConversionTarget target(getContext());
    target.addIllegalDialect<KilnDialect>();
    target.addLegalOp<CheckOp, PropagateErrorOp, OwnedOp>();
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });

    RewritePatternSet patterns(&getContext());
    patterns.add<LowerKilnOp<FloorDivOp>, LowerKilnOp<ModOp>,
                 LowerKilnOp<PowOp>, LowerKilnOp<IndexOp>,
                 LowerKilnOp<TruthyOp>, LowerKilnOp<ToFloatOp>>(&getContext());
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
} // namespace kiln
