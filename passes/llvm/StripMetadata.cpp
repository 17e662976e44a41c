#include "passes/llvm/KilnLLVMPasses.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfo.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace kiln {
namespace {

// Named metadata only people read: the producer string (it becomes
// .comment) and the recorded command line.
bool eraseProvenance(Module &module) {
  bool changed = false;
  for (StringRef name : {"llvm.ident", "llvm.commandline"})
    if (NamedMDNode *node = module.getNamedMetadata(name)) {
      module.eraseNamedMetadata(node);
      changed = true;
    }
  return changed;
}

// With the compile units gone these only describe debug info that no longer
// exists; a -g0 compile has none of them.
bool eraseDebugInfoModuleFlags(Module &module) {
  NamedMDNode *flags = module.getModuleFlagsMetadata();
  if (!flags)
    return false;
  SmallVector<MDNode *> kept;
  for (MDNode *flag : flags->operands()) {
    const auto *key = flag->getNumOperands() >= 2
                          ? dyn_cast<MDString>(flag->getOperand(1))
                          : nullptr;
    if (key && (key->getString() == "Dwarf Version" ||
                key->getString() == "Debug Info Version" ||
                key->getString() == "CodeView" ||
                key->getString() == "debug-info-assignment-tracking"))
      continue;
    kept.push_back(flag);
  }
  if (kept.size() == flags->getNumOperands())
    return false;
  flags->clearOperands();
  for (MDNode *flag : kept)
    flags->addOperand(flag);
  return true;
}

bool eraseEmptyNamedMetadata(Module &module) {
  SmallVector<NamedMDNode *> empty;
  for (NamedMDNode &node : module.named_metadata())
    if (node.getNumOperands() == 0)
      empty.push_back(&node);
  for (NamedMDNode *node : empty)
    module.eraseNamedMetadata(node);
  return !empty.empty();
}

// The hints the loop passes read; code generation reads none of them.
bool isLoopHint(StringRef name) {
  return name.starts_with("llvm.loop.vectorize.") ||
         name.starts_with("llvm.loop.interleave.") ||
         name.starts_with("llvm.loop.unroll.") ||
         name.starts_with("llvm.loop.distribute.") ||
         name == "llvm.loop.isvectorized" || name == "llvm.loop.mustprogress" ||
         name == "llvm.loop.licm_versioning.disable";
}

// A loop ID is consumed once LoopVectorize has processed the loop (it marks
// the vector body and the remainder llvm.loop.isvectorized) and everything
// else on it is a hint for the loop passes or a source location for their
// remarks. Anything else (llvm.loop.align, a target's own hints) stays.
bool isConsumedLoopID(const MDNode &loopID) {
  bool vectorized = false;
  for (unsigned i = 1, e = loopID.getNumOperands(); i < e; ++i) {
    const Metadata *property = loopID.getOperand(i);
    if (isa<DILocation>(property))
      continue;
    const auto *node = dyn_cast<MDNode>(property);
    if (!node || node->getNumOperands() == 0)
      return false;
    const auto *name = dyn_cast<MDString>(node->getOperand(0));
    if (!name || !isLoopHint(name->getString()))
      return false;
    vectorized |= name->getString() == "llvm.loop.isvectorized";
  }
  return vectorized;
}

bool eraseConsumedLoopMetadata(Module &module) {
  bool changed = false;
  for (Function &function : module)
    for (BasicBlock &block : function) {
      Instruction *terminator = block.getTerminator();
      if (!terminator)
        continue;
      MDNode *loopID = terminator->getMetadata(LLVMContext::MD_loop);
      if (loopID && isConsumedLoopID(*loopID)) {
        terminator->setMetadata(LLVMContext::MD_loop, nullptr);
        changed = true;
      }
    }
  return changed;
}

// What the module's externally visible definitions reach, through code,
// initializers, aliases and comdats. Everything else that is internal or a
// declaration is dead, cycles (a vtable and the destructor it names)
// included.
class Reachability {
public:
  explicit Reachability(Module &module) {
    for (GlobalValue &value : module.global_values())
      if (!value.isDeclaration() && !value.hasLocalLinkage())
        markLive(&value);
    while (!worklist.empty())
      visitBody(*worklist.pop_back_val());
  }

  bool isLive(const GlobalValue &value) const { return live.contains(&value); }

private:
  SmallPtrSet<const GlobalValue *, 32> live;
  SmallPtrSet<const Constant *, 32> visitedConstants;
  SmallVector<const GlobalValue *> worklist;

  void markLive(const GlobalValue *value) {
    if (live.insert(value).second)
      worklist.push_back(value);
  }

  void visitOperand(const Value *operand) {
    if (auto *value = dyn_cast<GlobalValue>(operand)) {
      markLive(value);
      return;
    }
    auto *constant = dyn_cast<Constant>(operand);
    if (!constant || !visitedConstants.insert(constant).second)
      return;
    for (const Value *inner : constant->operand_values())
      visitOperand(inner);
  }

  void visitBody(const GlobalValue &value) {
    if (auto *object = dyn_cast<GlobalObject>(&value))
      if (const Comdat *comdat = object->getComdat())
        for (const GlobalObject *member : comdat->getUsers())
          markLive(member);
    if (auto *function = dyn_cast<Function>(&value)) {
      // Personality, prefix and prologue data.
      for (const Value *operand : function->operand_values())
        visitOperand(operand);
      for (const Instruction &inst : instructions(*function))
        for (const Value *operand : inst.operand_values())
          visitOperand(operand);
      return;
    }
    for (const Value *operand : value.operand_values())
      visitOperand(operand);
  }
};

bool eraseUnusedGlobals(Module &module) {
  Reachability reachability(module);
  SmallVector<GlobalValue *> dead;
  for (GlobalValue &value : module.global_values())
    if ((value.isDeclaration() || value.hasLocalLinkage()) &&
        !reachability.isLive(value))
      dead.push_back(&value);
  if (dead.empty())
    return false;

  // Break references among the dead first: they may refer to each other.
  for (GlobalValue *value : dead) {
    if (auto *function = dyn_cast<Function>(value))
      function->dropAllReferences();
    else if (auto *variable = dyn_cast<GlobalVariable>(value))
      variable->setInitializer(nullptr);
    else if (auto *alias = dyn_cast<GlobalAlias>(value))
      alias->setAliasee(nullptr);
    else if (auto *ifunc = dyn_cast<GlobalIFunc>(value))
      ifunc->setResolver(nullptr);
  }
  SmallPtrSet<Comdat *, 8> comdats;
  for (GlobalValue *value : dead) {
    if (auto *object = dyn_cast<GlobalObject>(value))
      if (Comdat *comdat = object->getComdat())
        comdats.insert(comdat);
    value->removeDeadConstantUsers();
    value->eraseFromParent();
  }
  SmallVector<std::string> emptyComdats;
  for (Comdat *comdat : comdats)
    if (comdat->getUsers().empty())
      emptyComdats.push_back(comdat->getName().str());
  for (const std::string &name : emptyComdats)
    module.getComdatSymbolTable().erase(name);
  return true;
}

} // namespace

bool stripMetadata(Module &module, const StripMetadataOptions &options) {
  bool changed = false;
  if (!options.keepDebugInfo && options.keepLineTables)
    changed |= stripNonLineTableDebugInfo(module);
  else if (!options.keepDebugInfo) {
    changed |= StripDebugInfo(module);
    changed |= eraseDebugInfoModuleFlags(module);
  }
  if (!options.keepIdent)
    changed |= eraseProvenance(module);
  if (!options.keepLoopMetadata)
    changed |= eraseConsumedLoopMetadata(module);
  changed |= eraseEmptyNamedMetadata(module);
  if (!options.keepUnusedGlobals)
    changed |= eraseUnusedGlobals(module);
  return changed;
}

PreservedAnalyses StripMetadataPass::run(Module &module,
                                         ModuleAnalysisManager &) {
  return stripMetadata(module, options) ? PreservedAnalyses::none()
                                        : PreservedAnalyses::all();
}

void StripMetadataPass::printPipeline(raw_ostream &os,
                                      function_ref<StringRef(StringRef)>) {
  os << "kiln-strip-metadata";
  SmallVector<StringRef> kept;
  if (options.keepDebugInfo)
    kept.push_back("keep-debug-info");
  if (options.keepLineTables)
    kept.push_back("keep-line-tables");
  if (options.keepIdent)
    kept.push_back("keep-ident");
  if (options.keepLoopMetadata)
    kept.push_back("keep-loop-metadata");
  if (options.keepUnusedGlobals)
    kept.push_back("keep-unused-globals");
  if (!kept.empty())
    os << "<" << join(kept, ";") << ">";
}

} // namespace kiln
