#include "lib/Dialect/KilnDialect.h"
#include "lib/Dialect/KilnAbi.h"

#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/ConvertUTF.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Transforms/InliningUtils.h"

using namespace mlir;

#include "lib/Dialect/KilnDialect.cpp.inc"
#include "lib/Dialect/KilnEnums.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "lib/Dialect/KilnTypes.cpp.inc"

#define GET_OP_CLASSES
#include "lib/Dialect/KilnOps.cpp.inc"

namespace kiln {

namespace {
// Kiln's ops may be inlined anywhere (kiln-inline-helpers): a kiln.check
// reports through the error record of the function it ends up in, which is
// what the caller's kiln.propagate_error after the call did.
struct KilnInlinerInterface : public DialectInlinerInterface {
  using DialectInlinerInterface::DialectInlinerInterface;
  bool isLegalToInline(Operation *, Region *, bool, IRMapping &) const final {
    return true;
  }
  bool isLegalToInline(Region *, Region *, bool, IRMapping &) const final { return true; }
};
} // namespace

void KilnDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "lib/Dialect/KilnOps.cpp.inc"
      >();
  addTypes<
#define GET_TYPEDEF_LIST
#include "lib/Dialect/KilnTypes.cpp.inc"
      >();
  addInterfaces<KilnInlinerInterface>();
}

// The item types runtime/kiln_list.c stores: Python's int, float and bool
// unboxed, and references to strings and to instances.
LogicalResult ListType::verify(function_ref<InFlightDiagnostic()> emitError,
                               Type itemType) {
  if (itemType.isInteger(64) || itemType.isF64() || itemType.isInteger(1) ||
      isa<StrType, ObjectType>(itemType))
    return success();
  return emitError() << "a list holds i64, f64, i1, !kiln.str or !kiln.object items, not "
                     << itemType;
}

// The text must be valid UTF-8 without surrogates (which a Python source can
// hold, as escapes, but no kiln_str can: the frontend refuses them first).
LogicalResult StrConstantOp::verify() {
  StringRef text = getValue();
  const auto *bytes = reinterpret_cast<const llvm::UTF8 *>(text.data());
  if (!llvm::isLegalUTF8String(&bytes, bytes + text.size()))
    return emitOpError() << "value is not valid UTF-8 (at byte "
                         << (reinterpret_cast<const char *>(bytes) - text.data()) << ")";
  return success();
}

LogicalResult StrStripOp::verify() {
  if (!getLeft() && !getRight())
    return emitOpError() << "strips the left end, the right end or both: give `left`, `right` "
                            "or both";
  return success();
}

static bool isListOfStr(Type type) {
  auto list = dyn_cast<ListType>(type);
  return list && isa<StrType>(list.getItemType());
}

LogicalResult StrSplitOp::verify() {
  if (!isListOfStr(getResult().getType()))
    return emitOpError() << "makes a !kiln.list<!kiln.str>, not " << getResult().getType();
  return success();
}

LogicalResult StrJoinOp::verify() {
  if (!isListOfStr(getItems().getType()))
    return emitOpError() << "joins a !kiln.list<!kiln.str>, not " << getItems().getType();
  return success();
}

// The kind is checked by its attribute (the ErrorKind enum); what is left
// is the message against its operands.
LogicalResult CheckOp::verify() {
  if (static_cast<int64_t>(getArgs().size()) > ErrorRecordLayout::maxArgs)
    return emitOpError() << "takes at most " << ErrorRecordLayout::maxArgs
                         << " message operands, got " << getArgs().size();
  size_t placeholders = stringPlaceholders(getMessage()).size();
  if (placeholders != getArgs().size())
    return emitOpError() << "message has " << placeholders
                         << " '{}' placeholders but " << getArgs().size()
                         << " operands";
  return success();
}

// Keys and values are Python's int, float, bool and str, as list items.
LogicalResult DictType::verify(function_ref<InFlightDiagnostic()> emitError,
                               Type keyType, Type valueType) {
  for (Type type : {keyType, valueType})
    if (!type.isInteger(64) && !type.isF64() && !type.isInteger(1) && !isa<StrType>(type))
      return emitError() << "a dict holds i64, f64, i1 or !kiln.str keys and values, not "
                         << type;
  return success();
}

// The view is of the items as stored: contiguous, from the first item.
LogicalResult ListViewOp::verify() {
  Type item = getList().getType().getItemType();
  Type stored = item.isInteger(1) ? IntegerType::get(getContext(), 8) : item;
  MemRefType view = getResult().getType();
  if (view.getElementType() != stored)
    return emitOpError() << "views items of type " << item << " as " << stored << ", not "
                         << view.getElementType();
  if (!view.getLayout().isIdentity())
    return emitOpError() << "views the items contiguously (an identity layout)";
  return success();
}

// Elements are Python's int, float and bool, as dict keys.
LogicalResult SetType::verify(function_ref<InFlightDiagnostic()> emitError,
                              Type elementType) {
  if (elementType.isInteger(64) || elementType.isF64() || elementType.isInteger(1) ||
      isa<StrType>(elementType))
    return success();
  return emitError() << "a set holds i64, f64, i1 or !kiln.str elements, not " << elementType;
}

LogicalResult RetainOp::canonicalize(RetainOp op, PatternRewriter &rewriter) {
  // kiln.str.append consumes a reference as a release does; storing into an
  // instance's field releases what the field held, and a call may do either
  // (a method setting `self.next = None` frees the node the caller read
  // from that field), as may any op that frees memory (clearing a list of
  // strings).
  auto releasesLists = [](Operation *op) {
    WalkResult found = op->walk([](Operation *inner) {
      // Storing a number into a field frees nothing (the op's declared
      // MemFree is for the instance a field of instance type held).
      if (auto store = dyn_cast<ObjectSetOp>(inner))
        return isa<ObjectType, StrType, ListType>(store.getValue().getType())
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      // A write to a list of strings or instances may release the item it
      // replaces or removes (xs[i] = v, pop, clear, del xs[a:b]).
      bool writesReferenceList =
          hasEffect<MemoryEffects::Write>(inner) &&
          llvm::any_of(inner->getOperandTypes(), [](Type type) {
            auto list = dyn_cast<ListType>(type);
            return list && isa<StrType, ObjectType>(list.getItemType());
          });
      return isa<ReleaseOp, StrAppendOp, CallOpInterface>(inner) || writesReferenceList ||
                     hasEffect<MemoryEffects::Free>(inner)
                 ? WalkResult::interrupt()
                 : WalkResult::advance();
    });
    return found.wasInterrupted();
  };
  for (Operation *next = op->getNextNode(); next; next = next->getNextNode()) {
    if (auto release = dyn_cast<ReleaseOp>(next)) {
      if (release.getContainer() != op.getContainer())
        return failure();
      rewriter.eraseOp(release);
      rewriter.eraseOp(op);
      return success();
    }
    if (releasesLists(next))
      return failure();
  }
  return failure();
}

Value ScalarViewOp::getViewSource() { return getSource(); }

int64_t ScalarViewOp::scalarsPerElement(MemRefType source) {
  return isa<ComplexType>(source.getElementType()) ? 2 : 1;
}

MemRefType ScalarViewOp::scalarViewType(MemRefType source) {
  Type element = source.getElementType();
  SmallVector<int64_t> strides;
  int64_t offset;
  if (source.getRank() == 0 || failed(source.getStridesAndOffset(strides, offset)))
    return nullptr;
  if (element.isInteger(1))
    return MemRefType::get(source.getShape(),
                           IntegerType::get(source.getContext(), 8),
                           source.getLayout(), source.getMemorySpace());
  auto complex = dyn_cast<ComplexType>(element);
  if (!complex || strides.back() != 1)
    return nullptr;
  auto twice = [](int64_t value) {
    return ShapedType::isDynamic(value) ? value : 2 * value;
  };
  SmallVector<int64_t> shape(source.getShape());
  shape.back() = twice(shape.back());
  for (int64_t &stride : MutableArrayRef<int64_t>(strides).drop_back())
    stride = twice(stride);
  auto layout = StridedLayoutAttr::get(source.getContext(), twice(offset), strides);
  return MemRefType::get(shape, complex.getElementType(), layout,
                         source.getMemorySpace());
}

LogicalResult ScalarViewOp::verify() {
  auto source = cast<MemRefType>(getSource().getType());
  MemRefType expected = scalarViewType(source);
  if (!expected)
    return emitOpError() << "needs an array of complex numbers with unit "
                            "stride in its last dimension, or of i1; got "
                         << source;
  if (expected != getType())
    return emitOpError() << "result must be " << expected << ", got "
                         << getType();
  return success();
}

// A field sits in one of the slots after the object header
// (runtime/kiln_abi.h); anything else would read the header or straddle two
// fields.
static LogicalResult verifyFieldOffset(Operation *op, int64_t offset) {
  if (offset < KILN_OBJECT_HEADER_SIZE ||
      (offset - KILN_OBJECT_HEADER_SIZE) % KILN_OBJECT_FIELD_SIZE != 0)
    return op->emitOpError() << "field offset " << offset
                             << " is not a field slot (" << KILN_OBJECT_HEADER_SIZE
                             << " + a multiple of " << KILN_OBJECT_FIELD_SIZE << ")";
  return success();
}

LogicalResult ObjectGetOp::verify() {
  if (getNullable() && !isa<ObjectType>(getType()))
    return emitOpError() << "only an instance field can be nullable";
  return verifyFieldOffset(*this, getOffset());
}

LogicalResult ObjectSetOp::verify() { return verifyFieldOffset(*this, getOffset()); }

// A cast to the value's own class, or back to what a cast came from, is
// that value.
OpFoldResult ObjectCastOp::fold(FoldAdaptor) {
  if (getObject().getType() == getType())
    return getObject();
  if (auto inner = getObject().getDefiningOp<ObjectCastOp>())
    if (inner.getObject().getType() == getType())
      return inner.getObject();
  return {};
}

} // namespace kiln
