#include "lib/Emitter/Emitter.h"

#include "lld/Common/Driver.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"

LLD_HAS_DRIVER(elf)

namespace kiln {

llvm::Error linkSharedObject(llvm::StringRef objectPath,
                             llvm::StringRef outputPath) {
  llvm::Triple triple(llvm::sys::getDefaultTargetTriple());
  // Debian's multiarch directories, e.g. /usr/lib/x86_64-linux-gnu.
  std::string multiarch = triple.getArchName().str() + "-linux-gnu";
  std::vector<std::string> storage = {
      "ld.lld", "-shared", "--eh-frame-hdr", "--hash-style=gnu",
      "--build-id=sha1", "-z", "relro", "-z", "now", "-o", outputPath.str(),
      objectPath.str(), "-L/usr/lib/" + multiarch, "-L/lib/" + multiarch,
      // Only what the code really calls ends up in DT_NEEDED.
      "--as-needed", "-lmvec", "-lm", "-lc"};
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
