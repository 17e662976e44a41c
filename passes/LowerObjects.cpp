// The instance half of kiln-lower-containers: `!kiln.object<"C">` becomes a
// pointer to the CPython object, a field read or write a load or store at
// the field's offset (runtime/kiln_abi.h's layout, computed by the frontend's
// kiln/frontend/classes.py), and making, retaining and releasing an
// instance calls of runtime/kiln_object.c, which LLVM inlines.
//
// Upstream has no counterpart: the objects are CPython's, with Python's
// errors (AttributeError on None), made through the class slot the
// extension fills when it is imported.

#include "passes/ContainerLowering.h"
#include "passes/Passes.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace kiln::containers {
namespace {

// The error text of CPython's attribute lookup.
std::string noAttribute(StringRef owner, StringRef field) {
  return ("'" + owner + "' object has no attribute '" + field + "'").str();
}

// `o` is not None, or AttributeError as CPython says it of None.
template <typename Op>
struct ObjectOpLowering : ListOpLowering<Op> {
  using ListOpLowering<Op>::ListOpLowering;
  static void checkNotNone(OpBuilder &b, Location loc, Value object, StringRef field) {
    Value null = LLVM::ZeroOp::create(b, loc, object.getType());
    ListOpLowering<Op>::check(
        b, loc, LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ne, object, null),
        ErrorKind::AttributeError, noAttribute("NoneType", field));
  }
  // How a field of `type` is stored: a bool in one byte.
  static Type storageType(OpBuilder &b, Type type) {
    if (isa<ObjectType>(type))
      return LLVM::LLVMPointerType::get(b.getContext());
    if (type.isInteger(1))
      return b.getI8Type();
    return type;
  }
};

struct ObjectNewLowering : ObjectOpLowering<ObjectNewOp> {
  using ObjectOpLowering::ObjectOpLowering;
  LogicalResult matchAndRewrite(ObjectNewOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto ptr = LLVM::LLVMPointerType::get(rewriter.getContext());
    auto slot = SymbolTable::lookupNearestSymbolFrom<LLVM::GlobalOp>(op, op.getSlotAttr());
    if (!slot || slot.getGlobalType() != ptr)
      return rewriter.notifyMatchFailure(op, "the class slot is not a pointer global");
    Value address = LLVM::AddressOfOp::create(rewriter, loc, ptr, op.getSlot());
    Value type = LLVM::LoadOp::create(rewriter, loc, ptr, address);
    Value null = LLVM::ZeroOp::create(rewriter, loc, ptr);
    StringRef name = op.getType().getClassName();
    check(rewriter, loc, LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::ne, type, null),
          ErrorKind::RuntimeError,
          ("class '" + name +
           "' has no type here: its instances are CPython objects, which only a Python "
           "process that imported the module's extension can make")
              .str());
    Value object = call(rewriter, loc, "kiln_object_new", {type});
    checkNotNull(rewriter, loc, object);
    rewriter.replaceOp(op, object);
    return success();
  }
};

struct ObjectGetLowering : ObjectOpLowering<ObjectGetOp> {
  using ObjectOpLowering::ObjectOpLowering;
  LogicalResult matchAndRewrite(ObjectGetOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value object = adaptor.getObject();
    checkNotNone(rewriter, loc, object, op.getField());
    Type type = op.getType();
    Value value = load(rewriter, loc, storageType(rewriter, type), object, op.getOffset());
    if (type.isInteger(1)) {
      value = arith::TruncIOp::create(rewriter, loc, type, value);
    } else if (isa<ObjectType>(type) && !op.getNullable()) {
      // An instance field nothing has set yet reads as a missing attribute,
      // as an unset __slots__ member does.
      Value null = LLVM::ZeroOp::create(rewriter, loc, value.getType());
      StringRef owner = cast<ObjectType>(op.getObject().getType()).getClassName();
      check(rewriter, loc, LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::ne, value, null),
            ErrorKind::AttributeError, noAttribute(owner, op.getField()));
    }
    rewriter.replaceOp(op, value);
    return success();
  }
};

struct ObjectSetLowering : ObjectOpLowering<ObjectSetOp> {
  using ObjectOpLowering::ObjectOpLowering;
  LogicalResult matchAndRewrite(ObjectSetOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value object = adaptor.getObject();
    Value value = adaptor.getValue();
    checkNotNone(rewriter, loc, object, op.getField());
    Type type = op.getValue().getType();
    if (type.isInteger(1)) {
      store(rewriter, loc, arith::ExtUIOp::create(rewriter, loc, rewriter.getI8Type(), value),
            object, op.getOffset());
    } else if (isa<ObjectType>(type)) {
      // Retained before the old value is released: `o.next = o.next` must
      // not free the node on the way.
      auto ptr = LLVM::LLVMPointerType::get(rewriter.getContext());
      call(rewriter, loc, "kiln_object_retain", {value});
      Value old = load(rewriter, loc, ptr, object, op.getOffset());
      store(rewriter, loc, value, object, op.getOffset());
      call(rewriter, loc, "kiln_object_release", {old});
    } else {
      store(rewriter, loc, value, object, op.getOffset());
    }
    rewriter.eraseOp(op);
    return success();
  }
};

struct ObjectNoneLowering : ObjectOpLowering<ObjectNoneOp> {
  using ObjectOpLowering::ObjectOpLowering;
  LogicalResult matchAndRewrite(ObjectNoneOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, LLVM::ZeroOp::create(rewriter, op.getLoc(),
                                                LLVM::LLVMPointerType::get(rewriter.getContext())));
    return success();
  }
};

struct ObjectIsNoneLowering : ObjectOpLowering<ObjectIsNoneOp> {
  using ObjectOpLowering::ObjectOpLowering;
  LogicalResult matchAndRewrite(ObjectIsNoneOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value object = adaptor.getObject();
    Value null = LLVM::ZeroOp::create(rewriter, loc, object.getType());
    rewriter.replaceOp(op, LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::eq, object, null));
    return success();
  }
};

struct ObjectSameLowering : ObjectOpLowering<ObjectSameOp> {
  using ObjectOpLowering::ObjectOpLowering;
  LogicalResult matchAndRewrite(ObjectSameOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, LLVM::ICmpOp::create(rewriter, op.getLoc(), LLVM::ICmpPredicate::eq,
                                                adaptor.getLhs(), adaptor.getRhs()));
    return success();
  }
};

} // namespace

// A function holds a reference to each instance parameter it retains at
// entry and releases it at its returns; a raise leaves through
// kiln-lower-checks' error exits, which release no name's reference. So that
// an instance passed to a raising call (`Node(-1)` whose `__init__` raises)
// is not kept alive for ever, the parameters whose reference is provably
// still the function's at every error exit are recorded here, before the
// types are gone, and kiln-lower-checks releases them on the exits: the
// parameter is retained first thing (before anything that can raise), each
// release of it sits right before a return (only releases between), and it
// is never yielded out of a region or branched with -- its only moves are
// into a loop's initial state, which kiln-lower-checks counts (the name the
// loop carries took a retain of its own).
static void markParametersReleasedOnError(func::FuncOp func) {
  if (func.isExternal())
    return;
  Block &entry = func.getBody().front();
  SmallVector<int64_t> released;
  for (BlockArgument argument : entry.getArguments()) {
    if (!isa<ObjectType>(argument.getType()))
      continue;
    bool retainedFirst = false;
    for (Operation &op : entry) {
      if (auto retain = dyn_cast<RetainOp>(op)) {
        if (retain.getContainer() == argument) {
          retainedFirst = true;
          break;
        }
        continue;
      }
      if (!isPure(&op))
        break;
    }
    if (!retainedFirst)
      continue;
    bool ownedToTheEnd = llvm::all_of(argument.getUsers(), [&](Operation *user) {
      if (isa<scf::YieldOp, scf::ConditionOp, cf::BranchOp, cf::CondBranchOp>(user))
        return false;
      if (!isa<ReleaseOp>(user))
        return true;
      for (Operation *next = user->getNextNode(); next; next = next->getNextNode()) {
        if (isa<func::ReturnOp>(next))
          return true;
        if (!isa<ReleaseOp>(next))
          return false;
      }
      return false;
    });
    if (ownedToTheEnd)
      released.push_back(argument.getArgNumber());
  }
  if (!released.empty())
    func->setAttr(::kiln::kReleasedOnErrorAttr, DenseI64ArrayAttr::get(func.getContext(), released));
}

bool declareObjectRuntime(ModuleOp module, RuntimeFunctions &runtime) {
  bool any = false;
  auto isObject = [](Type type) { return isa<ObjectType>(type); };
  module.walk([&](Operation *op) {
    if (llvm::any_of(op->getOperandTypes(), isObject) ||
        llvm::any_of(op->getResultTypes(), isObject))
      any = true;
    if (auto func = dyn_cast<func::FuncOp>(op))
      if (llvm::any_of(func.getArgumentTypes(), isObject) ||
          llvm::any_of(func.getResultTypes(), isObject))
        any = true;
  });
  if (!any)
    return false;
  auto ptr = LLVM::LLVMPointerType::get(module.getContext());
  runtime.get("kiln_object_new", {ptr}, {ptr});
  runtime.get("kiln_object_retain", {ptr}, {});
  runtime.get("kiln_object_release", {ptr}, {});
  module.walk([](func::FuncOp func) { markParametersReleasedOnError(func); });
  return true;
}

void addIllegalObjectOps(ConversionTarget &target) {
  target.addIllegalOp<ObjectNewOp, ObjectGetOp, ObjectSetOp, ObjectNoneOp, ObjectIsNoneOp,
                      ObjectSameOp>();
}

void populateObjectLoweringPatterns(RewritePatternSet &patterns, const TypeConverter &converter,
                                    RuntimeFunctions &runtime) {
  patterns.add<ObjectNewLowering, ObjectGetLowering, ObjectSetLowering, ObjectNoneLowering,
               ObjectIsNoneLowering, ObjectSameLowering>(converter, patterns.getContext(),
                                                         runtime);
}

} // namespace kiln::containers
