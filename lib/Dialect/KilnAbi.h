#ifndef KILN_LIB_DIALECT_KILNABI_H
#define KILN_LIB_DIALECT_KILNABI_H

// The C ABI of compiled functions, as C++ sees it: the record layout and the
// exception numbers come from runtime/kiln_abi.h (the one source, also
// embedded in kilnc for generated C); the dialect's ErrorKind enum (ODS,
// lib/Dialect/KilnOps.td) is checked against it here, at compile time.

#include "lib/Dialect/KilnDialect.h"
#include "runtime/kiln_abi.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cstddef>
#include <string>
#include <iterator>

namespace kiln {

// Every kind of the C header exists in the dialect with the same number and
// name...
#define KILN_CHECK_ERROR_KIND(number, name, suffix)                            \
  static_assert(static_cast<int32_t>(ErrorKind::name) == number &&              \
                    KILN_##suffix == number,                                   \
                "ErrorKind::" #name " differs from runtime/kiln_abi.h");
KILN_ERROR_KINDS(KILN_CHECK_ERROR_KIND)
#undef KILN_CHECK_ERROR_KIND

// ...and the dialect has no kind the header lacks: the header numbers its
// kinds 1..N in order, the dialect's largest is N, and two dialect kinds
// cannot share a number (the generated switches would not compile).
#define KILN_ERROR_KIND_NUMBER(number, name, suffix) number,
inline constexpr int32_t kAbiErrorKindNumbers[] = {
    KILN_ERROR_KINDS(KILN_ERROR_KIND_NUMBER)};
#undef KILN_ERROR_KIND_NUMBER
constexpr bool numberedInOrder() {
  for (size_t i = 0; i < std::size(kAbiErrorKindNumbers); ++i)
    if (kAbiErrorKindNumbers[i] != static_cast<int32_t>(i + 1))
      return false;
  return true;
}
static_assert(numberedInOrder(),
              "runtime/kiln_abi.h must number its kinds 1, 2, 3, ...");
static_assert(getMaxEnumValForErrorKind() == std::size(kAbiErrorKindNumbers),
              "the dialect's ErrorKind has kinds runtime/kiln_abi.h lacks");

// The set operations of kiln.set.combine / kiln.set.update carry the
// numbers runtime/kiln_set.c's kiln_set_combine / kiln_set_update take.
#define KILN_CHECK_SET_OPERATION(number, name, suffix)                         \
  static_assert(static_cast<int32_t>(SetOperation::name) == number &&           \
                    KILN_SET_##suffix == number,                               \
                "SetOperation::" #name " differs from runtime/kiln_abi.h");
KILN_SET_OPERATIONS(KILN_CHECK_SET_OPERATION)
#undef KILN_CHECK_SET_OPERATION

// kiln.str.is's StrProperty numbers are runtime/kiln_str.c's kiln_str_is
// properties.
#define KILN_CHECK_STR_PROPERTY(number, name, suffix)                          \
  static_assert(static_cast<int32_t>(StrProperty::name) == number &&            \
                    KILN_STR_IS##suffix == number,                             \
                "StrProperty::" #name " differs from runtime/kiln_abi.h");
KILN_STR_PROPERTIES(KILN_CHECK_STR_PROPERTY)
#undef KILN_CHECK_STR_PROPERTY

// The placeholders of a kiln.check message in order, as runtime/kiln_abi.h's
// kiln_error_placeholder reads them: true for a `{!r}` (a string the record
// owns), false for a `{}` (an integer).
inline llvm::SmallVector<bool> stringPlaceholders(llvm::StringRef message) {
  llvm::SmallVector<bool> placeholders;
  std::string text = message.str();
  for (const char *c = text.c_str(); *c;) {
    int width = kiln_error_placeholder(c);
    if (width)
      placeholders.push_back(width == 4);
    c += width ? width : 1;
  }
  return placeholders;
}

// Where kiln-lower-checks stores each field of the record. kilnc only
// compiles for the machine it runs on, so the host's layout is the target's.
struct ErrorRecordLayout {
  static constexpr int64_t kindOffset = offsetof(kiln_error, kind);
  static constexpr int64_t lineOffset = offsetof(kiln_error, line);
  static constexpr int64_t columnOffset = offsetof(kiln_error, column);
  static constexpr int64_t numArgsOffset = offsetof(kiln_error, num_args);
  static constexpr int64_t messageOffset = offsetof(kiln_error, message);
  static constexpr int64_t argsOffset = offsetof(kiln_error, args);
  static constexpr int64_t argSize = sizeof(int64_t);
  static constexpr int64_t maxArgs = KILN_ERROR_MAX_ARGS;
  static constexpr int64_t size = sizeof(kiln_error);
};
static_assert(sizeof(((kiln_error *)nullptr)->kind) == 4 &&
                  sizeof(((kiln_error *)nullptr)->line) == 4 &&
                  sizeof(((kiln_error *)nullptr)->column) == 4 &&
                  sizeof(((kiln_error *)nullptr)->num_args) == 4 &&
                  sizeof(((kiln_error *)nullptr)->args[0]) == 8,
              "kiln-lower-checks stores i32 kind/line/column/num_args and "
              "i64 args");

} // namespace kiln

#endif // KILN_LIB_DIALECT_KILNABI_H
