#include "lib/Emitter/Emitter.h"

#include "lld/Common/Driver.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"

LLD_HAS_DRIVER(elf)

namespace kiln {

llvm::Error linkSharedObject(llvm::ArrayRef<std::string> objectPaths,
                             llvm::StringRef outputPath,
                             llvm::ArrayRef<std::string> exportedSymbols,
                             llvm::StringRef soname, llvm::StringRef versionNode) {
  llvm::Triple triple(llvm::sys::getDefaultTargetTriple());
  // Debian's multiarch directories, e.g. /usr/lib/x86_64-linux-gnu.
  std::string multiarch = triple.getArchName().str() + "-linux-gnu";
  std::vector<std::string> storage = {
      "ld.lld", "-shared", "--eh-frame-hdr", "--hash-style=gnu",
      "--build-id=sha1", "-z", "relro", "-z", "now", "-o", outputPath.str(),
      // DT_SONAME (by default the file's own name), which a C program
      // linked with -l<mod> records as what it needs (not the build
      // directory's path)
      "-soname", soname.empty() ? llvm::sys::path::filename(outputPath).str()
                                : soname.str()};
  storage.insert(storage.end(), objectPaths.begin(), objectPaths.end());
  storage.insert(storage.end(),
                 {"-L/usr/lib/" + multiarch, "-L/lib/" + multiarch,
                  // Only what the code really calls ends up in DT_NEEDED.
                  "--as-needed", "-lmvec", "-lm", "-lc"});

  llvm::SmallString<128> scriptPath;
  std::optional<llvm::FileRemover> removeScript;
  if (!exportedSymbols.empty()) {
    int scriptFD;
    if (std::error_code ec = llvm::sys::fs::createTemporaryFile(
            "kilnc-exports", "map", scriptFD, scriptPath))
      return llvm::createStringError("cannot create a version script: " +
                                     ec.message());
    removeScript.emplace(scriptPath);
    llvm::raw_fd_ostream script(scriptFD, /*shouldClose=*/true);
    // A named node versions every exported symbol (`kernels_dot@@KERNELS_1`).
    script << versionNode << (versionNode.empty() ? "" : " ") << "{\n  global:\n";
    for (const std::string &symbol : exportedSymbols)
      script << "    " << symbol << ";\n";
    script << "  local: *;\n};\n";
    script.close();
    if (script.has_error())
      return llvm::createStringError("cannot write the version script " +
                                     scriptPath.str().str());
    storage.push_back("--version-script=" + scriptPath.str().str());
  }

  std::vector<const char *> args;
  for (const std::string &arg : storage)
    args.push_back(arg.c_str());

  std::string messages;
  llvm::raw_string_ostream messageStream(messages);
  lld::Result result = lld::lldMain(args, messageStream, messageStream,
                                    {{lld::Gnu, &lld::elf::link}});
  if (result.retCode != 0)
    return llvm::createStringError("lld failed to link " + outputPath.str() +
                                   ":\n" + messages);
  return llvm::Error::success();
}

} // namespace kiln
