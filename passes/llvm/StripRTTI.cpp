#include "passes/llvm/KilnLLVMPasses.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/IPO/Internalize.h"

#include <limits>
#include <optional>
#include <tuple>

using namespace llvm;

namespace kiln {
namespace {

constexpr const char *passName = "kiln-strip-rtti";

// Itanium C++ ABI mangling prefixes.
bool isTypeInfo(const GlobalValue &value) {
  return value.getName().starts_with("_ZTI");
}
bool isTypeName(const GlobalValue &value) {
  return value.getName().starts_with("_ZTS");
}
// `_ZTC` are construction vtables (classes with virtual bases).
bool isVTable(const GlobalValue &value) {
  return value.getName().starts_with("_ZTV") ||
         value.getName().starts_with("_ZTC");
}
bool isTypeInfoClassVTable(const GlobalValue &value) {
  return value.isDeclaration() &&
         value.getName().starts_with("_ZTVN10__cxxabiv1");
}

std::string readable(StringRef mangled) { return demangle(mangled.str()); }

std::string inFunction(const Instruction &inst) {
  return " in '" + readable(inst.getFunction()->getName()) + "'";
}

// A user of a type-info global that is code or a global, found by looking
// through the constants between them.
struct Referrer {
  User *user;
  // True when every constant on the way was an aggregate (array, struct),
  // as for a vtable slot; false when an expression (GEP, cast) intervened.
  bool throughAggregatesOnly;
};

SmallVector<Referrer> collectReferrers(GlobalVariable &global) {
  global.removeDeadConstantUsers();
  SmallVector<Referrer> referrers;
  SmallVector<std::pair<Constant *, bool>> worklist = {{&global, true}};
  SmallPtrSet<Constant *, 16> visited;
  while (!worklist.empty()) {
    auto [constant, aggregatesOnly] = worklist.pop_back_val();
    for (User *user : constant->users()) {
      if (isa<Instruction>(user) || isa<GlobalValue>(user)) {
        referrers.push_back({user, aggregatesOnly});
        continue;
      }
      if (auto *inner = dyn_cast<Constant>(user))
        if (visited.insert(inner).second)
          worklist.push_back(
              {inner, aggregatesOnly && isa<ConstantAggregate>(inner)});
    }
  }
  return referrers;
}

// The type-info globals an initializer names: the bases of a class, the
// pointee of a pointer type.
void collectReferencedTypeInfo(const Constant *constant,
                               SmallPtrSetImpl<const Constant *> &visited,
                               SetVector<GlobalVariable *> &found) {
  if (!visited.insert(constant).second)
    return;
  if (auto *global = dyn_cast<GlobalVariable>(constant)) {
    if (isTypeInfo(*global))
      found.insert(const_cast<GlobalVariable *>(global));
    return;
  }
  if (isa<GlobalValue>(constant))
    return;
  for (const Use &operand : constant->operands())
    if (auto *inner = dyn_cast<Constant>(operand.get()))
      collectReferencedTypeInfo(inner, visited, found);
}

struct KeepReason {
  std::string text;
  // The code that needs the type information, when one instruction does.
  const Instruction *at = nullptr;
};

struct TypeInfo {
  GlobalVariable *global;
  // Type information this one names, defined in the module or not.
  SetVector<GlobalVariable *> referenced;
  SmallVector<GlobalVariable *, 2> vtables;
  std::optional<KeepReason> keep;
};

const Function *calledFunction(const CallBase &call) {
  return dyn_cast<Function>(call.getCalledOperand()->stripPointerCasts());
}

bool calls(const Instruction &inst, StringRef name) {
  auto *call = dyn_cast<CallBase>(&inst);
  if (!call)
    return false;
  const Function *callee = calledFunction(*call);
  return callee && callee->getName() == name;
}

// What an instruction that names a type-info global does with it, ranked:
// the lowest rank is the use a remark reports.
std::pair<unsigned, std::string> describeCodeUse(const Instruction &inst,
                                                 const GlobalVariable &global) {
  if (calls(inst, "__cxa_throw"))
    return {0, "thrown by __cxa_throw" + inFunction(inst)};
  if (auto *landingPad = dyn_cast<LandingPadInst>(&inst)) {
    for (unsigned i = 0, e = landingPad->getNumClauses(); i < e; ++i)
      if (landingPad->isCatch(i) &&
          landingPad->getClause(i)->stripPointerCasts() == &global)
        return {1, "caught by a landingpad catch clause" + inFunction(inst)};
    return {2, "listed in a landingpad filter (exception specification)" +
                   inFunction(inst)};
  }
  if (auto *intrinsic = dyn_cast<IntrinsicInst>(&inst))
    if (intrinsic->getIntrinsicID() == Intrinsic::eh_typeid_for)
      return {3, "compared by llvm.eh.typeid.for" + inFunction(inst)};
  if (calls(inst, "__dynamic_cast"))
    return {4, "named by dynamic_cast (__dynamic_cast)" + inFunction(inst)};
  return {5, "named by code (typeid)" + inFunction(inst)};
}

// Whether the memory a load reads could be a vtable pointer. Clang tags
// every vptr load "vtable pointer" under TBAA; an access known to be of
// another type is not one. Without TBAA (-O0, merged loads) it could be.
bool mayBeVTablePointerLoad(const LoadInst &load) {
  const MDNode *tag = load.getMetadata(LLVMContext::MD_tbaa);
  if (!tag || tag->getNumOperands() < 2)
    return true;
  const auto *accessType = dyn_cast<MDNode>(tag->getOperand(1));
  if (!accessType || accessType->getNumOperands() == 0)
    return true;
  const auto *name = dyn_cast<MDString>(accessType->getOperand(0));
  if (!name)
    return true;
  return name->getString() == "vtable pointer" ||
         name->getString() == "omnipotent char" ||
         accessType->getNumOperands() == 1; // the TBAA root
}

bool mayBeVTablePointer(const Value *value,
                        SmallPtrSetImpl<const Value *> &visited) {
  if (!visited.insert(value).second)
    return false;
  if (auto *load = dyn_cast<LoadInst>(value))
    return mayBeVTablePointerLoad(*load);
  // Loads merged or sunk into a phi or select.
  if (auto *phi = dyn_cast<PHINode>(value))
    return any_of(phi->incoming_values(), [&](const Value *incoming) {
      return mayBeVTablePointer(incoming, visited);
    });
  if (auto *select = dyn_cast<SelectInst>(value))
    return mayBeVTablePointer(select->getTrueValue(), visited) ||
           mayBeVTablePointer(select->getFalseValue(), visited);
  return false;
}

// `typeid(*p)` loads the vtable pointer and then the slot just before the
// address point.
bool readsTypeInfoSlot(const LoadInst &load, const DataLayout &layout) {
  if (!load.getType()->isPointerTy())
    return false;
  APInt offset(layout.getIndexTypeSizeInBits(load.getPointerOperandType()), 0);
  // -fstrict-vtable-pointers puts invariant.group intrinsics in the way.
  const Value *base =
      load.getPointerOperand()->stripAndAccumulateConstantOffsets(
          layout, offset, /*AllowNonInbounds=*/true,
          /*AllowInvariantGroup=*/true);
  SmallPtrSet<const Value *, 4> visited;
  return offset.getSExtValue() ==
             -static_cast<int64_t>(layout.getPointerSize()) &&
         mayBeVTablePointer(base, visited);
}

// Code that finds type information through an object's vtable rather than
// by name.
struct DynamicTypeReads {
  const Instruction *typeidOfObject = nullptr;
  // Each __dynamic_cast and the static type it casts from (null when that
  // is not a known global): the object may have any type derived from it.
  SmallVector<std::pair<const CallBase *, const GlobalVariable *>> casts;
};

DynamicTypeReads findDynamicTypeReads(Module &module) {
  DynamicTypeReads reads;
  const DataLayout &layout = module.getDataLayout();
  for (Function &function : module) {
    for (Instruction &inst : instructions(function)) {
      if (auto *load = dyn_cast<LoadInst>(&inst)) {
        if (!reads.typeidOfObject && readsTypeInfoSlot(*load, layout))
          reads.typeidOfObject = load;
        continue;
      }
      // Clang calls __cxa_bad_typeid for typeid(*p) with a null p; if the
      // slot load itself was transformed beyond recognition, this remains.
      if (!reads.typeidOfObject && calls(inst, "__cxa_bad_typeid"))
        reads.typeidOfObject = &inst;
      if (calls(inst, "__dynamic_cast")) {
        auto *call = cast<CallBase>(&inst);
        const GlobalVariable *source = nullptr;
        if (call->arg_size() >= 2)
          source = dyn_cast<GlobalVariable>(
              call->getArgOperand(1)->stripPointerCasts());
        reads.casts.push_back({call, source});
      }
    }
  }
  return reads;
}

class RTTIStripper {
public:
  explicit RTTIStripper(Module &module) : module(module) {}

  bool run(const StripRTTIOptions &options) {
    bool changed = false;
    if (!options.publicAPI.empty())
      changed |= internalize(options.publicAPI);

    unsigned position = 0;
    for (const Function &function : module)
      functionIndex[&function] = position++;
    for (GlobalVariable &global : module.globals())
      if (isTypeInfo(global) && !global.isDeclaration())
        typeInfos.insert({&global, TypeInfo{&global, {}, {}, {}}});
    if (typeInfos.empty())
      return changed;

    for (auto &[global, info] : typeInfos)
      classifyUses(info);
    applyDynamicReads(findDynamicTypeReads(module));
    for (auto &[global, info] : typeInfos)
      if (!info.keep && inheritsFromOutside(info))
        info.keep = KeepReason{"derives from a class whose type information "
                               "is defined outside the module, so code there "
                               "may apply typeid or dynamic_cast to it",
                               nullptr};
    for (auto &[global, info] : typeInfos)
      if (!info.keep && !global->hasLocalLinkage())
        info.keep = KeepReason{
            "visible outside the module; name the exported API with "
            "kiln-strip-rtti<public-api=NAME[:NAME...]> to internalize the "
            "rest",
            nullptr};
    keepWhatKeptTypeInfoNames();

    for (auto &[global, info] : typeInfos)
      if (info.keep)
        remarkKept(info);
    return removeUnkept() || changed;
  }

private:
  Module &module;
  MapVector<GlobalVariable *, TypeInfo> typeInfos;
  DenseMap<const Function *, unsigned> functionIndex;

  bool internalize(const std::vector<std::string> &publicAPI) {
    StringSet<> exported;
    for (const std::string &name : publicAPI)
      exported.insert(name);
    return internalizeModule(module, [&](const GlobalValue &value) {
      return exported.contains(value.getName());
    });
  }

  void keep(TypeInfo &info, std::string text, const Instruction *at) {
    if (!info.keep)
      info.keep = KeepReason{std::move(text), at};
  }

  void classifyUses(TypeInfo &info) {
    SmallPtrSet<const Constant *, 16> visited;
    collectReferencedTypeInfo(info.global->getInitializer(), visited,
                              info.referenced);
    // Use lists have no stable order; pick the reported use by rank, then
    // by the function's position in the module.
    std::optional<std::tuple<unsigned, unsigned>> best;
    for (const Referrer &referrer : collectReferrers(*info.global)) {
      if (auto *inst = dyn_cast<Instruction>(referrer.user)) {
        auto [rank, text] = describeCodeUse(*inst, *info.global);
        std::tuple<unsigned, unsigned> order = {
            rank, functionIndex.lookup(inst->getFunction())};
        if (!best || order < *best) {
          best = order;
          info.keep = KeepReason{std::move(text), inst};
        }
        continue;
      }
      auto *owner = cast<GlobalValue>(referrer.user);
      if (isVTable(*owner) && referrer.throughAggregatesOnly) {
        info.vtables.push_back(cast<GlobalVariable>(owner));
        continue;
      }
      // Another type-info global names this one; whether that keeps it is
      // decided once that one's fate is known.
      if (isTypeInfo(*owner) && referrer.throughAggregatesOnly)
        continue;
      if (!best) {
        best = {std::numeric_limits<unsigned>::max(), 0};
        info.keep = KeepReason{
            "referenced by the global '" + owner->getName().str() + "'",
            nullptr};
      }
    }
  }

  bool derivesFrom(const TypeInfo &info, const GlobalVariable *base) {
    SmallVector<const GlobalVariable *> worklist = {info.global};
    SmallPtrSet<const GlobalVariable *, 8> visited;
    while (!worklist.empty()) {
      const GlobalVariable *current = worklist.pop_back_val();
      if (current == base)
        return true;
      if (!visited.insert(current).second)
        continue;
      auto found = typeInfos.find(const_cast<GlobalVariable *>(current));
      if (found != typeInfos.end())
        worklist.append(found->second.referenced.begin(),
                        found->second.referenced.end());
    }
    return false;
  }

  // Only classes have objects (and vtables) that outside code could hand
  // to typeid through a base it knows.
  bool inheritsFromOutside(const TypeInfo &info) {
    if (info.vtables.empty())
      return false;
    SmallVector<const GlobalVariable *> worklist(info.referenced.begin(),
                                                 info.referenced.end());
    SmallPtrSet<const GlobalVariable *, 8> visited;
    while (!worklist.empty()) {
      const GlobalVariable *current = worklist.pop_back_val();
      if (!visited.insert(current).second)
        continue;
      if (current->isDeclaration())
        return true;
      auto found = typeInfos.find(const_cast<GlobalVariable *>(current));
      if (found != typeInfos.end())
        worklist.append(found->second.referenced.begin(),
                        found->second.referenced.end());
    }
    return false;
  }

  void applyDynamicReads(const DynamicTypeReads &reads) {
    for (auto &[global, info] : typeInfos) {
      if (info.vtables.empty())
        continue;
      if (reads.typeidOfObject)
        keep(info,
             "typeid of a polymorphic object" +
                 inFunction(*reads.typeidOfObject) +
                 " reads type information from vtables",
             reads.typeidOfObject);
      for (auto [call, source] : reads.casts)
        if (!source || derivesFrom(info, source))
          keep(info,
               "dynamic_cast" + inFunction(*call) +
                   " reads the type information of the object's dynamic "
                   "type from its vtable",
               call);
    }
  }

  // Exception matching and dynamic_cast walk from a type to its bases (and
  // from a pointer type to its pointee), so those must stay too.
  void keepWhatKeptTypeInfoNames() {
    SmallVector<TypeInfo *> worklist;
    for (auto &[global, info] : typeInfos)
      if (info.keep)
        worklist.push_back(&info);
    while (!worklist.empty()) {
      TypeInfo *kept = worklist.pop_back_val();
      for (GlobalVariable *named : kept->referenced) {
        auto found = typeInfos.find(named);
        if (found == typeInfos.end() || found->second.keep)
          continue;
        found->second.keep = KeepReason{
            "base or pointee of the kept " + readable(kept->global->getName()),
            kept->keep->at};
        worklist.push_back(&found->second);
      }
    }
  }

  // A function to attach a remark to that is not about one instruction: a
  // function that installs one of the vtables, else any definition.
  const Function *anchorFor(const TypeInfo &info) {
    for (GlobalVariable *vtable : info.vtables)
      for (const User *user : vtable->users()) {
        if (auto *inst = dyn_cast<Instruction>(user))
          return inst->getFunction();
        for (const User *outer : user->users())
          if (auto *inst = dyn_cast<Instruction>(outer))
            return inst->getFunction();
      }
    for (const Function &function : module)
      if (!function.isDeclaration())
        return &function;
    return nullptr;
  }

  void remarkKept(const TypeInfo &info) {
    const KeepReason &reason = *info.keep;
    auto build = [&](OptimizationRemarkMissed remark) {
      return remark << "kept "
                    << ore::NV("TypeInfo", readable(info.global->getName()))
                    << " (" << ore::NV("Symbol", info.global->getName())
                    << "): " << ore::NV("Reason", reason.text);
    };
    if (reason.at) {
      OptimizationRemarkEmitter emitter(reason.at->getFunction());
      emitter.emit([&] {
        return build(
            OptimizationRemarkMissed(passName, "TypeInfoKept", reason.at));
      });
      return;
    }
    if (const Function *anchor = anchorFor(info)) {
      OptimizationRemarkEmitter emitter(anchor);
      emitter.emit([&] {
        return build(
            OptimizationRemarkMissed(passName, "TypeInfoKept", anchor));
      });
    }
  }

  void remarkRemoved(const TypeInfo &info, const std::string &readableName,
                     StringRef symbol) {
    const Function *anchor = anchorFor(info);
    if (!anchor)
      return;
    OptimizationRemarkEmitter emitter(anchor);
    emitter.emit([&] {
      return OptimizationRemark(passName, "TypeInfoRemoved", anchor)
             << "removed " << ore::NV("TypeInfo", readableName) << " ("
             << ore::NV("Symbol", symbol) << ")";
    });
  }

  bool removeUnkept() {
    SmallVector<GlobalVariable *> removed;
    SetVector<GlobalVariable *> typeNames;
    SmallPtrSet<Comdat *, 8> comdats;
    for (auto &[global, info] : typeInfos) {
      if (info.keep)
        continue;
      // Also nulls the slot in each vtable, keeping the layout as -fno-rtti
      // does.
      global->replaceAllUsesWith(
          ConstantPointerNull::get(cast<PointerType>(global->getType())));
      removed.push_back(global);
    }
    if (removed.empty())
      return false;

    for (GlobalVariable *global : removed) {
      for (Use &operand : global->getInitializer()->operands())
        if (auto *name = dyn_cast<GlobalVariable>(operand->stripPointerCasts()))
          if (isTypeName(*name))
            typeNames.insert(name);
      if (Comdat *comdat = global->getComdat())
        comdats.insert(comdat);
      remarkRemoved(typeInfos.find(global)->second,
                    readable(global->getName()), global->getName());
      global->eraseFromParent();
    }

    for (GlobalVariable *name : typeNames) {
      name->removeDeadConstantUsers();
      if (!name->use_empty() || !name->hasLocalLinkage())
        continue;
      if (Comdat *comdat = name->getComdat())
        comdats.insert(comdat);
      name->eraseFromParent();
    }
    for (GlobalVariable &global : llvm::make_early_inc_range(module.globals()))
      if (isTypeInfoClassVTable(global)) {
        global.removeDeadConstantUsers();
        if (global.use_empty())
          global.eraseFromParent();
      }
    eraseEmptyComdats(comdats);
    return true;
  }

  void eraseEmptyComdats(const SmallPtrSetImpl<Comdat *> &candidates) {
    SmallVector<std::string> names;
    for (Comdat *comdat : candidates)
      if (comdat->getUsers().empty())
        names.push_back(comdat->getName().str());
    for (const std::string &name : names)
      module.getComdatSymbolTable().erase(name);
  }
};

} // namespace

bool stripRTTI(Module &module, const StripRTTIOptions &options) {
  return RTTIStripper(module).run(options);
}

PreservedAnalyses StripRTTIPass::run(Module &module, ModuleAnalysisManager &) {
  return stripRTTI(module, options) ? PreservedAnalyses::none()
                                    : PreservedAnalyses::all();
}

void StripRTTIPass::printPipeline(raw_ostream &os,
                                  function_ref<StringRef(StringRef)>) {
  os << passName;
  if (options.publicAPI.empty())
    return;
  os << "<public-api=";
  ListSeparator separator(":");
  for (const std::string &name : options.publicAPI)
    os << separator << name;
  os << ">";
}

} // namespace kiln
