// kiln-lower-containers: the kiln dialect's list ops become inline code on
// the C ABI's kiln_list (runtime/kiln_abi.h) and calls of
// runtime/kiln_list.c; !kiln.list<T> becomes !llvm.ptr everywhere
// (function signatures, calls, structured control flow). Index checks
// become kiln.check ops, which kiln-lower-checks turns into the Python
// exception. The journal that frees a raising call's lists is entered and
// left here (kiln_list_enter/kiln_list_leave); kiln-lower-checks unwinds it
// on error exits.
//
// Upstream has no counterpart: the list semantics (Python indices, shared
// references, growth) are Kiln's; the structural type conversions are
// MLIR's own (func, scf, branches).

#include "passes/Passes.h"

#include "lib/Dialect/KilnAbi.h"

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

// Byte offsets of kiln_list's fields, from the one declaration of the
// struct (runtime/kiln_abi.h).
struct ListLayout {
  static constexpr int64_t length = offsetof(kiln_list, length);
  static constexpr int64_t items = offsetof(kiln_list, items);
  static constexpr int64_t refcount = offsetof(kiln_list, refcount);
  static constexpr int64_t flags = offsetof(kiln_list, flags);
};
static_assert(sizeof(((kiln_list *)nullptr)->length) == 8 &&
                  sizeof(((kiln_list *)nullptr)->refcount) == 8 &&
                  sizeof(((kiln_list *)nullptr)->flags) == 4,
              "kiln-lower-containers loads i64 length/refcount and i32 flags");

// The runtime function of each item type: kiln_list_find_i64, ..._f64,
// ..._bool.
std::string itemFunction(StringRef prefix, Type item) {
  if (item.isF64())
    return (prefix + "_f64").str();
  if (item.isInteger(1))
    return (prefix + "_bool").str();
  return (prefix + "_i64").str();
}

// How an item crosses a call of the runtime: bools as int32_t 0/1 (see
// runtime/kiln_list.c), others as themselves.
Type itemArgumentType(Type item) {
  return item.isInteger(1) ? IntegerType::get(item.getContext(), 32) : item;
}

// How an item is stored in kiln_list.items: a bool is one byte.
Type itemStorageType(Type item) {
  return item.isInteger(1) ? IntegerType::get(item.getContext(), 8) : item;
}

int64_t itemSize(Type item) { return item.isInteger(1) ? 1 : 8; }

bool isListType(Type type) { return isa<ListType>(type); }

bool holdsLists(Operation *op) {
  return llvm::any_of(op->getOperandTypes(), isListType) ||
         llvm::any_of(op->getResultTypes(), isListType);
}

// Every runtime function the lowering may call, by name and type.
struct RuntimeFunctions {
  ModuleOp module;
  OpBuilder builder;
  llvm::StringMap<func::FuncOp> declared;

  explicit RuntimeFunctions(ModuleOp module)
      : module(module), builder(module.getContext()) {}

  func::FuncOp get(StringRef name, TypeRange arguments, TypeRange results) {
    if (auto found = declared.lookup(name))
      return found;
    auto function = module.lookupSymbol<func::FuncOp>(name);
    if (!function) {
      builder.setInsertionPointToStart(module.getBody());
      function = func::FuncOp::create(builder, module.getLoc(), name,
                                      builder.getFunctionType(arguments, results));
      function.setPrivate();
    }
    declared[name] = function;
    return function;
  }
};

// Declares, before the conversion starts (patterns must not add symbols
// to the module they walk), every runtime function the list ops present
// will call.
void declareRuntime(ModuleOp module, RuntimeFunctions &runtime) {
  MLIRContext *context = module.getContext();
  auto ptr = LLVM::LLVMPointerType::get(context);
  auto i64 = IntegerType::get(context, 64);
  auto i32 = IntegerType::get(context, 32);
  bool any = false;
  llvm::SmallSetVector<Type, 3> items;
  module.walk([&](Operation *op) {
    if (!holdsLists(op) && !isa<func::FuncOp>(op))
      return;
    for (Type type : llvm::concat<const Type>(op->getOperandTypes(), op->getResultTypes()))
      if (auto list = dyn_cast<ListType>(type)) {
        any = true;
        items.insert(list.getItemType());
      }
  });
  if (!any)
    return;
  runtime.get("kiln_list_enter", {}, {i64});
  runtime.get("kiln_list_leave", {i64}, {});
  runtime.get("kiln_list_new", {i64, i64}, {ptr});
  runtime.get("kiln_list_release", {ptr}, {});
  runtime.get("kiln_list_clear", {ptr}, {});
  runtime.get("kiln_list_reverse", {ptr}, {});
  runtime.get("kiln_list_extend", {ptr, ptr}, {i32});
  runtime.get("kiln_list_delete", {ptr, i64}, {});
  runtime.get("kiln_list_open_slot", {ptr, i64}, {i64});
  runtime.get("kiln_list_concat", {ptr, ptr}, {ptr});
  runtime.get("kiln_list_copy", {ptr}, {ptr});
  runtime.get("kiln_list_repeat", {ptr, i64}, {ptr});
  for (Type item : items) {
    Type argument = itemArgumentType(item);
    runtime.get(itemFunction("kiln_list_append", item), {ptr, argument}, {i32});
    runtime.get(itemFunction("kiln_list_find", item), {ptr, argument}, {i64});
    runtime.get(itemFunction("kiln_list_count", item), {ptr, argument}, {i64});
    runtime.get(itemFunction("kiln_list_equal", item), {ptr, ptr}, {i32});
    runtime.get(itemFunction("kiln_list_sort", item), {ptr, i32}, {i32});
  }
}

// The shared code of the op lowerings: field addresses, loads and stores,
// runtime calls, checks.
template <typename Op>
struct ListOpLowering : public OpConversionPattern<Op> {
  ListOpLowering(const TypeConverter &converter, MLIRContext *context,
                 RuntimeFunctions &runtime)
      : OpConversionPattern<Op>(converter, context), runtime(runtime) {}

  RuntimeFunctions &runtime;

  static Value field(OpBuilder &b, Location loc, Value list, int64_t offset) {
    auto ptr = LLVM::LLVMPointerType::get(b.getContext());
    return LLVM::GEPOp::create(b, loc, ptr, b.getI8Type(), list,
                               ArrayRef<LLVM::GEPArg>{offset});
  }
  static Value load(OpBuilder &b, Location loc, Type type, Value list, int64_t offset) {
    return LLVM::LoadOp::create(b, loc, type, field(b, loc, list, offset));
  }
  static void store(OpBuilder &b, Location loc, Value value, Value list, int64_t offset) {
    LLVM::StoreOp::create(b, loc, value, field(b, loc, list, offset));
  }
  static Value constant(OpBuilder &b, Location loc, Type type, int64_t value) {
    return arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, value));
  }
  static Value length(OpBuilder &b, Location loc, Value list) {
    return load(b, loc, b.getI64Type(), list, ListLayout::length);
  }

  Value call(OpBuilder &b, Location loc, StringRef name, ValueRange operands) const {
    func::FuncOp function = runtime.declared.lookup(name);
    assert(function && "runtime function not declared");
    auto op = func::CallOp::create(b, loc, function, operands);
    return op.getNumResults() ? op.getResult(0) : Value();
  }

  static void check(OpBuilder &b, Location loc, Value condition, ErrorKind kind,
                    StringRef message) {
    CheckOp::create(b, loc, condition, kind, b.getStringAttr(message), ValueRange{});
  }
  // A runtime call's "no memory" result (0 or a null list) raises
  // MemoryError, as CPython does.
  static void checkSucceeded(OpBuilder &b, Location loc, Value ok) {
    Value zero = constant(b, loc, ok.getType(), 0);
    check(b, loc, arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, ok, zero),
          ErrorKind::MemoryError, "");
  }
  static void checkNotNull(OpBuilder &b, Location loc, Value list) {
    Value null = LLVM::ZeroOp::create(b, loc, list.getType());
    check(b, loc, LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ne, list, null),
          ErrorKind::MemoryError, "");
  }
  // Python's index: negative counts from the end; the result is checked
  // against [0, length) with one unsigned compare.
  static Value pythonIndex(OpBuilder &b, Location loc, Value index, Value size,
                           StringRef message) {
    Value zero = constant(b, loc, b.getI64Type(), 0);
    Value negative = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, index, zero);
    Value fromEnd = arith::AddIOp::create(b, loc, index, size);
    Value position = arith::SelectOp::create(b, loc, negative, fromEnd, index);
    Value inBounds =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, position, size);
    check(b, loc, inBounds, ErrorKind::IndexError, message);
    return position;
  }
  static Value itemAddress(OpBuilder &b, Location loc, Value list, Value position,
                           Type item) {
    auto ptr = LLVM::LLVMPointerType::get(b.getContext());
    Value items = load(b, loc, ptr, list, ListLayout::items);
    return LLVM::GEPOp::create(b, loc, ptr, itemStorageType(item), items,
                               ArrayRef<LLVM::GEPArg>{position});
  }
  static Value loadItem(OpBuilder &b, Location loc, Value list, Value position, Type item) {
    Value stored =
        LLVM::LoadOp::create(b, loc, itemStorageType(item), itemAddress(b, loc, list, position, item));
    if (item.isInteger(1))
      return arith::TruncIOp::create(b, loc, item, stored);
    return stored;
  }
  static void storeItem(OpBuilder &b, Location loc, Value list, Value position, Type item,
                        Value value) {
    if (item.isInteger(1))
      value = arith::ExtUIOp::create(b, loc, b.getI8Type(), value);
    LLVM::StoreOp::create(b, loc, value, itemAddress(b, loc, list, position, item));
  }
  static void markModified(OpBuilder &b, Location loc, Value list) {
    Value flags = load(b, loc, b.getI32Type(), list, ListLayout::flags);
    Value modified = constant(b, loc, b.getI32Type(), KILN_LIST_MODIFIED);
    store(b, loc, arith::OrIOp::create(b, loc, flags, modified), list, ListLayout::flags);
  }
  static Value itemArgument(OpBuilder &b, Location loc, Value value) {
    if (value.getType().isInteger(1))
      return arith::ExtUIOp::create(b, loc, b.getI32Type(), value);
    return value;
  }
  static Type itemOf(Value list) { return cast<ListType>(list.getType()).getItemType(); }
};

struct NewLowering : ListOpLowering<ListNewOp> {
  using ListOpLowering::ListOpLowering;
  LogicalResult matchAndRewrite(ListNewOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type item = cast<ListType>(op.getType()).getItemType();
    Value list = call(rewriter, loc, "kiln_list_new",
                      {constant(rewriter, loc, rewriter.getI64Type(), itemSize(item)),
                       adaptor.getCapacity()});
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
    Type item = this->itemOf(op->getOperand(0));
    std::string function = perItemType ? itemFunction(name, item) : name;
    SmallVector<Value> operands;
    for (Value operand : adaptor.getOperands())
      operands.push_back(this->itemArgument(rewriter, loc, operand));
    if constexpr (std::is_same_v<Op, ListSortOp>)
      operands.push_back(this->constant(rewriter, loc, rewriter.getI32Type(),
                                        op.getReverse() ? 1 : 0));
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

struct RetainLowering : ListOpLowering<RetainOp> {
  using ListOpLowering::ListOpLowering;
  LogicalResult matchAndRewrite(RetainOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value list = adaptor.getContainer();
    Value count = load(rewriter, loc, rewriter.getI64Type(), list, ListLayout::refcount);
    Value one = constant(rewriter, loc, rewriter.getI64Type(), 1);
    store(rewriter, loc, arith::AddIOp::create(rewriter, loc, count, one), list,
          ListLayout::refcount);
    rewriter.eraseOp(op);
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
    return failed(converted) ? failure() : success();
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
    if (isa<ListNewOp, ListCopyOp, ListConcatOp, ListRepeatOp>(op))
      makesLists = true;
    else if (auto call = dyn_cast<func::CallOp>(op);
             call && llvm::any_of(call.getResultTypes(), isListType))
      makesLists = true;
  });
  if (!makesLists)
    return;
  OpBuilder builder = OpBuilder::atBlockBegin(&func.getBody().front());
  Value mark =
      func::CallOp::create(builder, func.getLoc(), runtime.declared.lookup("kiln_list_enter"),
                           ValueRange{})
          .getResult(0);
  func.walk([&](func::ReturnOp ret) {
    builder.setInsertionPoint(ret);
    func::CallOp::create(builder, ret.getLoc(), runtime.declared.lookup("kiln_list_leave"),
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
    if (runtime.declared.empty())
      return;
    module.walk([&](func::FuncOp func) { journalLists(func, runtime); });

    TypeConverter converter;
    converter.addConversion([](Type type) { return type; });
    converter.addConversion(
        [](ListType type) -> Type { return LLVM::LLVMPointerType::get(type.getContext()); });
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
                        ListEqualOp, RetainOp, ReleaseOp>();
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
                 PopLowering, InsertLowering, RetainLowering>(converter, context, runtime);
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
    patterns.add<CallLowering<ReleaseOp>>(converter, context, runtime, "kiln_list_release",
                                          false, CallResult::None);
    patterns.add<RetypeLowering>(converter, context);
    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
} // namespace kiln
