#include "lib/Dialect/KilnDialect.h"
#include "lib/Dialect/KilnAbi.h"

#include "mlir/IR/Builders.h"

using namespace mlir;

#include "lib/Dialect/KilnDialect.cpp.inc"
#include "lib/Dialect/KilnEnums.cpp.inc"

#define GET_OP_CLASSES
#include "lib/Dialect/KilnOps.cpp.inc"

namespace kiln {

void KilnDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "lib/Dialect/KilnOps.cpp.inc"
      >();
}

// The kind is checked by its attribute (the ErrorKind enum); what is left
// is the message against its operands.
LogicalResult CheckOp::verify() {
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
