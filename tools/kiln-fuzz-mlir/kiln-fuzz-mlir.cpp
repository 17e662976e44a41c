// kiln-fuzz-mlir: a libFuzzer target over everything kilnc and kiln-opt do
// with an MLIR file before LLVM's own optimizer runs.
//
//   bytes -> parse (+ verify) with the dialects kilnc registers
//         -> each Kiln pass alone, as `kiln-opt -<pass>` runs it
//         -> the kiln-lower-to-llvm pipeline, as kilnc runs it
//         -> LLVM IR -> exposeCInterface, verifier, Kiln's LLVM passes
//
// Every pass manager runs with the verifier on, as in kilnc and kiln-opt.
// A diagnostic (parse error, verifier error, pass failure) is a normal
// outcome; a crash, an ASan or a UBSan report is a bug. Seeds and the
// dictionary: scripts/fuzz-mlir.sh.
#include "lib/Emitter/Emitter.h"
#include "lib/Pipeline/LoweringPipeline.h"
#include "passes/Passes.h"
#include "passes/llvm/KilnLLVMPasses.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Remarks.h"
#include "mlir/Remark/RemarkStreamer.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdlib>
#include <functional>
#include <memory>
#include <string>

namespace {

mlir::DialectRegistry *registry;
llvm::TargetMachine *machine;

// Runs `populate`'s passes on a clone of `module`; the result is discarded.
void runOnClone(mlir::ModuleOp module,
                const std::function<void(mlir::PassManager &)> &populate) {
  mlir::OwningOpRef<mlir::ModuleOp> clone = module.clone();
  mlir::PassManager pm(module.getContext());
  pm.enableVerifier(true);
  populate(pm);
  (void)pm.run(*clone);
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  registry = new mlir::DialectRegistry();
  kiln::registerKilnDialects(*registry);
  // A fixed CPU, so a reproducer behaves the same on every machine.
  auto created = kiln::createTargetMachine("x86-64-v3", 3);
  if (!created) {
    llvm::errs() << llvm::toString(created.takeError()) << "\n";
    std::abort();
  }
  machine = created->release();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // kilnc and kiln-opt read files into null-terminated buffers; so does this.
  std::string text(reinterpret_cast<const char *>(data), size);
  mlir::MLIRContext context(*registry, mlir::MLIRContext::Threading::DISABLED);
  context.loadAllAvailableDialects();
  mlir::ScopedDiagnosticHandler quiet(
      &context, [](mlir::Diagnostic &) { return mlir::success(); });

  // kiln build always asks for kiln-vectorize's remarks (kilnc
  // --kiln-remarks), which takes the vectorizer through the remark engine.
  mlir::remark::RemarkCategories categories;
  categories.all = categories.passed = categories.missed =
      categories.analysis = categories.failed = std::string("kiln-vectorize");
  if (mlir::failed(mlir::remark::enableOptimizationRemarksWithLLVMStreamer(
          context, "/dev/null", llvm::remarks::Format::YAML,
          std::make_unique<mlir::remark::RemarkEmittingPolicyAll>(),
          categories)))
    std::abort();

  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBuffer(text, "fuzz.mlir",
                                       /*RequiresNullTerminator=*/true),
      llvm::SMLoc());
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceFile<mlir::ModuleOp>(sourceMgr, &context);
  if (!module)
    return 0;
  kiln::describeVectorTarget(*module, *machine);

  // Options kiln-opt users can pick, chosen by the input's hash so that
  // each option stays reachable and a reproducer is deterministic.
  uint64_t hash = llvm::hash_value(llvm::StringRef(text));
  kiln::KilnVectorizeOptions vectorizeOptions;
  static const unsigned kBits[] = {0, 128, 256, 512};
  static const kiln::TailStrategy kTails[] = {kiln::TailStrategy::Auto,
                                             kiln::TailStrategy::Mask,
                                             kiln::TailStrategy::Epilogue};
  vectorizeOptions.vectorBits = kBits[hash % 4];
  vectorizeOptions.tail = kTails[(hash >> 2) % 3];
  vectorizeOptions.interleave = (hash >> 4) % 3;

  // Each Kiln pass alone (kiln-opt -<pass>).
  runOnClone(*module, [](mlir::PassManager &pm) {
    pm.addNestedPass<mlir::func::FuncOp>(kiln::createKilnHoistBoundsChecks());
  });
  runOnClone(*module, [](mlir::PassManager &pm) {
    pm.addPass(kiln::createKilnLowerToStd());
  });
  runOnClone(*module, [&](mlir::PassManager &pm) {
    pm.addPass(kiln::createKilnVectorize(vectorizeOptions));
  });
  runOnClone(*module, [](mlir::PassManager &pm) {
    pm.addPass(kiln::createKilnLowerChecks());
  });
  runOnClone(*module, [](mlir::PassManager &pm) {
    pm.addPass(kiln::createKilnStripMLIRMetadata());
  });

  // The whole pipeline, as kilnc runs it (-O0 skips kiln-vectorize).
  mlir::PassManager pm(&context);
  pm.enableVerifier(true);
  kiln::LoweringOptions lowering;
  lowering.vectorize = (hash >> 6) % 4 != 0;
  kiln::buildLowerToLLVMPipeline(pm, lowering);
  if (mlir::failed(pm.run(*module)))
    return 0;

  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule =
      kiln::translateToLLVMIR(*module, llvmContext);
  if (!llvmModule)
    return 0;
  kiln::prepareForTarget(*llvmModule, *machine);
  std::vector<std::string> publicNames = kiln::exposeCInterface(*llvmModule, "k_");
  kiln::internalizeAllBut(*llvmModule, publicNames);
  if (llvm::verifyModule(*llvmModule, nullptr))
    return 0;
  (void)kiln::collectVectorReport(*llvmModule, machine);
  (void)kiln::collectIRStats(*llvmModule);
  kiln::stripRTTI(*llvmModule, {});
  kiln::stripMetadata(*llvmModule, {});
  return 0;
}
