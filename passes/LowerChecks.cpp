#include "passes/Passes.h"

#include "lib/Dialect/ErrorKinds.h"
#include "lib/Dialect/KilnDialect.h"

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
    SmallVector<CheckOp> checks;
    getOperation().walk([&](CheckOp check) { checks.push_back(check); });
    for (CheckOp check : checks)
      if (failed(lower(check)))
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

  LogicalResult lower(CheckOp check) {
    auto func = check->getParentOfType<func::FuncOp>();
    if (!func)
      return check.emitOpError("must be nested in a func.func");
    if (check->getParentRegion() != &func.getBody())
      return check.emitOpError(
          "must be in the function's top-level region: run convert-scf-to-cf "
          "before kiln-lower-checks");
    std::optional<unsigned> slotIndex = findErrorSlot(func);
    if (!slotIndex)
      return check.emitOpError(
          "requires the enclosing function to have an argument marked "
          "'kiln.error_slot'");
    Value slot = func.getArgument(*slotIndex);
    if (!isa<LLVM::LLVMPointerType>(slot.getType()))
      return check.emitOpError("'kiln.error_slot' argument must be !llvm.ptr");

    Location loc = check.getLoc();
    int32_t line = 0, column = 0;
    if (auto fileLoc = loc->findInstanceOf<FileLineColLoc>()) {
      line = fileLoc.getLine();
      column = fileLoc.getColumn();
    }

    Block *checkBlock = check->getBlock();
    Block *continueBlock =
        checkBlock->splitBlock(std::next(Block::iterator(check)));
    Block *raiseBlock = new Block();
    func.getBody().getBlocks().insertAfter(Region::iterator(checkBlock),
                                           raiseBlock);

    OpBuilder builder(check);
    auto branch = cf::CondBranchOp::create(builder, loc, check.getCondition(),
                                           continueBlock, raiseBlock);
    // The raise path is cold: keep it out of the hot loop layout.
    branch.setBranchWeightsAttr(builder.getDenseI32ArrayAttr({1 << 20, 1}));

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
             static_cast<int32_t>(*parseErrorKind(check.getKind())));
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
          fieldAddress(ErrorRecordLayout::argsOffset + 8 * index));
    SmallVector<Value> results;
    for (Type type : func.getResultTypes())
      results.push_back(zeroValue(builder, loc, type));
    func::ReturnOp::create(builder, loc, results);

    check.erase();
    return success();
  }
};

} // namespace
} // namespace kiln
