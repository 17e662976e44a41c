// Function multi-versioning of Kiln artifacts: one version of every kernel
// per x86-64 microarchitecture level, behind one IFUNC symbol each.
#include "lib/Emitter/Emitter.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalIFunc.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/TargetParser/Host.h"
#include "runtime/kiln_cpu_level.h"

#include <algorithm>
#include <cstdlib>

namespace kiln {

static constexpr llvm::StringLiteral levelPrefix = "x86-64-v";

std::vector<std::string> targetCPUList(llvm::StringRef option) {
  if (option == "portable")
    return {"x86-64-v2", "x86-64-v3", "x86-64-v4"};
  llvm::SmallVector<llvm::StringRef> parts;
  option.split(parts, ',', -1, /*KeepEmpty=*/false);
  return {parts.begin(), parts.end()};
}

int microarchitectureLevel(llvm::StringRef cpu) {
  if (!cpu.starts_with(levelPrefix) || cpu.size() != levelPrefix.size() + 1)
    return 0;
  char digit = cpu.back();
  return digit >= '2' && digit <= '4' ? digit - '0' : 0;
}

int hostMicroarchitectureLevel() {
  // The artifact's own rule (runtime/kiln_dispatch.c, linked into kilnc),
  // so the reports describe the version the resolvers pick here.
  return kiln_cpu_level_forced_to(std::getenv("KILN_CPU_LEVEL"));
}

std::string versionSuffix(llvm::StringRef cpu) {
  std::string suffix = "." + cpu.str();
  for (char &c : suffix)
    if (c == '-')
      c = '_';
  return suffix;
}

void renameVersion(llvm::Module &module, llvm::StringRef cpu) {
  // Every definition, not only the public ones: the report reads the
  // version this machine runs out of the object code by these names.
  std::string suffix = versionSuffix(cpu);
  for (llvm::Function &function : module)
    if (!function.isDeclaration() && function.hasName())
      function.setName(function.getName() + suffix);
}

void addDispatch(llvm::Module &module, const std::vector<std::string> &publicNames,
                 const std::vector<std::string> &cpus, llvm::StringRef levelFunction) {
  llvm::LLVMContext &context = module.getContext();
  llvm::Type *i32 = llvm::Type::getInt32Ty(context);
  llvm::PointerType *pointer = llvm::PointerType::getUnqual(context);
  llvm::FunctionCallee level =
      module.getOrInsertFunction(levelFunction, llvm::FunctionType::get(i32, false));
  for (const std::string &name : publicNames) {
    llvm::Function *baseline = module.getFunction(name + versionSuffix(cpus.front()));
    if (!baseline)
      continue;
    // The resolver runs in the dynamic loader before anything else of the
    // library: baseline code only.
    auto *resolver = llvm::Function::Create(llvm::FunctionType::get(pointer, false),
                                            llvm::GlobalValue::InternalLinkage,
                                            name + ".resolver", module);
    resolver->addFnAttr("target-cpu", "x86-64");
    llvm::IRBuilder<> builder(llvm::BasicBlock::Create(context, "entry", resolver));
    llvm::Value *cpuLevel = builder.CreateCall(level);
    llvm::Value *chosen = baseline;
    // Versions in increasing level: the last one the CPU reaches wins.
    for (const std::string &cpu : llvm::ArrayRef(cpus).drop_front()) {
      llvm::Function *version = module.getFunction(name + versionSuffix(cpu));
      if (!version)
        continue;
      llvm::Value *reaches = builder.CreateICmpSGE(
          cpuLevel, llvm::ConstantInt::get(i32, microarchitectureLevel(cpu)));
      chosen = builder.CreateSelect(reaches, version, chosen);
    }
    builder.CreateRet(chosen);
    for (const std::string &cpu : cpus)
      if (llvm::Function *version = module.getFunction(name + versionSuffix(cpu)))
        version->setLinkage(llvm::GlobalValue::InternalLinkage);
    llvm::GlobalIFunc::create(baseline->getFunctionType(), 0,
                              llvm::GlobalValue::ExternalLinkage, name, resolver, &module);
  }
}

void addCPUVersionQuery(llvm::Module &module, llvm::StringRef name,
                        const std::vector<std::string> &cpus, llvm::StringRef levelFunction,
                        llvm::StringRef singleCPU) {
  llvm::LLVMContext &context = module.getContext();
  llvm::Type *i32 = llvm::Type::getInt32Ty(context);
  llvm::PointerType *pointer = llvm::PointerType::getUnqual(context);
  auto *query = llvm::Function::Create(llvm::FunctionType::get(pointer, false),
                                       llvm::GlobalValue::ExternalLinkage, name, module);
  query->addFnAttr("target-cpu", "x86-64");
  llvm::IRBuilder<> builder(llvm::BasicBlock::Create(context, "entry", query));
  if (cpus.size() < 2) {
    builder.CreateRet(builder.CreateGlobalString(singleCPU, name + ".cpu"));
    return;
  }
  llvm::FunctionCallee level =
      module.getOrInsertFunction(levelFunction, llvm::FunctionType::get(i32, false));
  llvm::Value *cpuLevel = builder.CreateCall(level);
  llvm::Value *chosen = builder.CreateGlobalString(cpus.front(), name + ".cpu");
  for (const std::string &cpu : llvm::ArrayRef(cpus).drop_front()) {
    llvm::Value *reaches = builder.CreateICmpSGE(
        cpuLevel, llvm::ConstantInt::get(i32, microarchitectureLevel(cpu)));
    chosen = builder.CreateSelect(reaches, builder.CreateGlobalString(cpu, name + ".cpu"),
                                  chosen);
  }
  builder.CreateRet(chosen);
}

} // namespace kiln
