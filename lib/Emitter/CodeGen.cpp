#include "lib/Emitter/Emitter.h"

#include "llvm/Analysis/CGSCCPassManager.h"
#include "llvm/Analysis/LoopAnalysisManager.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Instrumentation/AddressSanitizer.h"
#include "llvm/Transforms/Instrumentation/ThreadSanitizer.h"

#include <set>

namespace kiln {

static constexpr llvm::StringLiteral cInterfacePrefix = "_mlir_ciface_";

std::vector<std::string> exposeCInterface(llvm::Module &module,
                                          llvm::StringRef symbolPrefix) {
  std::vector<llvm::Function *> interfaces;
  for (llvm::Function &function : module)
    if (!function.isDeclaration() &&
        function.getName().starts_with(cInterfacePrefix))
      interfaces.push_back(&function);

  std::vector<std::string> publicNames;
  for (llvm::Function *interface : interfaces) {
    std::string pythonName =
        interface->getName().drop_front(cInterfacePrefix.size()).str();
    std::string publicName = symbolPrefix.str() + pythonName;
    // The expanded-descriptor body may already own the public name.
    if (llvm::Function *clash = module.getFunction(publicName))
      clash->setName("kiln.body." + pythonName);
    interface->setName(publicName);
    interface->setLinkage(llvm::GlobalValue::ExternalLinkage);
    interface->setVisibility(llvm::GlobalValue::DefaultVisibility);
    publicNames.push_back(publicName);
  }
  // The class slots (`kiln.object.new`'s weak globals): the extension's C
  // stores each class's type object there when it is imported.
  for (llvm::GlobalVariable &global : module.globals())
    if (!global.isDeclaration() && global.hasWeakAnyLinkage()) {
      global.setVisibility(llvm::GlobalValue::DefaultVisibility);
      publicNames.push_back(global.getName().str());
    }
  std::set<std::string> keep(publicNames.begin(), publicNames.end());
  for (llvm::Function &function : module)
    if (!function.isDeclaration() && !keep.count(function.getName().str()))
      function.setLinkage(llvm::GlobalValue::InternalLinkage);
  return publicNames;
}

void redirectStaticLoopInit(llvm::Module &module) {
  for (auto [runtime, kiln] : {std::pair<llvm::StringRef, llvm::StringRef>{
                                   "__kmpc_for_static_init_8u", "kiln_for_static_init_8u"},
                               {"__kmpc_for_static_fini", "kiln_for_static_fini"}}) {
    llvm::Function *from = module.getFunction(runtime);
    llvm::Function *to = module.getFunction(kiln);
    if (!from || !to || to->isDeclaration())
      continue;
    for (llvm::Use &use : llvm::make_early_inc_range(from->uses()))
      if (auto *call = llvm::dyn_cast<llvm::CallBase>(use.getUser()))
        if (call->isCallee(&use) && call->getFunction() != to)
          call->setCalledFunction(to);
  }
}

void internalizeAllBut(llvm::Module &module,
                       const std::vector<std::string> &exported) {
  std::set<std::string> keep(exported.begin(), exported.end());
  auto internalize = [&](llvm::GlobalValue &value) {
    // llvm.global_ctors & co. (AddressSanitizer's) keep their appending
    // linkage.
    if (value.isDeclaration() || keep.count(value.getName().str()) ||
        value.getName().starts_with("llvm."))
      return;
    value.setLinkage(llvm::GlobalValue::InternalLinkage);
    value.setVisibility(llvm::GlobalValue::DefaultVisibility);
  };
  for (llvm::Function &function : module)
    internalize(function);
  for (llvm::GlobalVariable &global : module.globals())
    internalize(global);
  for (const std::string &name : exported)
    if (llvm::GlobalValue *value = module.getNamedValue(name))
      value->setVisibility(llvm::GlobalValue::DefaultVisibility);
}

void optimizeModule(llvm::Module &module, llvm::TargetMachine &machine,
                    unsigned optLevel, Instrumentation instrumentation) {
  llvm::LoopAnalysisManager loopAM;
  llvm::FunctionAnalysisManager functionAM;
  llvm::CGSCCAnalysisManager cgsccAM;
  llvm::ModuleAnalysisManager moduleAM;

  llvm::PipelineTuningOptions tuning;
  tuning.LoopVectorization = optLevel >= 2;
  tuning.SLPVectorization = optLevel >= 2;
  tuning.LoopInterleaving = optLevel >= 2;
  tuning.LoopUnrolling = optLevel >= 2;
  llvm::PassBuilder builder(&machine, tuning);
  builder.registerModuleAnalyses(moduleAM);
  builder.registerCGSCCAnalyses(cgsccAM);
  builder.registerFunctionAnalyses(functionAM);
  builder.registerLoopAnalyses(loopAM);
  builder.crossRegisterProxies(loopAM, functionAM, cgsccAM, moduleAM);
  if (instrumentation.address)
    builder.registerOptimizerLastEPCallback(
        [](llvm::ModulePassManager &passes, llvm::OptimizationLevel,
           llvm::ThinOrFullLTOPhase) {
          passes.addPass(llvm::AddressSanitizerPass(llvm::AddressSanitizerOptions{}));
        });
  if (instrumentation.thread)
    builder.registerOptimizerLastEPCallback(
        [](llvm::ModulePassManager &passes, llvm::OptimizationLevel,
           llvm::ThinOrFullLTOPhase) {
          passes.addPass(llvm::ModuleThreadSanitizerPass());
          passes.addPass(llvm::createModuleToFunctionPassAdaptor(llvm::ThreadSanitizerPass()));
        });

  llvm::ModulePassManager passes;
  switch (optLevel) {
  case 0:
    passes = builder.buildO0DefaultPipeline(llvm::OptimizationLevel::O0);
    break;
  case 1:
    passes = builder.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O1);
    break;
  case 2:
    passes = builder.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O2);
    break;
  default:
    passes = builder.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3);
    break;
  }
  passes.run(module, moduleAM);
}

llvm::Error emitMachineCode(llvm::Module &module, llvm::TargetMachine &machine,
                            llvm::CodeGenFileType fileType,
                            llvm::raw_pwrite_stream &out) {
  llvm::legacy::PassManager passes;
  if (machine.addPassesToEmitFile(passes, out, nullptr, fileType))
    return llvm::createStringError(
        "the target cannot emit this kind of file");
  passes.run(module);
  return llvm::Error::success();
}

} // namespace kiln
