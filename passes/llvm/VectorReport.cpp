// kiln-vector-report: how much of a function's computation runs in SIMD
// lanes, per function, loop, basic block, source line and instruction. The
// metric and the rules for what counts as work are in docs/architecture.md
// ("Vectorization report"); the JSON keys are fixed by the schema
// "kiln-vector-report/1", which the Python reporter reads.
#include "passes/llvm/KilnLLVMPasses.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Analysis/BlockFrequencyInfo.h"
#include "llvm/Analysis/BranchProbabilityInfo.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/Analysis/TargetTransformInfo.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"

#include <algorithm>
#include <cmath>
#include <map>

using namespace llvm;

namespace kiln {
namespace {

constexpr StringLiteral passName = "kiln-vector-report";

enum class OpClass {
  FPArith,
  IntArith,
  Compare,
  Select,
  Math,
  Load,
  Store,
  MaskedMemory,
  GatherScatter,
  Shuffle,
  Other,
};
constexpr unsigned opClassCount = static_cast<unsigned>(OpClass::Other) + 1;

StringRef className(OpClass opClass) {
  static constexpr StringLiteral names[opClassCount] = {
      "fp-arith",      "int-arith",      "compare", "select",
      "math",          "load",           "store",   "masked-memory",
      "gather-scatter", "shuffle",       "other"};
  return names[static_cast<unsigned>(opClass)];
}

enum class Role {
  Work,
  // Integer computation: work only when its value reaches data (see
  // DataFlow below); otherwise address or control arithmetic.
  WorkIfData,
  Overhead,
  NotWork,
};

struct Kind {
  OpClass opClass = OpClass::Other;
  Role role = Role::NotWork;
  // Vector forms the x86 backend expands into one libm call per element.
  bool libmPerElement = false;
};

bool isPointerLike(const Type *type) {
  return type->getScalarType()->isPointerTy();
}

// libm entry points, without the f/l suffix of the float and long double
// variants.
const StringSet<> &libmFunctions() {
  static const StringSet<> names = {
      "sqrt",   "cbrt",     "exp",       "exp2",      "exp10",  "expm1",
      "log",    "log2",     "log10",     "log1p",     "logb",   "ilogb",
      "pow",    "sin",      "cos",       "tan",       "asin",   "acos",
      "atan",   "atan2",    "sinh",      "cosh",      "tanh",   "asinh",
      "acosh",  "atanh",    "hypot",     "fmod",      "remainder",
      "fabs",   "floor",    "ceil",      "trunc",     "round",  "rint",
      "nearbyint", "lround", "llround",  "lrint",     "llrint", "fmin",
      "fmax",   "fdim",     "fma",       "copysign",  "erf",    "erfc",
      "tgamma", "lgamma",   "ldexp",     "frexp",     "modf",   "scalbn",
      "nextafter", "sincos"};
  return names;
}

bool isLibmName(StringRef name) {
  if (libmFunctions().contains(name))
    return true;
  return (name.consume_back("f") || name.consume_back("l")) &&
         libmFunctions().contains(name);
}

// Vector-function ABI names (`_ZGVdN4v_sin`, libmvec and -fveclib) are
// already SIMD code.
bool isVectorLibmName(StringRef name) {
  if (!name.consume_front("_ZGV"))
    return false;
  size_t underscore = name.find('_');
  return underscore != StringRef::npos &&
         isLibmName(name.drop_front(underscore + 1));
}

Kind classifyIntrinsic(const IntrinsicInst &intrinsic) {
  switch (intrinsic.getIntrinsicID()) {
  case Intrinsic::masked_load:
  case Intrinsic::masked_store:
  case Intrinsic::masked_expandload:
  case Intrinsic::masked_compressstore:
    return {OpClass::MaskedMemory, Role::Work};
  case Intrinsic::masked_gather:
  case Intrinsic::masked_scatter:
    return {OpClass::GatherScatter, Role::Work};
  // x86 has instructions (or short vector sequences) for these.
  case Intrinsic::sqrt:
  case Intrinsic::fma:
  case Intrinsic::fmuladd:
  case Intrinsic::fabs:
  case Intrinsic::floor:
  case Intrinsic::ceil:
  case Intrinsic::trunc:
  case Intrinsic::rint:
  case Intrinsic::nearbyint:
  case Intrinsic::round:
  case Intrinsic::roundeven:
  case Intrinsic::minnum:
  case Intrinsic::maxnum:
  case Intrinsic::minimum:
  case Intrinsic::maximum:
  case Intrinsic::minimumnum:
  case Intrinsic::maximumnum:
  case Intrinsic::copysign:
  case Intrinsic::canonicalize:
  case Intrinsic::is_fpclass:
  case Intrinsic::lrint:
  case Intrinsic::llrint:
    return {OpClass::Math, Role::Work};
  // With no vector math library the backend calls libm once per element.
  case Intrinsic::exp:
  case Intrinsic::exp2:
  case Intrinsic::exp10:
  case Intrinsic::log:
  case Intrinsic::log2:
  case Intrinsic::log10:
  case Intrinsic::sin:
  case Intrinsic::cos:
  case Intrinsic::tan:
  case Intrinsic::asin:
  case Intrinsic::acos:
  case Intrinsic::atan:
  case Intrinsic::atan2:
  case Intrinsic::sinh:
  case Intrinsic::cosh:
  case Intrinsic::tanh:
  case Intrinsic::pow:
  case Intrinsic::powi:
  case Intrinsic::ldexp:
  case Intrinsic::frexp:
  case Intrinsic::modf:
  case Intrinsic::sincos:
  case Intrinsic::sincospi:
  case Intrinsic::lround:
  case Intrinsic::llround:
    return {OpClass::Math, Role::Work, /*libmPerElement=*/true};
  case Intrinsic::smax:
  case Intrinsic::smin:
  case Intrinsic::umax:
  case Intrinsic::umin:
  case Intrinsic::abs:
  case Intrinsic::ctpop:
  case Intrinsic::ctlz:
  case Intrinsic::cttz:
  case Intrinsic::bswap:
  case Intrinsic::bitreverse:
  case Intrinsic::fshl:
  case Intrinsic::fshr:
  case Intrinsic::sadd_with_overflow:
  case Intrinsic::uadd_with_overflow:
  case Intrinsic::ssub_with_overflow:
  case Intrinsic::usub_with_overflow:
  case Intrinsic::smul_with_overflow:
  case Intrinsic::umul_with_overflow:
  case Intrinsic::sadd_sat:
  case Intrinsic::uadd_sat:
  case Intrinsic::ssub_sat:
  case Intrinsic::usub_sat:
  case Intrinsic::sshl_sat:
  case Intrinsic::ushl_sat:
  case Intrinsic::scmp:
  case Intrinsic::ucmp:
  case Intrinsic::vector_reduce_add:
  case Intrinsic::vector_reduce_mul:
  case Intrinsic::vector_reduce_and:
  case Intrinsic::vector_reduce_or:
  case Intrinsic::vector_reduce_xor:
  case Intrinsic::vector_reduce_smax:
  case Intrinsic::vector_reduce_smin:
  case Intrinsic::vector_reduce_umax:
  case Intrinsic::vector_reduce_umin:
    return {OpClass::IntArith, Role::WorkIfData};
  case Intrinsic::vector_reduce_fadd:
  case Intrinsic::vector_reduce_fmul:
  case Intrinsic::vector_reduce_fmax:
  case Intrinsic::vector_reduce_fmin:
  case Intrinsic::vector_reduce_fmaximum:
  case Intrinsic::vector_reduce_fminimum:
    return {OpClass::FPArith, Role::Work};
  default:
    break;
  }
  // Families with one intrinsic per arity.
  StringRef name = intrinsic.getCalledFunction()->getName();
  if (name.starts_with("llvm.vector.interleave") ||
      name.starts_with("llvm.vector.deinterleave") ||
      name.starts_with("llvm.vector.reverse") ||
      name.starts_with("llvm.vector.splice") ||
      name.starts_with("llvm.vector.insert") ||
      name.starts_with("llvm.vector.extract"))
    return {OpClass::Shuffle, Role::Overhead};
  return {};
}

Kind classify(const Instruction &inst) {
  if (auto *binary = dyn_cast<BinaryOperator>(&inst)) {
    if (!binary->getType()->isFPOrFPVectorTy())
      return {OpClass::IntArith, Role::WorkIfData};
    // There is no vector fmod: frem on vectors becomes one call per lane.
    return {OpClass::FPArith, Role::Work,
            binary->getOpcode() == Instruction::FRem};
  }
  if (isa<UnaryOperator>(inst))
    return {OpClass::FPArith, Role::Work};
  if (auto *cast = dyn_cast<CastInst>(&inst)) {
    switch (cast->getOpcode()) {
    case Instruction::FPToUI:
    case Instruction::FPToSI:
    case Instruction::UIToFP:
    case Instruction::SIToFP:
    case Instruction::FPTrunc:
    case Instruction::FPExt:
      return {OpClass::FPArith, Role::Work};
    case Instruction::Trunc:
    case Instruction::ZExt:
    case Instruction::SExt:
      return {OpClass::IntArith, Role::WorkIfData};
    default:
      return {};
    }
  }
  if (isa<FCmpInst>(inst))
    return {OpClass::Compare, Role::Work};
  if (isa<ICmpInst>(inst))
    return {OpClass::Compare, Role::WorkIfData};
  if (isa<SelectInst>(inst)) {
    if (inst.getType()->isFPOrFPVectorTy())
      return {OpClass::Select, Role::Work};
    if (isPointerLike(inst.getType()))
      return {OpClass::Select, Role::NotWork};
    return {OpClass::Select, Role::WorkIfData};
  }
  if (isa<LoadInst>(inst)) {
    if (isPointerLike(inst.getType()))
      return {OpClass::Load, Role::NotWork};
    if (inst.getType()->isFPOrFPVectorTy())
      return {OpClass::Load, Role::Work};
    // Integers loaded only to compute addresses (strides and offsets of an
    // array descriptor, indices of an indirect access) are addressing.
    return {OpClass::Load, Role::WorkIfData};
  }
  if (auto *store = dyn_cast<StoreInst>(&inst))
    return {OpClass::Store, isPointerLike(store->getValueOperand()->getType())
                                ? Role::NotWork
                                : Role::Work};
  if (isa<ShuffleVectorInst, InsertElementInst, ExtractElementInst>(inst))
    return {OpClass::Shuffle, Role::Overhead};
  if (auto *intrinsic = dyn_cast<IntrinsicInst>(&inst))
    return classifyIntrinsic(*intrinsic);
  if (auto *call = dyn_cast<CallBase>(&inst))
    if (const Function *callee = call->getCalledFunction())
      if (isLibmName(callee->getName()) || isVectorLibmName(callee->getName()))
        return {OpClass::Math, Role::Work};
  return {};
}

bool isMaskedMemory(const Instruction &inst) {
  Kind kind = classify(inst);
  return kind.opClass == OpClass::MaskedMemory ||
         kind.opClass == OpClass::GatherScatter;
}

// The values that are data: what is stored, returned, passed to a call or
// combined with floating-point work, followed backwards through integer
// operations, phis and selects. Walking stops at pointers, so GEP indices,
// load/store addresses, branch conditions and the masks of masked memory
// operations are not data unless something else also consumes them as
// data. An integer operation outside this set is address or control
// arithmetic (array indexing, induction updates, trip counts, loop
// compares) and is not work.
class DataFlow {
public:
  explicit DataFlow(const Function &function) {
    SmallVector<const Instruction *> worklist;
    for (const BasicBlock &block : function)
      for (const Instruction &inst : block)
        if (consumesData(inst))
          pushOperands(inst, worklist);
    while (!worklist.empty()) {
      const Instruction *inst = worklist.pop_back_val();
      if (data.insert(inst).second)
        pushOperands(*inst, worklist);
    }
  }

  bool isData(const Instruction &inst) const { return data.contains(&inst); }

private:
  DenseSet<const Instruction *> data;

  static bool consumesData(const Instruction &inst) {
    if (isa<StoreInst, ReturnInst>(inst))
      return true;
    if (auto *call = dyn_cast<CallBase>(&inst))
      if (!isa<IntrinsicInst>(call))
        return true;
    return classify(inst).role == Role::Work;
  }

  static void pushOperands(const Instruction &inst,
                           SmallVectorImpl<const Instruction *> &worklist) {
    bool skipMasks = isMaskedMemory(inst);
    for (const Value *operand : inst.operand_values()) {
      auto *source = dyn_cast<Instruction>(operand);
      if (!source || isPointerLike(source->getType()))
        continue;
      if (skipMasks && source->getType()->isVectorTy() &&
          source->getType()->getScalarType()->isIntegerTy(1))
        continue;
      worklist.push_back(source);
    }
  }
};

// The value whose shape says how many elements an operation processes.
Type *measuredType(const Instruction &inst) {
  if (auto *store = dyn_cast<StoreInst>(&inst))
    return store->getValueOperand()->getType();
  if (isa<CmpInst>(inst))
    return inst.getOperand(0)->getType();
  if (auto *call = dyn_cast<CallBase>(&inst)) {
    // Reductions and stores: the vector they consume.
    bool reduces = false;
    if (auto *intrinsic = dyn_cast<IntrinsicInst>(call))
      reduces = intrinsic->getCalledFunction()->getName().starts_with(
          "llvm.vector.reduce.");
    if (call->getType()->isVoidTy() || reduces)
      for (const Value *argument : call->args())
        if (argument->getType()->isVectorTy())
          return argument->getType();
    Type *result = call->getType();
    // frexp, modf, sincos and the overflow intrinsics return pairs.
    if (auto *pair = dyn_cast<StructType>(result))
      if (pair->getNumElements() > 0)
        return pair->getElementType(0);
    return result;
  }
  return inst.getType();
}

unsigned elementCount(const Type *type) {
  if (auto *vector = dyn_cast<VectorType>(type))
    return vector->getElementCount().getKnownMinValue();
  return 1;
}

unsigned elementBits(Type *type, const DataLayout &layout) {
  Type *scalar = type->getScalarType();
  if (!scalar->isSized())
    return 0;
  return layout.getTypeSizeInBits(scalar).getKnownMinValue();
}

struct OpFacts {
  Kind kind;
  bool work = false;
  // Executes in SIMD lanes: a vector of two or more elements that the
  // backend does not split into per-element calls.
  bool vector = false;
  unsigned elements = 1;
  unsigned bits = 0;
};

OpFacts describe(const Instruction &inst, const DataFlow &dataFlow,
                 const DataLayout &layout) {
  OpFacts facts;
  facts.kind = classify(inst);
  facts.work = facts.kind.role == Role::Work ||
               (facts.kind.role == Role::WorkIfData && dataFlow.isData(inst));
  Type *type = measuredType(inst);
  facts.elements = elementCount(type);
  facts.bits = elementBits(type, layout);
  // A conversion occupies lanes as wide as its wider side.
  if (auto *cast = dyn_cast<CastInst>(&inst))
    facts.bits = std::max(facts.bits,
                          elementBits(cast->getSrcTy(), layout));
  facts.vector = facts.elements >= 2 && !facts.kind.libmPerElement;
  return facts;
}

// Twelve significant digits: far more than a frequency estimate carries,
// and few enough that 0.5 prints as 0.5 rather than 0.49999999999999994.
double rounded(double value) {
  if (value == 0 || !std::isfinite(value))
    return value;
  double scale = std::pow(10.0, 11 - std::floor(std::log10(std::fabs(value))));
  return std::round(value * scale) / scale;
}

// Sums for one scope (function, loop, block or line). Elements are weighted
// by their block's frequency relative to the function entry.
struct Tally {
  double vectorElements = 0;
  double scalarElements = 0;
  double usedLaneBits = 0;
  double registerBits = 0;
  int64_t vectorOps = 0;
  int64_t scalarOps = 0;
  int64_t overheadOps = 0;

  void add(const OpFacts &facts, double weight, unsigned vectorRegisterBits) {
    if (facts.kind.role == Role::Overhead) {
      ++overheadOps;
      return;
    }
    if (!facts.work)
      return;
    double elements = facts.elements * weight;
    if (!facts.vector) {
      ++scalarOps;
      scalarElements += elements;
      return;
    }
    ++vectorOps;
    vectorElements += elements;
    usedLaneBits += elements * facts.bits;
    // An operation wider than one register is split into several; each
    // register it occupies counts, so a full <8 x double> on AVX2 is 1.0.
    double width = static_cast<double>(facts.elements) * facts.bits;
    double registers =
        vectorRegisterBits
            ? std::max(1.0, std::ceil(width / vectorRegisterBits))
            : 0.0;
    registerBits += registers * vectorRegisterBits * weight;
  }

  void merge(const Tally &other) {
    vectorElements += other.vectorElements;
    scalarElements += other.scalarElements;
    usedLaneBits += other.usedLaneBits;
    registerBits += other.registerBits;
    vectorOps += other.vectorOps;
    scalarOps += other.scalarOps;
    overheadOps += other.overheadOps;
  }

  json::Value coverage() const {
    double total = vectorElements + scalarElements;
    if (total <= 0)
      return nullptr;
    return rounded(vectorElements / total);
  }

  json::Value laneUtilization() const {
    if (registerBits <= 0)
      return nullptr;
    return rounded(usedLaneBits / registerBits);
  }
};

std::string displayPath(const DIScope *scope) {
  if (!scope)
    return "";
  StringRef file = scope->getFilename();
  StringRef directory = scope->getDirectory();
  if (file.empty() || directory.empty() || sys::path::is_absolute(file))
    return file.str();
  SmallString<128> path(directory);
  sys::path::append(path, file);
  return std::string(path);
}

// The instruction's own location: code inlined from a kernel keeps the
// kernel's line rather than the call site's.
const DILocation *ownLocation(const Instruction &inst) {
  return inst.getDebugLoc().get();
}

std::string opcodeText(const Instruction &inst) {
  if (auto *call = dyn_cast<CallBase>(&inst)) {
    if (const Function *callee = call->getCalledFunction())
      return ("call " + callee->getName()).str();
    return "call";
  }
  return inst.getOpcodeName();
}

unsigned featureRegisterBits(const Function &function) {
  bool avx = false, avx512 = false;
  SmallVector<StringRef> features;
  function.getFnAttribute("target-features")
      .getValueAsString()
      .split(features, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (StringRef feature : features) {
    bool enabled = feature.consume_front("+");
    if (!enabled && !feature.consume_front("-"))
      continue;
    if (feature == "avx512f")
      avx512 = enabled;
    else if (feature == "avx")
      avx = enabled;
    // AVX2 implies AVX; turning AVX2 off leaves AVX.
    else if (feature == "avx2" && enabled)
      avx = true;
  }
  unsigned bits = avx512 ? 512 : avx ? 256 : 128;
  // As the x86 backend does, a preferred width caps what it vectorizes to.
  unsigned preferred = 0;
  if (!function.getFnAttribute("prefer-vector-width")
           .getValueAsString()
           .getAsInteger(10, preferred) &&
      preferred >= 128)
    bits = std::min(bits, preferred);
  return bits;
}

class FunctionReport {
public:
  FunctionReport(Function &function, unsigned vectorRegisterBits)
      : function(function), registerBits(vectorRegisterBits),
        layout(function.getDataLayout()), dataFlow(function),
        dominators(function), loops(dominators), postDominators(function),
        libraryImpl(function.getParent()->getTargetTriple()),
        library(libraryImpl, &function),
        probabilities(function, loops, &library, &dominators,
                      &postDominators),
        frequencies(function, probabilities, loops) {
    unsigned position = 0;
    for (BasicBlock &block : function) {
      blockNames[&block] = block.hasName() ? block.getName().str()
                                           : "bb" + std::to_string(position);
      ++position;
    }
  }

  json::Object build() {
    double entryFrequency = static_cast<double>(
        frequencies.getEntryFreq().getFrequency());
    json::Array blockRecords, instructionRecords, scalarizedCalls;
    Tally total;
    DenseMap<const BasicBlock *, Tally> blockTallies;
    std::map<std::pair<std::string, unsigned>, Tally> lineTallies;

    for (BasicBlock &block : function) {
      double frequency =
          entryFrequency > 0
              ? frequencies.getBlockFreq(&block).getFrequency() / entryFrequency
              : 0.0;
      Tally &blockTally = blockTallies[&block];
      unsigned counts[opClassCount] = {};
      unsigned firstLine = 0;
      for (Instruction &inst : block) {
        const DILocation *location = ownLocation(inst);
        unsigned line = location ? location->getLine() : 0;
        if (!firstLine)
          firstLine = line;
        OpFacts facts = describe(inst, dataFlow, layout);
        ++counts[static_cast<unsigned>(facts.kind.opClass)];
        blockTally.add(facts, frequency, registerBits);
        if (line)
          lineTallies[{displayPath(location->getScope()), line}].add(
              facts, frequency, registerBits);
        if (facts.work && facts.elements >= 2 && facts.kind.libmPerElement)
          scalarizedCalls.push_back(json::Object{
              {"line", static_cast<int64_t>(line)},
              {"callee", calleeText(inst)},
              {"elements", static_cast<int64_t>(facts.elements)}});
        // Phis, branches, GEPs and the like would only bury the operations.
        if (facts.kind.opClass != OpClass::Other)
          instructionRecords.push_back(json::Object{
              {"block", blockNames[&block]},
              // the file of the line: code inlined from another file (the
              // runtime's allocator) has that file's lines
              {"file", location ? displayPath(location->getScope()) : ""},
              {"line", static_cast<int64_t>(line)},
              {"column",
               static_cast<int64_t>(location ? location->getColumn() : 0)},
              {"opcode", opcodeText(inst)},
              {"class", className(facts.kind.opClass)},
              {"elements", static_cast<int64_t>(facts.elements)},
              {"element_bits", static_cast<int64_t>(facts.bits)},
              {"vector", facts.vector},
              {"work", facts.work},
              {"frequency", rounded(frequency)}});
      }
      total.merge(blockTally);

      json::Object classes;
      for (unsigned index = 0; index < opClassCount; ++index)
        classes[className(static_cast<OpClass>(index))] =
            static_cast<int64_t>(counts[index]);
      blockRecords.push_back(json::Object{
          {"name", blockNames[&block]},
          {"line", static_cast<int64_t>(firstLine)},
          {"frequency", rounded(frequency)},
          {"coverage", blockTally.coverage()},
          {"lane_utilization", blockTally.laneUtilization()},
          {"vector_ops", blockTally.vectorOps},
          {"scalar_ops", blockTally.scalarOps},
          {"overhead_ops", blockTally.overheadOps},
          {"vector_elements", rounded(blockTally.vectorElements)},
          {"scalar_elements", rounded(blockTally.scalarElements)},
          {"classes", std::move(classes)}});
    }

    json::Array lineRecords;
    for (const auto &[key, tally] : lineTallies)
      lineRecords.push_back(json::Object{
          {"file", key.first},
          {"line", static_cast<int64_t>(key.second)},
          {"coverage", tally.coverage()},
          {"lane_utilization", tally.laneUtilization()},
          {"vector_ops", tally.vectorOps},
          {"scalar_ops", tally.scalarOps},
          {"vector_elements", rounded(tally.vectorElements)},
          {"scalar_elements", rounded(tally.scalarElements)}});

    json::Array loopRecords;
    for (const Loop *loop : loops.getLoopsInPreorder()) {
      Tally loopTally;
      for (const BasicBlock *block : loop->blocks())
        loopTally.merge(blockTallies[block]);
      const DILocation *start = loop->getStartLoc().get();
      loopRecords.push_back(json::Object{
          {"header", blockNames[loop->getHeader()]},
          {"line", static_cast<int64_t>(start ? start->getLine() : 0)},
          {"depth", static_cast<int64_t>(loop->getLoopDepth())},
          {"coverage", loopTally.coverage()},
          {"vector_ops", loopTally.vectorOps},
          {"scalar_ops", loopTally.scalarOps}});
    }

    const DISubprogram *subprogram = function.getSubprogram();
    return json::Object{
        {"name", function.getName()},
        {"file", displayPath(subprogram)},
        {"line", static_cast<int64_t>(subprogram ? subprogram->getLine() : 0)},
        {"coverage", total.coverage()},
        {"lane_utilization", total.laneUtilization()},
        {"vector_elements", rounded(total.vectorElements)},
        {"scalar_elements", rounded(total.scalarElements)},
        {"vector_ops", total.vectorOps},
        {"scalar_ops", total.scalarOps},
        {"overhead_ops", total.overheadOps},
        {"basic_blocks", std::move(blockRecords)},
        {"lines", std::move(lineRecords)},
        {"instructions", std::move(instructionRecords)},
        {"scalarized_calls", std::move(scalarizedCalls)},
        {"loops", std::move(loopRecords)}};
  }

private:
  Function &function;
  unsigned registerBits;
  const DataLayout &layout;
  DataFlow dataFlow;
  DominatorTree dominators;
  LoopInfo loops;
  PostDominatorTree postDominators;
  TargetLibraryInfoImpl libraryImpl;
  TargetLibraryInfo library;
  BranchProbabilityInfo probabilities;
  BlockFrequencyInfo frequencies;
  DenseMap<const BasicBlock *, std::string> blockNames;

  static std::string calleeText(const Instruction &inst) {
    if (auto *call = dyn_cast<CallBase>(&inst))
      if (const Function *callee = call->getCalledFunction())
        return callee->getName().str();
    return inst.getOpcodeName();
  }
};

json::Object buildReport(Module &module,
                         function_ref<unsigned(Function &)> registerBitsOf) {
  json::Array functions;
  unsigned widest = 0;
  for (Function &function : module) {
    if (function.isDeclaration())
      continue;
    unsigned bits = registerBitsOf(function);
    widest = std::max(widest, bits);
    functions.push_back(FunctionReport(function, bits).build());
  }
  // Measured counts replace the static estimate in BlockFrequencyInfo only
  // when the module carries a profile.
  bool profiled = module.getProfileSummary(/*IsCS=*/false) != nullptr;
  return json::Object{{"schema", "kiln-vector-report/1"},
                      {"vector_register_bits", static_cast<int64_t>(widest)},
                      {"weighting", profiled ? "profile" : "static"},
                      {"functions", std::move(functions)}};
}

} // namespace

json::Object collectVectorReport(Module &module, TargetMachine *machine) {
  return buildReport(module, [machine](Function &function) {
    if (machine) {
      unsigned bits = machine->getTargetTransformInfo(function)
                          .getRegisterBitWidth(
                              TargetTransformInfo::RGK_FixedWidthVector)
                          .getFixedValue();
      if (bits)
        return bits;
    }
    return featureRegisterBits(function);
  });
}

PreservedAnalyses VectorReportPass::run(Module &module,
                                        ModuleAnalysisManager &analyses) {
  FunctionAnalysisManager &functionAnalyses =
      analyses.getResult<FunctionAnalysisManagerModuleProxy>(module)
          .getManager();
  json::Object report = buildReport(module, [&](Function &function) {
    // opt has a target only when it knows the module's triple; without one
    // the default answer (32 bits, "no vectors") says nothing, and the
    // function's features decide.
    unsigned bits = functionAnalyses.getResult<TargetIRAnalysis>(function)
                        .getRegisterBitWidth(
                            TargetTransformInfo::RGK_FixedWidthVector)
                        .getFixedValue();
    return bits > 32 ? bits : featureRegisterBits(function);
  });
  std::string text = formatv("{0:2}", json::Value(std::move(report))).str();
  writeReport(module, passName, options.outputPath, text);
  return PreservedAnalyses::all();
}

void VectorReportPass::printPipeline(raw_ostream &os,
                                     function_ref<StringRef(StringRef)>) {
  os << passName;
  if (options.outputPath != "-")
    os << "<output=" << options.outputPath << ">";
}

} // namespace kiln
