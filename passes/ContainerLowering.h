// The shared half of kiln-lower-containers (passes/LowerContainers.cpp for
// lists, dicts and sets, passes/LowerStrings.cpp for strings): the C ABI
// structs' field offsets, the runtime functions a module calls, and the base
// of the op lowerings (field loads and stores, runtime calls, checks).
#ifndef KILN_PASSES_CONTAINERLOWERING_H
#define KILN_PASSES_CONTAINERLOWERING_H

#include "lib/Dialect/KilnAbi.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"

#include <cstddef>
#include <string>

namespace kiln::containers {

using namespace mlir;


// Byte offsets of kiln_list's fields, from the one declaration of the
// struct (runtime/kiln_abi.h).
struct ListLayout {
  static constexpr int64_t length = offsetof(kiln_list, length);
  static constexpr int64_t items = offsetof(kiln_list, items);
  static constexpr int64_t refcount = offsetof(kiln_list, refcount);
  static constexpr int64_t flags = offsetof(kiln_list, flags);
};
struct DictLayout {
  static constexpr int64_t length = offsetof(kiln_dict, length);
  static constexpr int64_t used = offsetof(kiln_dict, used);
  static constexpr int64_t keys = offsetof(kiln_dict, keys);
  static constexpr int64_t values = offsetof(kiln_dict, values);
  static constexpr int64_t live = offsetof(kiln_dict, live);
  static constexpr int64_t refcount = offsetof(kiln_dict, refcount);
  static constexpr int64_t flags = offsetof(kiln_dict, flags);
};
static_assert(sizeof(((kiln_dict *)nullptr)->keys[0]) == 8 &&
                  sizeof(((kiln_dict *)nullptr)->live[0]) == 1 &&
                  sizeof(((kiln_dict *)nullptr)->flags) == 4,
              "kiln-lower-containers reads 8-byte keys and values, 1-byte live flags");
static_assert(sizeof(((kiln_list *)nullptr)->length) == 8 &&
                  sizeof(((kiln_list *)nullptr)->refcount) == 8 &&
                  sizeof(((kiln_list *)nullptr)->flags) == 4,
              "kiln-lower-containers loads i64 length/refcount and i32 flags");

// Items a list holds references to: strings, and instances of exported
// classes (a list's only kind of item that is a CPython object).
inline bool isReferenceItem(Type item) { return isa<StrType, ObjectType>(item); }

// The runtime function of each item type: kiln_list_find_i64, ..._f64,
// ..._bool, ..._str, ..._object.
inline std::string itemFunction(StringRef prefix, Type item) {
  if (isa<ObjectType>(item))
    return (prefix + "_object").str();
  if (item.isF64())
    return (prefix + "_f64").str();
  if (item.isInteger(1))
    return (prefix + "_bool").str();
  if (isa<StrType>(item))
    return (prefix + "_str").str();
  return (prefix + "_i64").str();
}

// How an item crosses a call of the runtime: bools as int32_t 0/1 (see
// runtime/kiln_list.c), strings as their kiln_str pointer, others as
// themselves.
inline Type itemArgumentType(Type item) {
  if (isReferenceItem(item))
    return LLVM::LLVMPointerType::get(item.getContext());
  return item.isInteger(1) ? IntegerType::get(item.getContext(), 32) : item;
}

// How an item is stored in kiln_list.items: a bool is one byte, a string
// its pointer.
inline Type itemStorageType(Type item) {
  if (isReferenceItem(item))
    return LLVM::LLVMPointerType::get(item.getContext());
  return item.isInteger(1) ? IntegerType::get(item.getContext(), 8) : item;
}

inline int64_t itemSize(Type item) { return item.isInteger(1) ? 1 : 8; }

// Types whose values are references the frontend counts (kiln.retain).
inline bool isContainerType(Type type) {
  return isa<ListType, DictType, SetType, StrType>(type);
}

// Sets are dicts without values: one struct, one runtime.
inline bool isHashTableType(Type type) { return isa<DictType, SetType>(type); }

// KeyError(key)'s message, which says the key's kind (runtime/kiln_abi.h,
// KILN_KEY_ERROR_INT ...); the key's 8 bytes are its operand.
inline StringRef keyErrorMessage(Type keyType) {
  return keyType.isF64()          ? KILN_KEY_ERROR_FLOAT
         : keyType.isInteger(1)  ? KILN_KEY_ERROR_BOOL
         : isa<StrType>(keyType) ? KILN_KEY_ERROR_STR
                                 : KILN_KEY_ERROR_INT;
}

// runtime/kiln_abi.h's kiln_item_kind of a key or value type.
inline int32_t itemKind(Type type) {
  if (isa<StrType>(type))
    return KILN_ITEM_STR;
  if (type.isF64())
    return KILN_ITEM_FLOAT;
  if (type.isInteger(1))
    return KILN_ITEM_BOOL;
  return KILN_ITEM_INT;
}


// Every runtime function the lowering may call, by name and type.
struct RuntimeFunctions {
  ModuleOp module;
  OpBuilder builder;
  llvm::StringMap<func::FuncOp> declared;
  // The global kiln_str of each string literal's text (LowerStrings.cpp).
  llvm::DenseMap<StringAttr, LLVM::GlobalOp> strLiterals;

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

// Declares every runtime function of the string ops present in `module`
// (passes/LowerStrings.cpp), and the globals of its string literals; true
// when there is any.
bool declareStringRuntime(ModuleOp module, RuntimeFunctions &runtime);

// The patterns of the string ops, and the ops they make illegal.
void populateStringLoweringPatterns(RewritePatternSet &patterns,
                                    const TypeConverter &converter,
                                    RuntimeFunctions &runtime);
void addIllegalStringOps(ConversionTarget &target);

// The same three for instances of exported classes (passes/LowerObjects.cpp).
bool declareObjectRuntime(ModuleOp module, RuntimeFunctions &runtime);
void populateObjectLoweringPatterns(RewritePatternSet &patterns,
                                    const TypeConverter &converter,
                                    RuntimeFunctions &runtime);
void addIllegalObjectOps(ConversionTarget &target);

} // namespace kiln::containers

#endif // KILN_PASSES_CONTAINERLOWERING_H
