#ifndef KILN_LIB_DIALECT_ERRORKINDS_H
#define KILN_LIB_DIALECT_ERRORKINDS_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>

namespace kiln {

// The numbering is ABI: generated wrappers (python_frontend/kiln/compiler/
// wrapper.py) and C callers (the generated <mod>.h) decode `kind` with it.
enum class ErrorKind : int32_t {
  None = 0,
  ZeroDivisionError = 1,
  IndexError = 2,
  ValueError = 3,
  OverflowError = 4,
  AssertionError = 5,
  RuntimeError = 6,
  TypeError = 7,
  MemoryError = 8,
  RecursionError = 9,
};

std::optional<ErrorKind> parseErrorKind(llvm::StringRef name);

// Byte layout of the `kiln_error` record that kernels fill on failure.
struct ErrorRecordLayout {
  static constexpr int64_t kindOffset = 0;      // i32
  static constexpr int64_t lineOffset = 4;      // i32
  static constexpr int64_t columnOffset = 8;    // i32
  static constexpr int64_t numArgsOffset = 12;  // i32
  static constexpr int64_t messageOffset = 16;  // const char *
  static constexpr int64_t argsOffset = 24;     // i64[2]
  static constexpr int64_t maxArgs = 2;
};

} // namespace kiln

#endif // KILN_LIB_DIALECT_ERRORKINDS_H
