#include "lib/Emitter/RuntimeHeaders.h"

namespace kiln {

#include "lib/Emitter/RuntimeHeaders.inc"

llvm::ArrayRef<EmbeddedFile> runtimeHeaders() { return kEmbeddedFiles; }

llvm::StringRef runtimeHeader(llvm::StringRef name) {
  for (const EmbeddedFile &file : kEmbeddedFiles)
    if (file.name == name)
      return file.text;
  return {};
}

} // namespace kiln
