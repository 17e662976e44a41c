// An mlir-opt for Kiln: the dialects Kiln emits, the upstream passes its
// pipeline uses, and Kiln's own passes. The lit tests drive it.
#include "lib/Pipeline/LoweringPipeline.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  kiln::registerKilnDialects(registry);
  kiln::registerKilnPassesAndPipelines();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "Kiln optimizer driver\n", registry));
}
