// kilnc: MLIR in upstream dialects -> LLVM dialect -> LLVM IR -> optimized
// IR, assembly, an object or a shared object, all in this process.
#include "lib/Emitter/Emitter.h"
#include "lib/Pipeline/LoweringPipeline.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"

namespace cl = llvm::cl;

namespace {

enum class EmitKind { MLIRLLVM, LLVM, Asm, Obj, Shared };

cl::OptionCategory kilncCategory("kilnc options");

cl::opt<std::string> inputFilename(cl::Positional, cl::desc("<input.mlir>"),
                                   cl::init("-"), cl::cat(kilncCategory));
cl::opt<std::string> outputFilename("o", cl::desc("Output file"),
                                    cl::value_desc("path"), cl::init("-"),
                                    cl::cat(kilncCategory));
cl::opt<EmitKind> emitKind(
    "emit", cl::desc("What to write"), cl::init(EmitKind::Obj),
    cl::values(
        clEnumValN(EmitKind::MLIRLLVM, "mlir-llvm", "MLIR in the LLVM dialect"),
        clEnumValN(EmitKind::LLVM, "llvm", "optimized LLVM IR (text)"),
        clEnumValN(EmitKind::Asm, "asm", "target assembly"),
        clEnumValN(EmitKind::Obj, "obj", "an ELF object"),
        clEnumValN(EmitKind::Shared, "shared", "a shared object, linked by lld")),
    cl::cat(kilncCategory));
cl::opt<unsigned> optLevel("O", cl::desc("Optimization level 0-3 (default 3)"),
                           cl::Prefix, cl::init(3), cl::cat(kilncCategory));
cl::opt<std::string> targetCPU(
    "target-cpu", cl::desc("LLVM CPU name, or 'native' (default)"),
    cl::init("native"), cl::cat(kilncCategory));
cl::opt<std::string> symbolPrefix(
    "symbol-prefix",
    cl::desc("Prefix of the public C symbol of each exported function"),
    cl::init(""), cl::cat(kilncCategory));
cl::list<std::string> cSources(
    "c-source",
    cl::desc("C file compiled in-process by Clang and linked into the same "
             "LLVM module before optimization (repeatable)"),
    cl::cat(kilncCategory));
cl::list<std::string> includeDirs("I", cl::desc("Include directory for "
                                                "--c-source"),
                                  cl::Prefix, cl::cat(kilncCategory));
cl::list<std::string> exportedSymbols(
    "export",
    cl::desc("Keep only these symbols visible (repeatable); default: the C "
             "interface of every exported function"),
    cl::cat(kilncCategory));
cl::opt<bool> noDebugInfo("no-debug-info",
                          cl::desc("Do not emit DWARF line tables"),
                          cl::init(false), cl::cat(kilncCategory));

int fail(const llvm::Twine &message) {
  llvm::WithColor::error(llvm::errs(), "kilnc") << message << "\n";
  return 1;
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  mlir::registerAsmPrinterCLOptions();
  mlir::registerMLIRContextCLOptions();
  mlir::registerPassManagerCLOptions();
  cl::ParseCommandLineOptions(argc, argv, "Kiln compiler driver\n");
  if (optLevel > 3)
    return fail("-O" + llvm::Twine(optLevel) + " is not one of -O0..-O3");
  if (emitKind == EmitKind::Shared && outputFilename == "-")
    return fail("--emit=shared needs -o <file.so>");

  mlir::DialectRegistry registry;
  kiln::registerKilnDialects(registry);
  mlir::MLIRContext context(registry);
  context.loadAllAvailableDialects();

  std::string errorMessage;
  auto input = mlir::openInputFile(inputFilename, &errorMessage);
  if (!input)
    return fail(errorMessage);
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(input), llvm::SMLoc());
  mlir::SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);

  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceFile<mlir::ModuleOp>(sourceMgr, &context);
  if (!module)
    return 1;

  mlir::PassManager pm(&context);
  if (mlir::failed(mlir::applyPassManagerCLOptions(pm)))
    return 1;
  kiln::LoweringOptions lowering;
  lowering.debugInfo = !noDebugInfo;
  kiln::buildLowerToLLVMPipeline(pm, lowering);
  if (mlir::failed(pm.run(*module)))
    return 1;

  auto output = mlir::openOutputFile(
      emitKind == EmitKind::Shared ? std::string("-") : outputFilename,
      &errorMessage);
  if (!output)
    return fail(errorMessage);

  if (emitKind == EmitKind::MLIRLLVM) {
    module->print(output->os());
    output->keep();
    return 0;
  }

  auto machine = kiln::createTargetMachine(targetCPU, optLevel);
  if (!machine)
    return fail(llvm::toString(machine.takeError()));

  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule =
      kiln::translateToLLVMIR(*module, llvmContext);
  if (!llvmModule)
    return 1;
  kiln::prepareForTarget(*llvmModule, **machine);
  std::vector<std::string> publicNames =
      kiln::exposeCInterface(*llvmModule, symbolPrefix);

  for (const std::string &source : cSources) {
    auto compiled = kiln::compileCSource(source, includeDirs, **machine,
                                         llvmContext);
    if (!compiled)
      return fail(llvm::toString(compiled.takeError()));
    kiln::prepareForTarget(**compiled, **machine);
    if (llvm::Linker::linkModules(*llvmModule, std::move(*compiled)))
      return fail("cannot link " + source + " with the kernels");
  }
  kiln::internalizeAllBut(*llvmModule, exportedSymbols.empty()
                                           ? publicNames
                                           : std::vector<std::string>(
                                                 exportedSymbols.begin(),
                                                 exportedSymbols.end()));
  if (llvm::verifyModule(*llvmModule, &llvm::errs()))
    return fail("internal error: the LLVM module does not verify");

  kiln::optimizeModule(*llvmModule, **machine, optLevel);

  if (emitKind == EmitKind::LLVM) {
    llvmModule->print(output->os(), nullptr);
    output->keep();
    return 0;
  }
  if (emitKind == EmitKind::Asm || emitKind == EmitKind::Obj) {
    if (llvm::Error error = kiln::emitMachineCode(
            *llvmModule, **machine,
            emitKind == EmitKind::Asm ? llvm::CodeGenFileType::AssemblyFile
                                      : llvm::CodeGenFileType::ObjectFile,
            output->os()))
      return fail(llvm::toString(std::move(error)));
    output->keep();
    return 0;
  }

  // --emit=shared: object to a temporary file, then lld.
  llvm::SmallString<128> objectPath;
  int objectFD;
  if (std::error_code ec = llvm::sys::fs::createTemporaryFile(
          "kilnc", "o", objectFD, objectPath))
    return fail("cannot create a temporary object: " + ec.message());
  llvm::FileRemover removeObject(objectPath);
  {
    llvm::raw_fd_ostream objectStream(objectFD, /*shouldClose=*/true);
    if (llvm::Error error =
            kiln::emitMachineCode(*llvmModule, **machine,
                                  llvm::CodeGenFileType::ObjectFile,
                                  objectStream))
      return fail(llvm::toString(std::move(error)));
  }
  if (llvm::Error error = kiln::linkSharedObject(objectPath, outputFilename))
    return fail(llvm::toString(std::move(error)));
  return 0;
}
