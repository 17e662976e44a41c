#ifndef KILN_LIB_DIALECT_KILNDIALECT_H
#define KILN_LIB_DIALECT_KILNDIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

#include "lib/Dialect/KilnDialect.h.inc"
#include "lib/Dialect/KilnEnums.h.inc"

#define GET_TYPEDEF_CLASSES
#include "lib/Dialect/KilnTypes.h.inc"

#define GET_OP_CLASSES
#include "lib/Dialect/KilnOps.h.inc"

#endif // KILN_LIB_DIALECT_KILNDIALECT_H
