#include "passes/Passes.h"

#include "llvm/ADT/SmallPtrSet.h"

namespace kiln {
#define GEN_PASS_DEF_KILNCLEARADDRESSNUW
#include "passes/Passes.h.inc"
} // namespace kiln

using namespace mlir;

namespace kiln {
namespace {

// MLIR 22's memref-to-LLVM lowering marks every element address it computes
// `getelementptr inbounds|nuw`, and `getStridedElementPtr` turns that `nuw`
// into `overflow<nsw, nuw>` on each `index * stride` and `offset + ...` it
// emits. A negative stride (a Python view `x[::-1]`, static or known only at
// run time) is a huge unsigned number, so `i * stride` wraps unsigned: the
// address is poison, and LLVM drops or misplaces the access (a store through
// `t[::-1]` of a local array vanished: fuzzer seed 3141592, f2054). Upstream
// fixed the lowering after LLVM 22 (llvm-project#204309: `nuw` only when
// every stride is static and non-negative). Kiln's views have dynamic
// strides, so this pass does what the fixed lowering does for them: it
// clears `nuw` from every address computation and keeps `inbounds`/`nsw`,
// which hold for the in-bounds accesses Kiln emits (each index is checked
// or proven in bounds).
class ClearAddressNuw : public impl::KilnClearAddressNuwBase<ClearAddressNuw> {
public:
  void runOnOperation() override {
    SmallVector<Value> worklist;
    llvm::SmallPtrSet<Operation *, 32> visited;
    getOperation()->walk([&](LLVM::GEPOp gep) {
      LLVM::GEPNoWrapFlags flags = gep.getNoWrapFlags();
      if (LLVM::bitEnumContainsAny(flags, LLVM::GEPNoWrapFlags::nuw))
        gep.setNoWrapFlags(flags & ~LLVM::GEPNoWrapFlags::nuw);
      for (Value index : gep.getDynamicIndices())
        worklist.push_back(index);
    });
    // The index arithmetic that feeds the addresses: adds, multiplies and
    // the extensions between them.
    while (!worklist.empty()) {
      Operation *op = worklist.pop_back_val().getDefiningOp();
      if (!op || !visited.insert(op).second)
        continue;
      if (!isa<LLVM::AddOp, LLVM::MulOp, LLVM::SubOp, LLVM::ShlOp, LLVM::SExtOp,
               LLVM::ZExtOp, LLVM::TruncOp>(op))
        continue;
      if (auto overflow = dyn_cast<LLVM::IntegerOverflowFlagsInterface>(op)) {
        LLVM::IntegerOverflowFlags flags = overflow.getOverflowFlags();
        if (LLVM::bitEnumContainsAny(flags, LLVM::IntegerOverflowFlags::nuw))
          overflow.setOverflowFlags(flags & ~LLVM::IntegerOverflowFlags::nuw);
      }
      for (Value operand : op->getOperands())
        worklist.push_back(operand);
    }
  }
};

} // namespace
} // namespace kiln
