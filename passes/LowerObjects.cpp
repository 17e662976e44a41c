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

#include "mlir/Dialect/SCF/IR/SCF.h"

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
  // The type object in class slot `slot` (NULL while the extension has not
  // filled it), or failure when `slot` names no pointer global.
  static FailureOr<Value> loadClassSlot(OpBuilder &b, Operation *op, FlatSymbolRefAttr slot) {
    auto ptr = LLVM::LLVMPointerType::get(b.getContext());
    auto global = SymbolTable::lookupNearestSymbolFrom<LLVM::GlobalOp>(op, slot);
    if (!global || global.getGlobalType() != ptr)
      return failure();
    Location loc = op->getLoc();
    return Value(LLVM::LoadOp::create(b, loc, ptr,
                                      LLVM::AddressOfOp::create(b, loc, ptr, slot.getValue())));
  }
  // How a field of `type` is stored: a bool in one byte.
  static Type storageType(OpBuilder &b, Type type) {
    if (isa<ObjectType, StrType, ListType>(type))
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
    FailureOr<Value> type = loadClassSlot(rewriter, op, op.getSlotAttr());
    if (failed(type))
      return rewriter.notifyMatchFailure(op, "the class slot is not a pointer global");
    Value null = LLVM::ZeroOp::create(rewriter, loc, ptr);
    StringRef name = op.getType().getClassName();
    check(rewriter, loc, LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::ne, *type, null),
          ErrorKind::RuntimeError,
          ("class '" + name +
           "' has no type here: its instances are CPython objects, which only a Python "
           "process that imported the module's extension can make")
              .str());
    Value object = call(rewriter, loc, "kiln_object_new", {*type});
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
    } else if (isa<ObjectType, StrType, ListType>(type) && !op.getNullable()) {
      // An instance, str or list field nothing has set yet reads as a
      // missing attribute, as an unset __slots__ member does.
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
    } else if (isa<StrType>(type)) {
      // Adopted as a caller's container adopts a string (the journal keeps
      // it for the instance when the call raises), the old one given up.
      call(rewriter, loc, "kiln_str_store_field", {field(rewriter, loc, object, op.getOffset()),
                                                   value});
    } else if (isa<ListType>(type)) {
      // The field's reference is counted apart (runtime/kiln_list.c): the
      // list leaves the journal, which would free it at a raise.
      call(rewriter, loc, "kiln_list_store_field", {field(rewriter, loc, object, op.getOffset()),
                                                    value});
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

// A cast is the same pointer.
struct ObjectCastLowering : ObjectOpLowering<ObjectCastOp> {
  using ObjectOpLowering::ObjectOpLowering;
  LogicalResult matchAndRewrite(ObjectCastOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, adaptor.getObject());
    return success();
  }
};

// Not None, and the object's ob_type is the type in the class slot (an
// empty slot holds NULL, which no object's type is).
struct ObjectHasTypeLowering : ObjectOpLowering<ObjectHasTypeOp> {
  using ObjectOpLowering::ObjectOpLowering;
  LogicalResult matchAndRewrite(ObjectHasTypeOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto ptr = LLVM::LLVMPointerType::get(rewriter.getContext());
    Value object = adaptor.getObject();
    Value null = LLVM::ZeroOp::create(rewriter, loc, ptr);
    Value present = LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::ne, object, null);
    FailureOr<Value> expected = loadClassSlot(rewriter, op, op.getSlotAttr());
    if (failed(expected))
      return rewriter.notifyMatchFailure(op, "the class slot is not a pointer global");
    auto test = scf::IfOp::create(rewriter, loc, rewriter.getI1Type(), present, true, true);
    {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(test.thenBlock());
      Value type = load(rewriter, loc, ptr, object, KILN_OBJECT_TYPE_OFFSET);
      scf::YieldOp::create(rewriter, loc,
                           ValueRange{LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::eq,
                                                           type, *expected)});
      rewriter.setInsertionPointToStart(test.elseBlock());
      scf::YieldOp::create(rewriter, loc, ValueRange{present});
    }
    rewriter.replaceOp(op, test.getResults());
    return success();
  }
};

// The marker keeps its references, as pointers.
struct OwnedLowering : ObjectOpLowering<OwnedOp> {
  using ObjectOpLowering::ObjectOpLowering;
  LogicalResult matchAndRewrite(OwnedOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<OwnedOp>(op, adaptor.getReferences());
    return success();
  }
};

} // namespace

// A raise leaves a function through kiln-lower-checks' error exits, which do
// none of the releases its names would do at a return: a compiled
// `__init__` that raises kept the new instance alive for ever, a walk that
// raised kept the node its loop held. So the references to instances the
// function holds are tracked here, on the structured IR and before the
// types are gone, and written down as `kiln.owned` markers wherever they
// change; kiln-lower-checks releases a marker's operands on the error exits
// after it. The frontend's ownership rules (docs/architecture.md,
// "Containers: ownership") make this a forward walk: a retain, a new
// instance, a call's result, a structured op's result and a loop's carried
// value each hold one reference; a release, a yield, a loop's initial value
// and a return each give one up; a branch of an `scf.if` gives up what the
// other does, and a loop body nets nothing of what lives outside it. A
// function whose instances are used any other way (an arith.select of two,
// say) gets no markers: its raises may leak as before, never double-free.
namespace {
using References = llvm::SmallVector<Value>;   // one entry per reference held

struct OwnershipWalk {
  OpBuilder builder;
  bool failed = false;

  explicit OwnershipWalk(MLIRContext *context) : builder(context) {}

  static bool isObject(Value value) { return isa<ObjectType>(value.getType()); }

  // A cast is its operand's reference seen as another class: the walk
  // counts references by the value the cast came from.
  static Value root(Value value) {
    while (auto cast = value.getDefiningOp<ObjectCastOp>())
      value = cast.getObject();
    return value;
  }

  void give(References &held, Value value) {
    value = root(value);
    auto found = llvm::find(held, value);
    if (found != held.end()) {
      held.erase(found);
      return;
    }
    // None is nobody's reference: the frontend may release a None it made
    // as it releases any temporary. Any other reference the walk does not
    // know of stops it.
    if (!value.getDefiningOp<ObjectNoneOp>())
      failed = true;
  }
  void take(References &held, ValueRange values) {
    for (Value value : values)
      if (isObject(value))
        held.push_back(root(value));
  }
  void giveAll(References &held, ValueRange values) {
    for (Value value : values)
      if (isObject(value))
        give(held, value);
  }
  void mark(Location loc, const References &held) {
    OwnedOp::create(builder, loc, ValueRange(held));
  }
  // The references that live outside a region, as the region leaves them.
  static References outside(const References &held, Region &region) {
    References kept;
    for (Value value : held)
      if (!region.isAncestor(value.getParentRegion()))
        kept.push_back(value);
    return kept;
  }

  // Walks `block` from `held`; returns what its terminator leaves held.
  References walkBlock(Block &block, References held) {
    builder.setInsertionPointToStart(&block);
    mark(block.getParentOp()->getLoc(), held);
    for (Operation &op : llvm::make_early_inc_range(block)) {
      if (failed)
        return held;
      bool changes = walkOp(op, held);
      if (changes && !op.hasTrait<OpTrait::IsTerminator>()) {
        builder.setInsertionPointAfter(&op);
        mark(op.getLoc(), held);
      }
    }
    return held;
  }

  // Applies `op` to `held`; true when it may have changed it.
  bool walkOp(Operation &op, References &held) {
    if (isa<OwnedOp>(op))
      return false;
    if (auto retain = dyn_cast<RetainOp>(op)) {
      if (isObject(retain.getContainer()))
        held.push_back(root(retain.getContainer()));
      return isObject(retain.getContainer());
    }
    if (auto release = dyn_cast<ReleaseOp>(op)) {
      if (isObject(release.getContainer()))
        give(held, release.getContainer());
      return isObject(release.getContainer());
    }
    // A list's pop hands its reference to the result (runtime/kiln_list.c).
    if (isa<ObjectNewOp, func::CallOp, ListPopOp>(op)) {
      take(held, op.getResults());
      return true;
    }
    if (isa<scf::YieldOp, scf::ConditionOp, func::ReturnOp>(op)) {
      giveAll(held, isa<scf::ConditionOp>(op) ? op.getOperands().drop_front()
                                               : ValueRange(op.getOperands()));
      return false;
    }
    if (auto branch = dyn_cast<scf::IfOp>(op)) {
      References thenHeld = outside(walkBlock(branch.getThenRegion().front(), held),
                                    branch.getThenRegion());
      References elseHeld = held;
      if (!branch.getElseRegion().empty())
        elseHeld = outside(walkBlock(branch.getElseRegion().front(), held),
                           branch.getElseRegion());
      if (!sameValueMultiset(thenHeld, elseHeld))
        failed = true;
      held = thenHeld;
      take(held, branch.getResults());
      return true;
    }
    if (auto loop = dyn_cast<scf::ForOp>(op)) {
      giveAll(held, loop.getInitArgs());
      References body = held;
      take(body, loop.getRegionIterArgs());
      if (!sameValueMultiset(outside(walkBlock(*loop.getBody(), body), loop.getRegion()), held))
        failed = true;
      take(held, loop.getResults());
      return true;
    }
    if (auto loop = dyn_cast<scf::WhileOp>(op)) {
      giveAll(held, loop.getInits());
      References before = held;
      take(before, loop.getBeforeArguments());
      if (!sameValueMultiset(outside(walkBlock(loop.getBefore().front(), before), loop.getBefore()),
                        held))
        failed = true;
      References after = held;
      take(after, loop.getAfterArguments());
      if (!sameValueMultiset(outside(walkBlock(loop.getAfter().front(), after), loop.getAfter()),
                        held))
        failed = true;
      take(held, loop.getResults());
      return true;
    }
    // Any other use of an instance must leave references alone: reading
    // and writing fields, tests, a call's (borrowed) operand, storing into
    // or finding in a list (which takes its own reference), an item read
    // from a list (the list's reference, lent). Anything else
    // (arith.select, a region op the walk does not know) stops the walk.
    if (!isa<ObjectGetOp, ObjectSetOp, ObjectIsNoneOp, ObjectSameOp, ObjectNoneOp, ObjectCastOp,
             ObjectHasTypeOp, ListAppendOp, ListSetOp, ListInsertOp, ListGetOp, ListFindOp,
             ListCountOp>(op)) {
      bool usesObjects = llvm::any_of(op.getOperands(), isObject) ||
                         llvm::any_of(op.getResults(), isObject);
      op.walk([&](Operation *inner) {
        if (inner != &op && (llvm::any_of(inner->getOperands(), isObject) ||
                             llvm::any_of(inner->getResults(), isObject)))
          usesObjects = true;
      });
      if (usesObjects)
        failed = true;
    }
    return false;
  }
};
} // namespace

static void markOwnedReferences(func::FuncOp func) {
  if (func.isExternal())
    return;
  bool usesObjects = false;
  func.walk([&](Operation *op) {
    if (llvm::any_of(op->getResultTypes(), llvm::IsaPred<ObjectType>) ||
        llvm::any_of(op->getOperandTypes(), llvm::IsaPred<ObjectType>))
      usesObjects = true;
  });
  if (!usesObjects || func.getBody().getBlocks().size() != 1)
    return;
  OwnershipWalk walk(func.getContext());
  walk.walkBlock(func.getBody().front(), {});
  if (walk.failed) {
    SmallVector<OwnedOp> markers;
    func.walk([&](OwnedOp marker) { markers.push_back(marker); });
    for (OwnedOp marker : markers)
      marker.erase();
  }
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
  bool storesStrings = false;
  module.walk([&](ObjectSetOp store) {
    storesStrings |= isa<StrType>(store.getValue().getType());
  });
  if (storesStrings)
    runtime.get("kiln_str_store_field", {ptr, ptr}, {});
  bool storesLists = false;
  module.walk([&](ObjectSetOp store) {
    storesLists |= isa<ListType>(store.getValue().getType());
  });
  if (storesLists)
    runtime.get("kiln_list_store_field", {ptr, ptr}, {});
  module.walk([](func::FuncOp func) { markOwnedReferences(func); });
  return true;
}

void addIllegalObjectOps(ConversionTarget &target) {
  target.addIllegalOp<ObjectNewOp, ObjectGetOp, ObjectSetOp, ObjectNoneOp, ObjectIsNoneOp,
                      ObjectSameOp, ObjectCastOp, ObjectHasTypeOp>();
  // A marker is legal once its references are pointers.
  target.addDynamicallyLegalOp<OwnedOp>([](OwnedOp op) {
    return llvm::none_of(op.getReferences().getTypes(), llvm::IsaPred<ObjectType>);
  });
}

void populateObjectLoweringPatterns(RewritePatternSet &patterns, const TypeConverter &converter,
                                    RuntimeFunctions &runtime) {
  patterns.add<ObjectNewLowering, ObjectGetLowering, ObjectSetLowering, ObjectNoneLowering,
               ObjectIsNoneLowering, ObjectSameLowering, ObjectCastLowering,
               ObjectHasTypeLowering, OwnedLowering>(converter, patterns.getContext(),
                                                         runtime);
}

} // namespace kiln::containers
