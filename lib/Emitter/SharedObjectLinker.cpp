#include "lib/Emitter/Emitter.h"

#include "lld/Common/Driver.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"

LLD_HAS_DRIVER(elf)

namespace kiln {

// Debian's multiarch library directories, e.g. /usr/lib/x86_64-linux-gnu.
static std::vector<std::string> librarySearchDirs() {
  llvm::Triple triple(llvm::sys::getDefaultTargetTriple());
  std::string multiarch = triple.getArchName().str() + "-linux-gnu";
  return {"/usr/lib/" + multiarch, "/lib/" + multiarch};
}

// The names of the dynamic symbols `file` defines (definedOut) or needs
// (undefinedOut: strong references only; a weak one may stay unresolved),
// and its DT_NEEDED entries.
static llvm::Error readDynamicSymbols(llvm::StringRef path, llvm::StringSet<> *definedOut,
                                      std::vector<std::string> *undefinedOut,
                                      std::vector<std::string> *neededOut) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return llvm::createStringError("cannot read " + path.str() + ": " +
                                   buffer.getError().message());
  auto binary = llvm::object::ObjectFile::createObjectFile((*buffer)->getMemBufferRef());
  if (!binary)
    return binary.takeError();
  auto *elf = llvm::dyn_cast<llvm::object::ELF64LEObjectFile>(binary->get());
  if (!elf)
    return llvm::createStringError(path.str() + " is not a 64-bit little-endian ELF file");
  for (const llvm::object::ELFSymbolRef &symbol : elf->getDynamicSymbolIterators()) {
    auto name = symbol.getName();
    auto flags = symbol.getFlags();
    if (!name || !flags)
      return llvm::createStringError("cannot read the dynamic symbols of " + path.str());
    if (name->empty())
      continue;
    bool undefined = *flags & llvm::object::SymbolRef::SF_Undefined;
    if (!undefined && definedOut)
      definedOut->insert(*name);
    if (undefined && undefinedOut && !(*flags & llvm::object::SymbolRef::SF_Weak))
      undefinedOut->push_back(name->str());
  }
  if (!neededOut)
    return llvm::Error::success();
  const auto &file = elf->getELFFile();
  auto entries = file.dynamicEntries();
  if (!entries)
    return entries.takeError();
  uint64_t stringTable = 0;
  std::vector<uint64_t> neededOffsets;
  for (const auto &entry : *entries) {
    if (entry.d_tag == llvm::ELF::DT_STRTAB)
      stringTable = entry.getPtr();
    else if (entry.d_tag == llvm::ELF::DT_NEEDED)
      neededOffsets.push_back(entry.getVal());
  }
  if (neededOffsets.empty())
    return llvm::Error::success();
  auto strings = file.toMappedAddr(stringTable);
  if (!strings)
    return strings.takeError();
  for (uint64_t offset : neededOffsets)
    neededOut->push_back(reinterpret_cast<const char *>(*strings + offset));
  return llvm::Error::success();
}

llvm::Error checkSymbolsResolve(llvm::StringRef path,
                                llvm::ArrayRef<llvm::StringRef> providedByLoader) {
  std::vector<std::string> undefined, needed;
  if (llvm::Error error = readDynamicSymbols(path, nullptr, &undefined, &needed))
    return error;
  if (undefined.empty())
    return llvm::Error::success();
  llvm::StringSet<> defined;
  for (const std::string &library : needed) {
    bool found = false;
    for (const std::string &dir : librarySearchDirs()) {
      llvm::SmallString<128> candidate(dir);
      llvm::sys::path::append(candidate, library);
      if (!llvm::sys::fs::exists(candidate))
        continue;
      if (llvm::Error error = readDynamicSymbols(candidate, &defined, nullptr, nullptr))
        return error;
      found = true;
      break;
    }
    if (!found)
      return llvm::createStringError(path.str() + " needs " + library +
                                     ", which is in no library directory");
  }
  std::vector<std::string> missing;
  for (const std::string &symbol : undefined) {
    bool fromLoader = llvm::any_of(providedByLoader, [&](llvm::StringRef prefix) {
      return llvm::StringRef(symbol).starts_with(prefix);
    });
    if (!fromLoader && !defined.contains(symbol))
      missing.push_back(symbol);
  }
  if (missing.empty())
    return llvm::Error::success();
  return llvm::createStringError(
      "internal error: " + path.str() + " would not load: no library it needs (" +
      (needed.empty() ? std::string("none") : llvm::join(needed, ", ")) + ") defines " +
      llvm::join(missing, ", "));
}

llvm::Error linkSharedObject(llvm::ArrayRef<std::string> objectPaths,
                             llvm::StringRef outputPath,
                             llvm::ArrayRef<std::string> exportedSymbols,
                             llvm::StringRef soname, llvm::StringRef versionNode,
                             llvm::ArrayRef<llvm::StringRef> providedByLoader,
                             llvm::ArrayRef<std::string> extraLibraries) {
  // A copy: lld resets the process's cl::opt values when it returns, and
  // outputPath may be one of them (kilnc's -o).
  std::string output = outputPath.str();
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
                 {// Only what the code really calls ends up in DT_NEEDED.
                  "--as-needed", "-lmvec", "-lm", "-lc"});
  for (const std::string &library : extraLibraries)
    storage.push_back("-l" + library);
  // DT_RUNPATH $ORIGIN: a runtime library carried beside the artifact (a
  // wheel from kiln.build_hook ships libomp.so.5 next to its modules) is
  // found first, the system's otherwise. The loader keeps one copy per
  // DT_SONAME, so a process that already loaded the system's uses that.
  if (!extraLibraries.empty())
    storage.insert(storage.end(), {"-rpath", "$ORIGIN"});
  for (const std::string &dir : librarySearchDirs())
    storage.push_back("-L" + dir);

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
  // A shared object links with undefined symbols (they are the loader's to
  // resolve); one no NEEDED library defines would fail at dlopen, and a
  // built module that cannot load is a failed build.
  if (llvm::Error error = checkSymbolsResolve(output, providedByLoader)) {
    llvm::sys::fs::remove(output);
    return error;
  }
  return llvm::Error::success();
}

} // namespace kiln
