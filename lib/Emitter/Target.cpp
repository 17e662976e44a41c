#include "lib/Emitter/Emitter.h"

#include "mlir/IR/Builders.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/SubtargetFeature.h"

namespace kiln {

namespace {
std::string hostFeatureString() {
  llvm::SubtargetFeatures features;
  for (const auto &feature : llvm::sys::getHostCPUFeatures())
    features.AddFeature(feature.getKey(), feature.getValue());
  return features.getString();
}
} // namespace

llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
createTargetMachine(llvm::StringRef cpu, unsigned optLevel) {
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  llvm::InitializeNativeTargetAsmParser();

  llvm::Triple triple(llvm::sys::getDefaultTargetTriple());
  std::string error;
  const llvm::Target *target = llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return llvm::createStringError(error);

  std::string cpuName = cpu.str();
  std::string features;
  if (cpu == "native") {
    cpuName = llvm::sys::getHostCPUName().str();
    features = hostFeatureString();
  }
  std::unique_ptr<llvm::MCSubtargetInfo> subtarget(
      target->createMCSubtargetInfo(triple, cpuName, ""));
  if (!subtarget || !subtarget->isCPUStringValid(cpuName))
    return llvm::createStringError("unknown --target-cpu '" + cpu.str() +
                                   "' for " + triple.str());

  llvm::CodeGenOptLevel level = llvm::CodeGenOptLevel::Default;
  switch (optLevel) {
  case 0: level = llvm::CodeGenOptLevel::None; break;
  case 1: level = llvm::CodeGenOptLevel::Less; break;
  case 2: level = llvm::CodeGenOptLevel::Default; break;
  default: level = llvm::CodeGenOptLevel::Aggressive; break;
  }
  llvm::TargetOptions options;
  std::unique_ptr<llvm::TargetMachine> machine(target->createTargetMachine(
      triple, cpuName, features, options, llvm::Reloc::PIC_, std::nullopt,
      level));
  if (!machine)
    return llvm::createStringError("cannot create a target machine for " +
                                   triple.str());
  return machine;
}

void describeVectorTarget(mlir::ModuleOp module, llvm::TargetMachine &machine) {
  const llvm::MCSubtargetInfo *subtarget = machine.getMCSubtargetInfo();
  auto has = [&](llvm::StringRef feature) {
    return subtarget->checkFeatures(("+" + feature).str());
  };
  int64_t bits = 128;
  llvm::StringRef isa = "sse";
  if (has("avx512f")) {
    bits = 512;
    isa = "avx512";
  } else if (has("avx2")) {
    bits = 256;
    isa = "avx2";
  } else if (has("avx")) {
    bits = 256;
    isa = "avx";
  }
  mlir::Builder builder(module.getContext());
  if (!module->hasAttr("kiln.vector_bits"))
    module->setAttr("kiln.vector_bits", builder.getI64IntegerAttr(bits));
  if (!module->hasAttr("kiln.vector_isa"))
    module->setAttr("kiln.vector_isa", builder.getStringAttr(isa));
}

std::unique_ptr<llvm::Module> translateToLLVMIR(mlir::ModuleOp module,
                                                llvm::LLVMContext &context) {
  llvm::StringRef name = "kiln";
  if (auto fileLoc = mlir::dyn_cast<mlir::FileLineColLoc>(module.getLoc()))
    name = fileLoc.getFilename().getValue();
  return mlir::translateModuleToLLVMIR(module, context, name);
}

void prepareForTarget(llvm::Module &module, llvm::TargetMachine &machine) {
  module.setTargetTriple(machine.getTargetTriple());
  module.setDataLayout(machine.createDataLayout());
  std::string cpu = machine.getTargetCPU().str();
  std::string features = machine.getTargetFeatureString().str();
  for (llvm::Function &function : module) {
    if (function.isDeclaration())
      continue;
    // C that asked for another CPU (`__attribute__((target("arch=x86-64")))`:
    // the module's CPU check, which must run on any x86-64) keeps it, with
    // that CPU's own features only: Clang adds the command line's features
    // (the target's, AVX-512 & co.) to such a function.
    llvm::Attribute own = function.getFnAttribute("target-cpu");
    if (own.isValid() && own.getValueAsString() != cpu) {
      function.removeFnAttr("target-features");
      continue;
    }
    function.addFnAttr("target-cpu", cpu);
    if (features.empty())
      function.removeFnAttr("target-features");
    else
      function.addFnAttr("target-features", features);
    function.removeFnAttr("tune-cpu");
  }
}

} // namespace kiln
