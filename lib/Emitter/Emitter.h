#ifndef KILN_LIB_EMITTER_EMITTER_H
#define KILN_LIB_EMITTER_EMITTER_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CodeGen.h"
#include "llvm/Support/Error.h"
#include "llvm/Target/TargetMachine.h"

#include <memory>
#include <string>
#include <vector>

namespace kiln {

// A TargetMachine for the host triple. `cpu` is an LLVM CPU name
// (`x86-64-v3`, `znver3`, ...) or `native` for the CPU this runs on, with
// its exact feature set. Objects are position independent: every artifact
// Kiln writes is a shared object.
llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
createTargetMachine(llvm::StringRef cpu, unsigned optLevel);

// Translates a module already in the LLVM dialect; emits an MLIR diagnostic
// and returns null on failure.
std::unique_ptr<llvm::Module> translateToLLVMIR(mlir::ModuleOp module,
                                                llvm::LLVMContext &context);

// Sets triple, data layout and per-function target attributes so that
// modules from MLIR and from Clang agree and a kernel can inline into its
// wrapper.
void prepareForTarget(llvm::Module &module, llvm::TargetMachine &machine);

// Records the machine's vector width and ISA on the MLIR module
// (`kiln.vector_bits`, `kiln.vector_isa`) for kiln-vectorize, unless the
// module already says.
void describeVectorTarget(mlir::ModuleOp module, llvm::TargetMachine &machine);

// Gives each exported function's C interface (`_mlir_ciface_<name>`, taking
// memref descriptors by pointer) the public name `<prefix><name>`; every
// other definition becomes internal. Returns the public names.
std::vector<std::string> exposeCInterface(llvm::Module &module,
                                          llvm::StringRef symbolPrefix);

// Compiles a C file with Clang's libraries in this process. `extraArgs` go
// to the clang driver after Kiln's own flags (kilnc --sanitize passes
// -fsanitize=... there).
llvm::Expected<std::unique_ptr<llvm::Module>>
compileCSource(llvm::StringRef path, const std::vector<std::string> &includeDirs,
               llvm::TargetMachine &machine, llvm::LLVMContext &context,
               const std::vector<std::string> &extraArgs = {});

// Points the module's calls of libomp's __kmpc_for_static_init_8u and
// __kmpc_for_static_fini at Kiln's (runtime/kiln_omp_static.c, linked in),
// except the fallback call inside Kiln's own.
void redirectStaticLoopInit(llvm::Module &module);

// Makes every definition internal except `exported`.
void internalizeAllBut(llvm::Module &module,
                       const std::vector<std::string> &exported);

// The sanitizers whose instrumentation kilnc --sanitize adds to generated
// code (UBSan's is clang's, in the C it compiles).
struct Instrumentation {
  bool address = false;  // AddressSanitizer
  bool thread = false;   // ThreadSanitizer
};

// The new pass manager's default pipeline at -O<optLevel>. With a sanitizer
// of `instrumentation`, it instruments every function marked
// `sanitize_address` / `sanitize_thread` at the end of the pipeline, where
// clang runs it.
void optimizeModule(llvm::Module &module, llvm::TargetMachine &machine,
                    unsigned optLevel, Instrumentation instrumentation = {});

llvm::Error emitMachineCode(llvm::Module &module, llvm::TargetMachine &machine,
                            llvm::CodeGenFileType fileType,
                            llvm::raw_pwrite_stream &out);

// Links objects into a shared library with lld, in this process. The
// result depends only on libc and libm (and on nothing at all when the code
// calls neither); undefined Python C-API symbols are left for the
// interpreter to resolve at import. With `exportedSymbols`, only those stay
// in the dynamic symbol table (a version script makes the rest local): the
// CPython extension links the kernels' object, whose C ABI symbols are
// public in lib<mod>.so, and exports only PyInit_<name>.
// `soname` is DT_SONAME (default: the output's file name); `versionNode`
// names the version script's node, so that each exported symbol carries
// that version.
// After linking, every strong undefined dynamic symbol must be defined by a
// DT_NEEDED library, or start with one of `providedByLoader` (the CPython
// API for an extension, a sanitizer runtime): otherwise the output would
// fail to load with RTLD_NOW, and linking fails. `extraLibraries` are
// linked by name (-l) besides libmvec, libm and libc: "omp" for code with
// parallel loops.
llvm::Error linkSharedObject(llvm::ArrayRef<std::string> objectPaths,
                             llvm::StringRef outputPath,
                             llvm::ArrayRef<std::string> exportedSymbols = {},
                             llvm::StringRef soname = "",
                             llvm::StringRef versionNode = "",
                             llvm::ArrayRef<llvm::StringRef> providedByLoader = {},
                             llvm::ArrayRef<std::string> extraLibraries = {});

// The check linkSharedObject makes, for a shared object made elsewhere.
llvm::Error checkSymbolsResolve(llvm::StringRef path,
                                llvm::ArrayRef<llvm::StringRef> providedByLoader = {});

// ---- Function multi-versioning (MultiVersion.cpp)
//
// `--target-cpu=portable` is x86-64-v2,x86-64-v3,x86-64-v4: the kernels are
// lowered and optimized once per level, each public symbol becomes an IFUNC
// whose resolver (run once, by the dynamic loader) picks the highest level
// this CPU reaches (runtime/kiln_dispatch.c, __kiln_cpu_level).

// The CPUs of a --target-cpu value: `portable`, a comma-separated list, or
// one name.
std::vector<std::string> targetCPUList(llvm::StringRef option);

// 2, 3 or 4 for x86-64-v2..v4; 0 for any other CPU name.
int microarchitectureLevel(llvm::StringRef cpu);

// The level of the CPU kilnc runs on (1 below v2).
int hostMicroarchitectureLevel();

// `.x86_64_v3`: what a version's symbols are suffixed with.
std::string versionSuffix(llvm::StringRef cpu);

// Renames every function defined in one version's module to name + suffix.
void renameVersion(llvm::Module &module, llvm::StringRef cpu);

// In the module holding every version (`cpus` in increasing level, the
// first the baseline): for each public name, an internal resolver and an
// external IFUNC of that name; the versions become internal.
void addDispatch(llvm::Module &module, const std::vector<std::string> &publicNames,
                 const std::vector<std::string> &cpus, llvm::StringRef levelFunction);

// `const char *name(void)`: the CPU whose version runs here (`singleCPU`
// when there is one version).
void addCPUVersionQuery(llvm::Module &module, llvm::StringRef name,
                        const std::vector<std::string> &cpus, llvm::StringRef levelFunction,
                        llvm::StringRef singleCPU);

} // namespace kiln

#endif // KILN_LIB_EMITTER_EMITTER_H
