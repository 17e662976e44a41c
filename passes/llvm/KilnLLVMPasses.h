// Kiln's LLVM IR passes. The same code runs inside kilnc and, through
// passes/llvm/Plugin.cpp, inside stock opt and clang as a pass plugin.
#ifndef KILN_PASSES_LLVM_KILNLLVMPASSES_H
#define KILN_PASSES_LLVM_KILNLLVMPASSES_H

#include "llvm/IR/PassManager.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <string>
#include <vector>

namespace llvm {
class PassBuilder;
class TargetMachine;
} // namespace llvm

namespace kiln {

struct StripRTTIOptions {
  // The symbols code outside the module may refer to. When non-empty, every
  // other definition is internalized first, as -internalize-public-api-list
  // does: only then is type information provably private to the module.
  std::vector<std::string> publicAPI;
};

// Removes the C++ type information (`_ZTI*` and the `_ZTS*` names they
// point to) that nothing can read, and nulls the vtable slots that referred
// to it, which is what -fno-rtti emits. Type information stays, with a
// missed-optimization remark naming the use, when it is visible outside the
// module, used by code (typeid, dynamic_cast, throw, catch,
// llvm.eh.typeid.for), read through vtables by typeid or dynamic_cast, or
// belongs to a class derived from one defined elsewhere. Returns whether the
// module changed.
bool stripRTTI(llvm::Module &module, const StripRTTIOptions &options);

struct StripMetadataOptions {
  // Each flag keeps something the strip would otherwise remove.
  bool keepDebugInfo = false;
  // Keeps file/line information for the DWARF line table, drops the rest.
  bool keepLineTables = false;
  bool keepIdent = false;
  bool keepLoopMetadata = false;
  bool keepUnusedGlobals = false;
};

// Drops what code generation does not read: debug info, llvm.ident and
// llvm.commandline, empty named metadata, loop metadata the vectorizer has
// consumed, declarations nothing uses and internal globals nothing
// references. Returns whether the module changed.
bool stripMetadata(llvm::Module &module, const StripMetadataOptions &options);

// Counts describing the size of a module; the keys are listed in
// docs/ir-quality.md.
llvm::json::Object collectIRStats(const llvm::Module &module);

struct IRStatsOptions {
  // "-" is standard output.
  std::string outputPath = "-";
  // Copied into the JSON so several snapshots of one pipeline can be told
  // apart.
  std::string label;
};

// The vectorization report of every defined function (schema
// "kiln-vector-report/1", described in docs/architecture.md): coverage and
// lane utilisation of the work each function, loop, basic block, source line
// and instruction does, weighted by block frequency. The vector register
// width comes from the target's cost model when `machine` is given, else
// from each function's "target-features".
llvm::json::Object collectVectorReport(llvm::Module &module,
                                       llvm::TargetMachine *machine);

struct VectorReportOptions {
  // "-" is standard output.
  std::string outputPath = "-";
};

class StripRTTIPass : public llvm::PassInfoMixin<StripRTTIPass> {
public:
  explicit StripRTTIPass(StripRTTIOptions options = {})
      : options(std::move(options)) {}
  llvm::PreservedAnalyses run(llvm::Module &module,
                              llvm::ModuleAnalysisManager &analyses);
  void printPipeline(llvm::raw_ostream &os,
                     llvm::function_ref<llvm::StringRef(llvm::StringRef)>);
  static bool isRequired() { return true; }

private:
  StripRTTIOptions options;
};

class StripMetadataPass : public llvm::PassInfoMixin<StripMetadataPass> {
public:
  explicit StripMetadataPass(StripMetadataOptions options = {})
      : options(options) {}
  llvm::PreservedAnalyses run(llvm::Module &module,
                              llvm::ModuleAnalysisManager &analyses);
  void printPipeline(llvm::raw_ostream &os,
                     llvm::function_ref<llvm::StringRef(llvm::StringRef)>);
  static bool isRequired() { return true; }

private:
  StripMetadataOptions options;
};

class IRStatsPass : public llvm::PassInfoMixin<IRStatsPass> {
public:
  explicit IRStatsPass(IRStatsOptions options = {})
      : options(std::move(options)) {}
  llvm::PreservedAnalyses run(llvm::Module &module,
                              llvm::ModuleAnalysisManager &analyses);
  void printPipeline(llvm::raw_ostream &os,
                     llvm::function_ref<llvm::StringRef(llvm::StringRef)>);
  static bool isRequired() { return true; }

private:
  IRStatsOptions options;
};

class VectorReportPass : public llvm::PassInfoMixin<VectorReportPass> {
public:
  explicit VectorReportPass(VectorReportOptions options = {})
      : options(std::move(options)) {}
  llvm::PreservedAnalyses run(llvm::Module &module,
                              llvm::ModuleAnalysisManager &analyses);
  void printPipeline(llvm::raw_ostream &os,
                     llvm::function_ref<llvm::StringRef(llvm::StringRef)>);
  static bool isRequired() { return true; }

private:
  VectorReportOptions options;
};

// Writes an analysis pass's JSON to `path` ("-": stdout); a file that
// cannot be written is reported through the module's context.
void writeReport(llvm::Module &module, llvm::StringRef passName,
                 llvm::StringRef path, llvm::StringRef text);

// Parsers for the text between `<` and `>` in a textual pipeline; errors are
// StringErrors, as PassBuilder::parsePassParameters requires.
llvm::Expected<StripRTTIOptions> parseStripRTTIParameters(llvm::StringRef text);
llvm::Expected<StripMetadataOptions>
parseStripMetadataParameters(llvm::StringRef text);
llvm::Expected<IRStatsOptions> parseIRStatsParameters(llvm::StringRef text);
llvm::Expected<VectorReportOptions>
parseVectorReportParameters(llvm::StringRef text);

// Makes `kiln-strip-rtti`, `kiln-strip-metadata`, `kiln-ir-stats` and
// `kiln-vector-report` (with their `<...>` parameters) known to the
// builder's pipeline parser.
void registerKilnLLVMPasses(llvm::PassBuilder &builder);

} // namespace kiln

#endif // KILN_PASSES_LLVM_KILNLLVMPASSES_H
