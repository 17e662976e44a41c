// kiln-list-views: in a loop that resizes no list, the items of each list
// the loop reads or writes by index become a memref view made before the
// loop, and `xs[i]` a kiln.index and a memref access; `len(xs)` in the
// loop is the length read once before it. Lists then take the arrays'
// route: kiln-hoist-bounds-checks proves a loop's indices in bounds once,
// and kiln-vectorize vectorizes the loop.
//
// Upstream has no counterpart: the proof that nothing in the loop can
// move or free a list's storage is about Kiln's list ops (kiln.list.* and
// calls that receive lists); the accesses it produces are upstream memref
// ops.

#include "passes/Passes.h"

#include "lib/Dialect/KilnDialect.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "llvm/ADT/MapVector.h"

namespace kiln {
#define GEN_PASS_DEF_KILNLISTVIEWS
#include "passes/Passes.h.inc"
} // namespace kiln

using namespace mlir;

namespace kiln {
namespace {

// Whether `op` may move, grow, shrink or free some list's storage: the ops
// that change a list's length or reorder it through a buffer, any call
// that receives a list or an instance (the callee may do either, to a list
// argument or to a list in the instance's fields: a method appending to
// `self.items`), and storing a list into a field (which gives up the one
// it held). A list is reached only through an SSA value of list type or an
// instance's field, so these are all. (Whether the module's classes have
// list fields at all is a fact about other functions, which a function
// pass does not read.)
bool mayResizeLists(Operation *op) {
  if (isa<ListAppendOp, ListPopOp, ListInsertOp, ListClearOp, ListExtendOp, ListSortOp,
          ListAssignSliceOp, ListDeleteSliceOp>(op))
    return true;
  if (isa<CallOpInterface>(op))
    return llvm::any_of(op->getOperandTypes(),
                        [](Type type) { return isa<ListType, ObjectType>(type); });
  if (auto store = dyn_cast<ObjectSetOp>(op))
    return isa<ListType>(store.getValue().getType());
  return false;
}

// The lists a loop indexes, each with whether the loop stores into it.
using IndexedLists = llvm::MapVector<Value, bool>;

IndexedLists indexedLists(scf::ForOp loop) {
  IndexedLists lists;
  loop.getBody()->walk([&](Operation *op) {
    // Items that are references (strings, instances) are stored and
    // released through the runtime, never through a memref.
    if (isa<ListGetOp, ListSetOp>(op) &&
        isa<StrType, ObjectType>(cast<ListType>(op->getOperand(0).getType()).getItemType()))
      return;
    if (auto get = dyn_cast<ListGetOp>(op); get && loop.isDefinedOutsideOfLoop(get.getList()))
      lists.insert({get.getList(), false});
    if (auto set = dyn_cast<ListSetOp>(op); set && loop.isDefinedOutsideOfLoop(set.getList()))
      lists[set.getList()] = true;
  });
  return lists;
}

// The list's items as the view's element type: a bool is stored as a byte.
Value toStored(OpBuilder &b, Location loc, Value value) {
  if (value.getType().isInteger(1))
    return arith::ExtUIOp::create(b, loc, b.getI8Type(), value);
  return value;
}

Value fromStored(OpBuilder &b, Location loc, Value stored, Type item) {
  if (item.isInteger(1))
    return arith::TruncIOp::create(b, loc, item, stored);
  return stored;
}

Value pythonIndex(OpBuilder &b, Location loc, Value index, Value length, StringRef message) {
  return IndexOp::create(b, loc, b.getIndexType(), index, length, b.getI64IntegerAttr(0),
                         /*unchecked=*/nullptr, /*nonnegative=*/nullptr,
                         b.getStringAttr(message));
}

void viewLists(scf::ForOp loop, const IndexedLists &lists) {
  OpBuilder builder(loop);
  for (auto [indexedList, writes] : lists) {
    // A copy: C++17 lambdas cannot capture a structured binding.
    Value list = indexedList;
    Location loc = list.getLoc();
    Type item = cast<ListType>(list.getType()).getItemType();
    Type stored = item.isInteger(1) ? builder.getI8Type() : item;
    Value length = ListLenOp::create(builder, loc, builder.getI64Type(), list);
    Value view = ListViewOp::create(builder, loc, MemRefType::get({ShapedType::kDynamic}, stored),
                                    list, writes ? builder.getUnitAttr() : nullptr);
    SmallVector<Operation *> uses;
    loop.getBody()->walk([&](Operation *op) {
      if (isa<ListGetOp, ListSetOp, ListLenOp>(op) && op->getOperand(0) == list)
        uses.push_back(op);
    });
    for (Operation *use : uses) {
      OpBuilder at(use);
      Location useLoc = use->getLoc();
      if (auto get = dyn_cast<ListGetOp>(use)) {
        Value position = pythonIndex(at, useLoc, get.getIndex(), length,
                                     "list index out of range");
        Value loaded = memref::LoadOp::create(at, useLoc, view, ValueRange{position});
        get.replaceAllUsesWith(fromStored(at, useLoc, loaded, item));
      } else if (auto set = dyn_cast<ListSetOp>(use)) {
        Value position = pythonIndex(at, useLoc, set.getIndex(), length,
                                     "list assignment index out of range");
        memref::StoreOp::create(at, useLoc, toStored(at, useLoc, set.getValue()), view,
                                ValueRange{position});
      } else {
        use->getResult(0).replaceAllUsesWith(length);
      }
      use->erase();
    }
  }
}

struct KilnListViewsPass : public impl::KilnListViewsBase<KilnListViewsPass> {
  void runOnOperation() override {
    // Outermost first: a loop that qualifies takes the accesses of the
    // loops inside it too, so its views are made once.
    getOperation().walk<WalkOrder::PreOrder>([](scf::ForOp loop) {
      bool resizes = loop.getBody()
                         ->walk([](Operation *op) {
                           return mayResizeLists(op) ? WalkResult::interrupt()
                                                     : WalkResult::advance();
                         })
                         .wasInterrupted();
      if (resizes)
        return WalkResult::advance();
      IndexedLists lists = indexedLists(loop);
      if (lists.empty())
        return WalkResult::advance();
      viewLists(loop, lists);
      return WalkResult::skip();
    });
  }
};

} // namespace
} // namespace kiln
