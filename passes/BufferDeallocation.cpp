#include "passes/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/DenseMap.h"

namespace kiln {
#define GEN_PASS_DEF_KILNBUFFERDEALLOCATION
#include "passes/Passes.h.inc"
} // namespace kiln

using namespace mlir;

namespace kiln {
namespace {

// Upstream's ownership-based buffer deallocation, with the ownership of a
// function's returned arrays decided by their addresses at the call site
// instead of by upstream's public-function rule (which copies a returned
// argument so the caller can own the result) or its i1 result per array
// (which would change the C ABI). Passes.td describes the rule.
class BufferDeallocation
    : public impl::KilnBufferDeallocationBase<BufferDeallocation> {
public:
  void runOnOperation() override {
    ModuleOp module = getOperation();
    // Every defined function is private while upstream's pass runs, so it
    // returns an ownership flag per array instead of copying.
    llvm::DenseMap<StringAttr, FunctionType> published;
    for (auto func : module.getOps<func::FuncOp>())
      if (!func.isExternal() && func.isPublic()) {
        published[func.getSymNameAttr()] = func.getFunctionType();
        func.setPrivate();
      }
    OpPassManager pipeline(ModuleOp::getOperationName());
    bufferization::OwnershipBasedBufferDeallocationPassOptions options;
    options.privateFuncDynamicOwnership = true;
    pipeline.addPass(bufferization::createOwnershipBasedBufferDeallocationPass(options));
    if (failed(runPipeline(pipeline, module)))
      return signalPassFailure();

    // The flags go; each caller computes them from the addresses.
    SmallVector<func::CallOp> calls;
    module.walk([&](func::CallOp call) {
      if (published.count(call.getCalleeAttr().getAttr()))
        calls.push_back(call);
    });
    for (func::CallOp call : calls)
      dropOwnershipResults(call, published.lookup(call.getCalleeAttr().getAttr()));
    for (auto func : module.getOps<func::FuncOp>()) {
      auto found = published.find(func.getSymNameAttr());
      if (found == published.end())
        continue;
      unsigned kept = found->second.getNumResults();
      func.walk([&](func::ReturnOp ret) {
        ret->setOperands(ret.getOperands().take_front(kept));
      });
      func.setType(found->second);
      func.setPublic();
    }
  }

private:
  // `call` returns (results..., one i1 per memref result); `original` is
  // the callee's type without the flags. A returned array is the caller's
  // unless its buffer is the buffer of an array the caller passed in: the
  // callee returned (a view of) its argument then.
  void dropOwnershipResults(func::CallOp call, FunctionType original) {
    unsigned kept = original.getNumResults();
    if (call.getNumResults() == kept)
      return;
    OpBuilder builder(call);
    Location loc = call.getLoc();
    auto replacement = func::CallOp::create(builder, loc, call.getCalleeAttr(),
                                            original.getResults(), call.getOperands());
    replacement->setAttrs(call->getAttrs());
    SmallVector<Value> argumentBuffers = memrefAddresses(builder, loc, call.getOperands());
    unsigned flag = kept;
    for (unsigned i = 0; i < kept; ++i) {
      call.getResult(i).replaceAllUsesWith(replacement.getResult(i));
      if (!isa<MemRefType>(original.getResult(i)))
        continue;
      Value buffer =
          memref::ExtractAlignedPointerAsIndexOp::create(builder, loc, replacement.getResult(i));
      call.getResult(flag++).replaceAllUsesWith(
          callerOwnsResult(builder, loc, buffer, argumentBuffers));
    }
    call.erase();
  }
};

} // namespace

SmallVector<Value> memrefAddresses(OpBuilder &builder, Location loc, ValueRange values) {
  SmallVector<Value> addresses;
  for (Value value : values)
    if (isa<MemRefType>(value.getType()))
      addresses.push_back(memref::ExtractAlignedPointerAsIndexOp::create(builder, loc, value));
  return addresses;
}

Value callerOwnsResult(OpBuilder &builder, Location loc, Value resultAddress,
                       ArrayRef<Value> argumentAddresses) {
  Value owned = arith::ConstantOp::create(builder, loc, builder.getBoolAttr(true));
  for (Value argument : argumentAddresses)
    owned = arith::AndIOp::create(
        builder, loc, owned,
        arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ne, resultAddress, argument));
  return owned;
}

} // namespace kiln
