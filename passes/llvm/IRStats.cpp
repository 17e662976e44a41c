#include "passes/llvm/KilnLLVMPasses.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/DebugProgramInstruction.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace kiln {
namespace {

// Distinct MDNodes reachable from what is added, each counted once.
class MetadataCounter {
public:
  void add(const Metadata *metadata) {
    SmallVector<const MDNode *> worklist;
    if (auto *node = dyn_cast_or_null<MDNode>(metadata))
      worklist.push_back(node);
    while (!worklist.empty()) {
      const MDNode *node = worklist.pop_back_val();
      if (!seen.insert(node).second)
        continue;
      if (isa<DINode, DILocation, DIExpression, DIGlobalVariableExpression,
              DIAssignID>(node))
        ++debugNodes;
      for (const MDOperand &operand : node->operands())
        if (auto *inner = dyn_cast_or_null<MDNode>(operand.get()))
          worklist.push_back(inner);
    }
  }

  void addAttachments(const GlobalObject &object) {
    SmallVector<std::pair<unsigned, MDNode *>> attachments;
    object.getAllMetadata(attachments);
    for (auto &[kind, node] : attachments)
      add(node);
  }

  void addFunction(const Function &function) {
    addAttachments(function);
    SmallVector<std::pair<unsigned, MDNode *>> attachments;
    for (const Instruction &inst : instructions(function)) {
      // Includes !dbg.
      inst.getAllMetadata(attachments);
      for (auto &[kind, node] : attachments)
        add(node);
      for (const Value *operand : inst.operand_values())
        if (auto *wrapped = dyn_cast<MetadataAsValue>(operand))
          add(wrapped->getMetadata());
      for (const DbgRecord &record : inst.getDbgRecordRange())
        addRecord(record);
    }
  }

  unsigned nodes() const { return seen.size(); }
  unsigned debugInfoNodes() const { return debugNodes; }

private:
  SmallPtrSet<const MDNode *, 32> seen;
  unsigned debugNodes = 0;

  void addRecord(const DbgRecord &record) {
    add(record.getDebugLoc().getAsMDNode());
    if (auto *variable = dyn_cast<DbgVariableRecord>(&record)) {
      add(variable->getRawVariable());
      add(variable->getRawExpression());
      add(variable->getRawLocation());
      if (variable->isDbgAssign()) {
        add(variable->getRawAssignID());
        add(variable->getRawAddressExpression());
      }
    } else if (auto *label = dyn_cast<DbgLabelRecord>(&record)) {
      add(label->getRawLabel());
    }
  }
};

template <typename Printable> int64_t countLines(const Printable &printable) {
  std::string text;
  raw_string_ostream os(text);
  printable.print(os, nullptr);
  os.flush();
  return static_cast<int64_t>(llvm::count(text, '\n'));
}

json::Object functionStats(const Function &function) {
  MetadataCounter metadata;
  metadata.addFunction(function);
  return json::Object{
      {"name", function.getName()},
      {"basic_blocks", static_cast<int64_t>(function.size())},
      {"instructions", static_cast<int64_t>(function.getInstructionCount())},
      {"metadata_nodes", static_cast<int64_t>(metadata.nodes())},
      {"ir_lines", countLines(function)},
  };
}

} // namespace

json::Object collectIRStats(const Module &module) {
  MetadataCounter metadata;
  int64_t definitions = 0, declarations = 0, blocks = 0, instructions = 0;
  json::Array perFunction;
  for (const Function &function : module) {
    if (function.isDeclaration()) {
      ++declarations;
      continue;
    }
    ++definitions;
    blocks += function.size();
    instructions += function.getInstructionCount();
    metadata.addFunction(function);
    perFunction.push_back(functionStats(function));
  }

  int64_t dataBytes = 0, typeInfoGlobals = 0;
  const DataLayout &layout = module.getDataLayout();
  for (const GlobalVariable &global : module.globals()) {
    metadata.addAttachments(global);
    if (global.isDeclaration())
      continue;
    dataBytes += layout.getTypeAllocSize(global.getValueType()).getFixedValue();
    StringRef name = global.getName();
    if (name.starts_with("_ZTI") || name.starts_with("_ZTS"))
      ++typeInfoGlobals;
  }
  for (const NamedMDNode &node : module.named_metadata())
    for (const MDNode *operand : node.operands())
      metadata.add(operand);

  return json::Object{
      {"module", module.getModuleIdentifier()},
      {"functions", definitions},
      {"declarations", declarations},
      {"globals", static_cast<int64_t>(module.global_size())},
      {"basic_blocks", blocks},
      {"instructions", instructions},
      {"metadata_nodes", static_cast<int64_t>(metadata.nodes())},
      {"debug_metadata_nodes", static_cast<int64_t>(metadata.debugInfoNodes())},
      {"named_metadata", static_cast<int64_t>(module.named_metadata_size())},
      {"global_data_bytes", dataBytes},
      {"typeinfo_globals", typeInfoGlobals},
      {"ir_lines", countLines(module)},
      {"per_function", std::move(perFunction)},
  };
}

void writeReport(Module &module, StringRef passName, StringRef path,
                 StringRef text) {
  if (path == "-") {
    outs() << text << "\n";
    outs().flush();
    return;
  }
  std::error_code error;
  raw_fd_ostream file(path, error, sys::fs::OF_Text);
  if (error) {
    module.getContext().emitError(Twine(passName) + ": cannot write '" + path +
                                  "': " + error.message());
    return;
  }
  file << text << "\n";
}

PreservedAnalyses IRStatsPass::run(Module &module, ModuleAnalysisManager &) {
  json::Object stats = collectIRStats(module);
  if (!options.label.empty())
    stats["label"] = options.label;
  std::string text = formatv("{0:2}", json::Value(std::move(stats))).str();
  writeReport(module, "kiln-ir-stats", options.outputPath, text);
  return PreservedAnalyses::all();
}

void IRStatsPass::printPipeline(raw_ostream &os,
                                function_ref<StringRef(StringRef)>) {
  os << "kiln-ir-stats";
  SmallVector<std::string> parameters;
  if (options.outputPath != "-")
    parameters.push_back("output=" + options.outputPath);
  if (!options.label.empty())
    parameters.push_back("label=" + options.label);
  if (!parameters.empty())
    os << "<" << join(parameters, ";") << ">";
}

} // namespace kiln
