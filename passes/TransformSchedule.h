#ifndef KILN_PASSES_TRANSFORMSCHEDULE_H
#define KILN_PASSES_TRANSFORMSCHEDULE_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LogicalResult.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

namespace kiln {

// Parses `scheduleText` (a module holding the named sequence `entry`, in
// MLIR's transform dialect) and applies it to `module` once per operation
// of `ops`, each marked with the unit attribute `marker` while it is the
// one the sequence matches: one op at a time, so the schedule's handles
// each name one op. kiln-tile-matmul and kiln-parallel-arrays share it.
mlir::LogicalResult applyScheduleToEach(mlir::ModuleOp module, llvm::StringRef scheduleText,
                                        llvm::StringRef entry,
                                        llvm::ArrayRef<mlir::Operation *> ops,
                                        llvm::StringRef marker);

} // namespace kiln

#endif
