#include "passes/Passes.h"

#include "lib/Dialect/KilnAbi.h"
#include "lib/Dialect/KilnDialect.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/StringMap.h"

namespace kiln {
#define GEN_PASS_DEF_KILNLOWERCHECKS
#include "passes/Passes.h.inc"
} // namespace kiln

using namespace mlir;

namespace kiln {
namespace {

std::optional<unsigned> findErrorSlot(func::FuncOp func) {
  for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i)
    if (func.getArgAttr(i, "kiln.error_slot"))
      return i;
  return std::nullopt;
}

Value zeroValue(OpBuilder &builder, Location loc, Type type) {
  if (isa<IntegerType, FloatType, IndexType>(type))
    return arith::ConstantOp::create(builder, loc, builder.getZeroAttr(type));
  return ub::PoisonOp::create(builder, loc, type);
}

class LowerChecks : public impl::KilnLowerChecksBase<LowerChecks> {
public:
  void runOnOperation() override {
    getOperation().walk([&](func::FuncOp func) { journalAllocations(func); });
    SmallVector<CheckOp> checks;
    getOperation().walk([&](CheckOp check) { checks.push_back(check); });
    for (CheckOp check : checks)
      if (failed(lower(check)))
        return signalPassFailure();
    SmallVector<PropagateErrorOp> propagations;
    getOperation().walk(
        [&](PropagateErrorOp op) { propagations.push_back(op); });
    for (PropagateErrorOp op : propagations)
      if (failed(lower(op)))
        return signalPassFailure();
    // The marker has done its job; LLVM IR translation does not know it.
    getOperation().walk([](func::FuncOp func) {
      for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i)
        func.removeArgAttr(i, "kiln.error_slot");
    });
  }

private:
  llvm::StringMap<LLVM::GlobalOp> messageGlobals;

  LLVM::GlobalOp messageGlobal(StringRef message, Location loc) {
    auto found = messageGlobals.find(message);
    if (found != messageGlobals.end())
      return found->second;
    ModuleOp module = getOperation();
    OpBuilder builder = OpBuilder::atBlockBegin(module.getBody());
    std::string text = message.str();
    text.push_back('\0');
    auto type = LLVM::LLVMArrayType::get(builder.getI8Type(), text.size());
    std::string name = "__kiln_message_" + std::to_string(messageGlobals.size());
    auto global = LLVM::GlobalOp::create(
        builder, loc, type, /*isConstant=*/true, LLVM::Linkage::Private, name,
        builder.getStringAttr(text));
    messageGlobals[message] = global;
    return global;
  }

  // The enclosing function's error slot, or a diagnostic on `op`.
  FailureOr<Value> errorSlot(Operation *op) {
    auto func = op->getParentOfType<func::FuncOp>();
    if (!func)
      return op->emitOpError("must be nested in a func.func");
    if (op->getParentRegion() != &func.getBody())
      return op->emitOpError(
          "must be in the function's top-level region: run convert-scf-to-cf "
          "before kiln-lower-checks");
    std::optional<unsigned> slotIndex = findErrorSlot(func);
    if (!slotIndex)
      return op->emitOpError(
          "requires the enclosing function to have an argument marked "
          "'kiln.error_slot'");
    Value slot = func.getArgument(*slotIndex);
    if (!isa<LLVM::LLVMPointerType>(slot.getType()))
      return op->emitOpError("'kiln.error_slot' argument must be !llvm.ptr");
    return slot;
  }

  // Splits the block after `op` and branches to a new cold block (returned)
  // when `failed` holds; execution continues after `op` otherwise.
  Block *branchToColdBlock(Operation *op, Value failed, Location loc) {
    auto func = op->getParentOfType<func::FuncOp>();
    Block *block = op->getBlock();
    Block *continueBlock = block->splitBlock(std::next(Block::iterator(op)));
    Block *coldBlock = new Block();
    func.getBody().getBlocks().insertAfter(Region::iterator(block), coldBlock);
    OpBuilder builder(op);
    auto branch = cf::CondBranchOp::create(builder, loc, failed, coldBlock,
                                           continueBlock);
    // The error path is cold: keep it out of the hot loop layout.
    branch.setBranchWeightsAttr(builder.getDenseI32ArrayAttr({1, 1 << 20}));
    return coldBlock;
  }

  // The functions of runtime/kiln_alloc.c's allocation journal.
  func::FuncOp runtimeFunction(StringRef name, FunctionType type, Location loc) {
    ModuleOp module = getOperation();
    if (auto existing = module.lookupSymbol<func::FuncOp>(name))
      return existing;
    OpBuilder builder = OpBuilder::atBlockBegin(module.getBody());
    auto declaration = func::FuncOp::create(builder, loc, name, type);
    declaration.setPrivate();
    return declaration;
  }

  // The journal's depth on entry to each function that allocates arrays or
  // receives them from calls (`kiln_alloc_mark`); its error exits free what
  // was allocated since (`unwindAllocations`).
  llvm::DenseMap<Operation *, Value> journalMarks;

  static bool returnsArrays(func::CallOp call) {
    return llvm::any_of(call.getResultTypes(),
                        [](Type type) { return isa<MemRefType>(type); });
  }

  // Arrays are freed by ownership-based buffer deallocation on every normal
  // path; an error exit frees them through the journal (runtime/kiln_alloc.c
  // says why): mark on entry, release the returned arrays to the caller at
  // each return, adopt the arrays each call returns.
  void journalAllocations(func::FuncOp func) {
    if (func.isExternal())
      return;
    bool allocates = false;
    SmallVector<func::CallOp> arrayCalls;
    func.walk([&](Operation *op) {
      if (isa<memref::AllocOp>(op))
        allocates = true;
      if (auto call = dyn_cast<func::CallOp>(op); call && returnsArrays(call))
        arrayCalls.push_back(call);
    });
    if (!allocates && arrayCalls.empty())
      return;
    Location loc = func.getLoc();
    MLIRContext *context = &getContext();
    auto i64 = IntegerType::get(context, 64);
    auto mark = runtimeFunction("kiln_alloc_mark", FunctionType::get(context, {}, {i64}), loc);
    auto release = runtimeFunction("kiln_alloc_release",
                                   FunctionType::get(context, {i64}, {}), loc);
    auto adopt = runtimeFunction("kiln_alloc_adopt",
                                 FunctionType::get(context, {i64, i64}, {}), loc);
    OpBuilder builder = OpBuilder::atBlockBegin(&func.getBody().front());
    Value depth = func::CallOp::create(builder, loc, mark, ValueRange{}).getResult(0);
    journalMarks[func] = depth;
    func.walk([&](func::ReturnOp ret) {
      builder.setInsertionPoint(ret);
      func::CallOp::create(builder, ret.getLoc(), release, ValueRange{depth});
    });
    for (func::CallOp call : arrayCalls) {
      // After the call's error propagation, if any (kiln-buffer-deallocation
      // may have put its address tests between the two): an array exists
      // only when the callee returned normally.
      Operation *after = call;
      for (Operation *next = call->getNextNode();
           next && !isa<func::CallOp>(next) && !next->hasTrait<OpTrait::IsTerminator>();
           next = next->getNextNode())
        if (isa<PropagateErrorOp>(next)) {
          after = next;
          break;
        }
      builder.setInsertionPointAfter(after);
      Location callLoc = call.getLoc();
      SmallVector<Value> argumentBuffers =
          memrefAddresses(builder, callLoc, call.getOperands());
      for (Value result : call.getResults()) {
        if (!isa<MemRefType>(result.getType()))
          continue;
        Value aligned = memref::ExtractAlignedPointerAsIndexOp::create(builder, callLoc, result);
        // A view of an array the caller passed owns nothing to adopt.
        Value owned = callerOwnsResult(builder, callLoc, aligned, argumentBuffers);
        Value address = arith::IndexCastOp::create(builder, callLoc, i64, aligned);
        func::CallOp::create(builder, callLoc, adopt,
                             ValueRange{address, arith::ExtUIOp::create(builder, callLoc, i64,
                                                                         owned)});
      }
    }
  }

  // The error exit's part of the journal: free what the function allocated
  // or adopted since its entry.
  void unwindAllocations(OpBuilder &builder, Location loc, Operation *op) {
    auto func = op->getParentOfType<func::FuncOp>();
    auto found = journalMarks.find(func);
    if (found == journalMarks.end())
      return;
    MLIRContext *context = &getContext();
    auto unwind = runtimeFunction(
        "kiln_alloc_unwind",
        FunctionType::get(context, {IntegerType::get(context, 64)}, {}), loc);
    func::CallOp::create(builder, loc, unwind, ValueRange{found->second});
  }

  void returnZeros(OpBuilder &builder, Location loc, func::FuncOp func) {
    SmallVector<Value> results;
    for (Type type : func.getResultTypes())
      results.push_back(zeroValue(builder, loc, type));
    func::ReturnOp::create(builder, loc, results);
  }

  LogicalResult lower(PropagateErrorOp op) {
    FailureOr<Value> slot = errorSlot(op);
    if (failed(slot))
      return failure();
    Location loc = op.getLoc();
    OpBuilder builder(op);
    Value kind = LLVM::LoadOp::create(builder, loc, builder.getI32Type(), *slot);
    Value zero = arith::ConstantOp::create(builder, loc,
                                           builder.getI32IntegerAttr(0));
    Value raised = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ne,
                                         kind, zero);
    Block *coldBlock = branchToColdBlock(op, raised, loc);
    builder.setInsertionPointToStart(coldBlock);
    unwindAllocations(builder, loc, op);
    returnZeros(builder, loc, op->getParentOfType<func::FuncOp>());
    op.erase();
    return success();
  }

  LogicalResult lower(CheckOp check) {
    auto func = check->getParentOfType<func::FuncOp>();
    FailureOr<Value> slotOrFailure = errorSlot(check);
    if (failed(slotOrFailure))
      return failure();
    Value slot = *slotOrFailure;

    Location loc = check.getLoc();
    int32_t line = 0, column = 0;
    if (auto fileLoc = loc->findInstanceOf<FileLineColLoc>()) {
      line = fileLoc.getLine();
      column = fileLoc.getColumn();
    }

    OpBuilder builder(check);
    Value failed = arith::XOrIOp::create(
        builder, loc, check.getCondition(),
        arith::ConstantOp::create(builder, loc, builder.getBoolAttr(true)));
    Block *raiseBlock = branchToColdBlock(check, failed, loc);
    builder.setInsertionPointToStart(raiseBlock);
    auto i32 = builder.getI32Type();
    auto ptrType = LLVM::LLVMPointerType::get(builder.getContext());
    auto fieldAddress = [&](int64_t offset) -> Value {
      return LLVM::GEPOp::create(builder, loc, ptrType, builder.getI8Type(),
                                 slot, ArrayRef<LLVM::GEPArg>{offset});
    };
    auto storeI32 = [&](int64_t offset, int32_t value) {
      Value constant = arith::ConstantOp::create(
          builder, loc, builder.getIntegerAttr(i32, value));
      LLVM::StoreOp::create(builder, loc, constant, fieldAddress(offset));
    };
    storeI32(ErrorRecordLayout::kindOffset,
             static_cast<int32_t>(check.getKind()));
    storeI32(ErrorRecordLayout::lineOffset, line);
    storeI32(ErrorRecordLayout::columnOffset, column);
    storeI32(ErrorRecordLayout::numArgsOffset,
             static_cast<int32_t>(check.getArgs().size()));
    LLVM::GlobalOp global = messageGlobal(check.getMessage(), loc);
    Value message = LLVM::AddressOfOp::create(builder, loc, global);
    LLVM::StoreOp::create(builder, loc, message,
                          fieldAddress(ErrorRecordLayout::messageOffset));
    for (auto [index, arg] : llvm::enumerate(check.getArgs()))
      LLVM::StoreOp::create(
          builder, loc, arg,
          fieldAddress(ErrorRecordLayout::argsOffset +
                       ErrorRecordLayout::argSize * index));
    unwindAllocations(builder, loc, check);
    returnZeros(builder, loc, func);
    check.erase();
    return success();
  }
};

} // namespace
} // namespace kiln
