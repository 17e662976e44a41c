#include "lib/Dialect/KilnDialect.h"
#include "lib/Dialect/ErrorKinds.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;

#include "lib/Dialect/KilnDialect.cpp.inc"

#define GET_OP_CLASSES
#include "lib/Dialect/KilnOps.cpp.inc"

namespace kiln {

std::optional<ErrorKind> parseErrorKind(llvm::StringRef name) {
  return llvm::StringSwitch<std::optional<ErrorKind>>(name)
      .Case("ZeroDivisionError", ErrorKind::ZeroDivisionError)
      .Case("IndexError", ErrorKind::IndexError)
      .Case("ValueError", ErrorKind::ValueError)
      .Case("OverflowError", ErrorKind::OverflowError)
      .Case("AssertionError", ErrorKind::AssertionError)
      .Case("RuntimeError", ErrorKind::RuntimeError)
      .Case("TypeError", ErrorKind::TypeError)
      .Case("MemoryError", ErrorKind::MemoryError)
      .Case("RecursionError", ErrorKind::RecursionError)
      .Default(std::nullopt);
}

void KilnDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "lib/Dialect/KilnOps.cpp.inc"
      >();
}

LogicalResult CheckOp::verify() {
  if (!parseErrorKind(getKind()))
    return emitOpError() << "unknown exception kind '" << getKind()
                         << "'; expected ZeroDivisionError, IndexError, "
                            "ValueError, OverflowError, AssertionError, "
                            "RuntimeError, TypeError, MemoryError or "
                            "RecursionError";
  if (static_cast<int64_t>(getArgs().size()) > ErrorRecordLayout::maxArgs)
    return emitOpError() << "takes at most " << ErrorRecordLayout::maxArgs
                         << " message operands, got " << getArgs().size();
  size_t placeholders = 0;
  for (size_t pos = getMessage().find("{}"); pos != llvm::StringRef::npos;
       pos = getMessage().find("{}", pos + 2))
    ++placeholders;
  if (placeholders != getArgs().size())
    return emitOpError() << "message has " << placeholders
                         << " '{}' placeholders but " << getArgs().size()
                         << " operands";
  return success();
}

} // namespace kiln
