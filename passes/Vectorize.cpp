// kiln-vectorize: innermost Python loops to vector-dialect SIMD code, with
// one remark per loop saying what happened and why. The pass description in
// Passes.td is the user-level documentation; this file is organised as
//   analysis (LoopAnalysis) -> guard (runtime stride/overlap checks)
//   -> emission (VectorBodyEmitter, one call per interleaved copy)
//   -> loop structure (main loop, tail, reductions, epilogue).
#include "passes/Passes.h"

#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/Remarks.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/TypeSwitch.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>

namespace kiln {
#define GEN_PASS_DEF_KILNVECTORIZE
#include "passes/Passes.h.inc"
} // namespace kiln

using namespace mlir;

namespace kiln {
namespace {

constexpr StringLiteral kRemarkCategory = "kiln-vectorize";
// Loops this pass must leave alone: the cold bounds-checked copy made by
// kiln-hoist-bounds-checks, and the scalar versions this pass keeps.
constexpr StringLiteral kScalarVersionAttr = "kiln.scalar_version";
// kNestCheckedCopyAttr (Passes.h): its loops are vectorized like any other
// (it runs whenever the nest-wide test fails, which a guarded access such
// as `if i > 0: x[i - 1, j]` makes it do on every call), without remarks:
// the nest's fast copy carries each loop's verdict.

std::string lineOf(Location loc) {
  if (auto file = dyn_cast<FileLineColLoc>(loc))
    return llvm::formatv("line {0}", file.getLine()).str();
  if (auto fused = dyn_cast<FusedLoc>(loc))
    for (Location inner : fused.getLocations())
      if (auto file = dyn_cast<FileLineColLoc>(inner))
        return llvm::formatv("line {0}", file.getLine()).str();
  return "an unknown line";
}

// index = iv + uniform + constant: the only subscripts a vector load or
// store can use (unit stride along the loop).
struct IndexExpr {
  Value uniform; // loop-invariant part, may be null
  int64_t constant = 0;
  bool operator==(const IndexExpr &other) const {
    return uniform == other.uniform && constant == other.constant;
  }
};

struct MemoryAccess {
  Operation *op;
  Value memref;
  bool isStore;
  bool isVector; // false: every subscript is loop-invariant
  IndexExpr index;
  unsigned order; // program order in the body
};

// How one loop-carried value combines across iterations.
struct Reduction {
  enum class Family { Add, Mul, And, Or, Xor, MinSI, MaxSI, MinUI, MaxUI,
                      MinimumF, MaximumF, MinNumF, MaxNumF, SelectMinMax };
  Family family;
  bool isFloat = false;
  // SelectMinMax: acc' = select(cmp(pred, lhs, rhs), trueValue, falseValue),
  // with the candidate on the true side; these say where `acc` sits.
  arith::CmpFPredicate floatPredicate{};
  arith::CmpIPredicate intPredicate{};
  bool accIsCompareLhs = false;
};

bool isElementType(Type type) {
  return type.isF32() || type.isF64() || type.isInteger(1) ||
         type.isInteger(8) || type.isInteger(16) || type.isInteger(32) ||
         type.isInteger(64);
}

// complex<f32> and complex<f64>: a vector iteration holds them as a vector of
// real parts and a vector of imaginary parts.
bool isComplexElement(Type type) {
  auto complex = dyn_cast<ComplexType>(type);
  return complex && (complex.getElementType().isF32() || complex.getElementType().isF64());
}

// Elements kiln-vectorize loads through kiln.scalar_view: complex numbers
// (no vector holds them) and bools (a vector of i1 is packed bits, an array
// of i1 one byte per element).
bool needsScalarView(Type element) {
  return isComplexElement(element) || element.isInteger(1);
}

// The scalar type whose width sets VF.
Type scalarOf(Type type) {
  if (auto complex = dyn_cast<ComplexType>(type))
    return complex.getElementType();
  return type;
}

// Bytes an element occupies in memory: an i1 takes one, as LLVM and numpy
// store it.
int64_t elementBytes(Type element) {
  if (auto complex = dyn_cast<ComplexType>(element))
    return 2 * elementBytes(complex.getElementType());
  return std::max<int64_t>(1, element.getIntOrFloatBitWidth() / 8);
}

// Ops that are applied lane by lane and can run on lanes whose value is
// never used (if-converted branches, masked tail lanes): no traps.
bool isSpeculatableElementwise(Operation *op) {
  if (isa<arith::DivSIOp, arith::DivUIOp, arith::RemSIOp, arith::RemUIOp,
          arith::CeilDivSIOp, arith::CeilDivUIOp, arith::FloorDivSIOp>(op)) {
    APInt divisor;
    return matchPattern(op->getOperand(1), m_ConstantInt(&divisor)) &&
           !divisor.isZero() && !divisor.isAllOnes();
  }
  if (isa<arith::RemFOp>(op))
    return false; // lowers to an fmod call per lane
  if (op->getDialect() && op->getDialect()->getNamespace() == "arith")
    return op->getNumRegions() == 0 && op->getNumResults() == 1 &&
           !isa<arith::ConstantOp, arith::IndexCastOp, arith::IndexCastUIOp>(op);
  return false;
}

// The libm name of a math op libmvec has vector variants of
// (passes/LibmvecVariants.def).
std::optional<StringRef> libmvecName(Operation *op) {
#define LIBMVEC_FUNCTION(OP, NAME, OPERANDS)                                   \
  if (isa<OP>(op))                                                             \
    return StringRef(#NAME);
#include "passes/LibmvecVariants.def"
  return std::nullopt;
}

// libmvec's ISA letter for kiln-vectorize's isa name, and the widest
// variant it has (its register bits); std::nullopt for an unknown isa.
std::optional<std::pair<char, unsigned>> libmvecIsa(StringRef isaName) {
#define LIBMVEC_ISA(LETTER, NAME, BITS)                                        \
  if (isaName == NAME)                                                         \
    return std::make_pair(LETTER, unsigned(BITS));
#include "passes/LibmvecVariants.def"
  return std::nullopt;
}

// Math the backend has instructions for, on any vector width.
bool isNativeVectorMath(Operation *op) {
  return isa<math::SqrtOp, math::FmaOp, math::AbsFOp, math::AbsIOp,
             math::FloorOp, math::CeilOp, math::TruncOp, math::RoundEvenOp,
             math::RoundOp, math::CopySignOp>(op);
}

struct TargetInfo {
  unsigned vectorBits = 256;
  std::string isa = "avx2";
};

//===----------------------------------------------------------------------===//
// Analysis
//===----------------------------------------------------------------------===//

struct LoopAnalysis {
  mutable scf::ForOp loop;
  std::string refusal; // empty: vectorizable
  DenseSet<Value> uniform;
  DenseMap<Value, IndexExpr> indexExprs;
  SmallVector<MemoryAccess> accesses;
  SmallVector<Reduction> reductions; // one per iter_arg
  SmallVector<Operation *> checks;   // kiln.check ops with value conditions
  unsigned widestBits = 0;
  bool usesLibmvec = false;
  unsigned order = 0;

  explicit LoopAnalysis(scf::ForOp loop) : loop(loop) { run(); }

  bool ok() const { return refusal.empty(); }

  bool refuse(const std::string &reason) {
    if (refusal.empty())
      refusal = reason;
    return false;
  }

  bool isUniform(Value value) const {
    return loop.isDefinedOutsideOfLoop(value) || uniform.contains(value);
  }

  std::string carriedName(unsigned index) const {
    if (auto names = loop->getAttrOfType<ArrayAttr>("kiln.carried"))
      if (index < names.size())
        if (auto name = dyn_cast<StringAttr>(names[index]))
          return ("`" + name.getValue() + "`").str();
    return llvm::formatv("loop-carried value #{0}", index).str();
  }

  void noteType(Type type) {
    if (type.isIntOrFloat() && !type.isInteger(1))
      widestBits = std::max(widestBits, type.getIntOrFloatBitWidth());
  }

  void run() {
    std::optional<int64_t> step = getConstantIntValue(loop.getStep());
    if (!step || *step != 1) {
      refuse(step ? llvm::formatv("range step {0} (only step 1 is vectorized)",
                                  *step)
                        .str()
                  : "range step is not a constant");
      return;
    }
    Value iv = loop.getInductionVar();
    indexExprs[iv] = IndexExpr{};
    if (!analyzeBlock(*loop.getBody()))
      return;
    if (!analyzeReductions())
      return;
    analyzeDependences();
    if (ok() && widestBits == 0)
      widestBits = 64;
  }

  std::optional<IndexExpr> indexOf(Value value) const {
    auto found = indexExprs.find(value);
    if (found == indexExprs.end())
      return std::nullopt;
    return found->second;
  }

  bool analyzeBlock(Block &block) {
    for (Operation &op : block) {
      if (!analyzeOp(&op))
        return false;
    }
    return true;
  }

  bool analyzeIndexArithmetic(Operation *op) {
    Value lhs = op->getOperand(0), rhs = op->getOperand(1);
    auto lhsIndex = indexOf(lhs);
    auto rhsIndex = indexOf(rhs);
    bool subtract = isa<arith::SubIOp>(op);
    if (lhsIndex && isUniform(rhs) && !lhsIndex->uniform) {
      IndexExpr result = *lhsIndex;
      if (auto constant = getConstantIntValue(rhs))
        result.constant += subtract ? -*constant : *constant;
      else if (!subtract)
        result.uniform = rhs;
      else
        return false;
      indexExprs[op->getResult(0)] = result;
      return true;
    }
    if (rhsIndex && isUniform(lhs) && !subtract && !rhsIndex->uniform) {
      IndexExpr result = *rhsIndex;
      if (auto constant = getConstantIntValue(lhs))
        result.constant += *constant;
      else
        result.uniform = lhs;
      indexExprs[op->getResult(0)] = result;
      return true;
    }
    return false;
  }

  bool analyzeAccess(Operation *op, Value memref, ValueRange indices,
                     bool isStore) {
    auto type = cast<MemRefType>(memref.getType());
    if (!isElementType(type.getElementType()) &&
        !isComplexElement(type.getElementType()))
      return refuse(llvm::formatv("access to an array of {0} at {1}",
                                  type.getElementType(), lineOf(op->getLoc()))
                        .str());
    if (!loop.isDefinedOutsideOfLoop(memref))
      return refuse("an array view created inside the loop at " +
                    lineOf(op->getLoc()));
    for (Value index : indices.drop_back())
      if (!isUniform(index))
        return refuse("the loop variable indexes an outer dimension at " +
                      lineOf(op->getLoc()) +
                      " (non-unit stride; no gather on this target pays)");
    Value last = indices.back();
    MemoryAccess access{op, memref, isStore, false, {}, order++};
    if (auto index = indexOf(last)) {
      access.isVector = true;
      access.index = *index;
    } else if (!isUniform(last)) {
      return refuse("subscript at " + lineOf(op->getLoc()) +
                    " is not the loop variable plus an invariant offset "
                    "(indirect or non-unit-stride access; no gather)");
    }
    if (isStore && !access.isVector)
      return refuse("every iteration stores to the same element at " +
                    lineOf(op->getLoc()));
    noteType(scalarOf(type.getElementType()));
    accesses.push_back(access);
    if (!isStore && !access.isVector)
      uniform.insert(op->getResult(0));
    return true;
  }

  bool analyzeOp(Operation *op) {
    if (isa<scf::YieldOp>(op))
      return true;
    if (auto cast = dyn_cast<arith::IndexCastOp>(op)) {
      if (auto index = indexOf(cast.getIn())) {
        indexExprs[cast.getResult()] = *index;
        return true;
      }
      // A data-dependent subscript: refused with a clear reason where it
      // is used (a gather), or as an unsupported operand anywhere else.
      if (!isUniform(cast.getIn()) && cast.getType().isIndex())
        return true;
    }
    if (isa<arith::AddIOp, arith::SubIOp>(op) && analyzeIndexArithmetic(op))
      return true;
    if (auto load = dyn_cast<memref::LoadOp>(op))
      return analyzeAccess(op, load.getMemRef(), load.getIndices(), false);
    if (auto store = dyn_cast<memref::StoreOp>(op)) {
      Type stored = store.getValue().getType();
      if (!isUniform(store.getValue()) && !isElementType(stored) &&
          !isComplexElement(stored))
        return refuse("stores a non-numeric value");
      return analyzeAccess(op, store.getMemRef(), store.getIndices(), true);
    }
    if (isa<memref::DimOp>(op) && llvm::all_of(op->getOperands(), [&](Value v) {
          return isUniform(v);
        })) {
      uniform.insert(op->getResult(0));
      return true;
    }
    if (auto check = dyn_cast<CheckOp>(op)) {
      if (check.getKind() == ErrorKind::IndexError)
        return refuse("bounds check at " + lineOf(op->getLoc()) +
                      " could not be hoisted out of the loop");
      checks.push_back(op);
      return true;
    }
    if (auto branch = dyn_cast<scf::IfOp>(op)) {
      for (Type type : branch.getResultTypes())
        if (!isElementType(type) && !isComplexElement(type))
          return refuse("a conditional produces a non-numeric value at " +
                        lineOf(op->getLoc()));
      if (!analyzeBlock(*branch.thenBlock()))
        return false;
      if (branch.elseBlock() && !analyzeBlock(*branch.elseBlock()))
        return false;
      return true;
    }
    if (isa<scf::ForOp, scf::WhileOp>(op))
      return refuse("contains an inner loop");
    if (auto call = dyn_cast<func::CallOp>(op))
      return refuse(("call to `" + call.getCallee() + "` at " +
                     lineOf(op->getLoc()) + " (not inlined before vectorizing)")
                        .str());
    if (isa<memref::AllocOp, memref::AllocaOp>(op))
      return refuse("allocates an array inside the loop at " +
                    lineOf(op->getLoc()));

    bool allUniform = llvm::all_of(op->getOperands(),
                                   [&](Value v) { return isUniform(v); });
    bool pure = isPure(op) && op->getNumRegions() == 0;
    if (pure && allUniform) {
      for (Value result : op->getResults())
        uniform.insert(result);
      return true;
    }
    // Complex values only pass through: built from, or taken apart into,
    // their parts, or selected. Complex arithmetic reaches this pass
    // already written on the parts by the frontend.
    if (isa<complex::ReOp, complex::ImOp, complex::CreateOp>(op) ||
        (isa<arith::SelectOp>(op) && isComplexElement(op->getResult(0).getType()))) {
      for (Value operand : op->getOperands())
        noteType(scalarOf(operand.getType()));
      return true;
    }
    for (Value operand : op->getOperands())
      if (!isUniform(operand) && !isElementType(operand.getType()) &&
          !indexOf(operand))
        return refuse(llvm::formatv("unsupported operand of `{0}` at {1}",
                                    op->getName(), lineOf(op->getLoc()))
                          .str());
    for (Type type : op->getResultTypes()) {
      if (!isElementType(type))
        return refuse(llvm::formatv("`{0}` at {1} produces {2}", op->getName(),
                                    lineOf(op->getLoc()), type)
                          .str());
      noteType(type);
    }
    for (Value operand : op->getOperands())
      noteType(operand.getType());
    if (isSpeculatableElementwise(op) || isNativeVectorMath(op))
      return true;
    if (libmvecName(op)) {
      usesLibmvec = true;
      return true;
    }
    if (isa<arith::DivSIOp, arith::DivUIOp, arith::RemSIOp, arith::RemUIOp,
            arith::FloorDivSIOp, arith::CeilDivSIOp>(op))
      return refuse("integer division by a non-constant at " +
                    lineOf(op->getLoc()) + " (a masked lane could trap)");
    return refuse(llvm::formatv("unsupported operation `{0}` at {1}",
                                op->getName(), lineOf(op->getLoc()))
                      .str());
  }

  // The values computed from iter_arg `k` must only flow, through one kind
  // of combining op (or selects between such chains), into the loop's
  // yield. Then lanes can accumulate independently and combine at the end.
  bool analyzeReductions() {
    auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
    for (auto [k, arg] : llvm::enumerate(loop.getRegionIterArgs())) {
      std::string name = carriedName(k);
      Type type = arg.getType();
      if (!isElementType(type) || type.isInteger(1))
        return refuse("loop-carried dependence on " + name);
      noteType(type);
      DenseSet<Value> chain{arg};
      std::optional<Reduction> reduction;
      bool failed = false;
      auto setFamily = [&](Reduction candidate) {
        if (!reduction) {
          reduction = candidate;
          return true;
        }
        if (reduction->family != candidate.family)
          return false;
        if (candidate.family == Reduction::Family::SelectMinMax &&
            (reduction->floatPredicate != candidate.floatPredicate ||
             reduction->intPredicate != candidate.intPredicate ||
             reduction->accIsCompareLhs != candidate.accIsCompareLhs))
          return false;
        return true;
      };
      DenseSet<Operation *> minMaxCompares;
      loop.getBody()->walk<WalkOrder::PreOrder>([&](Operation *op) {
        if (failed || op == yield.getOperation())
          return;
        if (auto inner = dyn_cast<scf::YieldOp>(op)) {
          auto branch = dyn_cast<scf::IfOp>(inner->getParentOp());
          if (!branch)
            return;
          for (auto [i, value] : llvm::enumerate(inner.getOperands()))
            if (chain.contains(value))
              chain.insert(branch.getResult(i));
          return;
        }
        bool touches = llvm::any_of(op->getOperands(), [&](Value v) {
          return chain.contains(v);
        });
        if (!touches)
          return;
        if (!matchCombine(op, chain, setFamily, minMaxCompares))
          failed = true;
      });
      if (!failed) {
        // Every chain value's users must stay inside the chain (or be the
        // compare of a recognised min/max select).
        for (Value value : chain) {
          for (OpOperand &use : value.getUses()) {
            Operation *user = use.getOwner();
            if (user == yield.getOperation()) {
              if (use.getOperandNumber() != k)
                failed = true;
              continue;
            }
            if (isa<scf::YieldOp>(user) || minMaxCompares.contains(user))
              continue;
            if (!llvm::any_of(user->getResults(),
                              [&](Value r) { return chain.contains(r); }))
              failed = true;
          }
        }
        // scf.if results must be chain values on both sides: a value picked
        // from outside the chain is "the last assignment wins", not a
        // reduction.
        loop.getBody()->walk([&](scf::IfOp branch) {
          for (auto [i, result] : llvm::enumerate(branch.getResults())) {
            if (!chain.contains(result))
              continue;
            Value a = branch.thenYield().getOperand(i);
            Value b = branch.elseBlock() ? branch.elseYield().getOperand(i) : Value();
            if (!b || !chain.contains(a) || !chain.contains(b))
              failed = true;
          }
        });
      }
      Value yielded = yield.getOperand(k);
      if (failed || !chain.contains(yielded))
        return refuse("loop-carried dependence on " + name + " at " +
                      lineOf(yield.getLoc()) + " is not a reduction");
      if (!reduction)
        return refuse("loop-carried dependence on " + name +
                      " (never updated with a reduction)");
      if (reduction->isFloat && floatNeedsFastmath(reduction->family)) {
        bool reassociable = true;
        loop.getBody()->walk([&](Operation *op) {
          if (!llvm::any_of(op->getOperands(),
                            [&](Value v) { return chain.contains(v); }))
            return;
          if (auto fm = dyn_cast<arith::ArithFastMathInterface>(op))
            if (isa<arith::AddFOp, arith::SubFOp, arith::MulFOp>(op) &&
                !bitEnumContainsAll(fm.getFastMathFlagsAttr().getValue(),
                                    arith::FastMathFlags::reassoc))
              reassociable = false;
        });
        if (!reassociable)
          return refuse("float reduction on " + name +
                        " needs fastmath=True (reassociating the sum changes "
                        "its rounding)");
      }
      if (reduction->family == Reduction::Family::SelectMinMax && reduction->isFloat &&
          llvm::any_of(accesses, [](const MemoryAccess &a) { return a.isStore; }))
        return refuse("float min/max on " + name +
                      " in a loop that also stores (a tie between -0.0 and 0.0 "
                      "is settled by re-running the loop, which must not store)");
      reductions.push_back(*reduction);
    }
    return true;
  }

  static bool floatNeedsFastmath(Reduction::Family family) {
    return family == Reduction::Family::Add || family == Reduction::Family::Mul;
  }

  template <typename SetFamily>
  bool matchCombine(Operation *op, DenseSet<Value> &chain, SetFamily &setFamily,
                    DenseSet<Operation *> &minMaxCompares) {
    using F = Reduction::Family;
    if (minMaxCompares.contains(op))
      return true;
    auto inChain = [&](Value v) { return chain.contains(v); };
    if (auto select = dyn_cast<arith::SelectOp>(op)) {
      Value cond = select.getCondition();
      Value t = select.getTrueValue(), f = select.getFalseValue();
      if (!inChain(cond)) {
        if (!inChain(t) || !inChain(f))
          return false;
        chain.insert(select.getResult());
        return true;
      }
      // select(cmp(candidate, acc), candidate, acc): min/max in CPython's
      // order (the earlier value wins ties, NaN candidates are skipped).
      Operation *compare = cond.getDefiningOp();
      if (!compare || !inChain(f) || inChain(t) || !compare->hasOneUse())
        return false;
      Reduction candidate{F::SelectMinMax};
      Value lhs = compare->getOperand(0), rhs = compare->getOperand(1);
      if (!((lhs == f && rhs == t) || (lhs == t && rhs == f)))
        return false;
      candidate.accIsCompareLhs = lhs == f;
      if (auto cmpf = dyn_cast<arith::CmpFOp>(compare)) {
        using P = arith::CmpFPredicate;
        P p = cmpf.getPredicate();
        if (p != P::OGT && p != P::OLT && p != P::OGE && p != P::OLE)
          return false; // unordered compares let a NaN in and out again
        candidate.floatPredicate = p;
        candidate.isFloat = true;
      } else if (auto cmpi = dyn_cast<arith::CmpIOp>(compare)) {
        using P = arith::CmpIPredicate;
        P p = cmpi.getPredicate();
        if (p == P::eq || p == P::ne)
          return false;
        candidate.intPredicate = p;
      } else {
        return false;
      }
      if (!setFamily(candidate))
        return false;
      chain.insert(select.getResult());
      return true;
    }
    if (isa<arith::CmpFOp, arith::CmpIOp>(op)) {
      // Part of the chain only as the condition of a min/max select, which
      // the select case above then checks.
      Value compare = op->getResult(0);
      if (compare.hasOneUse() && isa<arith::SelectOp>(*compare.user_begin()) &&
          compare.user_begin()->getOperand(0) == compare) {
        minMaxCompares.insert(op);
        chain.insert(compare);
        return true;
      }
      return false;
    }
    if (op->getNumOperands() != 2 || op->getNumResults() != 1)
      return false;
    bool lhsIn = inChain(op->getOperand(0)), rhsIn = inChain(op->getOperand(1));
    if (lhsIn && rhsIn)
      return false;
    std::optional<F> family;
    bool isFloat = false;
    if (isa<arith::AddIOp>(op) || (isa<arith::SubIOp>(op) && lhsIn))
      family = F::Add;
    else if (isa<arith::AddFOp>(op) || (isa<arith::SubFOp>(op) && lhsIn))
      family = F::Add, isFloat = true;
    else if (isa<arith::MulIOp>(op))
      family = F::Mul;
    else if (isa<arith::MulFOp>(op))
      family = F::Mul, isFloat = true;
    else if (isa<arith::AndIOp>(op))
      family = F::And;
    else if (isa<arith::OrIOp>(op))
      family = F::Or;
    else if (isa<arith::XOrIOp>(op))
      family = F::Xor;
    else if (isa<arith::MinSIOp>(op))
      family = F::MinSI;
    else if (isa<arith::MaxSIOp>(op))
      family = F::MaxSI;
    else if (isa<arith::MinUIOp>(op))
      family = F::MinUI;
    else if (isa<arith::MaxUIOp>(op))
      family = F::MaxUI;
    else if (isa<arith::MinimumFOp>(op))
      family = F::MinimumF, isFloat = true;
    else if (isa<arith::MaximumFOp>(op))
      family = F::MaximumF, isFloat = true;
    else if (isa<arith::MinNumFOp>(op))
      family = F::MinNumF, isFloat = true;
    else if (isa<arith::MaxNumFOp>(op))
      family = F::MaxNumF, isFloat = true;
    if (!family)
      return false;
    Reduction candidate{*family};
    candidate.isFloat = isFloat;
    if (!setFamily(candidate))
      return false;
    chain.insert(op->getResult(0));
    return true;
  }

  // Same-array rules: with every access of a stored array at offset s,
  // a load at offset l is safe when l == s, or l > s and the load comes
  // first (it reads ahead of the writes). With value checks, stores are
  // delayed to the end of a chunk, so no load may follow a store.
  bool sameArrayAccessesSafe(ArrayRef<const MemoryAccess *> group,
                             std::string &why) const {
    std::optional<IndexExpr> storeIndex;
    unsigned firstStore = ~0u;
    for (const MemoryAccess *access : group) {
      if (!access->isStore)
        continue;
      if (storeIndex && !(*storeIndex == access->index)) {
        why = "two stores to one array at different offsets";
        return false;
      }
      storeIndex = access->index;
      firstStore = std::min(firstStore, access->order);
    }
    if (!storeIndex)
      return true;
    for (const MemoryAccess *access : group) {
      if (access->isStore)
        continue;
      if (!access->isVector) {
        why = "reads one element of an array the loop writes";
        return false;
      }
      if (access->index.uniform != storeIndex->uniform) {
        why = "reads and writes one array at offsets that cannot be compared";
        return false;
      }
      int64_t distance = access->index.constant - storeIndex->constant;
      if (distance < 0) {
        why = llvm::formatv("reads an element written {0} iteration(s) "
                            "earlier",
                            -distance)
                  .str();
        return false;
      }
      if (distance > 0 && access->order > firstStore) {
        why = "reads ahead after writing the same array";
        return false;
      }
      if (!checks.empty() && access->order > firstStore) {
        why = "reads an array after writing it in a loop with value checks";
        return false;
      }
    }
    return true;
  }

  void analyzeDependences() {
    llvm::MapVector<Value, SmallVector<const MemoryAccess *>> byArray;
    for (const MemoryAccess &access : accesses)
      byArray[access.memref].push_back(&access);
    for (auto &[memref, group] : byArray) {
      std::string why;
      if (!sameArrayAccessesSafe(group, why)) {
        refuse("loop-carried dependence through an array: " + why + " (at " +
               lineOf(group.front()->op->getLoc()) + ")");
        return;
      }
    }
  }

  // Whether two different views may be the very same memory and still be
  // vectorized as one array (e.g. saxpy(a, x, x, x)).
  bool identicalViewsSafe(Value a, Value b) const {
    if (cast<MemRefType>(a.getType()).getRank() != 1 ||
        cast<MemRefType>(b.getType()).getRank() != 1 ||
        a.getType() != b.getType())
      return false;
    SmallVector<const MemoryAccess *> group;
    for (const MemoryAccess &access : accesses)
      if (access.memref == a || access.memref == b)
        group.push_back(&access);
    std::string why;
    return sameArrayAccessesSafe(group, why);
  }
};

//===----------------------------------------------------------------------===//
// Emission
//===----------------------------------------------------------------------===//

struct VectorPlan {
  LoopAnalysis &analysis;
  unsigned vf;
  unsigned interleave;
  bool maskedTail;
  TargetInfo target;
  DenseMap<Value, Value> unitStrideViews; // original memref -> cast view
  ModuleOp module;
  // Original memref of complex or i1 elements -> kiln.scalar_view of its
  // unit-stride view.
  DenseMap<Value, Value> scalarViews;
};

Value constantIndex(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantIndexOp::create(b, loc, value);
}

// Loops count in i64 (Python ints) or in index (the frontend's own fill
// loops); constants take the counter's type.
Value constantOfType(OpBuilder &b, Location loc, Type type, int64_t value) {
  return arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, value));
}

Value andMasks(OpBuilder &b, Location loc, Value a, Value c) {
  if (!a)
    return c;
  if (!c)
    return a;
  return arith::AndIOp::create(b, loc, a, c);
}

Value notMask(OpBuilder &b, Location loc, Value mask) {
  auto type = cast<VectorType>(mask.getType());
  Value ones = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(type, b.getBoolAttr(true)));
  return arith::XOrIOp::create(b, loc, mask, ones);
}

// One vector copy of the loop body for lanes [base, base + VF).
class VectorBodyEmitter {
public:
  struct DeferredStore {
    Value value, view, mask;
    SmallVector<Value> indices;
    Location loc;
  };

  VectorBodyEmitter(VectorPlan &plan, OpBuilder &b, Value base, Value tailMask,
                    ValueRange accumulators)
      : plan(plan), b(b), base(base), tailMask(tailMask) {
    auto args = plan.analysis.loop.getRegionIterArgs();
    for (auto [arg, acc] : llvm::zip(args, accumulators))
      vectors.map(arg, acc);
    // Shared loads pay when one shuffle makes the middle offsets: a
    // two-source permute of 512-bit vectors (vpermt2pd), or 128-bit ones.
    // A 256-bit window across the two 128-bit halves takes two (vperm2f128
    // and vshufpd), which cost more than the load they save: a 3-point
    // stencil ran 1.1-1.3x slower shared than with three loads on an AVX2
    // EPYC (bench/native/stencil_loads.c).
    if (!tailMask && plan.target.vectorBits != 256)
      findSharedLoads();
  }

  LogicalResult emit() { return emitBlock(*plan.analysis.loop.getBody(), tailMask); }

  SmallVector<Value> yieldedAccumulators() {
    auto yield = cast<scf::YieldOp>(plan.analysis.loop.getBody()->getTerminator());
    SmallVector<Value> result;
    for (Value value : yield.getOperands())
      result.push_back(vectorOf(value));
    return result;
  }

  // All lanes' check conditions hold (or the lane is masked off).
  Value checksPass() const { return checksHold; }
  ArrayRef<DeferredStore> deferredStores() const { return deferred; }
  bool deferStores = false;

private:
  VectorPlan &plan;
  OpBuilder &b;
  Value base;     // i64: first lane's induction value
  Value tailMask; // null when all lanes are live
  IRMapping scalars;
  IRMapping vectors;
  DenseMap<Value, std::pair<Value, Value>> complexParts; // varying complex values
  Value checksHold;
  SmallVector<DeferredStore> deferred;

  VectorType vectorType(Type element) {
    return VectorType::get({plan.vf}, element);
  }

  Value scalarOf(Value value) { return scalars.lookupOrDefault(value); }

  // Stencils read one array at three or more nearby offsets (x[i-1], x[i],
  // x[i+1]). Loading the lowest and the highest offset covers every other
  // one, which becomes a shuffle of the two: fewer loads, fewer of them
  // split across cache lines. Only for arrays the loop never writes, so
  // moving a load does not change what it reads.
  struct SharedLoads {
    // The array, the invariant part of the innermost subscript, then the
    // outer subscripts: loads share only within one row.
    SmallVector<Value> row;
    int64_t lowest, highest;
    Value low, high; // loaded on first use, per body copy
  };
  SmallVector<SharedLoads> sharedLoads;

  static SmallVector<Value> rowOf(const MemoryAccess &access) {
    SmallVector<Value> row{access.memref, access.index.uniform};
    auto indices = cast<memref::LoadOp>(access.op).getIndices();
    row.append(indices.begin(), std::prev(indices.end()));
    return row;
  }

  void findSharedLoads() {
    DenseSet<Value> stored;
    SmallVector<std::pair<SmallVector<Value>, SmallVector<int64_t>>> rows;
    for (const MemoryAccess &access : plan.analysis.accesses) {
      if (access.isStore) {
        stored.insert(access.memref);
        continue;
      }
      if (!access.isVector ||
          needsScalarView(cast<MemRefType>(access.memref.getType()).getElementType()))
        continue;
      SmallVector<Value> row = rowOf(access);
      auto found = llvm::find_if(rows, [&](auto &entry) { return entry.first == row; });
      if (found == rows.end()) {
        rows.push_back({row, {}});
        found = std::prev(rows.end());
      }
      found->second.push_back(access.index.constant);
    }
    // A view the guard lets through as identical to a written one (f(a, a))
    // is written too: its loads must stay where they are.
    auto mayBeWritten = [&](Value memref) {
      return stored.contains(memref) ||
             llvm::any_of(stored, [&](Value written) {
               return plan.analysis.identicalViewsSafe(written, memref);
             });
    };
    for (auto &[row, offsets] : rows) {
      llvm::sort(offsets);
      offsets.erase(std::unique(offsets.begin(), offsets.end()), offsets.end());
      // Sorted: back >= front, so the unsigned difference is exact (a signed
      // one overflows for offsets at the ends of int64).
      if (mayBeWritten(row.front()) || offsets.size() < 3 ||
          uint64_t(offsets.back()) - uint64_t(offsets.front()) >= uint64_t(plan.vf))
        continue;
      sharedLoads.push_back({row, offsets.front(), offsets.back(), Value(), Value()});
    }
  }

  Value sharedLoad(Location loc, memref::LoadOp load, const MemoryAccess &access) {
    SmallVector<Value> row = rowOf(access);
    auto found = llvm::find_if(sharedLoads, [&](SharedLoads &s) { return s.row == row; });
    if (found == sharedLoads.end())
      return Value();
    SharedLoads &shared = *found;
    Value view = plan.unitStrideViews.lookup(load.getMemRef());
    VectorType type = vectorType(load.getType());
    auto loadAt = [&](int64_t offset) {
      IndexExpr index = access.index;
      index.constant = offset;
      return vector::LoadOp::create(b, loc, type, view,
                                    accessIndices(loc, load.getIndices(), index))
          .getResult();
    };
    if (!shared.low) {
      shared.low = loadAt(shared.lowest);
      shared.high = loadAt(shared.highest);
    }
    int64_t offset = access.index.constant;
    if (offset == shared.lowest)
      return shared.low;
    if (offset == shared.highest)
      return shared.high;
    // Lane j reads element offset + j: from `low` while it covers it, else
    // from `high` (shuffle positions VF.. address the second operand).
    SmallVector<int64_t> lanes;
    int64_t vf = plan.vf;
    for (int64_t j = 0; j < vf; ++j) {
      int64_t position = offset + j;
      lanes.push_back(position < shared.lowest + vf ? position - shared.lowest
                                                    : vf + position - shared.highest);
    }
    return vector::ShuffleOp::create(b, loc, shared.low, shared.high,
                                     b.getDenseI64ArrayAttr(lanes));
  }

  Value scalarIndex(Location loc, const IndexExpr &index) {
    Value value = base;
    if (index.uniform) {
      Value offset = scalarOf(index.uniform);
      if (offset.getType() != base.getType())
        offset = arith::IndexCastOp::create(b, loc, base.getType(), offset);
      value = arith::AddIOp::create(b, loc, value, offset);
    }
    if (index.constant)
      value = arith::AddIOp::create(
          b, loc, value, constantOfType(b, loc, base.getType(), index.constant));
    if (value.getType().isIndex())
      return value;
    return arith::IndexCastOp::create(b, loc, b.getIndexType(), value);
  }

  Value vectorOf(Value value) {
    if (Value mapped = vectors.lookupOrNull(value))
      return mapped;
    // A block argument (the induction variable) has the location where the
    // parser read it, a position in the .mlir text, not a Python line: the
    // vector index built from it belongs to its loop's line.
    Location loc = isa<BlockArgument>(value)
                       ? value.getParentBlock()->getParentOp()->getLoc()
                       : value.getLoc();
    Value result;
    if (auto index = plan.analysis.indexOf(value)) {
      Value first = scalarIndex(loc, *index);
      VectorType indexVector = vectorType(b.getIndexType());
      result = arith::AddIOp::create(
          b, loc, vector::BroadcastOp::create(b, loc, indexVector, first),
          vector::StepOp::create(b, loc, indexVector));
      if (!value.getType().isIndex())
        result = arith::IndexCastOp::create(b, loc, vectorType(value.getType()), result);
    } else {
      assert(plan.analysis.isUniform(value) &&
             "a varying value is used before the op defining it was emitted");
      result = vector::BroadcastOp::create(b, loc, vectorType(value.getType()),
                                           scalarOf(value));
    }
    vectors.map(value, result);
    return result;
  }

  SmallVector<Value> accessIndices(Location loc, ValueRange indices,
                                   const IndexExpr &last) {
    SmallVector<Value> result;
    for (Value index : indices.drop_back())
      result.push_back(scalarOf(index));
    result.push_back(scalarIndex(loc, last));
    return result;
  }

  const MemoryAccess *accessFor(Operation *op) {
    for (const MemoryAccess &access : plan.analysis.accesses)
      if (access.op == op)
        return &access;
    return nullptr;
  }

  LogicalResult emitBlock(Block &block, Value mask) {
    for (Operation &op : block)
      if (failed(emitOp(&op, mask)))
        return failure();
    return success();
  }

  // A varying complex value as (real parts, imaginary parts); a uniform one
  // is taken apart once and broadcast.
  std::pair<Value, Value> complexPartsOf(Value value) {
    auto found = complexParts.find(value);
    if (found != complexParts.end())
      return found->second;
    assert(plan.analysis.isUniform(value) &&
           "a varying complex value is used before the op defining it was emitted");
    Location loc = value.getLoc();
    Value scalar = scalarOf(value);
    Type part = cast<ComplexType>(value.getType()).getElementType();
    std::pair<Value, Value> parts{
        vector::BroadcastOp::create(b, loc, vectorType(part),
                                    complex::ReOp::create(b, loc, scalar)),
        vector::BroadcastOp::create(b, loc, vectorType(part),
                                    complex::ImOp::create(b, loc, scalar))};
    complexParts[value] = parts;
    return parts;
  }

  // `result` = cond ? whenTrue : whenFalse, lane by lane; complex values
  // part by part.
  void selectInto(Location loc, Value result, Value cond, Value whenTrue,
                  Value whenFalse) {
    if (isComplexElement(result.getType())) {
      auto [trueRe, trueIm] = complexPartsOf(whenTrue);
      auto [falseRe, falseIm] = complexPartsOf(whenFalse);
      complexParts[result] = {arith::SelectOp::create(b, loc, cond, trueRe, falseRe),
                              arith::SelectOp::create(b, loc, cond, trueIm, falseIm)};
      return;
    }
    vectors.map(result, arith::SelectOp::create(b, loc, cond, vectorOf(whenTrue),
                                                vectorOf(whenFalse)));
  }

  Value scaledIndex(Location loc, Value index, int64_t factor) {
    return arith::MulIOp::create(b, loc, index, constantIndex(b, loc, factor));
  }

  // A lane mask for `factor` scalars per lane: each lane's bit repeated.
  Value widenMask(Location loc, Value mask, int64_t factor) {
    if (!mask || factor == 1)
      return mask;
    SmallVector<int64_t> lanes;
    for (int64_t lane = 0; lane < int64_t(plan.vf); ++lane)
      for (int64_t k = 0; k < factor; ++k)
        lanes.push_back(lane);
    return vector::ShuffleOp::create(b, loc, mask, mask, b.getDenseI64ArrayAttr(lanes));
  }

  // (re0, im0, re1, im1, ...) from the real and the imaginary parts.
  Value interleave(Location loc, Value re, Value im) {
    return vector::InterleaveOp::create(b, loc, re, im);
  }

  // Complex elements: 2 VF scalars loaded at once, deinterleaved into the
  // even (real) and odd (imaginary) ones. Bools: VF bytes, each 0 or 1.
  LogicalResult emitScalarViewLoad(Location loc, memref::LoadOp load,
                                   const MemoryAccess &access) {
    Type element = load.getType();
    Value view = plan.scalarViews.lookup(load.getMemRef());
    auto indices = accessIndices(loc, load.getIndices(), access.index);
    bool complex = isComplexElement(element);
    int64_t factor = complex ? 2 : 1;
    if (complex)
      indices.back() = scaledIndex(loc, indices.back(), factor);
    auto type = VectorType::get({int64_t(plan.vf) * factor},
                                cast<MemRefType>(view.getType()).getElementType());
    Value loaded;
    if (tailMask) {
      Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(type));
      loaded = vector::MaskedLoadOp::create(b, loc, type, view, indices,
                                            widenMask(loc, tailMask, factor), zero);
    } else {
      loaded = vector::LoadOp::create(b, loc, type, view, indices);
    }
    if (!complex) {
      vectors.map(load.getResult(),
                  arith::TruncIOp::create(b, loc, vectorType(element), loaded));
      return success();
    }
    auto parts = vector::DeinterleaveOp::create(b, loc, loaded);
    complexParts[load.getResult()] = {parts.getRes1(), parts.getRes2()};
    return success();
  }

  // A call of the libmvec variant for `op` on plan.vf lanes. libmvec has
  // variants from 128 bits up to the target ISA's register width only
  // (LibmvecVariants.def): narrower vectors are widened (lanes repeated)
  // for the call and narrowed after it, wider ones split into calls of the
  // widest variant and concatenated.
  Value libmvecCall(Operation *op, StringRef name) {
    Type element = op->getResult(0).getType();
    Location loc = op->getLoc();
    auto [targetLetter, targetBits] = *libmvecIsa(plan.target.isa);
    unsigned elementBits = element.getIntOrFloatBitWidth();
    unsigned bits = plan.vf * elementBits;
    unsigned callBits = std::clamp(bits, 128u, targetBits);
    // The variant of the narrowest ISA that has this width: `b` for 128
    // bits, the target's own letter above (AVX-512 code calls the `d`
    // variant for 256 bits, as LLVM's own mappings do).
    char letter = callBits == 128 ? 'b' : callBits < targetBits && targetLetter == 'e' ? 'd'
                                                                                    : targetLetter;
    int64_t lanes = callBits / elementBits;
    std::string symbol = llvm::formatv("_ZGV{0}N{1}{2}_{3}{4}", letter, lanes,
                                       std::string(op->getNumOperands(), 'v'),
                                       name, element.isF32() ? "f" : "")
                             .str();
    auto callType = VectorType::get({lanes}, element);
    SmallVector<Type> inputs(op->getNumOperands(), callType);
    auto fnType = b.getFunctionType(inputs, {callType});
    if (!plan.module.lookupSymbol<func::FuncOp>(symbol)) {
      OpBuilder moduleBuilder(plan.module.getBodyRegion());
      auto decl = func::FuncOp::create(moduleBuilder, plan.module.getLoc(), symbol, fnType);
      decl.setPrivate();
      decl->setAttr("kiln.libmvec", moduleBuilder.getUnitAttr());
    }
    int64_t vf = plan.vf;
    auto call = [&](ArrayRef<Value> operands) {
      return func::CallOp::create(b, loc, symbol, TypeRange{callType}, operands).getResult(0);
    };
    auto lanesOf = [&](Value vector, int64_t first, int64_t count) {
      SmallVector<int64_t> mask;
      for (int64_t lane = 0; lane < count; ++lane)
        mask.push_back(first + lane % vf); // lanes past vf repeat (widening)
      return vector::ShuffleOp::create(b, loc, vector, vector, mask).getResult();
    };
    SmallVector<Value> operands;
    for (Value operand : op->getOperands())
      operands.push_back(vectorOf(operand));
    if (lanes == vf)
      return call(operands);
    if (lanes > vf) {
      SmallVector<Value> widened;
      for (Value operand : operands)
        widened.push_back(lanesOf(operand, 0, lanes));
      Value result = call(widened);
      SmallVector<int64_t> firstLanes = llvm::to_vector(llvm::seq<int64_t>(0, vf));
      return vector::ShuffleOp::create(b, loc, result, result, firstLanes).getResult();
    }
    SmallVector<Value> pieces;
    for (int64_t first = 0; first < vf; first += lanes) {
      SmallVector<Value> slice;
      for (Value operand : operands)
        slice.push_back(lanesOf(operand, first, lanes));
      pieces.push_back(call(slice));
    }
    // Concatenate pairwise: a shuffle of two equal vectors with every
    // index of both is their concatenation.
    while (pieces.size() > 1) {
      SmallVector<Value> joined;
      for (size_t i = 0; i < pieces.size(); i += 2) {
        int64_t width = cast<VectorType>(pieces[i].getType()).getNumElements();
        SmallVector<int64_t> both = llvm::to_vector(llvm::seq<int64_t>(0, 2 * width));
        joined.push_back(
            vector::ShuffleOp::create(b, loc, pieces[i], pieces[i + 1], both).getResult());
      }
      pieces = std::move(joined);
    }
    return pieces.front();
  }

  LogicalResult emitOp(Operation *op, Value mask) {
    LoopAnalysis &analysis = plan.analysis;
    Location loc = op->getLoc();
    if (isa<scf::YieldOp>(op))
      return success();
    if (op->getNumResults() == 1 && analysis.indexOf(op->getResult(0)))
      return success(); // materialised on demand
    if (auto load = dyn_cast<memref::LoadOp>(op)) {
      const MemoryAccess *access = accessFor(op);
      if (!access->isVector) {
        b.clone(*op, scalars);
        return success();
      }
      if (needsScalarView(load.getType()))
        return emitScalarViewLoad(loc, load, *access);
      if (Value shared = sharedLoad(loc, load, *access)) {
        vectors.map(load.getResult(), shared);
        return success();
      }
      Value view = plan.unitStrideViews.lookup(load.getMemRef());
      auto indices = accessIndices(loc, load.getIndices(), access->index);
      VectorType type = vectorType(load.getType());
      Value loaded;
      if (tailMask) {
        Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(type));
        loaded = vector::MaskedLoadOp::create(b, loc, type, view, indices, tailMask, zero);
      } else {
        loaded = vector::LoadOp::create(b, loc, type, view, indices);
      }
      vectors.map(load.getResult(), loaded);
      return success();
    }
    if (auto store = dyn_cast<memref::StoreOp>(op)) {
      const MemoryAccess *access = accessFor(op);
      Value view = plan.unitStrideViews.lookup(store.getMemRef());
      auto indices = accessIndices(loc, store.getIndices(), access->index);
      Value value;
      if (needsScalarView(store.getValue().getType())) {
        // The scalars, in memory order, through the scalar view.
        Type element = store.getValue().getType();
        view = plan.scalarViews.lookup(store.getMemRef());
        if (isComplexElement(element)) {
          auto [re, im] = complexPartsOf(store.getValue());
          value = interleave(loc, re, im);
          indices.back() = scaledIndex(loc, indices.back(), 2);
          mask = widenMask(loc, mask, 2);
        } else {
          value = arith::ExtUIOp::create(b, loc, vectorType(b.getI8Type()),
                                         vectorOf(store.getValue()));
        }
      } else {
        value = vectorOf(store.getValue());
      }
      if (deferStores) {
        deferred.push_back({value, view, mask, indices, loc});
        return success();
      }
      if (mask)
        vector::MaskedStoreOp::create(b, loc, view, indices, mask, value);
      else
        vector::StoreOp::create(b, loc, value, view, indices);
      return success();
    }
    if (auto check = dyn_cast<CheckOp>(op)) {
      Value holds = vectorOf(check.getCondition());
      if (mask)
        holds = arith::OrIOp::create(b, loc, holds, notMask(b, loc, mask));
      checksHold = andMasks(b, loc, checksHold, holds);
      return success();
    }
    if (auto branch = dyn_cast<scf::IfOp>(op)) {
      Value cond = vectorOf(branch.getCondition());
      Value thenMask = andMasks(b, loc, mask, cond);
      if (failed(emitBlock(*branch.thenBlock(), thenMask)))
        return failure();
      if (branch.elseBlock()) {
        Value elseMask = andMasks(b, loc, mask, notMask(b, loc, cond));
        if (failed(emitBlock(*branch.elseBlock(), elseMask)))
          return failure();
      }
      for (auto [i, result] : llvm::enumerate(branch.getResults()))
        selectInto(loc, result, cond, branch.thenYield().getOperand(i),
                   branch.elseYield().getOperand(i));
      return success();
    }
    if (auto part = dyn_cast<complex::ReOp>(op); part && !analysis.isUniform(part.getComplex())) {
      vectors.map(part.getResult(), complexPartsOf(part.getComplex()).first);
      return success();
    }
    if (auto part = dyn_cast<complex::ImOp>(op); part && !analysis.isUniform(part.getComplex())) {
      vectors.map(part.getResult(), complexPartsOf(part.getComplex()).second);
      return success();
    }
    if (auto create = dyn_cast<complex::CreateOp>(op);
        create && !analysis.isUniform(create.getResult())) {
      complexParts[create.getResult()] = {vectorOf(create.getReal()),
                                          vectorOf(create.getImaginary())};
      return success();
    }
    if (auto select = dyn_cast<arith::SelectOp>(op);
        select && isComplexElement(select.getType()) && !analysis.isUniform(select.getResult())) {
      selectInto(loc, select.getResult(), vectorOf(select.getCondition()),
                 select.getTrueValue(), select.getFalseValue());
      return success();
    }
    if (analysis.isUniform(op->getResult(0)) && op->getNumRegions() == 0) {
      b.clone(*op, scalars);
      return success();
    }
    if (auto name = libmvecName(op)) {
      vectors.map(op->getResult(0), libmvecCall(op, *name));
      return success();
    }
    // Elementwise: the same op on vector operands and vector result types.
    IRMapping operands;
    for (Value operand : op->getOperands())
      operands.map(operand, vectorOf(operand));
    Operation *copy = b.clone(*op, operands);
    for (Value result : copy->getResults())
      result.setType(vectorType(result.getType()));
    for (auto [from, to] : llvm::zip(op->getResults(), copy->getResults()))
      vectors.map(from, to);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Reductions: start vectors, lane-wise combine, horizontal combine
//===----------------------------------------------------------------------===//

Attribute identityOf(OpBuilder &b, const Reduction &r, Type element) {
  using F = Reduction::Family;
  if (r.isFloat) {
    auto semantics = &cast<FloatType>(element).getFloatSemantics();
    switch (r.family) {
    case F::Add:
      return b.getFloatAttr(element, APFloat::getZero(*semantics, /*Negative=*/true));
    case F::Mul:
      return b.getFloatAttr(element, APFloat::getOne(*semantics));
    case F::MinimumF:
    case F::MinNumF:
      return b.getFloatAttr(element, APFloat::getInf(*semantics));
    case F::MaximumF:
    case F::MaxNumF:
      return b.getFloatAttr(element, APFloat::getInf(*semantics, true));
    default:
      return {};
    }
  }
  unsigned width = element.getIntOrFloatBitWidth();
  switch (r.family) {
  case F::Add:
  case F::Or:
  case F::Xor:
  case F::MaxUI:
    return b.getIntegerAttr(element, APInt::getZero(width));
  case F::Mul:
    return b.getIntegerAttr(element, APInt(width, 1));
  case F::And:
  case F::MinUI:
    return b.getIntegerAttr(element, APInt::getAllOnes(width));
  case F::MinSI:
    return b.getIntegerAttr(element, APInt::getSignedMaxValue(width));
  case F::MaxSI:
    return b.getIntegerAttr(element, APInt::getSignedMinValue(width));
  default:
    return {};
  }
}

// acc ⊕ value for one reduction, on scalars or lane-wise on vectors.
Value combine(OpBuilder &b, Location loc, const Reduction &r, Value acc,
              Value value) {
  using F = Reduction::Family;
  auto reassoc = arith::FastMathFlags::reassoc | arith::FastMathFlags::contract;
  switch (r.family) {
  case F::Add:
    return r.isFloat ? arith::AddFOp::create(b, loc, acc, value, reassoc).getResult()
                     : arith::AddIOp::create(b, loc, acc, value).getResult();
  case F::Mul:
    return r.isFloat ? arith::MulFOp::create(b, loc, acc, value, reassoc).getResult()
                     : arith::MulIOp::create(b, loc, acc, value).getResult();
  case F::And: return arith::AndIOp::create(b, loc, acc, value);
  case F::Or: return arith::OrIOp::create(b, loc, acc, value);
  case F::Xor: return arith::XOrIOp::create(b, loc, acc, value);
  case F::MinSI: return arith::MinSIOp::create(b, loc, acc, value);
  case F::MaxSI: return arith::MaxSIOp::create(b, loc, acc, value);
  case F::MinUI: return arith::MinUIOp::create(b, loc, acc, value);
  case F::MaxUI: return arith::MaxUIOp::create(b, loc, acc, value);
  case F::MinimumF: return arith::MinimumFOp::create(b, loc, acc, value);
  case F::MaximumF: return arith::MaximumFOp::create(b, loc, acc, value);
  case F::MinNumF: return arith::MinNumFOp::create(b, loc, acc, value);
  case F::MaxNumF: return arith::MaxNumFOp::create(b, loc, acc, value);
  case F::SelectMinMax: {
    Value lhs = r.accIsCompareLhs ? acc : value;
    Value rhs = r.accIsCompareLhs ? value : acc;
    Value better = r.isFloat
        ? arith::CmpFOp::create(b, loc, r.floatPredicate, lhs, rhs).getResult()
        : arith::CmpIOp::create(b, loc, r.intPredicate, lhs, rhs).getResult();
    return arith::SelectOp::create(b, loc, better, value, acc);
  }
  }
  llvm_unreachable("unknown reduction family");
}

std::optional<vector::CombiningKind> horizontalKind(const Reduction &r) {
  using F = Reduction::Family;
  using K = vector::CombiningKind;
  switch (r.family) {
  case F::Add: return K::ADD;
  case F::Mul: return K::MUL;
  case F::And: return K::AND;
  case F::Or: return K::OR;
  case F::Xor: return K::XOR;
  case F::MinSI: return K::MINSI;
  case F::MaxSI: return K::MAXSI;
  case F::MinUI: return K::MINUI;
  case F::MaxUI: return K::MAXUI;
  case F::MinimumF: return K::MINIMUMF;
  case F::MaximumF: return K::MAXIMUMF;
  case F::MinNumF: return K::MINNUMF;
  case F::MaxNumF: return K::MAXNUMF;
  case F::SelectMinMax: return std::nullopt;
  }
  return std::nullopt;
}

Value startVector(OpBuilder &b, Location loc, const Reduction &r, Value init,
                  VectorType type) {
  if (r.family == Reduction::Family::SelectMinMax)
    return vector::BroadcastOp::create(b, loc, type, init); // idempotent
  return arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(type, identityOf(b, r, type.getElementType())));
}

Value horizontal(OpBuilder &b, Location loc, const Reduction &r,
                 ArrayRef<Value> accumulators, Value init, unsigned vf) {
  Value lanes = accumulators.front();
  for (Value other : accumulators.drop_front())
    lanes = combine(b, loc, r, lanes, other);
  if (auto kind = horizontalKind(r)) {
    auto flags = r.isFloat && r.family == Reduction::Family::Add
                     ? arith::FastMathFlags::reassoc
                     : arith::FastMathFlags::none;
    if (r.isFloat && r.family == Reduction::Family::Mul)
      flags = arith::FastMathFlags::reassoc;
    return vector::ReductionOp::create(b, loc, *kind, lanes, init, flags);
  }
  // In lane order with the loop's own select, so ties and NaNs behave as in
  // the scalar loop.
  Value result = init;
  for (unsigned lane = 0; lane < vf; ++lane)
    result = combine(b, loc, r, result, vector::ExtractOp::create(b, loc, lanes, lane));
  return result;
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

class Vectorize : public impl::KilnVectorizeBase<Vectorize> {
public:
  using KilnVectorizeBase::KilnVectorizeBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    TargetInfo target;
    if (auto bits = module->getAttrOfType<IntegerAttr>("kiln.vector_bits"))
      target.vectorBits = bits.getInt();
    if (auto isa = module->getAttrOfType<StringAttr>("kiln.vector_isa"))
      target.isa = isa.getValue().str();
    if (vectorBits != 0)
      target.vectorBits = vectorBits;
    // The option's value names are the one list of ISAs: the module
    // attribute (set by kilnc) must be one of them too.
    auto &isaNames = targetIsa.getParser();
    if (targetIsa != VectorIsa::FromModule)
      target.isa = isaNames.findArgStrForValue(targetIsa)->str();
    if (target.vectorBits != 128 && target.vectorBits != 256 &&
        target.vectorBits != 512) {
      module.emitError() << "kiln-vectorize: vector-bits must be 128, 256 or "
                            "512, got "
                         << target.vectorBits;
      return signalPassFailure();
    }
    SmallVector<StringRef> knownIsas;
    for (unsigned i = 0, e = isaNames.getNumOptions(); i != e; ++i)
      if (isaNames.getOption(i) != "module")
        knownIsas.push_back(isaNames.getOption(i));
    if (!llvm::is_contained(knownIsas, target.isa)) {
      module.emitError() << "kiln-vectorize: the module's kiln.vector_isa must "
                            "be one of "
                         << llvm::join(knownIsas, ", ") << ", got '"
                         << target.isa << "'";
      return signalPassFailure();
    }
    this->target = target;

    for (auto function : module.getOps<func::FuncOp>()) {
      if (function.isExternal())
        continue;
      SmallVector<Operation *> loops;
      function.walk([&](Operation *op) {
        if (isa<scf::ForOp, scf::WhileOp>(op))
          loops.push_back(op);
      });
      for (Operation *loop : loops)
        visitLoop(function, loop, module);
    }
  }

private:
  TargetInfo target;

  // Set while visiting a loop of a nest's checked copy.
  bool quiet = false;

  void remarkMissed(func::FuncOp function, Location loc, const std::string &reason) {
    if (quiet)
      return;
    remark::missed(loc, remark::RemarkOpts::name("NotVectorized")
                            .category(kRemarkCategory)
                            .function(function.getSymName()))
        << remark::reason("not vectorized: {0}", reason);
  }

  void visitLoop(func::FuncOp function, Operation *op, ModuleOp module) {
    if (op->hasAttr(kBoundsCheckedCopyAttr) || op->hasAttr(kScalarVersionAttr))
      return;
    quiet = false;
    for (Operation *at = op; at; at = at->getParentOp())
      if (at->hasAttr(kNestCheckedCopyAttr))
        quiet = true;
    if (isa<scf::WhileOp>(op)) {
      remarkMissed(function, op->getLoc(),
                   "a while loop, or a for loop that can exit early (break or "
                   "return): its trip count is unknown when it starts");
      return;
    }
    auto loop = cast<scf::ForOp>(op);
    bool hasInnerLoop = false;
    loop.getBody()->walk([&](Operation *inner) {
      if (isa<scf::ForOp, scf::WhileOp>(inner) && !inner->hasAttr(kBoundsCheckedCopyAttr))
        hasInnerLoop = true;
    });
    if (hasInnerLoop) {
      remarkMissed(function, loop.getLoc(),
                   "outer loop (Kiln vectorizes innermost loops)");
      return;
    }
    simplifyConditionals(loop);
    LoopAnalysis analysis(loop);
    if (!analysis.ok()) {
      remarkMissed(function, loop.getLoc(), analysis.refusal);
      return;
    }
    unsigned vf = target.vectorBits / analysis.widestBits;
    if (vf < 2) {
      remarkMissed(function, loop.getLoc(), "elements wider than half a vector register");
      return;
    }
    bool hasReductions = !analysis.reductions.empty();
    unsigned uf = interleave != 0 ? unsigned(interleave) : (hasReductions ? 4u : 2u);
    bool allWide = llvm::all_of(analysis.accesses, [](const MemoryAccess &a) {
      return elementBytes(cast<MemRefType>(a.memref.getType()).getElementType()) >= 4;
    });
    bool masked = tail == TailStrategy::Mask ||
                  (tail == TailStrategy::Auto && allWide && target.vectorBits >= 256);
    if (!analysis.checks.empty())
      masked = false; // a failing chunk is re-run by the scalar loop
    VectorPlan plan{analysis, vf, uf, masked, target, DenseMap<Value, Value>(), module, DenseMap<Value, Value>()};
    SmallVector<std::string> guards;
    // rewrite() erases the loop when no run-time guard keeps it as the
    // fallback: nothing below may touch `loop` after it.
    Location loopLoc = loop.getLoc();
    rewrite(plan, guards);

    std::string tailText = masked ? "masked tail" : "scalar epilogue";
    std::string text = llvm::formatv("vectorized: VF={0}, interleave={1}, {2}",
                                     vf, uf, tailText)
                           .str();
    if (!analysis.checks.empty())
      text += ", value checks per chunk";
    if (analysis.usesLibmvec)
      text += ", vector math from libmvec";
    if (!guards.empty())
      text += ", runtime checks: " + llvm::join(guards, ", ");
    if (quiet)
      return;
    remark::passed(loopLoc, remark::RemarkOpts::name("Vectorized")
                                      .category(kRemarkCategory)
                                      .function(function.getSymName()))
        << text << remark::metric("VectorizationFactor", vf)
        << remark::metric("InterleaveCount", uf)
        << remark::metric("Tail", tailText);
  }

  // `if x[i] > best: best = x[i]` reads x[i] again inside the branch and
  // so is an scf.if, not a select. In a loop that stores nothing the second
  // read equals the first; with it forwarded the branch only yields and
  // becomes selects, which the reduction analysis understands.
  static void simplifyConditionals(scf::ForOp loop) {
    bool stores = false;
    loop.getBody()->walk([&](memref::StoreOp) { stores = true; });
    if (!stores) {
      SmallVector<memref::LoadOp> topLevel;
      for (Operation &op : *loop.getBody())
        if (auto load = dyn_cast<memref::LoadOp>(op))
          topLevel.push_back(load);
      loop.getBody()->walk([&](memref::LoadOp load) {
        if (load->getBlock() == loop.getBody())
          return;
        for (memref::LoadOp earlier : topLevel)
          if (earlier.getMemRef() == load.getMemRef() &&
              earlier.getIndices() == load.getIndices() &&
              earlier->isBeforeInBlock(
                  loop.getBody()->findAncestorOpInBlock(*load))) {
            load.getResult().replaceAllUsesWith(earlier.getResult());
            return;
          }
      });
      SmallVector<memref::LoadOp> dead;
      loop.getBody()->walk([&](memref::LoadOp load) {
        if (load.getResult().use_empty() && load->getBlock() != loop.getBody())
          dead.push_back(load);
      });
      for (memref::LoadOp load : dead)
        load->erase();
    }
    SmallVector<scf::IfOp> trivial;
    loop.getBody()->walk([&](scf::IfOp branch) {
      if (branch.getNumResults() > 0 && branch.elseBlock() &&
          llvm::hasSingleElement(*branch.thenBlock()) &&
          llvm::hasSingleElement(*branch.elseBlock()))
        trivial.push_back(branch);
    });
    for (scf::IfOp branch : trivial) {
      OpBuilder b(branch);
      SmallVector<Value> selects;
      for (auto [a, c] : llvm::zip(branch.thenYield().getOperands(),
                                   branch.elseYield().getOperands()))
        selects.push_back(arith::SelectOp::create(b, branch.getLoc(),
                                                  branch.getCondition(), a, c));
      branch.replaceAllUsesWith(selects);
      branch->erase();
    }
  }

  // The guard reads only array descriptors, so in a loop nest it can be
  // computed once, not on every entry of the inner loop (matmul's j loop
  // runs n*n times a call). Its ops are pure: they move out of every
  // enclosing region whose values they do not use.
  static void hoistGuard(Operation *beforeGuard, scf::ForOp loop) {
    SmallVector<Operation *> created;
    Operation *op = beforeGuard ? beforeGuard->getNextNode() : &loop->getBlock()->front();
    for (; op && op != loop.getOperation(); op = op->getNextNode())
      created.push_back(op);
    for (Operation *guardOp : created) {
      if (!isPure(guardOp) || guardOp->getNumRegions() != 0)
        continue;
      while (Operation *parent = guardOp->getParentOp()) {
        if (isa<func::FuncOp>(parent))
          break;
        bool usesInside = llvm::any_of(guardOp->getOperands(), [&](Value value) {
          Operation *owner = value.getDefiningOp() ? value.getDefiningOp()
                                                   : value.getParentBlock()->getParentOp();
          return parent->isAncestor(owner);
        });
        if (usesInside)
          break;
        guardOp->moveBefore(parent);
      }
    }
  }

  // Stride and overlap guard, in front of the loop. Returns null when
  // nothing needs checking at run time.
  Value buildGuard(OpBuilder &b, VectorPlan &plan, SmallVector<std::string> &guards) {
    LoopAnalysis &analysis = plan.analysis;
    Location loc = analysis.loop.getLoc();
    Value guard;
    llvm::SetVector<Value> vectorArrays, allArrays, storedArrays;
    for (const MemoryAccess &access : analysis.accesses) {
      allArrays.insert(access.memref);
      if (access.isVector)
        vectorArrays.insert(access.memref);
      if (access.isStore)
        storedArrays.insert(access.memref);
    }
    bool strideChecked = false;
    for (Value memref : vectorArrays) {
      auto type = cast<MemRefType>(memref.getType());
      auto [strides, offset] = type.getStridesAndOffset();
      if (strides.back() == 1)
        continue;
      auto metadata = memref::ExtractStridedMetadataOp::create(b, loc, memref);
      Value unit = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                         metadata.getStrides().back(),
                                         constantIndex(b, loc, 1));
      guard = andMasks(b, loc, guard, unit);
      strideChecked = true;
    }
    if (strideChecked)
      guards.push_back("unit stride");
    // [lo, hi) byte ranges of each view, and whether it is empty.
    struct Range {
      Value lo, hi, empty, start;
    };
    DenseMap<Value, Range> ranges;
    auto rangeOf = [&](Value memref) -> Range {
      auto found = ranges.find(memref);
      if (found != ranges.end())
        return found->second;
      auto type = cast<MemRefType>(memref.getType());
      int64_t bytes = elementBytes(type.getElementType());
      auto metadata = memref::ExtractStridedMetadataOp::create(b, loc, memref);
      Value pointer = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, memref);
      Value zero = constantIndex(b, loc, 0), one = constantIndex(b, loc, 1);
      Value low = metadata.getOffset(), high = metadata.getOffset();
      Value empty = arith::ConstantOp::create(b, loc, b.getBoolAttr(false));
      for (int64_t d = 0; d < type.getRank(); ++d) {
        Value size = metadata.getSizes()[d], stride = metadata.getStrides()[d];
        Value extent = arith::MulIOp::create(
            b, loc, arith::SubIOp::create(b, loc, size, one), stride);
        low = arith::AddIOp::create(b, loc, low, arith::MinSIOp::create(b, loc, extent, zero));
        high = arith::AddIOp::create(b, loc, high, arith::MaxSIOp::create(b, loc, extent, zero));
        empty = arith::OrIOp::create(
            b, loc, empty,
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, size, zero));
      }
      high = arith::AddIOp::create(b, loc, high, one);
      Value scale = constantIndex(b, loc, bytes);
      Range range{
          arith::AddIOp::create(b, loc, pointer, arith::MulIOp::create(b, loc, low, scale)),
          arith::AddIOp::create(b, loc, pointer, arith::MulIOp::create(b, loc, high, scale)),
          empty,
          arith::AddIOp::create(b, loc, pointer,
                                arith::MulIOp::create(b, loc, metadata.getOffset(), scale))};
      ranges[memref] = range;
      return range;
    };
    bool overlapChecked = false;
    ArrayRef<Value> arrays = allArrays.getArrayRef();
    for (auto [i, stored] : llvm::enumerate(arrays)) {
      for (Value other : arrays.drop_front(i + 1)) {
        if (!storedArrays.contains(stored) && !storedArrays.contains(other))
          continue;
        Range a = rangeOf(stored), c = rangeOf(other);
        using P = arith::CmpIPredicate;
        Value disjoint = arith::OrIOp::create(
            b, loc, arith::CmpIOp::create(b, loc, P::ule, a.hi, c.lo),
            arith::CmpIOp::create(b, loc, P::ule, c.hi, a.lo));
        disjoint = arith::OrIOp::create(
            b, loc, disjoint, arith::OrIOp::create(b, loc, a.empty, c.empty));
        if (analysis.identicalViewsSafe(stored, other)) {
          Value same = arith::AndIOp::create(
              b, loc, arith::CmpIOp::create(b, loc, P::eq, a.start, c.start),
              arith::AndIOp::create(b, loc,
                                    arith::CmpIOp::create(b, loc, P::eq, a.lo, c.lo),
                                    arith::CmpIOp::create(b, loc, P::eq, a.hi, c.hi)));
          disjoint = arith::OrIOp::create(b, loc, disjoint, same);
        }
        guard = andMasks(b, loc, guard, disjoint);
        overlapChecked = true;
      }
    }
    if (overlapChecked)
      guards.push_back("no overlap between written and read arrays");
    return guard;
  }

  void rewrite(VectorPlan &plan, SmallVector<std::string> &guards) {
    LoopAnalysis &analysis = plan.analysis;
    scf::ForOp loop = analysis.loop;
    Location loc = loop.getLoc();
    OpBuilder b(loop);
    Operation *beforeGuard = loop->getPrevNode();
    Value guard = buildGuard(b, plan, guards);
    hoistGuard(beforeGuard, loop);

    scf::IfOp versions;
    if (guard) {
      versions = scf::IfOp::create(b, loc, loop.getResultTypes(), guard, true);
      b.setInsertionPointToStart(versions.thenBlock());
    }
    // The scalar loop is kept as the epilogue or guard fallback; mark it so
    // it is not visited again and gets no second verdict.
    loop->setAttr(kScalarVersionAttr, b.getUnitAttr());

    for (const MemoryAccess &access : analysis.accesses) {
      if (!access.isVector || plan.unitStrideViews.count(access.memref))
        continue;
      auto type = cast<MemRefType>(access.memref.getType());
      auto [strides, offset] = type.getStridesAndOffset();
      if (strides.back() == 1) {
        plan.unitStrideViews[access.memref] = access.memref;
        continue;
      }
      strides.back() = 1;
      auto layout = StridedLayoutAttr::get(b.getContext(), offset, strides);
      auto unitType = MemRefType::get(type.getShape(), type.getElementType(), layout,
                                      type.getMemorySpace());
      Value view = access.memref;
      if (unitType != type) {
        // A reinterpret_cast rather than memref.cast: folders would push
        // a cast to a more static layout back into the vector.load.
        // Static sizes, strides and offset stay static: the cast's operands
        // must agree with its result type (a constant-size allocation has
        // a static shape by now).
        auto metadata = memref::ExtractStridedMetadataOp::create(b, loc, access.memref);
        auto staticOr = [&](int64_t known, Value dynamic) -> OpFoldResult {
          if (ShapedType::isDynamic(known))
            return dynamic;
          return b.getIndexAttr(known);
        };
        SmallVector<OpFoldResult> sizes, unitStrides;
        for (auto [dim, size] : llvm::enumerate(metadata.getSizes()))
          sizes.push_back(staticOr(type.getDimSize(dim), size));
        for (auto [dim, stride] : llvm::enumerate(metadata.getStrides().drop_back()))
          unitStrides.push_back(staticOr(strides[dim], stride));
        unitStrides.push_back(b.getIndexAttr(1));
        view = memref::ReinterpretCastOp::create(b, loc, unitType, access.memref,
                                                 staticOr(offset, metadata.getOffset()),
                                                 sizes, unitStrides);
      }
      plan.unitStrideViews[access.memref] = view;
    }
    for (auto [memref, view] : plan.unitStrideViews)
      if (needsScalarView(cast<MemRefType>(memref.getType()).getElementType()))
        plan.scalarViews[memref] = ScalarViewOp::create(b, loc, view);

    Value lower = loop.getLowerBound(), upper = loop.getUpperBound();
    Type counter = loop.getInductionVar().getType();
    auto constantI64 = [counter](OpBuilder &builder, Location at, int64_t value) {
      return constantOfType(builder, at, counter, value);
    };
    Value zero = constantI64(b, loc, 0);
    Value trips = arith::MaxSIOp::create(
        b, loc, arith::SubIOp::create(b, loc, upper, lower), zero);
    int64_t chunk = int64_t(plan.vf) * plan.interleave;
    Value mainEnd = arith::SubIOp::create(
        b, loc, trips, arith::RemSIOp::create(b, loc, trips, constantI64(b, loc, chunk)));

    SmallVector<Value> inits(loop.getInitArgs());
    SmallVector<VectorType> accTypes;
    SmallVector<Value> accStart;
    for (auto [r, init] : llvm::zip(analysis.reductions, inits)) {
      VectorType type = VectorType::get({plan.vf}, init.getType());
      accTypes.push_back(type);
      accStart.push_back(startVector(b, loc, r, init, type));
    }
    unsigned numAcc = analysis.reductions.size();
    SmallVector<Value> mainInits;
    for (unsigned u = 0; u < plan.interleave; ++u)
      mainInits.append(accStart);

    // One iteration of the main loop: `interleave` copies of the body.
    auto emitCopies = [&](OpBuilder &builder, Value offset, ValueRange accs,
                          bool deferStores, Value &checksHold,
                          SmallVector<VectorBodyEmitter::DeferredStore> &deferred) {
      SmallVector<Value> next;
      for (unsigned u = 0; u < plan.interleave; ++u) {
        Value base = arith::AddIOp::create(
            builder, loc, arith::AddIOp::create(builder, loc, lower, offset),
            constantI64(builder, loc, int64_t(u) * plan.vf));
        VectorBodyEmitter body(plan, builder, base, Value(),
                               accs.slice(u * numAcc, numAcc));
        body.deferStores = deferStores;
        (void)body.emit();
        llvm::append_range(next, body.yieldedAccumulators());
        checksHold = andMasks(builder, loc, checksHold, body.checksPass());
        llvm::append_range(deferred, body.deferredStores());
      }
      return next;
    };

    SmallVector<Value> mainResults;
    Value resumeOffset = mainEnd;
    if (analysis.checks.empty()) {
      auto mainLoop = scf::ForOp::create(
          b, loc, zero, mainEnd, constantI64(b, loc, chunk), mainInits,
          [&](OpBuilder &builder, Location, Value offset, ValueRange accs) {
            Value unusedChecks;
            SmallVector<VectorBodyEmitter::DeferredStore> unusedStores;
            auto next = emitCopies(builder, offset, accs, false, unusedChecks,
                                   unusedStores);
            scf::YieldOp::create(builder, loc, next);
          });
      mainResults = mainLoop.getResults();
    } else {
      // scf.while over (offset, failed, accumulators...): a chunk whose
      // checks fail commits nothing and ends the vector loop there.
      SmallVector<Value> state{zero, arith::ConstantOp::create(b, loc, b.getBoolAttr(false))};
      state.append(mainInits);
      SmallVector<Type> stateTypes;
      for (Value v : state)
        stateTypes.push_back(v.getType());
      SmallVector<Location> stateLocs(state.size(), loc);
      auto whileOp = scf::WhileOp::create(b, loc, stateTypes, state, nullptr, nullptr);
      auto blockOf = [&](Region &region) {
        OpBuilder::InsertionGuard g(b);
        return region.empty() ? b.createBlock(&region, {}, stateTypes, stateLocs)
                              : &region.front();
      };
      Block *before = blockOf(whileOp.getBefore());
      {
        OpBuilder::InsertionGuard g(b);
        b.setInsertionPointToStart(before);
        Value more = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                           before->getArgument(0), mainEnd);
        Value go = arith::AndIOp::create(b, loc, more,
                                         notScalar(b, loc, before->getArgument(1)));
        scf::ConditionOp::create(b, loc, go, before->getArguments());
      }
      Block *after = blockOf(whileOp.getAfter());
      {
        OpBuilder::InsertionGuard g(b);
        b.setInsertionPointToStart(after);
        Value offset = after->getArgument(0);
        ValueRange accs = after->getArguments().drop_front(2);
        Value checksHold;
        SmallVector<VectorBodyEmitter::DeferredStore> deferred;
        auto next = emitCopies(b, offset, accs, true, checksHold, deferred);
        Value pass = vector::ReductionOp::create(b, loc, vector::CombiningKind::AND,
                                                 checksHold);
        auto commit = scf::IfOp::create(b, loc, TypeRange{}, pass, false);
        {
          OpBuilder::InsertionGuard g2(b);
          b.setInsertionPointToStart(commit.thenBlock());
          for (auto &store : deferred) {
            if (store.mask)
              vector::MaskedStoreOp::create(b, store.loc, store.view, store.indices,
                                            store.mask, store.value);
            else
              vector::StoreOp::create(b, store.loc, store.value, store.view,
                                      store.indices);
          }
        }
        SmallVector<Value> nextState{
            arith::SelectOp::create(
                b, loc, pass,
                arith::AddIOp::create(b, loc, offset, constantI64(b, loc, chunk)),
                offset),
            notScalar(b, loc, pass)};
        for (auto [n, old] : llvm::zip(next, accs))
          nextState.push_back(arith::SelectOp::create(b, loc, pass, n, old));
        scf::YieldOp::create(b, loc, nextState);
      }
      b.setInsertionPointAfter(whileOp);
      resumeOffset = whileOp.getResult(0);
      mainResults = SmallVector<Value>(whileOp.getResults().drop_front(2));
    }

    // Fold the interleaved accumulators into one vector per reduction.
    SmallVector<Value> accs;
    for (unsigned k = 0; k < numAcc; ++k) {
      Value lanes = mainResults[k];
      for (unsigned u = 1; u < plan.interleave; ++u)
        lanes = combine(b, loc, analysis.reductions[k], lanes, mainResults[u * numAcc + k]);
      accs.push_back(lanes);
    }

    SmallVector<Value> finals;
    if (plan.maskedTail) {
      int64_t vf = plan.vf;
      auto tailLoop = scf::ForOp::create(
          b, loc, mainEnd, trips, constantI64(b, loc, vf), accs,
          [&](OpBuilder &builder, Location, Value offset, ValueRange current) {
            Value left = arith::SubIOp::create(builder, loc, trips, offset);
            if (!left.getType().isIndex())
              left = arith::IndexCastOp::create(builder, loc, builder.getIndexType(), left);
            Value mask = vector::CreateMaskOp::create(
                builder, loc, VectorType::get({plan.vf}, builder.getI1Type()),
                ValueRange{left});
            Value base = arith::AddIOp::create(builder, loc, lower, offset);
            VectorBodyEmitter body(plan, builder, base, mask, current);
            (void)body.emit();
            SmallVector<Value> next;
            for (auto [n, old] : llvm::zip(body.yieldedAccumulators(), current))
              next.push_back(arith::SelectOp::create(builder, loc, mask, n, old));
            scf::YieldOp::create(builder, loc, next);
          });
      for (unsigned k = 0; k < numAcc; ++k)
        finals.push_back(horizontal(b, loc, analysis.reductions[k],
                                    {tailLoop.getResult(k)}, inits[k], plan.vf));
    } else {
      SmallVector<Value> reduced;
      for (unsigned k = 0; k < numAcc; ++k)
        reduced.push_back(horizontal(b, loc, analysis.reductions[k], {accs[k]},
                                     inits[k], plan.vf));
      Value resume = arith::AddIOp::create(b, loc, lower, resumeOffset);
      IRMapping mapping;
      auto epilogue = cast<scf::ForOp>(b.clone(*loop, mapping));
      epilogue.getLowerBoundMutable().assign(resume);
      epilogue.getInitArgsMutable().assign(reduced);
      finals = SmallVector<Value>(epilogue.getResults());
    }

    // Lanes that tie between -0.0 and 0.0 may keep another zero than the
    // scalar loop, which keeps the first one it met. Only a zero result can
    // tell; then the (store-free) scalar loop recomputes it exactly.
    Value zeroTie;
    for (auto [r, value] : llvm::zip(analysis.reductions, finals)) {
      if (r.family != Reduction::Family::SelectMinMax || !r.isFloat)
        continue;
      Value zeroValue = arith::ConstantOp::create(b, loc, b.getZeroAttr(value.getType()));
      Value isZero = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, value, zeroValue);
      zeroTie = zeroTie ? arith::OrIOp::create(b, loc, zeroTie, isZero).getResult() : isZero;
    }
    if (zeroTie) {
      auto exact = scf::IfOp::create(b, loc, loop.getResultTypes(), zeroTie, true);
      {
        OpBuilder::InsertionGuard g(b);
        b.setInsertionPointToStart(exact.thenBlock());
        IRMapping mapping;
        Operation *rerun = b.clone(*loop, mapping);
        scf::YieldOp::create(b, loc, rerun->getResults());
        b.setInsertionPointToStart(exact.elseBlock());
        scf::YieldOp::create(b, loc, finals);
      }
      finals = SmallVector<Value>(exact.getResults());
    }

    if (versions) {
      bool hasResults = !loop.getResultTypes().empty();
      if (hasResults)
        scf::YieldOp::create(b, loc, finals);
      loop->replaceAllUsesWith(versions.getResults());
      if (hasResults) {
        b.setInsertionPointToStart(versions.elseBlock());
        scf::YieldOp::create(b, loc, loop.getResults());
      }
      loop->moveBefore(versions.elseBlock()->getTerminator());
    } else {
      loop->replaceAllUsesWith(finals);
      loop->erase();
    }
  }

  static Value notScalar(OpBuilder &b, Location loc, Value flag) {
    return arith::XOrIOp::create(b, loc, flag,
                                 arith::ConstantOp::create(b, loc, b.getBoolAttr(true)));
  }
};

} // namespace
} // namespace kiln
