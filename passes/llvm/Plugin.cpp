// The pass plugin: `opt -load-pass-plugin=KilnLLVMPasses.so -passes=...`
// names the passes directly; under `clang -fpass-plugin=KilnLLVMPasses.so`,
// `-mllvm -kiln-passes=PIPELINE` appends them to the end of the optimization
// pipeline.
#include "passes/llvm/KilnLLVMPasses.h"

#include "llvm/Passes/PassBuilder.h"
#include "llvm/Plugins/PassPlugin.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/ErrorHandling.h"

using namespace llvm;

namespace {

cl::opt<std::string> kilnPasses(
    "kiln-passes",
    cl::desc("Textual pipeline of Kiln passes to run at the end of the "
             "optimization pipeline, e.g. "
             "'kiln-strip-rtti<public-api=main>,kiln-strip-metadata'"),
    cl::value_desc("pipeline"));

bool isPreLink(ThinOrFullLTOPhase phase) {
  return phase == ThinOrFullLTOPhase::ThinLTOPreLink ||
         phase == ThinOrFullLTOPhase::FullLTOPreLink;
}

void registerCallbacks(PassBuilder &builder) {
  kiln::registerKilnLLVMPasses(builder);
  builder.registerOptimizerLastEPCallback(
      [&builder](ModulePassManager &passes, OptimizationLevel,
                 ThinOrFullLTOPhase phase) {
        // Before an LTO link the module is not the whole program, and the
        // strips would also run again after it.
        if (kilnPasses.empty() || isPreLink(phase))
          return;
        // A nested default<O..> in the option would call back here.
        static bool parsing = false;
        if (parsing)
          return;
        parsing = true;
        Error error = builder.parsePassPipeline(passes, kilnPasses);
        parsing = false;
        if (error)
          report_fatal_error(Twine("-kiln-passes: ") + toString(std::move(error)),
                             /*gen_crash_diag=*/false);
      });
}

} // namespace

extern "C" LLVM_ATTRIBUTE_WEAK ::llvm::PassPluginLibraryInfo
llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "KilnLLVMPasses", KILN_VERSION,
          registerCallbacks};
}
