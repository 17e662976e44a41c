#include "passes/TransformSchedule.h"

#include "mlir/Dialect/Transform/IR/TransformOps.h"
#include "mlir/Dialect/Transform/Interfaces/TransformInterfaces.h"
#include "mlir/Parser/Parser.h"

using namespace mlir;

namespace kiln {

LogicalResult applyScheduleToEach(ModuleOp module, StringRef scheduleText, StringRef entry,
                                  ArrayRef<Operation *> ops, StringRef marker) {
  MLIRContext *context = module.getContext();
  OwningOpRef<ModuleOp> schedule = parseSourceString<ModuleOp>(scheduleText, context);
  auto sequence =
      schedule ? schedule->lookupSymbol<transform::NamedSequenceOp>(entry) : nullptr;
  if (!sequence)
    return module.emitError("internal error: the transform schedule @")
           << entry << " does not parse";
  for (Operation *op : ops) {
    op->setAttr(marker, UnitAttr::get(context));
    if (failed(transform::applyTransforms(module, sequence, {}, transform::TransformOptions(),
                                          /*enforceToplevelTransformOp=*/false)))
      return failure();
    // The op the schedule rewrote, and what it became, lose the mark.
    module.walk([&](Operation *marked) { marked->removeAttr(marker); });
  }
  return success();
}

} // namespace kiln
