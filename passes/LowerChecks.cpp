#include "passes/Passes.h"

#include "lib/Dialect/KilnAbi.h"
#include "lib/Dialect/KilnDialect.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
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
  // A list result (kiln-lower-containers) is NULL after an error, as the
  // C ABI promises zero results.
  if (isa<LLVM::LLVMPointerType>(type))
    return LLVM::ZeroOp::create(builder, loc, type);
  return ub::PoisonOp::create(builder, loc, type);
}

class LowerChecks : public impl::KilnLowerChecksBase<LowerChecks> {
public:
  void runOnOperation() override {
    getOperation().walk([&](func::FuncOp func) { journalAllocations(func); });
    // Parallel loops first, outer ones before inner ones: each gets the
    // record its iterations raise into (errorRecord) before its checks are
    // lowered.
    SmallVector<omp::LoopNestOp> nests;
    getOperation().walk<WalkOrder::PreOrder>(
        [&](omp::LoopNestOp nest) { nests.push_back(nest); });
    for (omp::LoopNestOp nest : nests)
      if (failed(prepareParallelLoop(nest)))
        return signalPassFailure();
    SmallVector<CheckOp> checks;
    getOperation().walk([&](CheckOp check) { checks.push_back(check); });
    for (CheckOp check : checks)
      branchAroundNegativeIndexWrap(check);
    for (CheckOp check : checks)
      if (failed(lower(check)))
        return signalPassFailure();
    SmallVector<PropagateErrorOp> propagations;
    getOperation().walk(
        [&](PropagateErrorOp op) { propagations.push_back(op); });
    for (PropagateErrorOp op : propagations)
      if (failed(lower(op)))
        return signalPassFailure();
    // The markers of held references have done their job.
    SmallVector<OwnedOp> markers;
    getOperation().walk([&](OwnedOp marker) { markers.push_back(marker); });
    for (OwnedOp marker : markers)
      marker.erase();
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

  // An iteration of a parallel loop (kiln.prange, as OpenMP) raises into a
  // record of its thread's own; its exit publishes the record as the
  // caller's (runtime/kiln_parallel.c: the first failing block wins) and
  // goes on with the thread's next iteration. After the loop, the function
  // (or the enclosing parallel loop) raises if any block did.
  struct ParallelLoop {
    Value record;        // the thread's own kiln_error
    Value outerRecord;   // the record of the function or enclosing loop
    Value firstFailed;   // i64: the first failing block, INT64_MAX if none
    Value journalMark;   // the thread's allocation journal at the iteration's start
    Block *nextIteration = nullptr;
  };
  llvm::DenseMap<Operation *, ParallelLoop> parallelLoops;

  // The innermost parallel loop `op` is in, or null (then the function).
  static omp::LoopNestOp enclosingParallelLoop(Operation *op) {
    return op->getParentOfType<omp::LoopNestOp>();
  }

  static bool allocatesIn(Operation *root) {
    bool allocates = false;
    root->walk([&](Operation *op) {
      if (isa<memref::AllocOp>(op))
        allocates = true;
      if (auto call = dyn_cast<func::CallOp>(op); call && returnsArrays(call))
        allocates = true;
    });
    return allocates;
  }

  static bool raisesIn(Operation *root) {
    bool raises = false;
    root->walk([&](Operation *op) {
      if (isa<CheckOp, PropagateErrorOp>(op))
        raises = true;
    });
    return raises;
  }

  LogicalResult prepareParallelLoop(omp::LoopNestOp nest) {
    if (!raisesIn(nest))
      return success();
    auto region = nest->getParentOfType<omp::ParallelOp>();
    auto func = nest->getParentOfType<func::FuncOp>();
    if (!region || !func)
      return nest.emitOpError("kiln-lower-checks expects an omp.loop_nest inside "
                              "omp.parallel inside func.func");
    FailureOr<Value> outer = errorSlot(region);
    if (failed(outer))
      return failure();
    Location loc = nest.getLoc();
    MLIRContext *context = &getContext();
    auto ptrType = LLVM::LLVMPointerType::get(context);
    auto i64 = IntegerType::get(context, 64);
    ParallelLoop loop;
    loop.outerRecord = *outer;
    // The first failing block: a slot of the function's frame (its entry
    // block: not once per iteration of an enclosing loop), reset before
    // the parallel region.
    OpBuilder builder = OpBuilder::atBlockBegin(&func.getBody().front());
    Value one = arith::ConstantOp::create(builder, loc, builder.getI64IntegerAttr(1));
    loop.firstFailed = LLVM::AllocaOp::create(builder, loc, ptrType, i64, one, 8);
    builder.setInsertionPoint(region);
    Value none = arith::ConstantOp::create(
        builder, loc, builder.getI64IntegerAttr(std::numeric_limits<int64_t>::max()));
    LLVM::StoreOp::create(builder, loc, none, loop.firstFailed);
    // Each thread's record, cleared once: kiln_parallel_raise clears it
    // again after publishing it.
    builder.setInsertionPointToStart(&region.getRegion().front());
    auto recordType = LLVM::LLVMArrayType::get(builder.getI8Type(), ErrorRecordLayout::size);
    loop.record = LLVM::AllocaOp::create(builder, loc, ptrType, recordType, one, 8);
    LLVM::StoreOp::create(builder, loc,
                          arith::ConstantOp::create(builder, loc, builder.getI32IntegerAttr(0)),
                          loop.record);
    // Calls in the loop's iterations raise into the thread's record.
    loop.outerRecord.replaceUsesWithIf(loop.record, [&](OpOperand &use) {
      return nest->isProperAncestor(use.getOwner());
    });
    if (allocatesIn(nest)) {
      builder.setInsertionPointToStart(&nest.getRegion().front());
      auto mark = runtimeFunction("kiln_alloc_mark", FunctionType::get(context, {}, {i64}), loc);
      loop.journalMark = func::CallOp::create(builder, loc, mark, ValueRange{}).getResult(0);
    }
    // The thread's next iteration.
    loop.nextIteration = new Block();
    nest.getRegion().push_back(loop.nextIteration);
    builder.setInsertionPointToStart(loop.nextIteration);
    omp::YieldOp::create(builder, loc, ValueRange{});
    parallelLoops[nest] = loop;

    // After the region: raise what the first failing block raised (it is in
    // the outer record already).
    builder.setInsertionPointAfter(region);
    Value first = LLVM::LoadOp::create(builder, loc, i64, loop.firstFailed);
    Value failed = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ne, first, none);
    Block *raise = branchToColdBlock(failed.getDefiningOp(), failed, loc, /*keepOp=*/true);
    builder.setInsertionPointToStart(raise);
    exitRaising(builder, loc, region);
    return success();
  }

  // The end of a raising path at `op`: the function returns (freeing what
  // it allocated), or the parallel loop's iteration publishes its record
  // and ends.
  void exitRaising(OpBuilder &builder, Location loc, Operation *op) {
    omp::LoopNestOp nest = enclosingParallelLoop(op);
    if (!nest) {
      releaseOwnedOnError(builder, loc, op);
      unwindAllocations(builder, loc, op);
      returnZeros(builder, loc, op->getParentOfType<func::FuncOp>());
      return;
    }
    ParallelLoop &loop = parallelLoops[nest];
    MLIRContext *context = &getContext();
    auto i64 = IntegerType::get(context, 64);
    auto ptrType = LLVM::LLVMPointerType::get(context);
    if (loop.journalMark) {
      auto unwind = runtimeFunction("kiln_alloc_unwind", FunctionType::get(context, {i64}, {}),
                                    loc);
      func::CallOp::create(builder, loc, unwind, ValueRange{loop.journalMark});
    }
    auto raise = runtimeFunction(
        "kiln_parallel_raise",
        FunctionType::get(context, {ptrType, ptrType, ptrType, i64}, {}), loc);
    Value block = arith::IndexCastOp::create(builder, loc, i64, nest.getIVs()[0]);
    func::CallOp::create(builder, loc, raise,
                         ValueRange{loop.outerRecord, loop.firstFailed, loop.record, block});
    cf::BranchOp::create(builder, loc, loop.nextIteration);
  }

  // The record `op` raises into: the enclosing function's error slot, or
  // its parallel loop's thread record; a diagnostic on `op` otherwise.
  FailureOr<Value> errorSlot(Operation *op) {
    auto func = op->getParentOfType<func::FuncOp>();
    if (!func)
      return op->emitOpError("must be nested in a func.func");
    if (omp::LoopNestOp nest = enclosingParallelLoop(op)) {
      auto found = parallelLoops.find(nest);
      if (found == parallelLoops.end())
        return op->emitOpError("is in a parallel loop kiln-lower-checks did not prepare");
      if (op->getParentRegion() != &nest.getRegion())
        return op->emitOpError(
            "must be in the parallel loop's top-level region: run convert-scf-to-cf "
            "before kiln-lower-checks");
      return found->second.record;
    }
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
  // With `keepOp`, `op` stays before the branch (it computes `failed`);
  // otherwise the branch replaces it (the caller erases it).
  Block *branchToColdBlock(Operation *op, Value failed, Location loc, bool keepOp = false) {
    Block *block = op->getBlock();
    Block *continueBlock = block->splitBlock(std::next(Block::iterator(op)));
    Block *coldBlock = new Block();
    block->getParent()->getBlocks().insertAfter(Region::iterator(block), coldBlock);
    OpBuilder builder(op);
    if (keepOp)
      builder.setInsertionPointToEnd(block);
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
    unwindLists(builder, loc, func);
    auto found = journalMarks.find(func);
    if (found == journalMarks.end())
      return;
    MLIRContext *context = &getContext();
    auto unwind = runtimeFunction(
        "kiln_alloc_unwind",
        FunctionType::get(context, {IntegerType::get(context, 64)}, {}), loc);
    func::CallOp::create(builder, loc, unwind, ValueRange{found->second});
  }

  // The references to instances the function holds at `op`: the operands
  // of the nearest kiln.owned marker before it on every path that reaches
  // it (passes/LowerObjects.cpp puts one at the start of every structured
  // block and after every operation that changes what is held, so a loop
  // or a branch the marker placement never saw -- an array expression's
  // loop, an index wrap, the control flow SCF-to-CF and the checks made --
  // has the same marker on all of its paths). Paths around a cycle add
  // nothing. None when two paths find markers of different references or
  // a path reaches the entry without one (the walk failed: no markers), or
  // past kMaxMarkerSearchBlocks blocks: a raise then leaks, never frees
  // twice.
  OwnedOp ownedMarkerBefore(Operation *op) {
    constexpr size_t kMaxMarkerSearchBlocks = 4096;
    OwnedOp found;
    SmallVector<std::pair<Block *, Operation *>> pending{{op->getBlock(), op->getPrevNode()}};
    llvm::SmallPtrSet<Block *, 16> seen{op->getBlock()};
    while (!pending.empty()) {
      auto [block, cursor] = pending.pop_back_val();
      OwnedOp marker;
      for (; cursor && !marker; cursor = cursor->getPrevNode())
        marker = dyn_cast<OwnedOp>(cursor);
      if (marker) {
        if (!found)
          found = marker;
        else if (marker != found &&
                 !sameValueMultiset(SmallVector<Value>(marker.getReferences()),
                                    SmallVector<Value>(found.getReferences())))
          return nullptr;
        continue;
      }
      if (block->hasNoPredecessors())
        return nullptr;
      for (Block *predecessor : block->getPredecessors()) {
        if (!seen.insert(predecessor).second)
          continue;
        if (seen.size() > kMaxMarkerSearchBlocks)
          return nullptr;
        pending.push_back({predecessor, &predecessor->back()});
      }
    }
    return found;
  }

  // An error exit gives back the references to instances the function
  // holds there, which its names would have released at a return.
  void releaseOwnedOnError(OpBuilder &builder, Location loc, Operation *op) {
    OwnedOp marker = ownedMarkerBefore(op);
    if (!marker || marker.getReferences().empty())
      return;
    auto ptrType = LLVM::LLVMPointerType::get(&getContext());
    auto release = runtimeFunction("kiln_object_release",
                                   FunctionType::get(&getContext(), {ptrType}, {}), loc);
    for (Value reference : marker.getReferences())
      func::CallOp::create(builder, loc, release, ValueRange{reference});
  }

  // The lists' journal (runtime/kiln_list.c): kiln-lower-containers
  // entered it first thing in a function that makes lists; the error exits
  // free what the function made since.
  void unwindLists(OpBuilder &builder, Location loc, func::FuncOp func) {
    Value mark;
    for (Operation &op : func.getBody().front())
      if (auto call = dyn_cast<func::CallOp>(op); call && call.getCallee() == "kiln_journal_enter") {
        mark = call.getResult(0);
        break;
      }
    if (!mark)
      return;
    MLIRContext *context = &getContext();
    auto unwind = runtimeFunction(
        "kiln_journal_unwind", FunctionType::get(context, {IntegerType::get(context, 64)}, {}),
        loc);
    func::CallOp::create(builder, loc, unwind, ValueRange{mark});
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
    if (op.getAtCall()) {
      auto fileLoc = loc->findInstanceOf<FileLineColLoc>();
      auto ptrType = LLVM::LLVMPointerType::get(builder.getContext());
      auto storeI32 = [&](int64_t offset, int32_t value) {
        Value constant = arith::ConstantOp::create(builder, loc,
                                                   builder.getI32IntegerAttr(value));
        Value field = LLVM::GEPOp::create(builder, loc, ptrType, builder.getI8Type(), *slot,
                                          ArrayRef<LLVM::GEPArg>{offset});
        LLVM::StoreOp::create(builder, loc, constant, field);
      };
      storeI32(ErrorRecordLayout::lineOffset, fileLoc ? fileLoc.getLine() : 0);
      storeI32(ErrorRecordLayout::columnOffset, fileLoc ? fileLoc.getColumn() : 0);
    }
    exitRaising(builder, loc, op);
    op.erase();
    return success();
  }

  // A checked index that may be negative (kiln-lower-to-std's lowering of
  // `kiln.index`) computes
  //   %p = select(%i < 0, %i + %size, %i); check(%p <u %size)
  // and addresses memory through %p: the wrap sits on the address's
  // dependency chain of every access (a histogram's `counts[b] += 1` ran
  // 20 % slower for it). One unsigned compare proves 0 <= %i < %size, the
  // common case, so the wrap and its check move to a block of their own:
  //   cond_br (%i <u %size), ^join(%i), ^wrap
  //   ^wrap: %w = %i + %size; check(%w <u %size); br ^join(%w)
  // The same indexes pass and the same IndexError (with the original
  // index) is raised. Vector code is untouched: this runs after
  // kiln-vectorize, on the scalar loops it left.
  void branchAroundNegativeIndexWrap(CheckOp check) {
    auto inside = check.getCondition().getDefiningOp<arith::CmpIOp>();
    if (!inside || inside.getPredicate() != arith::CmpIPredicate::ult)
      return;
    Value size = inside.getRhs();
    auto position = inside.getLhs().getDefiningOp<arith::SelectOp>();
    if (!position)
      return;
    auto negative = position.getCondition().getDefiningOp<arith::CmpIOp>();
    auto wrapped = position.getTrueValue().getDefiningOp<arith::AddIOp>();
    Value index = position.getFalseValue();
    if (!negative || negative.getPredicate() != arith::CmpIPredicate::slt ||
        negative.getLhs() != index || !matchPattern(negative.getRhs(), m_Zero()) ||
        !wrapped)
      return;
    if (!((wrapped.getLhs() == index && wrapped.getRhs() == size) ||
          (wrapped.getLhs() == size && wrapped.getRhs() == index)))
      return;
    Block *block = check->getBlock();
    if (position->getBlock() != block || inside->getBlock() != block)
      return;

    Location loc = check.getLoc();
    Block *join = block->splitBlock(std::next(Block::iterator(check)));
    Value joined = join->addArgument(index.getType(), loc);
    // Uses after the check are in `join` now or in blocks it dominates.
    position.getResult().replaceUsesWithIf(joined, [&](OpOperand &use) {
      return use.getOwner()->getBlock() != block;
    });
    auto *wrapBlock = new Block();
    block->getParent()->getBlocks().insertAfter(Region::iterator(block), wrapBlock);
    OpBuilder builder(check);
    Value direct = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ult, index, size);
    auto branch = cf::CondBranchOp::create(builder, loc, direct, join, ValueRange{index},
                                           wrapBlock, ValueRange{});
    // Negative indexes are Python's, but most indexes are not.
    branch.setBranchWeightsAttr(builder.getDenseI32ArrayAttr({64, 1}));
    builder.setInsertionPointToStart(wrapBlock);
    Value wrappedAgain = arith::AddIOp::create(builder, loc, index, size);
    Value fits = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ult, wrappedAgain, size);
    check->moveBefore(wrapBlock, wrapBlock->end());
    check.getConditionMutable().assign(fits);
    builder.setInsertionPointToEnd(wrapBlock);
    cf::BranchOp::create(builder, loc, join, ValueRange{wrappedAgain});
  }

  LogicalResult lower(CheckOp check) {
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
    SmallVector<bool> quotesString = stringPlaceholders(check.getMessage());
    for (auto [index, arg] : llvm::enumerate(check.getArgs())) {
      Value stored = arg;
      // A {!r} string goes into the record as a copy of its own: the
      // journal's unwind, next, frees the function's strings, the quoted
      // one among them (runtime/kiln_abi.h, kiln_error_clear).
      if (quotesString[index]) {
        MLIRContext *context = &getContext();
        auto i64 = IntegerType::get(context, 64);
        auto keep = runtimeFunction("kiln_error_keep_str", FunctionType::get(context, {i64}, {i64}),
                                    loc);
        stored = func::CallOp::create(builder, loc, keep, ValueRange{arg}).getResult(0);
      }
      LLVM::StoreOp::create(
          builder, loc, stored,
          fieldAddress(ErrorRecordLayout::argsOffset +
                       ErrorRecordLayout::argSize * index));
    }
    exitRaising(builder, loc, check);
    check.erase();
    return success();
  }
};

} // namespace
} // namespace kiln

bool kiln::sameValueMultiset(llvm::ArrayRef<mlir::Value> a, llvm::ArrayRef<mlir::Value> b) {
  llvm::SmallVector<mlir::Value> left(a), right(b);
  auto order = [](mlir::Value x, mlir::Value y) {
    return x.getAsOpaquePointer() < y.getAsOpaquePointer();
  };
  llvm::sort(left, order);
  llvm::sort(right, order);
  return left == right;
}
