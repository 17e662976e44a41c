// kilnc: MLIR in upstream dialects -> LLVM dialect -> LLVM IR -> optimized
// IR, assembly, an object or a shared object, all in this process.
#include "lib/Dialect/KilnAbi.h"
#include "lib/Emitter/Emitter.h"
#include "lib/Emitter/RuntimeHeaders.h"
#include "lib/Pipeline/LoweringPipeline.h"
#include "passes/Passes.h"
#include "passes/llvm/KilnLLVMPasses.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Remarks.h"
#include "mlir/Remark/RemarkStreamer.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/IR/LLVMRemarkStreamer.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Linker/Linker.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"
#include "llvm/TargetParser/Host.h"

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
    "target-cpu",
    cl::desc("LLVM CPU name, or 'native' (default), or 'portable' (x86-64-v2, v3 and v4 "
             "versions of every kernel behind one dispatching symbol), or a "
             "comma-separated list of x86-64 levels"),
    cl::init("native"), cl::cat(kilncCategory));
cl::opt<std::string> reportCPU(
    "report-cpu",
    cl::desc("Which version of a multi-versioned build the remarks, --vector-report and "
             "--ir-stats describe (one of --target-cpu's CPUs; default: the one this "
             "CPU runs, KILN_CPU_LEVEL included)"),
    cl::init(""), cl::cat(kilncCategory));
cl::opt<std::string> symbolPrefix(
    "symbol-prefix",
    cl::desc("Prefix of the public C symbol of each exported function"),
    cl::init(""), cl::cat(kilncCategory));
cl::opt<std::string> cpuVersionSymbol(
    "cpu-version-symbol",
    cl::desc("Name of the public `const char *(void)` function that says which "
             "version of the kernels runs on this CPU (default: "
             "<symbol-prefix>kiln_cpu_version)"),
    cl::init(""), cl::cat(kilncCategory));
cl::opt<std::string> soname(
    "soname",
    cl::desc("With --emit=shared: the library's DT_SONAME (default: the file "
             "name of -o), e.g. libkernels.so.1"),
    cl::init(""), cl::cat(kilncCategory));
cl::opt<std::string> symbolVersion(
    "symbol-version",
    cl::desc("With --emit=shared: version every public symbol with this "
             "version node (kernels_dot@@KERNELS_1); the library then exports "
             "nothing else"),
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
cl::opt<std::string> remarksFile(
    "remarks",
    cl::desc("Write the loop and SLP vectorizers' remarks (passed, missed and "
             "analysis) to this YAML file, the format of "
             "-fsave-optimization-record"),
    cl::value_desc("file.yaml"), cl::init(""), cl::cat(kilncCategory));
cl::opt<std::string> kilnRemarksFile(
    "kiln-remarks",
    cl::desc("Write kiln-vectorize's remarks (one verdict per loop, at its "
             "Python location) to this YAML file, in the same format as "
             "--remarks"),
    cl::value_desc("file.yaml"), cl::init(""), cl::cat(kilncCategory));
cl::opt<bool> noKilnVectorize(
    "no-kiln-vectorize",
    cl::desc("Skip the kiln-vectorize pass and leave every loop to LLVM's "
             "vectorizers (for comparisons)"),
    cl::init(false), cl::cat(kilncCategory));
cl::opt<unsigned> vectorBitsOverride(
    "vector-bits",
    cl::desc("Vector width kiln-vectorize sizes loops for (128, 256 or 512); "
             "default: the target's (512 with AVX-512, 256 with AVX2)"),
    cl::init(0), cl::cat(kilncCategory));
cl::opt<bool> noDebugInfo("no-debug-info",
                          cl::desc("Do not emit DWARF line tables"),
                          cl::init(false), cl::cat(kilncCategory));
cl::opt<bool> stripMetadataFlag(
    "strip-metadata",
    cl::desc("After optimization, drop debug info and other metadata code "
             "generation does not read, dead declarations and unreferenced "
             "internal globals (kiln-strip-metadata); with --emit=mlir-llvm, "
             "run the MLIR pass kiln-strip-mlir-metadata instead"),
    cl::init(false), cl::cat(kilncCategory));
cl::opt<bool> noRTTI(
    "no-rtti",
    cl::desc("After optimization, remove C++ type information nothing can "
             "reach (kiln-strip-rtti)"),
    cl::init(false), cl::cat(kilncCategory));
cl::opt<bool> release("release",
                      cl::desc("-O3 plus --strip-metadata and --no-rtti"),
                      cl::init(false), cl::cat(kilncCategory));
cl::opt<std::string> irStatsFile(
    "ir-stats",
    cl::desc("Write kiln-ir-stats JSON of the optimized LLVM module before "
             "and after the strips (keys \"before\", \"after\")"),
    cl::value_desc("file"), cl::cat(kilncCategory));
cl::opt<std::string> vectorReportFile(
    "vector-report",
    cl::desc("Write the kiln-vector-report JSON (SIMD coverage and lane "
             "utilisation per function, loop, block, line and instruction) "
             "of the optimized LLVM module"),
    cl::value_desc("file"), cl::cat(kilncCategory));

cl::opt<std::string> sanitize(
    "sanitize",
    cl::desc("Instrument the generated code: `address` (AddressSanitizer on "
             "the kernels and the --c-source C, after optimization) or `thread` "
             "(ThreadSanitizer, the same places), and/or `undefined` (UBSan "
             "checks in the --c-source C), comma-separated. The result needs the "
             "sanitizer's runtime loaded first, e.g. "
             "LD_PRELOAD=$(clang-22 -print-file-name=libclang_rt.asan-x86_64.so); "
             "with `thread`, parallel loops also need LLVM's OpenMP tool "
             "OMP_TOOL_LIBRARIES=/usr/lib/llvm-22/lib/libarcher.so, which tells "
             "ThreadSanitizer of the OpenMP runtime's synchronization"),
    cl::value_desc("address|thread,undefined"), cl::init(""), cl::cat(kilncCategory));

cl::opt<std::string> extensionOutput(
    "extension",
    cl::desc("With --emit=shared: also link this shared object (the CPython "
             "extension) from the same optimized kernels plus "
             "--extension-source, compiled by Clang in-process; one lowering "
             "and optimization serves both"),
    cl::value_desc("path.so"), cl::init(""), cl::cat(kilncCategory));
cl::opt<std::string> extensionSource(
    "extension-source",
    cl::desc("C file of the --extension (the generated wrappers); it may "
             "#include \"kiln_runtime.h\" and \"kiln_abi.h\", which kilnc "
             "carries, and sees the -I directories"),
    cl::value_desc("file.c"), cl::init(""), cl::cat(kilncCategory));
cl::list<std::string> extensionExports(
    "extension-export",
    cl::desc("The only symbol(s) the --extension exports (repeatable), e.g. "
             "PyInit_<name>"),
    cl::cat(kilncCategory));
cl::opt<bool> printCapabilities(
    "print-capabilities",
    cl::desc("Print what this kilnc supports as JSON (version, --emit kinds, "
             "options, and the C ABI: exception kinds, error record layout, "
             "kiln_abi.h) and exit"),
    cl::init(false), cl::cat(kilncCategory));

int fail(const llvm::Twine &message) {
  llvm::WithColor::error(llvm::errs(), "kilnc") << message << "\n";
  return 1;
}

// The C ABI as the C++ side compiles it: the dialect's exception kinds (ODS)
// and the record layout of runtime/kiln_abi.h, whose text is included so
// that generated headers copy it instead of restating it.
llvm::json::Object describeAbi() {
  llvm::json::Object kinds;
  for (uint32_t number = 1; number <= kiln::getMaxEnumValForErrorKind();
       ++number)
    if (auto kind = kiln::symbolizeErrorKind(number))
      kinds[kiln::stringifyErrorKind(*kind)] = number;
  llvm::json::Array fields;
#define KILN_RECORD_FIELD(field)                                               \
  fields.push_back(llvm::json::Object{                                         \
      {"name", #field},                                                        \
      {"offset", static_cast<int64_t>(offsetof(kiln_error, field))},           \
      {"size", static_cast<int64_t>(sizeof(((kiln_error *)nullptr)->field))}});
  KILN_RECORD_FIELD(kind)
  KILN_RECORD_FIELD(line)
  KILN_RECORD_FIELD(column)
  KILN_RECORD_FIELD(num_args)
  KILN_RECORD_FIELD(message)
  KILN_RECORD_FIELD(args)
#undef KILN_RECORD_FIELD
  return llvm::json::Object{
      {"error_kinds", std::move(kinds)},
      {"error_record",
       llvm::json::Object{{"size", kiln::ErrorRecordLayout::size},
                          {"max_args", kiln::ErrorRecordLayout::maxArgs},
                          {"fields", std::move(fields)}}},
      {"max_ndim", KILN_MAX_NDIM},
      {"header",
       llvm::json::Object{{"name", "kiln_abi.h"},
                          {"text", kiln::runtimeHeader("kiln_abi.h")}}},
  };
}

// What a driver needs to know about this kilnc, without parsing --help.
llvm::json::Object describeCapabilities() {
  llvm::json::Array emitKinds;
  for (unsigned i = 0, e = emitKind.getParser().getNumOptions(); i != e; ++i)
    emitKinds.push_back(emitKind.getParser().getOption(i));
  llvm::json::Array options;
  for (auto &entry : cl::getRegisteredOptions()) {
    cl::Option *option = entry.second;
    if (llvm::is_contained(option->Categories, &kilncCategory) &&
        !option->ArgStr.empty())
      options.push_back(option->ArgStr.str());
  }
  llvm::sort(options, [](const llvm::json::Value &a,
                         const llvm::json::Value &b) {
    return *a.getAsString() < *b.getAsString();
  });
  llvm::json::Array runtimeHeaderNames;
  for (const kiln::EmbeddedFile &header : kiln::runtimeHeaders())
    runtimeHeaderNames.push_back(header.name);
  return llvm::json::Object{
      {"schema", "kilnc-capabilities/1"},
      {"version", KILN_VERSION},
      {"llvm_version", LLVM_VERSION_STRING},
      {"emit", std::move(emitKinds)},
      {"options", std::move(options)},
      {"runtime_headers", std::move(runtimeHeaderNames)},
      {"abi", describeAbi()},
      // The levels of a portable build and the one this CPU runs, by the
      // artifacts' own CPUID rule (test_cpu_level_source.py ties both to
      // kiln/cpu_levels.py).
      {"cpu_levels",
       llvm::json::Object{
           {"portable", llvm::json::Array(kiln::targetCPUList("portable"))},
           {"this_cpu", kiln::hostMicroarchitectureLevel()}}},
  };
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  mlir::registerAsmPrinterCLOptions();
  mlir::registerMLIRContextCLOptions();
  mlir::registerPassManagerCLOptions();
  // `--help` lists kilnc's own options; LLVM's and MLIR's several hundred
  // (still accepted) move behind `--help-hidden`.
  for (auto &entry : cl::getRegisteredOptions()) {
    cl::Option *option = entry.second;
    bool ours = llvm::is_contained(option->Categories, &kilncCategory);
    bool helpOrVersion = entry.first.starts_with("help") ||
                         entry.first == "version";
    if (!ours && !helpOrVersion &&
        option->getOptionHiddenFlag() == cl::NotHidden)
      option->setHiddenFlag(cl::Hidden);
  }
  cl::ParseCommandLineOptions(argc, argv, "Kiln compiler driver\n");
  if (printCapabilities) {
    llvm::outs() << llvm::formatv("{0:2}",
                                  llvm::json::Value(describeCapabilities()))
                 << "\n";
    return 0;
  }
  if (optLevel > 3)
    return fail("-O" + llvm::Twine(optLevel) + " is not one of -O0..-O3");
  if (emitKind == EmitKind::Shared && outputFilename == "-")
    return fail("--emit=shared needs -o <file.so>");
  if (!extensionOutput.empty() && emitKind != EmitKind::Shared)
    return fail("--extension links a shared object; it needs --emit=shared");
  if (extensionOutput.empty() !=
      (extensionSource.empty() && extensionExports.empty()))
    return fail("--extension, --extension-source and --extension-export go "
                "together");
  if (release && optLevel.getNumOccurrences() && optLevel != 3)
    return fail("--release is -O3; it cannot be combined with -O" +
                llvm::Twine(optLevel));
  if (release) {
    optLevel = 3;
    stripMetadataFlag = true;
    noRTTI = true;
  }
  // lld resets every command-line option to its default when it runs
  // (cl::ResetAllOptionOccurrences), so what the extension's link needs is
  // read before the library's.
  struct {
    std::string output, source;
    std::vector<std::string> exports, includeDirs;
    unsigned optLevel;
    bool stripRTTI, stripMetadata;
  } extension{extensionOutput,
              extensionSource,
              {extensionExports.begin(), extensionExports.end()},
              {includeDirs.begin(), includeDirs.end()},
              optLevel,
              noRTTI,
              stripMetadataFlag};

  if (!irStatsFile.empty() && emitKind == EmitKind::MLIRLLVM)
    return fail("--ir-stats describes LLVM IR; it cannot be combined with "
                "--emit=mlir-llvm");
  if (!vectorReportFile.empty() && emitKind == EmitKind::MLIRLLVM)
    return fail("--vector-report describes LLVM IR; it cannot be combined "
                "with --emit=mlir-llvm");

  kiln::Instrumentation instrumentation;
  bool undefinedSanitizer = false;
  if (!sanitize.empty()) {
    llvm::SmallVector<llvm::StringRef> kinds;
    llvm::StringRef(sanitize).split(kinds, ',', -1, /*KeepEmpty=*/false);
    for (llvm::StringRef kind : kinds) {
      if (kind == "address")
        instrumentation.address = true;
      else if (kind == "thread")
        instrumentation.thread = true;
      else if (kind == "undefined")
        undefinedSanitizer = true;
      else
        return fail("--sanitize takes address, thread and/or undefined, not '" + kind +
                    "'");
    }
    if (instrumentation.address && instrumentation.thread)
      return fail("--sanitize: address and thread cannot be combined (each runtime "
                  "owns the process's shadow memory)");
    if (emitKind == EmitKind::MLIRLLVM)
      return fail("--sanitize instruments LLVM IR; it cannot be combined with "
                  "--emit=mlir-llvm");
  }
  std::vector<std::string> sanitizeArgs;
  if (instrumentation.address)
    sanitizeArgs.push_back("-fsanitize=address");
  if (instrumentation.thread)
    sanitizeArgs.push_back("-fsanitize=thread");
  if (undefinedSanitizer) {
    sanitizeArgs.push_back("-fsanitize=undefined");
    sanitizeArgs.push_back("-fno-sanitize-recover=undefined");
  }

  // One CPU, or several x86-64 levels (`portable`): then every kernel is
  // lowered and optimized once per level and each public symbol dispatches
  // (lib/Emitter/MultiVersion.cpp).
  std::vector<std::string> cpus = kiln::targetCPUList(targetCPU);
  if (cpus.empty())
    return fail("--target-cpu names no CPU");
  bool multiVersion = cpus.size() > 1;
  if (multiVersion) {
    for (const std::string &cpu : cpus)
      if (!kiln::microarchitectureLevel(cpu))
        return fail("a --target-cpu list names x86-64 levels (x86-64-v2, "
                    "x86-64-v3, x86-64-v4), not '" + cpu + "'");
    llvm::sort(cpus, [](const std::string &a, const std::string &b) {
      return kiln::microarchitectureLevel(a) < kiln::microarchitectureLevel(b);
    });
    cpus.erase(std::unique(cpus.begin(), cpus.end()), cpus.end());
    multiVersion = cpus.size() > 1;
  }
  if (multiVersion && emitKind == EmitKind::MLIRLLVM)
    return fail("--emit=mlir-llvm shows one version: give one --target-cpu");
  std::vector<std::unique_ptr<llvm::TargetMachine>> machines;
  for (const std::string &cpu : cpus) {
    auto machine = kiln::createTargetMachine(cpu, optLevel);
    if (!machine)
      return fail(llvm::toString(machine.takeError()));
    machines.push_back(std::move(*machine));
  }
  llvm::TargetMachine &baseline = *machines.front();
  // Reports (remarks, --vector-report, --ir-stats) describe the version
  // this machine runs.
  size_t reportedVersion = 0;
  if (!reportCPU.empty()) {
    auto found = llvm::find(cpus, reportCPU.getValue());
    if (found == cpus.end())
      return fail("--report-cpu=" + reportCPU + " is not one of --target-cpu's versions (" +
                  llvm::join(cpus, ", ") + ")");
    reportedVersion = found - cpus.begin();
  } else if (multiVersion) {
    int host = kiln::hostMicroarchitectureLevel();
    for (size_t i = 0; i < cpus.size(); ++i)
      if (kiln::microarchitectureLevel(cpus[i]) <= host)
        reportedVersion = i;
  }

  std::string errorMessage;
  auto input = mlir::openInputFile(inputFilename, &errorMessage);
  if (!input)
    return fail(errorMessage);
  auto output = mlir::openOutputFile(
      emitKind == EmitKind::Shared ? std::string("-") : outputFilename,
      &errorMessage);
  if (!output)
    return fail(errorMessage);

  mlir::DialectRegistry registry;
  kiln::registerKilnDialects(registry);
  llvm::LLVMContext llvmContext;
  std::vector<std::string> keptNames;
  bool printedMLIR = false;

  // The input lowered for cpus[index]: its own MLIRContext (kiln-vectorize
  // sizes vectors from the module's target attributes), translated into
  // llvmContext, the runtime C linked, optimized, reported on when it is
  // the reported version. Null after a diagnostic (or once --emit=mlir-llvm
  // printed it).
  auto lowerVersion = [&](size_t index) -> std::unique_ptr<llvm::Module> {
    llvm::TargetMachine &machine = *machines[index];
    bool reported = index == reportedVersion;
    mlir::MLIRContext context(registry);
    context.loadAllAvailableDialects();
    llvm::SourceMgr sourceMgr;
    sourceMgr.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBufferCopy(input->getBuffer(),
                                             input->getBufferIdentifier()),
        llvm::SMLoc());
    mlir::SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
    mlir::OwningOpRef<mlir::ModuleOp> module =
        mlir::parseSourceFile<mlir::ModuleOp>(sourceMgr, &context);
    if (!module)
      return nullptr;
    if (vectorBitsOverride != 0)
      (*module)->setAttr("kiln.vector_bits",
                         mlir::Builder(&context).getI64IntegerAttr(vectorBitsOverride));
    kiln::describeVectorTarget(*module, machine);
    if (reported && !kilnRemarksFile.empty()) {
      mlir::remark::RemarkCategories categories;
      // Each kind has its own filter; `all` alone enables none of them.
      categories.all = categories.passed = categories.missed =
          categories.analysis = categories.failed = std::string("kiln-vectorize");
      if (mlir::failed(mlir::remark::enableOptimizationRemarksWithLLVMStreamer(
              context, kilnRemarksFile, llvm::remarks::Format::YAML,
              std::make_unique<mlir::remark::RemarkEmittingPolicyAll>(),
              categories))) {
        fail("cannot write remarks to " + kilnRemarksFile);
        return nullptr;
      }
    }
    mlir::PassManager pm(&context);
    if (mlir::failed(mlir::applyPassManagerCLOptions(pm)))
      return nullptr;
    kiln::LoweringOptions lowering;
    lowering.debugInfo = !noDebugInfo;
    // -O0 means "as written", as in clang: no vectorization.
    lowering.vectorize = !noKilnVectorize && optLevel > 0;
    kiln::buildLowerToLLVMPipeline(pm, lowering);
    if (emitKind == EmitKind::MLIRLLVM && stripMetadataFlag)
      pm.addPass(kiln::createKilnStripMLIRMetadata());
    if (mlir::failed(pm.run(*module)))
      return nullptr;
    if (emitKind == EmitKind::MLIRLLVM) {
      module->print(output->os());
      printedMLIR = true;
      return nullptr;
    }

    std::unique_ptr<llvm::Module> llvmModule =
        kiln::translateToLLVMIR(*module, llvmContext);
    if (!llvmModule)
      return nullptr;
    kiln::prepareForTarget(*llvmModule, machine);
    std::vector<std::string> publicNames =
        kiln::exposeCInterface(*llvmModule, symbolPrefix);
    keptNames = exportedSymbols.empty()
                    ? publicNames
                    : std::vector<std::string>(exportedSymbols.begin(),
                                               exportedSymbols.end());

    std::vector<std::string> linkedSources(cSources.begin(), cSources.end());
    // The allocator memref.alloc/dealloc lower to (runtime/kiln_alloc.c),
    // internal to each artifact like the kernels' helpers.
    if (llvmModule->getFunction("_mlir_memref_to_llvm_alloc") ||
        llvmModule->getFunction("_mlir_memref_to_llvm_free") ||
        llvmModule->getFunction("memrefCopy"))
      linkedSources.push_back((kiln::runtimeIncludeDir + "/kiln_alloc.c").str());
    // The thread count and error hand-over of kiln.prange loops
    // (runtime/kiln_parallel.c).
    if (llvmModule->getFunction("kiln_parallel_thread_count") ||
        llvmModule->getFunction("kiln_parallel_raise"))
      linkedSources.push_back((kiln::runtimeIncludeDir + "/kiln_parallel.c").str());
    // Each thread's share of a static worksharing loop, without the
    // runtime's per-loop trace formatting (runtime/kiln_omp_static.c).
    bool staticLoops = llvmModule->getFunction("__kmpc_for_static_init_8u") != nullptr;
    if (staticLoops)
      linkedSources.push_back((kiln::runtimeIncludeDir + "/kiln_omp_static.c").str());
    // Python lists and dicts (runtime/kiln_list.c, kiln_dict.c) and the
    // journal that frees a raising call's containers (kiln_journal.c):
    // every lowered container is made or released through them.
    bool usesLists = llvmModule->getFunction("kiln_list_new") ||
                     llvmModule->getFunction("kiln_list_release");
    bool usesDicts = llvmModule->getFunction("kiln_dict_new") ||
                     llvmModule->getFunction("kiln_dict_release");
    // Python strings (runtime/kiln_str.c): a module that uses them calls
    // kiln_str_release (every string reference the frontend holds goes
    // through it) or raises with a string's text (kiln_error_keep_str).
    bool usesStrings = llvmModule->getFunction("kiln_str_release") ||
                       llvmModule->getFunction("kiln_error_keep_str");
    if (usesStrings) {
      usesLists = true;  // split() makes lists
      linkedSources.push_back((kiln::runtimeIncludeDir + "/kiln_str.c").str());
    }
    if (usesLists)
      linkedSources.push_back((kiln::runtimeIncludeDir + "/kiln_list.c").str());
    if (usesDicts)
      linkedSources.push_back((kiln::runtimeIncludeDir + "/kiln_dict.c").str());
    if (usesLists || usesDicts || usesStrings || llvmModule->getFunction("kiln_journal_enter"))
      linkedSources.push_back((kiln::runtimeIncludeDir + "/kiln_journal.c").str());
    // Instances of exported classes (runtime/kiln_object.c): made, retained
    // and released through it, inlined.
    if (llvmModule->getFunction("kiln_object_new") ||
        llvmModule->getFunction("kiln_object_retain") ||
        llvmModule->getFunction("kiln_object_release"))
      linkedSources.push_back((kiln::runtimeIncludeDir + "/kiln_object.c").str());
    // numpy's view-or-copy rule of reshape (runtime/kiln_shapes.c).
    if (llvmModule->getFunction("kiln_reshape_stride"))
      linkedSources.push_back((kiln::runtimeIncludeDir + "/kiln_shapes.c").str());
    for (const std::string &source : linkedSources) {
      auto compiled = kiln::compileCSource(source, includeDirs, machine,
                                           llvmContext, sanitizeArgs);
      if (!compiled) {
        fail(llvm::toString(compiled.takeError()));
        return nullptr;
      }
      kiln::prepareForTarget(**compiled, machine);
      if (llvm::Linker::linkModules(*llvmModule, std::move(*compiled))) {
        fail("cannot link " + source + " with the kernels");
        return nullptr;
      }
    }
    if (staticLoops)
      kiln::redirectStaticLoopInit(*llvmModule);
    kiln::internalizeAllBut(*llvmModule, keptNames);
    if (llvm::verifyModule(*llvmModule, &llvm::errs())) {
      fail("internal error: the LLVM module does not verify");
      return nullptr;
    }
    // The kernels from MLIR carry no sanitizer attribute; clang marked the C.
    for (llvm::Function &function : *llvmModule) {
      if (function.isDeclaration())
        continue;
      if (instrumentation.address)
        function.addFnAttr(llvm::Attribute::SanitizeAddress);
      if (instrumentation.thread)
        function.addFnAttr(llvm::Attribute::SanitizeThread);
    }

    llvm::LLVMRemarkFileHandle remarks;
    if (reported && !remarksFile.empty()) {
      auto handle = llvm::setupLLVMOptimizationRemarks(
          llvmContext, remarksFile, "loop-vectorize|slp-vectorizer", "yaml",
          /*RemarksWithHotness=*/false);
      if (!handle) {
        fail("cannot write remarks: " + llvm::toString(handle.takeError()));
        return nullptr;
      }
      remarks = std::move(*handle);
    }
    kiln::optimizeModule(*llvmModule, machine, optLevel, instrumentation);
    if (remarks) {
      remarks->keep();
      remarks.finalize();
      // The other versions' remarks would describe loops twice.
      llvmContext.setLLVMRemarkStreamer(nullptr);
      llvmContext.setMainRemarkStreamer(nullptr);
    }

    // After optimization, so that whatever reports on the optimized module
    // (--ir-stats, --vector-report, -pass-remarks) still sees locations.
    if (reported && !vectorReportFile.empty()) {
      auto reportOutput = mlir::openOutputFile(vectorReportFile, &errorMessage);
      if (!reportOutput) {
        fail(errorMessage);
        return nullptr;
      }
      reportOutput->os() << llvm::formatv(
                                "{0:2}", llvm::json::Value(kiln::collectVectorReport(
                                             *llvmModule, &machine)))
                         << "\n";
      reportOutput->keep();
    }
    llvm::json::Object statsBefore;
    if (reported && !irStatsFile.empty())
      statsBefore = kiln::collectIRStats(*llvmModule);
    if (noRTTI)
      kiln::stripRTTI(*llvmModule, {});
    if (stripMetadataFlag)
      kiln::stripMetadata(*llvmModule, {});
    if (reported && !irStatsFile.empty()) {
      auto statsOutput = mlir::openOutputFile(irStatsFile, &errorMessage);
      if (!statsOutput) {
        fail(errorMessage);
        return nullptr;
      }
      llvm::json::Object stats{{"before", std::move(statsBefore)},
                               {"after", kiln::collectIRStats(*llvmModule)}};
      statsOutput->os() << llvm::formatv("{0:2}",
                                         llvm::json::Value(std::move(stats)))
                        << "\n";
      statsOutput->keep();
    }
    return llvmModule;
  };

  // The reported version first: its remarks are the only ones recorded.
  std::vector<std::unique_ptr<llvm::Module>> versions(cpus.size());
  versions[reportedVersion] = lowerVersion(reportedVersion);
  if (printedMLIR) {
    output->keep();
    return 0;
  }
  if (!versions[reportedVersion])
    return 1;
  for (size_t i = 0; i < cpus.size(); ++i)
    if (!versions[i] && !(versions[i] = lowerVersion(i)))
      return 1;

  std::unique_ptr<llvm::Module> llvmModule = std::move(versions.front());
  // `<prefix>kiln_cpu_version()`: which version runs (tests, the report).
  std::string versionQuery = cpuVersionSymbol.empty()
                                 ? symbolPrefix + "kiln_cpu_version"
                                 : std::string(cpuVersionSymbol);
  std::string singleCPU =
      cpus.front() == "native" ? llvm::sys::getHostCPUName().str() : cpus.front();
  if (multiVersion) {
    kiln::renameVersion(*llvmModule, cpus.front());
    for (size_t i = 1; i < cpus.size(); ++i) {
      kiln::renameVersion(*versions[i], cpus[i]);
      if (llvm::Linker::linkModules(*llvmModule, std::move(versions[i])))
        return fail("cannot link the " + cpus[i] + " version with the others");
    }
    // Baseline x86-64 code without sanitizers: the resolvers run inside the
    // dynamic loader, before any sanitizer runtime could have started, on
    // CPUs the kernels' baseline may not run on.
    auto anyX86 = kiln::createTargetMachine("x86-64", optLevel);
    if (!anyX86)
      return fail(llvm::toString(anyX86.takeError()));
    auto dispatch = kiln::compileCSource(
        (kiln::runtimeIncludeDir + "/kiln_dispatch.c").str(), includeDirs, **anyX86,
        llvmContext);
    if (!dispatch)
      return fail(llvm::toString(dispatch.takeError()));
    kiln::prepareForTarget(**dispatch, **anyX86);
    kiln::optimizeModule(**dispatch, **anyX86, optLevel);
    if (llvm::Linker::linkModules(*llvmModule, std::move(*dispatch)))
      return fail("cannot link the CPU dispatch with the kernels");
    kiln::addDispatch(*llvmModule, keptNames, cpus, "__kiln_cpu_level");
  }
  kiln::addCPUVersionQuery(*llvmModule, versionQuery, cpus, "__kiln_cpu_level", singleCPU);
  std::vector<std::string> publicSymbols = keptNames;
  publicSymbols.push_back(versionQuery);
  kiln::internalizeAllBut(*llvmModule, publicSymbols);
  if (multiVersion && stripMetadataFlag)
    kiln::stripMetadata(*llvmModule, {}); // the dispatch C's debug info too
  if (llvm::verifyModule(*llvmModule, &llvm::errs()))
    return fail("internal error: the LLVM module does not verify");

  if (emitKind == EmitKind::LLVM) {
    llvmModule->print(output->os(), nullptr);
    output->keep();
    return 0;
  }
  if (emitKind == EmitKind::Asm || emitKind == EmitKind::Obj) {
    if (llvm::Error error = kiln::emitMachineCode(
            *llvmModule, baseline,
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
            kiln::emitMachineCode(*llvmModule, baseline,
                                  llvm::CodeGenFileType::ObjectFile,
                                  objectStream))
      return fail(llvm::toString(std::move(error)));
  }
  // LLVM's OpenMP runtime runs the parallel loops (kiln.prange); only the
  // artifacts that have one need it.
  std::vector<std::string> runtimeLibraries;
  if (llvm::any_of(llvmModule->functions(), [](const llvm::Function &function) {
        return function.isDeclaration() && function.getName().starts_with("__kmpc_");
      }))
    runtimeLibraries.push_back("omp");
  // ThreadSanitizer's function-exit cleanups unwind through landing pads:
  // GCC's unwinder (libgcc_s, beside every libc) runs them.
  if (instrumentation.thread)
    runtimeLibraries.push_back(":libgcc_s.so.1");
  // Symbols of a sanitizer runtime the process preloads (--sanitize).
  std::vector<llvm::StringRef> fromLoader;
  if (!sanitizeArgs.empty())
    fromLoader = {"__asan", "__ubsan", "__sanitizer", "__lsan", "__tsan"};
  if (llvm::Error error = kiln::linkSharedObject(
          {objectPath.str().str()}, outputFilename,
          symbolVersion.empty() ? std::vector<std::string>{} : publicSymbols, soname,
          symbolVersion, fromLoader, runtimeLibraries))
    return fail(llvm::toString(std::move(error)));
  if (extension.output.empty())
    return 0;

  // --extension: the same kernels' object, plus the wrappers. The wrappers
  // are compiled and optimized apart (they call the kernels through their C
  // symbols), so the kernels are lowered and optimized once for both
  // artifacts.
  auto wrappers = kiln::compileCSource(extension.source, extension.includeDirs, baseline,
                                       llvmContext, sanitizeArgs);
  if (!wrappers)
    return fail(llvm::toString(wrappers.takeError()));
  kiln::prepareForTarget(**wrappers, baseline);
  kiln::internalizeAllBut(**wrappers, extension.exports);
  if (llvm::verifyModule(**wrappers, &llvm::errs()))
    return fail("internal error: the wrappers' LLVM module does not verify");
  kiln::optimizeModule(**wrappers, baseline, extension.optLevel,
                     instrumentation);
  if (extension.stripRTTI)
    kiln::stripRTTI(**wrappers, {});
  if (extension.stripMetadata)
    kiln::stripMetadata(**wrappers, {});
  llvm::SmallString<128> wrapperObjectPath;
  int wrapperFD;
  if (std::error_code ec = llvm::sys::fs::createTemporaryFile(
          "kilnc-wrappers", "o", wrapperFD, wrapperObjectPath))
    return fail("cannot create a temporary object: " + ec.message());
  llvm::FileRemover removeWrapperObject(wrapperObjectPath);
  {
    llvm::raw_fd_ostream objectStream(wrapperFD, /*shouldClose=*/true);
    if (llvm::Error error =
            kiln::emitMachineCode(**wrappers, baseline,
                                  llvm::CodeGenFileType::ObjectFile,
                                  objectStream))
      return fail(llvm::toString(std::move(error)));
  }
  // The interpreter that imports the extension defines its C API.
  std::vector<llvm::StringRef> extensionFromLoader = {"Py", "_Py"};
  extensionFromLoader.insert(extensionFromLoader.end(), fromLoader.begin(), fromLoader.end());
  if (llvm::Error error = kiln::linkSharedObject(
          {objectPath.str().str(), wrapperObjectPath.str().str()},
          extension.output, extension.exports, "", "", extensionFromLoader,
          runtimeLibraries))
    return fail(llvm::toString(std::move(error)));
  return 0;
}
