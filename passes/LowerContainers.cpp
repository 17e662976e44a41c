// kiln-lower-containers: the kiln dialect's list, dict and set ops become
// inline code on the C ABI's kiln_list and kiln_dict (runtime/kiln_abi.h; a
// set is a kiln_dict without values) and calls of runtime/kiln_list.c and
// kiln_dict.c; the container types become !llvm.ptr everywhere
// (function signatures, calls, structured control flow). Index checks
// become kiln.check ops, which kiln-lower-checks turns into the Python
// exception. The journal that frees a raising call's lists is entered and
// left here (kiln_journal_enter/kiln_journal_leave); kiln-lower-checks unwinds it
// on error exits.
//
// Upstream has no counterpart: the list semantics (Python indices, shared
// references, growth) are Kiln's; the structural type conversions are
// MLIR's own (func, scf, branches).

#include "passes/Passes.h"

#include "passes/ContainerLowering.h"

#include "mlir/Dialect/Func/Transforms/FuncConversions.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Transforms/DialectConversion.h"

namespace kiln {
#define GEN_PASS_DEF_KILNLOWERCONTAINERS
#include "passes/Passes.h.inc"
} // namespace kiln

using namespace mlir;

namespace kiln {
namespace {
using namespace containers;

// Declares, before the conversion starts (patterns must not add symbols
// to the module they walk), every runtime function the list ops present
// will call.
void declareRuntime(ModuleOp module, RuntimeFunctions &runtime) {
  MLIRContext *context = module.getContext();
  auto ptr = LLVM::LLVMPointerType::get(context);
  auto i64 = IntegerType::get(context, 64);
  auto i32 = IntegerType::get(context, 32);
  bool anyList = false, anyDict = false, anySet = false;
  llvm::SmallSetVector<Type, 3> items;
  auto note = [&](Type type) {
    if (auto list = dyn_cast<ListType>(type)) {
      anyList = true;
      items.insert(list.getItemType());
    }
    if (isHashTableType(type))
      anyDict = true;
    if (isa<SetType>(type))
      anySet = true;
  };
  module.walk([&](Operation *op) {
    if (auto func = dyn_cast<func::FuncOp>(op)) {
      for (Type type : llvm::concat<const Type>(func.getArgumentTypes(), func.getResultTypes()))
        note(type);
      return;
    }
    for (Type type : llvm::concat<const Type>(op->getOperandTypes(), op->getResultTypes()))
      note(type);
  });
  if (!anyList && !anyDict)
    return;
  runtime.get("kiln_journal_enter", {}, {i64});
  runtime.get("kiln_journal_leave", {i64}, {});
  if (anyDict) {
    runtime.get("kiln_dict_new", {i32, i32, i64}, {ptr});
    runtime.get("kiln_dict_release", {ptr}, {});
    runtime.get("kiln_dict_find", {ptr, i64}, {i64});
    runtime.get("kiln_dict_set", {ptr, i64, i64}, {i32});
    runtime.get("kiln_dict_erase_at", {ptr, i64}, {});
    runtime.get("kiln_dict_clear", {ptr}, {});
    runtime.get("kiln_dict_copy", {ptr}, {ptr});
    runtime.get("kiln_dict_update", {ptr, ptr}, {i32});
    runtime.get("kiln_dict_equal", {ptr, ptr}, {i32});
    runtime.get("kiln_dict_store_value_str", {ptr, i64, ptr}, {});
  }
  if (anySet) {
    runtime.get("kiln_set_discard", {ptr, i64}, {i32});
    runtime.get("kiln_set_pop_slot", {ptr}, {i64});
    runtime.get("kiln_set_subset", {ptr, ptr}, {i32});
    runtime.get("kiln_set_disjoint", {ptr, ptr}, {i32});
    runtime.get("kiln_set_combine", {ptr, ptr, i32}, {ptr});
    runtime.get("kiln_set_update", {ptr, ptr, i32}, {i32});
    runtime.get("kiln_set_take_str", {ptr, i64}, {ptr});
  }
  if (!anyList)
    return;
  runtime.get("kiln_list_new", {i64, i64}, {ptr});
  runtime.get("kiln_list_release", {ptr}, {});
  runtime.get("kiln_list_clear", {ptr}, {});
  runtime.get("kiln_list_reverse", {ptr}, {});
  runtime.get("kiln_list_extend", {ptr, ptr}, {i32});
  runtime.get("kiln_list_delete", {ptr, i64}, {});
  runtime.get("kiln_list_open_slot", {ptr, i64}, {i64});
  runtime.get("kiln_list_concat", {ptr, ptr}, {ptr});
  runtime.get("kiln_list_copy", {ptr}, {ptr});
  runtime.get("kiln_list_slice", {ptr, i64, i64, i64, i32}, {ptr});
  runtime.get("kiln_list_delete_slice", {ptr, i64, i64, i64, i32}, {});
  runtime.get("kiln_list_assign_slice", {ptr, i64, i64, i64, i32, ptr}, {i64});
  runtime.get("kiln_list_repeat", {ptr, i64}, {ptr});
  if (llvm::any_of(items, llvm::IsaPred<StrType>)) {
    runtime.get("kiln_list_new_of", {i64, i64, i32}, {ptr});
    runtime.get("kiln_list_store_str", {ptr, i64, ptr}, {});
    runtime.get("kiln_list_take_str", {ptr, i64}, {ptr});
    runtime.get("kiln_list_adopt_str", {ptr, ptr}, {});
  }
  if (llvm::any_of(items, llvm::IsaPred<ObjectType>)) {
    runtime.get("kiln_list_new_of", {i64, i64, i32}, {ptr});
    runtime.get("kiln_list_store_object", {ptr, i64, ptr}, {});
    runtime.get("kiln_list_take_object", {ptr, i64}, {ptr});
    runtime.get("kiln_list_adopt_object", {ptr, ptr}, {});
  }
  for (Type item : items) {
    Type argument = itemArgumentType(item);
    runtime.get(itemFunction("kiln_list_append", item), {ptr, argument}, {i32});
    runtime.get(itemFunction("kiln_list_find", item), {ptr, argument}, {i64});
    runtime.get(itemFunction("kiln_list_count", item), {ptr, argument}, {i64});
    runtime.get(itemFunction("kiln_list_equal", item), {ptr, ptr}, {i32});
    runtime.get(itemFunction("kiln_list_sort", item), {ptr, i32}, {i32});
  }
}


struct NewLowering : ListOpLowering<ListNewOp> {
  using ListOpLowering::ListOpLowering;
  LogicalResult matchAndRewrite(ListNewOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type item = cast<ListType>(op.getType()).getItemType();
    Value size = constant(rewriter, loc, rewriter.getI64Type(), itemSize(item));
    // A list whose items are references says so (its runtime releases them).
    Value list = isReferenceItem(item)
                     ? call(rewriter, loc, "kiln_list_new_of",
                            {size, adaptor.getCapacity(),
                             constant(rewriter, loc, rewriter.getI32Type(),
                                      isa<StrType>(item) ? KILN_ITEM_STR : KILN_ITEM_OBJECT)})
                     : call(rewriter, loc, "kiln_list_new", {size, adaptor.getCapacity()});
    checkNotNull(rewriter, loc, list);
    rewriter.replaceOp(op, list);
    return success();
  }
};

struct LenLowering : ListOpLowering<ListLenOp> {
  using ListOpLowering::ListOpLowering;
  LogicalResult matchAndRewrite(ListLenOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, length(rewriter, op.getLoc(), adaptor.getList()));
    return success();
  }
};

struct GetLowering : ListOpLowering<ListGetOp> {
  using ListOpLowering::ListOpLowering;
  LogicalResult matchAndRewrite(ListGetOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value list = adaptor.getList();
    Value position = pythonIndex(rewriter, loc, adaptor.getIndex(), length(rewriter, loc, list),
                                 "list index out of range");
    rewriter.replaceOp(op, loadItem(rewriter, loc, list, position, itemOf(op.getList())));
    return success();
  }
};

struct SetLowering : ListOpLowering<ListSetOp> {
  using ListOpLowering::ListOpLowering;
  LogicalResult matchAndRewrite(ListSetOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value list = adaptor.getList();
    Value position = pythonIndex(rewriter, loc, adaptor.getIndex(), length(rewriter, loc, list),
                                 "list assignment index out of range");
    // A string or an instance is adopted and the one it replaces released
    // by the runtime.
    if (isReferenceItem(itemOf(op.getList()))) {
      call(rewriter, loc, itemFunction("kiln_list_store", itemOf(op.getList())),
           {list, position, adaptor.getValue()});
      rewriter.eraseOp(op);
      return success();
    }
    storeItem(rewriter, loc, list, position, itemOf(op.getList()), adaptor.getValue());
    markModified(rewriter, loc, list);
    rewriter.eraseOp(op);
    return success();
  }
};

struct AppendLowering : ListOpLowering<ListAppendOp> {
  using ListOpLowering::ListOpLowering;
  LogicalResult matchAndRewrite(ListAppendOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value ok = call(rewriter, loc, itemFunction("kiln_list_append", itemOf(op.getList())),
                    {adaptor.getList(), itemArgument(rewriter, loc, adaptor.getValue())});
    checkSucceeded(rewriter, loc, ok);
    rewriter.eraseOp(op);
    return success();
  }
};

struct PopLowering : ListOpLowering<ListPopOp> {
  using ListOpLowering::ListOpLowering;
  LogicalResult matchAndRewrite(ListPopOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value list = adaptor.getList();
    Value size = length(rewriter, loc, list);
    Value zero = constant(rewriter, loc, rewriter.getI64Type(), 0);
    check(rewriter, loc,
          arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ne, size, zero),
          ErrorKind::IndexError, "pop from empty list");
    Value position =
        pythonIndex(rewriter, loc, adaptor.getIndex(), size, "pop index out of range");
    // A string or an instance leaves with the list's reference (the result
    // owns it).
    if (isReferenceItem(itemOf(op.getList()))) {
      rewriter.replaceOp(op, call(rewriter, loc, itemFunction("kiln_list_take", itemOf(op.getList())),
                                  {list, position}));
      return success();
    }
    Value item = loadItem(rewriter, loc, list, position, itemOf(op.getList()));
    call(rewriter, loc, "kiln_list_delete", {list, position});
    rewriter.replaceOp(op, item);
    return success();
  }
};

struct InsertLowering : ListOpLowering<ListInsertOp> {
  using ListOpLowering::ListOpLowering;
  LogicalResult matchAndRewrite(ListInsertOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value list = adaptor.getList();
    Value slot = call(rewriter, loc, "kiln_list_open_slot", {list, adaptor.getIndex()});
    Value zero = constant(rewriter, loc, rewriter.getI64Type(), 0);
    check(rewriter, loc,
          arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::sge, slot, zero),
          ErrorKind::MemoryError, "");
    if (isReferenceItem(itemOf(op.getList())))
      call(rewriter, loc, itemFunction("kiln_list_adopt", itemOf(op.getList())),
           {list, adaptor.getValue()});
    storeItem(rewriter, loc, list, slot, itemOf(op.getList()), adaptor.getValue());
    rewriter.eraseOp(op);
    return success();
  }
};

// Ops that are one runtime call on the list (and its other operands),
// with their result, if any, checked or compared.
enum class CallResult { None, Plain, MemoryErrorIfZero, NewList, Boolean };

template <typename Op>
struct CallLowering : ListOpLowering<Op> {
  using Result = CallResult;
  CallLowering(const TypeConverter &converter, MLIRContext *context, RuntimeFunctions &runtime,
               StringRef name, bool perItemType, Result result)
      : ListOpLowering<Op>(converter, context, runtime), name(name.str()),
        perItemType(perItemType), result(result) {}

  std::string name;
  bool perItemType;
  Result result;

  LogicalResult matchAndRewrite(Op op, typename Op::Adaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    std::string function =
        perItemType ? itemFunction(name, this->itemOf(op->getOperand(0))) : name;
    SmallVector<Value> operands;
    for (Value operand : adaptor.getOperands())
      operands.push_back(this->itemArgument(rewriter, loc, operand));
    if constexpr (std::is_same_v<Op, ListSortOp>)
      operands.push_back(this->constant(rewriter, loc, rewriter.getI32Type(),
                                        op.getReverse() ? 1 : 0));
    if constexpr (std::is_same_v<Op, SetCombineOp> || std::is_same_v<Op, SetUpdateOp>)
      operands.push_back(this->constant(rewriter, loc, rewriter.getI32Type(),
                                        static_cast<int64_t>(op.getKind())));
    Value value = this->call(rewriter, loc, function, operands);
    switch (result) {
    case Result::None:
      rewriter.eraseOp(op);
      return success();
    case Result::Plain:
      break;
    case Result::MemoryErrorIfZero:
      this->checkSucceeded(rewriter, loc, value);
      rewriter.eraseOp(op);
      return success();
    case Result::NewList:
      this->checkNotNull(rewriter, loc, value);
      break;
    case Result::Boolean:
      value = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ne, value,
                                    this->constant(rewriter, loc, value.getType(), 0));
      break;
    }
    rewriter.replaceOp(op, value);
    return success();
  }
};

// A view of the items (kiln-list-views): the memref descriptor of
// `length` contiguous items at `items`, which MLIR's memref-to-LLVM
// lowering reads back through the cast (reconcile-unrealized-casts removes
// the pair).
struct ViewLowering : ListOpLowering<ListViewOp> {
  using ListOpLowering::ListOpLowering;
  LogicalResult matchAndRewrite(ListViewOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value list = adaptor.getList();
    if (op.getWrites())
      markModified(rewriter, loc, list);
    MLIRContext *context = rewriter.getContext();
    auto ptr = LLVM::LLVMPointerType::get(context);
    Type i64 = rewriter.getI64Type();
    auto sizes = LLVM::LLVMArrayType::get(i64, 1);
    auto descriptorType = LLVM::LLVMStructType::getLiteral(context, {ptr, ptr, i64, sizes, sizes});
    Value items = load(rewriter, loc, ptr, list, ListLayout::items);
    Value descriptor = LLVM::UndefOp::create(rewriter, loc, descriptorType);
    auto insert = [&](Value value, ArrayRef<int64_t> position) {
      descriptor = LLVM::InsertValueOp::create(rewriter, loc, descriptor, value, position);
    };
    insert(items, {0});
    insert(items, {1});
    insert(constant(rewriter, loc, i64, 0), {2});
    insert(length(rewriter, loc, list), {3, 0});
    insert(constant(rewriter, loc, i64, 1), {4, 0});
    rewriter.replaceOp(op, UnrealizedConversionCastOp::create(rewriter, loc, op.getType(),
                                                              descriptor)
                               .getResult(0));
    return success();
  }
};

// Slices: a zero step raises ValueError as CPython does; the runtime
// takes 0 for a missing start or stop and a mask of those present.
template <typename Op>
struct SliceLowering : ListOpLowering<Op> {
  using ListOpLowering<Op>::ListOpLowering;
  LogicalResult matchAndRewrite(Op op, typename Op::Adaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type i64 = rewriter.getI64Type();
    Value zero = this->constant(rewriter, loc, i64, 0);
    Value step = adaptor.getStep();
    this->check(rewriter, loc, arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ne, step, zero),
                ErrorKind::ValueError, "slice step cannot be zero");
    int32_t present = (adaptor.getStart() ? 1 : 0) | (adaptor.getStop() ? 2 : 0);
    SmallVector<Value> operands = {
        adaptor.getList(), adaptor.getStart() ? adaptor.getStart() : zero,
        adaptor.getStop() ? adaptor.getStop() : zero, step,
        this->constant(rewriter, loc, rewriter.getI32Type(), present)};
    if constexpr (std::is_same_v<Op, ListSliceOp>) {
      Value result = this->call(rewriter, loc, "kiln_list_slice", operands);
      this->checkNotNull(rewriter, loc, result);
      rewriter.replaceOp(op, result);
    } else if constexpr (std::is_same_v<Op, ListDeleteSliceOp>) {
      this->call(rewriter, loc, "kiln_list_delete_slice", operands);
      rewriter.eraseOp(op);
    } else {
      Value given = this->length(rewriter, loc, adaptor.getValues());
      operands.push_back(adaptor.getValues());
      Value outcome = this->call(rewriter, loc, "kiln_list_assign_slice", operands);
      this->check(rewriter, loc,
                  arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ne, outcome, zero),
                  ErrorKind::MemoryError, "");
      // -(n + 1): the extended slice selects n items.
      Value selected = arith::SubIOp::create(
          rewriter, loc, this->constant(rewriter, loc, i64, -1), outcome);
      CheckOp::create(rewriter, loc,
                      arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::sgt, outcome, zero),
                      ErrorKind::ValueError,
                      rewriter.getStringAttr(
                          "attempt to assign sequence of size {} to extended slice of size {}"),
                      ValueRange{given, selected});
      rewriter.eraseOp(op);
    }
    return success();
  }
};

struct RetainLowering : ListOpLowering<RetainOp> {
  using ListOpLowering::ListOpLowering;
  LogicalResult matchAndRewrite(RetainOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value container = adaptor.getContainer();
    Type type = op.getContainer().getType();
    if (isa<ObjectType>(type)) {   // None-safe, in runtime/kiln_object.c
      call(rewriter, loc, "kiln_object_retain", {container});
      rewriter.eraseOp(op);
      return success();
    }
    int64_t offset = isHashTableType(type)   ? DictLayout::refcount
                     : isa<StrType>(type) ? static_cast<int64_t>(offsetof(kiln_str, refcount))
                                          : ListLayout::refcount;
    Value count = load(rewriter, loc, rewriter.getI64Type(), container, offset);
    Value one = constant(rewriter, loc, rewriter.getI64Type(), 1);
    store(rewriter, loc, arith::AddIOp::create(rewriter, loc, count, one), container, offset);
    rewriter.eraseOp(op);
    return success();
  }
};

struct ReleaseLowering : ListOpLowering<ReleaseOp> {
  using ListOpLowering::ListOpLowering;
  LogicalResult matchAndRewrite(ReleaseOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Type type = op.getContainer().getType();
    call(rewriter, op.getLoc(),
         isHashTableType(type)    ? "kiln_dict_release"
         : isa<StrType>(type)     ? "kiln_str_release"
         : isa<ObjectType>(type)  ? "kiln_object_release"
                               : "kiln_list_release",
         {adaptor.getContainer()});
    rewriter.eraseOp(op);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Dicts and sets: keys and values cross runtime calls as their 8 bytes (an
// i64). The patterns that serve both take the dict or set as operand 0 (and
// a slot as operand 1).
//===----------------------------------------------------------------------===//

template <typename Op>
struct DictOpLowering : ListOpLowering<Op> {
  using ListOpLowering<Op>::ListOpLowering;
  using Base = ListOpLowering<Op>;

  static Value toBits(OpBuilder &b, Location loc, Value value) {
    if (isa<LLVM::LLVMPointerType>(value.getType()))   // a string, converted
      return LLVM::PtrToIntOp::create(b, loc, b.getI64Type(), value);
    if (value.getType().isF64())
      return arith::BitcastOp::create(b, loc, b.getI64Type(), value);
    if (value.getType().isInteger(1))
      return arith::ExtUIOp::create(b, loc, b.getI64Type(), value);
    return value;
  }
  static Value fromBits(OpBuilder &b, Location loc, Value bits, Type type) {
    if (isa<StrType, LLVM::LLVMPointerType>(type))
      return LLVM::IntToPtrOp::create(b, loc, LLVM::LLVMPointerType::get(b.getContext()), bits);
    if (type.isF64())
      return arith::BitcastOp::create(b, loc, type, bits);
    if (type.isInteger(1))
      return arith::TruncIOp::create(b, loc, type, bits);
    return bits;
  }
  static Value entryAddress(OpBuilder &b, Location loc, Value dict, int64_t arrayOffset,
                            Type element, Value slot) {
    auto ptr = LLVM::LLVMPointerType::get(b.getContext());
    Value array = Base::load(b, loc, ptr, dict, arrayOffset);
    return LLVM::GEPOp::create(b, loc, ptr, element, array, ArrayRef<LLVM::GEPArg>{slot});
  }
  static void keyError(OpBuilder &b, Location loc, Value found, Type keyType, Value key) {
    CheckOp::create(b, loc, found, ErrorKind::KeyError, b.getStringAttr(keyErrorMessage(keyType)),
                    ValueRange{toBits(b, loc, key)});
  }
  // A lookup's slot; -2 means no memory for the table (MemoryError).
  Value find(OpBuilder &b, Location loc, Value dict, Value key) const {
    Value slot = this->call(b, loc, "kiln_dict_find", {dict, toBits(b, loc, key)});
    Value noMemory = Base::constant(b, loc, b.getI64Type(), -2);
    Base::check(b, loc, arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, slot, noMemory),
                ErrorKind::MemoryError, "");
    return slot;
  }
};

// A new dict, or set (a dict whose values are KILN_ITEM_NONE).
template <typename Op>
struct HashTableNewLowering : DictOpLowering<Op> {
  using DictOpLowering<Op>::DictOpLowering;
  LogicalResult matchAndRewrite(Op op, typename Op::Adaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto kind = [&](int32_t value) {
      return this->constant(rewriter, loc, rewriter.getI32Type(), value);
    };
    Value keys, values;
    if constexpr (std::is_same_v<Op, SetNewOp>) {
      keys = kind(itemKind(op.getType().getElementType()));
      values = kind(KILN_ITEM_NONE);
    } else {
      keys = kind(itemKind(op.getType().getKeyType()));
      values = kind(itemKind(op.getType().getValueType()));
    }
    Value table = this->call(rewriter, loc, "kiln_dict_new", {keys, values, adaptor.getCapacity()});
    this->checkNotNull(rewriter, loc, table);
    rewriter.replaceOp(op, table);
    return success();
  }
};

// len(d) and the slots iteration visits: inline loads.
template <typename Op, int64_t Offset>
struct DictFieldLowering : DictOpLowering<Op> {
  using DictOpLowering<Op>::DictOpLowering;
  LogicalResult matchAndRewrite(Op op, typename Op::Adaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, this->load(rewriter, op.getLoc(), rewriter.getI64Type(),
                                      adaptor.getOperands()[0], Offset));
    return success();
  }
};

struct DictFindLowering : DictOpLowering<DictFindOp> {
  using DictOpLowering::DictOpLowering;
  LogicalResult matchAndRewrite(DictFindOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, find(rewriter, op.getLoc(), adaptor.getDict(), adaptor.getKey()));
    return success();
  }
};

// KeyError(key), as CPython raises it: the message says the key's kind
// and carries its 8 bytes (runtime/kiln_abi.h, KILN_KEY_ERROR_INT ...).
struct DictRequireLowering : DictOpLowering<DictRequireOp> {
  using DictOpLowering::DictOpLowering;
  LogicalResult matchAndRewrite(DictRequireOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value slot = find(rewriter, loc, adaptor.getDict(), adaptor.getKey());
    Value zero = constant(rewriter, loc, rewriter.getI64Type(), 0);
    Value found = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::sge, slot, zero);
    keyError(rewriter, loc, found, op.getKey().getType(), adaptor.getKey());
    rewriter.replaceOp(op, slot);
    return success();
  }
};

// `d[k] = v`, and `s.add(x)`: an element is a key without a value
// (kiln_dict_set ignores the 0 it is given).
template <typename Op>
struct HashTableSetLowering : DictOpLowering<Op> {
  using DictOpLowering<Op>::DictOpLowering;
  LogicalResult matchAndRewrite(Op op, typename Op::Adaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    ValueRange operands = adaptor.getOperands();
    Value value = operands.size() > 2 ? this->toBits(rewriter, loc, operands[2])
                                      : this->constant(rewriter, loc, rewriter.getI64Type(), 0);
    Value ok = this->call(rewriter, loc, "kiln_dict_set",
                          {operands[0], this->toBits(rewriter, loc, operands[1]), value});
    this->checkSucceeded(rewriter, loc, ok);
    rewriter.eraseOp(op);
    return success();
  }
};

template <typename Op>
struct LiveAtLowering : DictOpLowering<Op> {
  using DictOpLowering<Op>::DictOpLowering;
  LogicalResult matchAndRewrite(Op op, typename Op::Adaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value address = this->entryAddress(rewriter, loc, adaptor.getOperands()[0], DictLayout::live,
                                       rewriter.getI8Type(), adaptor.getOperands()[1]);
    Value byte = LLVM::LoadOp::create(rewriter, loc, rewriter.getI8Type(), address);
    rewriter.replaceOp(op, arith::CmpIOp::create(
                               rewriter, loc, arith::CmpIPredicate::ne, byte,
                               this->constant(rewriter, loc, rewriter.getI8Type(), 0)));
    return success();
  }
};

// A key or value read from its slot.
template <typename Op, int64_t ArrayOffset>
struct DictEntryLowering : DictOpLowering<Op> {
  using DictOpLowering<Op>::DictOpLowering;
  LogicalResult matchAndRewrite(Op op, typename Op::Adaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value address = this->entryAddress(rewriter, loc, adaptor.getOperands()[0], ArrayOffset,
                                       rewriter.getI64Type(), adaptor.getOperands()[1]);
    Value bits = LLVM::LoadOp::create(rewriter, loc, rewriter.getI64Type(), address);
    rewriter.replaceOp(op, this->fromBits(rewriter, loc, bits, op.getType()));
    return success();
  }
};

struct DictSetValueAtLowering : DictOpLowering<DictSetValueAtOp> {
  using DictOpLowering::DictOpLowering;
  LogicalResult matchAndRewrite(DictSetValueAtOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value dict = adaptor.getDict();
    // A string value is adopted and the one it replaces released.
    if (isa<StrType>(op.getValue().getType())) {
      call(rewriter, loc, "kiln_dict_store_value_str", {dict, adaptor.getSlot(),
                                                         adaptor.getValue()});
      rewriter.eraseOp(op);
      return success();
    }
    Value address = entryAddress(rewriter, loc, dict, DictLayout::values, rewriter.getI64Type(),
                                 adaptor.getSlot());
    LLVM::StoreOp::create(rewriter, loc, toBits(rewriter, loc, adaptor.getValue()), address);
    Value flags = load(rewriter, loc, rewriter.getI32Type(), dict, DictLayout::flags);
    Value modified = constant(rewriter, loc, rewriter.getI32Type(), KILN_DICT_MODIFIED);
    store(rewriter, loc, arith::OrIOp::create(rewriter, loc, flags, modified), dict,
          DictLayout::flags);
    rewriter.eraseOp(op);
    return success();
  }
};

// A runtime query of two dicts or sets answering 1, 0, or -1 when there
// is no memory for a lookup table (MemoryError).
template <typename Op>
struct QueryLowering : DictOpLowering<Op> {
  QueryLowering(const TypeConverter &converter, MLIRContext *context, RuntimeFunctions &runtime,
                StringRef name)
      : DictOpLowering<Op>(converter, context, runtime), name(name.str()) {}
  std::string name;
  LogicalResult matchAndRewrite(Op op, typename Op::Adaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value result = this->call(rewriter, loc, name, {adaptor.getLhs(), adaptor.getRhs()});
    Value zero = this->constant(rewriter, loc, rewriter.getI32Type(), 0);
    this->check(rewriter, loc,
                arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::sge, result, zero),
                ErrorKind::MemoryError, "");
    rewriter.replaceOp(op, arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ne, result,
                                                 zero));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Sets (dicts without values).
//===----------------------------------------------------------------------===//

struct SetContainsLowering : DictOpLowering<SetContainsOp> {
  using DictOpLowering::DictOpLowering;
  LogicalResult matchAndRewrite(SetContainsOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value slot = find(rewriter, loc, adaptor.getSet(), adaptor.getElement());
    rewriter.replaceOp(op, arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::sge, slot,
                                                 constant(rewriter, loc, rewriter.getI64Type(), 0)));
    return success();
  }
};

// discard and remove: kiln_set_discard answers 1 (removed), 0 (absent) or
// -1 (no memory); remove raises KeyError(x) on 0.
template <typename Op>
struct SetDiscardLowering : DictOpLowering<Op> {
  using DictOpLowering<Op>::DictOpLowering;
  LogicalResult matchAndRewrite(Op op, typename Op::Adaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value outcome = this->call(rewriter, loc, "kiln_set_discard",
                               {adaptor.getSet(), this->toBits(rewriter, loc, adaptor.getElement())});
    Value zero = this->constant(rewriter, loc, rewriter.getI32Type(), 0);
    this->check(rewriter, loc,
                arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::sge, outcome, zero),
                ErrorKind::MemoryError, "");
    Value removed = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ne, outcome, zero);
    if constexpr (std::is_same_v<Op, SetRemoveOp>) {
      this->keyError(rewriter, loc, removed, op.getElement().getType(), adaptor.getElement());
      rewriter.eraseOp(op);
    } else {
      rewriter.replaceOp(op, removed);
    }
    return success();
  }
};

// KeyError('pop from an empty set'), as CPython; then the first element's
// slot is read and erased.
struct SetPopLowering : DictOpLowering<SetPopOp> {
  using DictOpLowering::DictOpLowering;
  LogicalResult matchAndRewrite(SetPopOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value set = adaptor.getSet();
    Value size = load(rewriter, loc, rewriter.getI64Type(), set, DictLayout::length);
    Value zero = constant(rewriter, loc, rewriter.getI64Type(), 0);
    check(rewriter, loc, arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::sgt, size, zero),
          ErrorKind::KeyError, "pop from an empty set");
    Value slot = call(rewriter, loc, "kiln_set_pop_slot", {set});
    Value noMemory = constant(rewriter, loc, rewriter.getI64Type(), -2);
    check(rewriter, loc, arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ne, slot, noMemory),
          ErrorKind::MemoryError, "");
    // A string leaves with the set's reference: the result owns it.
    if (isa<StrType>(op.getType())) {
      rewriter.replaceOp(op, call(rewriter, loc, "kiln_set_take_str", {set, slot}));
      return success();
    }
    Value address = entryAddress(rewriter, loc, set, DictLayout::keys, rewriter.getI64Type(), slot);
    Value bits = LLVM::LoadOp::create(rewriter, loc, rewriter.getI64Type(), address);
    call(rewriter, loc, "kiln_dict_erase_at", {set, slot});
    rewriter.replaceOp(op, fromBits(rewriter, loc, bits, op.getType()));
    return success();
  }
};

// Any other op that only carries lists (arith.select, ub.poison, ...):
// the same op on pointers.
struct RetypeLowering : public ConversionPattern {
  RetypeLowering(const TypeConverter &converter, MLIRContext *context)
      : ConversionPattern(converter, MatchAnyOpTypeTag(), /*benefit=*/0, context) {}
  LogicalResult matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                                ConversionPatternRewriter &rewriter) const override {
    if (op->getNumRegions() != 0 || isa<func::FuncOp, func::CallOp, func::ReturnOp>(op) ||
        op->getDialect() == op->getContext()->getLoadedDialect<KilnDialect>())
      return failure();
    FailureOr<Operation *> converted =
        convertOpResultTypes(op, operands, *getTypeConverter(), rewriter);
    if (failed(converted))
      return failure();
    // The copy on pointers takes the original's place (convertOpResultTypes
    // only makes it).
    rewriter.replaceOp(op, (*converted)->getResults());
    return success();
  }
};

// A function that makes lists (or receives them from calls) enters the
// journal on entry and leaves it at each normal return; kiln-lower-checks
// unwinds it at the error exits (runtime/kiln_list.c says why).
void journalLists(func::FuncOp func, RuntimeFunctions &runtime) {
  if (func.isExternal())
    return;
  bool makesLists = false;
  func.walk([&](Operation *op) {
    if (isa<ListNewOp, ListCopyOp, ListConcatOp, ListRepeatOp, ListSliceOp, DictNewOp, DictCopyOp,
            SetNewOp, SetCopyOp, SetCombineOp>(op))
      makesLists = true;
    else if (isa<KilnDialect>(op->getDialect()) && !isa<StrConstantOp>(op) &&
             llvm::any_of(op->getResultTypes(), llvm::IsaPred<StrType>))
      makesLists = true;   // a kiln.str op that makes a string
    else if (auto call = dyn_cast<func::CallOp>(op);
             call && llvm::any_of(call.getResultTypes(), isContainerType))
      makesLists = true;
  });
  if (!makesLists)
    return;
  OpBuilder builder = OpBuilder::atBlockBegin(&func.getBody().front());
  Value mark =
      func::CallOp::create(builder, func.getLoc(), runtime.declared.lookup("kiln_journal_enter"),
                           ValueRange{})
          .getResult(0);
  func.walk([&](func::ReturnOp ret) {
    builder.setInsertionPoint(ret);
    func::CallOp::create(builder, ret.getLoc(), runtime.declared.lookup("kiln_journal_leave"),
                         ValueRange{mark});
  });
}

struct KilnLowerContainersPass
    : public impl::KilnLowerContainersBase<KilnLowerContainersPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *context = &getContext();
    RuntimeFunctions runtime(module);
    declareRuntime(module, runtime);
    declareStringRuntime(module, runtime);
    declareObjectRuntime(module, runtime);
    if (runtime.declared.empty())
      return;
    module.walk([&](func::FuncOp func) { journalLists(func, runtime); });

    TypeConverter converter;
    converter.addConversion([](Type type) { return type; });
    converter.addConversion(
        [](ListType type) -> Type { return LLVM::LLVMPointerType::get(type.getContext()); });
    converter.addConversion(
        [](DictType type) -> Type { return LLVM::LLVMPointerType::get(type.getContext()); });
    converter.addConversion(
        [](SetType type) -> Type { return LLVM::LLVMPointerType::get(type.getContext()); });
    converter.addConversion(
        [](StrType type) -> Type { return LLVM::LLVMPointerType::get(type.getContext()); });
    converter.addConversion(
        [](ObjectType type) -> Type { return LLVM::LLVMPointerType::get(type.getContext()); });
    auto castMaterialization = [](OpBuilder &builder, Type type, ValueRange inputs,
                                  Location loc) -> Value {
      return UnrealizedConversionCastOp::create(builder, loc, type, inputs).getResult(0);
    };
    converter.addSourceMaterialization(castMaterialization);
    converter.addTargetMaterialization(castMaterialization);

    ConversionTarget target(*context);
    target.addIllegalOp<ListNewOp, ListLenOp, ListGetOp, ListSetOp, ListAppendOp, ListPopOp,
                        ListInsertOp, ListClearOp, ListReverseOp, ListSortOp, ListExtendOp,
                        ListCopyOp, ListConcatOp, ListRepeatOp, ListCountOp, ListFindOp,
                        ListEqualOp, ListViewOp, ListSliceOp, ListAssignSliceOp,
                        ListDeleteSliceOp, RetainOp, ReleaseOp, DictNewOp, DictLenOp, DictFindOp,
                        DictRequireOp, DictSetOp, DictUsedOp, DictLiveAtOp, DictKeyAtOp,
                        DictValueAtOp, DictSetValueAtOp, DictEraseAtOp, DictClearOp,
                        DictCopyOp, DictUpdateOp, DictEqualOp, SetNewOp, SetLenOp,
                        SetContainsOp, SetAddOp, SetDiscardOp, SetRemoveOp, SetPopOp, SetUsedOp,
                        SetLiveAtOp, SetKeyAtOp, SetClearOp, SetCopyOp, SetCombineOp, SetUpdateOp,
                        SetSubsetOp, SetEqualOp, SetDisjointOp>();
    addIllegalStringOps(target);
    addIllegalObjectOps(target);
    target.addDynamicallyLegalOp<func::FuncOp>([&](func::FuncOp func) {
      return converter.isSignatureLegal(func.getFunctionType()) &&
             converter.isLegal(&func.getBody());
    });
    target.markUnknownOpDynamicallyLegal([&](Operation *op) {
      if (isa<func::FuncOp>(op))
        return converter.isSignatureLegal(cast<func::FuncOp>(op).getFunctionType());
      return converter.isLegal(op);
    });

    RewritePatternSet patterns(context);
    populateFunctionOpInterfaceTypeConversionPattern<func::FuncOp>(patterns, converter);
    populateCallOpTypeConversionPattern(patterns, converter);
    populateReturnOpTypeConversionPattern(patterns, converter);
    populateBranchOpInterfaceTypeConversionPattern(patterns, converter);
    scf::populateSCFStructuralTypeConversions(converter, patterns);
    patterns.add<NewLowering, LenLowering, GetLowering, SetLowering, AppendLowering,
                 PopLowering, InsertLowering, RetainLowering, ViewLowering,
                 SliceLowering<ListSliceOp>, SliceLowering<ListAssignSliceOp>,
                 SliceLowering<ListDeleteSliceOp>>(converter, context, runtime);
    using Result = CallResult;
    patterns.add<CallLowering<ListClearOp>>(converter, context, runtime, "kiln_list_clear",
                                            false, Result::None);
    patterns.add<CallLowering<ListReverseOp>>(converter, context, runtime,
                                              "kiln_list_reverse", false, Result::None);
    patterns.add<CallLowering<ListSortOp>>(converter, context, runtime, "kiln_list_sort",
                                           true, CallResult::MemoryErrorIfZero);
    patterns.add<CallLowering<ListExtendOp>>(converter, context, runtime, "kiln_list_extend",
                                             false,
                                             CallResult::MemoryErrorIfZero);
    patterns.add<CallLowering<ListCopyOp>>(converter, context, runtime, "kiln_list_copy",
                                           false, CallResult::NewList);
    patterns.add<CallLowering<ListConcatOp>>(converter, context, runtime, "kiln_list_concat",
                                             false, CallResult::NewList);
    patterns.add<CallLowering<ListRepeatOp>>(converter, context, runtime, "kiln_list_repeat",
                                             false, CallResult::NewList);
    patterns.add<CallLowering<ListCountOp>>(converter, context, runtime, "kiln_list_count",
                                            true, CallResult::Plain);
    patterns.add<CallLowering<ListFindOp>>(converter, context, runtime, "kiln_list_find", true,
                                           CallResult::Plain);
    patterns.add<CallLowering<ListEqualOp>>(converter, context, runtime, "kiln_list_equal",
                                            true, CallResult::Boolean);
    patterns.add<ReleaseLowering, HashTableNewLowering<DictNewOp>, DictFindLowering,
                 DictRequireLowering, HashTableSetLowering<DictSetOp>,
                 LiveAtLowering<DictLiveAtOp>, DictSetValueAtLowering,
                 DictFieldLowering<DictLenOp, DictLayout::length>,
                 DictFieldLowering<DictUsedOp, DictLayout::used>,
                 DictEntryLowering<DictKeyAtOp, DictLayout::keys>,
                 DictEntryLowering<DictValueAtOp, DictLayout::values>,
                 HashTableNewLowering<SetNewOp>, SetContainsLowering,
                 HashTableSetLowering<SetAddOp>, SetDiscardLowering<SetDiscardOp>,
                 SetDiscardLowering<SetRemoveOp>, SetPopLowering, LiveAtLowering<SetLiveAtOp>,
                 DictFieldLowering<SetLenOp, DictLayout::length>,
                 DictFieldLowering<SetUsedOp, DictLayout::used>,
                 DictEntryLowering<SetKeyAtOp, DictLayout::keys>>(converter, context, runtime);
    patterns.add<QueryLowering<DictEqualOp>>(converter, context, runtime, "kiln_dict_equal");
    patterns.add<QueryLowering<SetEqualOp>>(converter, context, runtime, "kiln_dict_equal");
    patterns.add<QueryLowering<SetSubsetOp>>(converter, context, runtime, "kiln_set_subset");
    patterns.add<QueryLowering<SetDisjointOp>>(converter, context, runtime, "kiln_set_disjoint");
    patterns.add<CallLowering<SetClearOp>>(converter, context, runtime, "kiln_dict_clear", false,
                                           CallResult::None);
    patterns.add<CallLowering<SetCopyOp>>(converter, context, runtime, "kiln_dict_copy", false,
                                          CallResult::NewList);
    patterns.add<CallLowering<SetCombineOp>>(converter, context, runtime, "kiln_set_combine",
                                             false, CallResult::NewList);
    patterns.add<CallLowering<SetUpdateOp>>(converter, context, runtime, "kiln_set_update", false,
                                            CallResult::MemoryErrorIfZero);
    patterns.add<CallLowering<DictEraseAtOp>>(converter, context, runtime, "kiln_dict_erase_at",
                                              false, CallResult::None);
    patterns.add<CallLowering<DictClearOp>>(converter, context, runtime, "kiln_dict_clear",
                                            false, CallResult::None);
    patterns.add<CallLowering<DictCopyOp>>(converter, context, runtime, "kiln_dict_copy", false,
                                           CallResult::NewList);
    patterns.add<CallLowering<DictUpdateOp>>(converter, context, runtime, "kiln_dict_update",
                                             false, CallResult::MemoryErrorIfZero);
    populateStringLoweringPatterns(patterns, converter, runtime);
    populateObjectLoweringPatterns(patterns, converter, runtime);
    patterns.add<RetypeLowering>(converter, context);
    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
} // namespace kiln
