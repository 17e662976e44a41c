#ifndef KILN_LIB_EMITTER_RUNTIMEHEADERS_H
#define KILN_LIB_EMITTER_RUNTIMEHEADERS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

namespace kiln {

struct EmbeddedFile {
  llvm::StringRef name;
  llvm::StringRef text;
};

// The headers of runtime/ (kiln_abi.h, kiln_runtime.h) as they were when
// kilnc was built: generated C includes them wherever kilnc is installed.
llvm::ArrayRef<EmbeddedFile> runtimeHeaders();

// The text of one of them; empty if there is no such header.
llvm::StringRef runtimeHeader(llvm::StringRef name);

// Where compileCSource's Clang finds them (a directory that exists only in
// its virtual file system).
inline constexpr llvm::StringLiteral runtimeIncludeDir =
    "/__kiln_runtime__/include";

} // namespace kiln

#endif // KILN_LIB_EMITTER_RUNTIMEHEADERS_H
