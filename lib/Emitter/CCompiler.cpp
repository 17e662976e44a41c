#include "lib/Emitter/Emitter.h"
#include "lib/Emitter/RuntimeHeaders.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/CodeGen/CodeGenAction.h"
#include "clang/Driver/CreateInvocationFromArgs.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/raw_ostream.h"

#ifndef KILN_CLANG_DRIVER_PATH
#error "KILN_CLANG_DRIVER_PATH must name the clang driver (for its resource dir)"
#endif

namespace kiln {

llvm::Expected<std::unique_ptr<llvm::Module>>
compileCSource(llvm::StringRef path, const std::vector<std::string> &includeDirs,
               llvm::TargetMachine &machine, llvm::LLVMContext &context,
               const std::vector<std::string> &extraArgs) {
  std::string triple = machine.getTargetTriple().str();
  std::vector<std::string> storage = {
      KILN_CLANG_DRIVER_PATH, "-x", "c", "-std=gnu11", "-target", triple,
      // -O2 keeps clang from marking functions optnone; Kiln's own pipeline
      // optimizes wrapper and kernels together afterwards.
      "-O2", "-Xclang", "-disable-llvm-passes", "-fPIC", "-fwrapv",
      "-fno-strict-aliasing",
      // Wrappers need a DISubprogram, or the kernels inlined into them lose
      // their Python line locations.
      "-gline-tables-only", "-Qunused-arguments", "-c", path.str()};
  for (const std::string &dir : includeDirs) {
    storage.push_back("-I");
    storage.push_back(dir);
  }
  // After the caller's directories: kiln_runtime.h and kiln_abi.h, from
  // kilnc itself rather than from wherever Kiln's sources are.
  storage.push_back("-I");
  storage.push_back(runtimeIncludeDir.str());
  // The target CPU and its features, as the kernels get them: the C sees
  // them too (__AVX512F__ & co., which the module's CPU check reads), and a
  // function that asks for less (`target("arch=x86-64")`) keeps it
  // (prepareForTarget).
  storage.insert(storage.end(),
                 {"-Xclang", "-target-cpu", "-Xclang", machine.getTargetCPU().str()});
  llvm::SmallVector<llvm::StringRef> features;
  machine.getTargetFeatureString().split(features, ',', -1, false);
  for (llvm::StringRef feature : features)
    storage.insert(storage.end(),
                   {"-Xclang", "-target-feature", "-Xclang", feature.str()});
  storage.insert(storage.end(), extraArgs.begin(), extraArgs.end());
  std::vector<const char *> args;
  for (const std::string &arg : storage)
    args.push_back(arg.c_str());

  clang::DiagnosticOptions diagnosticOptions;
  auto runtimeFiles = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  for (const EmbeddedFile &header : runtimeHeaders())
    runtimeFiles->addFile((runtimeIncludeDir + "/" + header.name).str(), 0,
                          llvm::MemoryBuffer::getMemBuffer(
                              header.text, header.name,
                              /*RequiresNullTerminator=*/false));
  auto fileSystem = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(
      llvm::vfs::getRealFileSystem());
  fileSystem->pushOverlay(runtimeFiles);
  auto *printer =
      new clang::TextDiagnosticPrinter(llvm::errs(), diagnosticOptions);
  clang::CreateInvocationOptions invocationOptions;
  invocationOptions.Diags = clang::CompilerInstance::createDiagnostics(
      *fileSystem, diagnosticOptions, printer, /*ShouldOwnClient=*/true);
  std::shared_ptr<clang::CompilerInvocation> invocation =
      clang::createInvocation(args, invocationOptions);
  if (!invocation)
    return llvm::createStringError("cannot build a clang invocation for " +
                                   path.str());

  clang::CompilerInstance compiler(std::move(invocation));
  compiler.createVirtualFileSystem(fileSystem);
  compiler.createDiagnostics();
  clang::EmitLLVMOnlyAction action(&context);
  if (!compiler.ExecuteAction(action))
    return llvm::createStringError("clang failed to compile " + path.str());
  std::unique_ptr<llvm::Module> module = action.takeModule();
  if (!module)
    return llvm::createStringError("clang produced no module for " +
                                   path.str());
  return module;
}

} // namespace kiln
