// The string half of kiln-lower-containers: the kiln dialect's str ops
// become inline code on the C ABI's kiln_str (runtime/kiln_abi.h) and calls
// of runtime/kiln_str.c; a literal becomes a global kiln_str in the
// module's data, immortal (its count starts at KILN_STR_IMMORTAL), so a
// literal costs no allocation however often it is evaluated.
//
// Upstream has no counterpart: Python's str (code points, PEP 393 storage,
// Python's indices and errors) is Kiln's. passes/LowerContainers.cpp runs
// these patterns in the same conversion as the list, dict and set ones.

#include "passes/ContainerLowering.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/ConvertUTF.h"

namespace kiln::containers {
namespace {

// Byte offsets of kiln_str's fields.
struct StrLayout {
  static constexpr int64_t refcount = offsetof(kiln_str, refcount);
  static constexpr int64_t length = offsetof(kiln_str, length);
  static constexpr int64_t hash = offsetof(kiln_str, hash);
  static constexpr int64_t journalIndex = offsetof(kiln_str, journal_index);
  static constexpr int64_t kind = offsetof(kiln_str, kind);
  static constexpr int64_t outsideReferences = offsetof(kiln_str, outside_references);
  static constexpr int64_t data = sizeof(kiln_str);   // kiln_str_data()
};
static_assert(StrLayout::refcount == 0 && StrLayout::length == 8 && StrLayout::hash == 16 &&
                  StrLayout::journalIndex == 24 && StrLayout::kind == 32 &&
                  StrLayout::outsideReferences == 36 && StrLayout::data == 40,
              "a literal's global is laid out as {i64, i64, i64, i64, i32, i32, [n x i8]}");

// The code points of a literal's UTF-8 (StrConstantOp's verifier checked it).
SmallVector<uint32_t> codePoints(StringRef text) {
  SmallVector<uint32_t> points;
  const auto *next = reinterpret_cast<const llvm::UTF8 *>(text.data());
  const auto *end = next + text.size();
  while (next < end) {
    llvm::UTF32 point;
    llvm::UTF32 *out = &point;
    if (llvm::ConvertUTF8toUTF32(&next, end, &out, out + 1, llvm::strictConversion) !=
            llvm::conversionOK &&
        out == &point)
      break;
    points.push_back(point);
  }
  return points;
}

// The global of each distinct literal text, named __kiln_str_<n>.
using LiteralGlobals = llvm::DenseMap<StringAttr, LLVM::GlobalOp>;

LLVM::GlobalOp makeLiteralGlobal(OpBuilder &builder, Location loc, StringRef text, int index) {
  MLIRContext *context = builder.getContext();
  SmallVector<uint32_t> points = codePoints(text);
  uint32_t largest = 0;
  for (uint32_t point : points)
    largest = std::max(largest, point);
  int32_t kind = largest < 0x100 ? 1 : largest < 0x10000 ? 2 : 4;
  // The code points in `kind` little-endian bytes each (the machine's
  // order: kilnc compiles for the host), then `kind` zero bytes.
  std::string bytes;
  for (uint32_t point : points)
    for (int32_t byte = 0; byte < kind; ++byte)
      bytes.push_back(static_cast<char>((point >> (8 * byte)) & 0xff));
  bytes.append(static_cast<size_t>(kind), '\0');

  auto i64 = IntegerType::get(context, 64);
  auto i32 = IntegerType::get(context, 32);
  auto i8 = IntegerType::get(context, 8);
  auto data = LLVM::LLVMArrayType::get(i8, bytes.size());
  auto type = LLVM::LLVMStructType::getLiteral(context, {i64, i64, i64, i64, i32, i32, data});
  auto global = LLVM::GlobalOp::create(builder, loc, type, /*isConstant=*/false,
                                       LLVM::Linkage::Internal,
                                       ("__kiln_str_" + llvm::Twine(index)).str(), Attribute());
  global.setAlignment(8);
  Block *body = builder.createBlock(&global.getInitializerRegion());
  OpBuilder init = OpBuilder::atBlockBegin(body);
  Value value = LLVM::UndefOp::create(init, loc, type);
  auto field = [&](int64_t position, Value element) {
    value = LLVM::InsertValueOp::create(init, loc, value, element, position);
  };
  auto integer = [&](Type fieldType, int64_t number) -> Value {
    return LLVM::ConstantOp::create(init, loc, fieldType, init.getIntegerAttr(fieldType, number));
  };
  field(0, integer(i64, KILN_STR_IMMORTAL));
  field(1, integer(i64, static_cast<int64_t>(points.size())));
  field(2, integer(i64, -1));
  field(3, integer(i64, -1));
  field(4, integer(i32, kind));
  field(5, integer(i32, 0));
  field(6, LLVM::ConstantOp::create(init, loc, data, init.getStringAttr(bytes)));
  LLVM::ReturnOp::create(init, loc, value);
  return global;
}

template <typename Op>
struct StrOpLowering : ListOpLowering<Op> {
  using ListOpLowering<Op>::ListOpLowering;

  static Value strLength(OpBuilder &b, Location loc, Value str) {
    return ListOpLowering<Op>::load(b, loc, b.getI64Type(), str, StrLayout::length);
  }
  static Value null(OpBuilder &b, Location loc) {
    return LLVM::ZeroOp::create(b, loc, LLVM::LLVMPointerType::get(b.getContext()));
  }
  // The op becomes a runtime call that makes a string: its result, NULL
  // when there was no memory (MemoryError).
  LogicalResult replaceWithNewStr(ConversionPatternRewriter &rewriter, Operation *op,
                                  StringRef name, ValueRange operands) const {
    Value made = this->call(rewriter, op->getLoc(), name, operands);
    this->checkNotNull(rewriter, op->getLoc(), made);
    rewriter.replaceOp(op, made);
    return success();
  }
  static Value isNonZero(OpBuilder &b, Location loc, Value value) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, value,
                                 ListOpLowering<Op>::constant(b, loc, value.getType(), 0));
  }
  // The present bits of optional slice bounds (runtime/kiln_str.c), and the
  // bounds with 0 for a missing one.
  static int32_t bounds(OpBuilder &b, Location loc, Value first, Value second,
                        SmallVectorImpl<Value> &operands) {
    Value zero = ListOpLowering<Op>::constant(b, loc, b.getI64Type(), 0);
    operands.push_back(first ? first : zero);
    operands.push_back(second ? second : zero);
    return (first ? 1 : 0) | (second ? 2 : 0);
  }
};

struct StrConstantLowering : StrOpLowering<StrConstantOp> {
  StrConstantLowering(const TypeConverter &converter, MLIRContext *context,
                      RuntimeFunctions &runtime, const LiteralGlobals &globals)
      : StrOpLowering(converter, context, runtime), globals(globals) {}
  const LiteralGlobals &globals;
  LogicalResult matchAndRewrite(StrConstantOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    LLVM::GlobalOp global = globals.lookup(op.getValueAttr());
    if (!global)
      return rewriter.notifyMatchFailure(op, "literal without a global");
    rewriter.replaceOpWithNewOp<LLVM::AddressOfOp>(op, global);
    return success();
  }
};

struct StrLenLowering : StrOpLowering<StrLenOp> {
  using StrOpLowering::StrOpLowering;
  LogicalResult matchAndRewrite(StrLenOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, strLength(rewriter, op.getLoc(), adaptor.getStr()));
    return success();
  }
};

// s[i] and ord(s[i]): Python's index, checked, then the runtime.
template <typename Op>
struct StrIndexLowering : StrOpLowering<Op> {
  using StrOpLowering<Op>::StrOpLowering;
  LogicalResult matchAndRewrite(Op op, typename Op::Adaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value str = adaptor.getStr();
    Value position = this->pythonIndex(rewriter, loc, adaptor.getIndex(),
                                       this->strLength(rewriter, loc, str),
                                       "string index out of range");
    if constexpr (std::is_same_v<Op, StrCharAtOp>)
      return this->replaceWithNewStr(rewriter, op, "kiln_str_char_at", {str, position});
    rewriter.replaceOp(op, this->call(rewriter, loc, "kiln_str_code_at", {str, position}));
    return success();
  }
};

struct StrOrdLowering : StrOpLowering<StrOrdOp> {
  using StrOpLowering::StrOpLowering;
  LogicalResult matchAndRewrite(StrOrdOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value str = adaptor.getStr();
    Value length = strLength(rewriter, loc, str);
    Value one = constant(rewriter, loc, rewriter.getI64Type(), 1);
    CheckOp::create(rewriter, loc,
                    arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq, length, one),
                    ErrorKind::TypeError,
                    rewriter.getStringAttr(
                        "ord() expected a character, but string of length {} found"),
                    ValueRange{length});
    Value zero = constant(rewriter, loc, rewriter.getI64Type(), 0);
    rewriter.replaceOp(op, call(rewriter, loc, "kiln_str_code_at", {str, zero}));
    return success();
  }
};

struct StrChrLowering : StrOpLowering<StrChrOp> {
  using StrOpLowering::StrOpLowering;
  LogicalResult matchAndRewrite(StrChrOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value code = adaptor.getCode();
    Value limit = constant(rewriter, loc, rewriter.getI64Type(), 0x110000);
    check(rewriter, loc,
          arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ult, code, limit),
          ErrorKind::ValueError, "chr() arg not in range(0x110000)");
    return replaceWithNewStr(rewriter, op, "kiln_str_chr", {code});
  }
};

// Ops that are one runtime call on their operands as they are: a new
// string (NULL: MemoryError), an int32 truth, or a plain value.
enum class StrResult { NewStr, Boolean, Plain };

template <typename Op>
struct StrCallLowering : StrOpLowering<Op> {
  StrCallLowering(const TypeConverter &converter, MLIRContext *context,
                  RuntimeFunctions &runtime, StringRef name, StrResult result)
      : StrOpLowering<Op>(converter, context, runtime), name(name.str()), result(result) {}
  std::string name;
  StrResult result;
  LogicalResult matchAndRewrite(Op op, typename Op::Adaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    SmallVector<Value> operands(adaptor.getOperands());
    if constexpr (std::is_same_v<Op, StrIsOp>)
      operands.push_back(this->constant(rewriter, loc, rewriter.getI32Type(),
                                        static_cast<int64_t>(op.getProperty())));
    if (result == StrResult::NewStr)
      return this->replaceWithNewStr(rewriter, op, name, operands);
    Value value = this->call(rewriter, loc, name, operands);
    if (result == StrResult::Boolean)
      value = this->isNonZero(rewriter, loc, value);
    rewriter.replaceOp(op, value);
    return success();
  }
};

struct StrSliceLowering : StrOpLowering<StrSliceOp> {
  using StrOpLowering::StrOpLowering;
  LogicalResult matchAndRewrite(StrSliceOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value step = adaptor.getStep();
    check(rewriter, loc, isNonZero(rewriter, loc, step), ErrorKind::ValueError,
          "slice step cannot be zero");
    SmallVector<Value> operands = {adaptor.getStr()};
    int32_t present = bounds(rewriter, loc, adaptor.getStart(), adaptor.getStop(), operands);
    operands.push_back(step);
    operands.push_back(constant(rewriter, loc, rewriter.getI32Type(), present));
    return replaceWithNewStr(rewriter, op, "kiln_str_slice", operands);
  }
};

template <typename Op>
struct StrSearchLowering : StrOpLowering<Op> {
  StrSearchLowering(const TypeConverter &converter, MLIRContext *context,
                    RuntimeFunctions &runtime, StringRef name)
      : StrOpLowering<Op>(converter, context, runtime), name(name.str()) {}
  std::string name;
  LogicalResult matchAndRewrite(Op op, typename Op::Adaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    SmallVector<Value> operands = {adaptor.getStr(), adaptor.getSub()};
    int32_t present = this->bounds(rewriter, loc, adaptor.getStart(), adaptor.getEnd(), operands);
    operands.push_back(this->constant(rewriter, loc, rewriter.getI32Type(), present));
    rewriter.replaceOp(op, this->call(rewriter, loc, name, operands));
    return success();
  }
};

struct StrStripLowering : StrOpLowering<StrStripOp> {
  using StrOpLowering::StrOpLowering;
  LogicalResult matchAndRewrite(StrStripOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value chars = adaptor.getChars() ? adaptor.getChars() : null(rewriter, loc);
    int32_t sides = (op.getLeft() ? 1 : 0) | (op.getRight() ? 2 : 0);
    return replaceWithNewStr(rewriter, op, "kiln_str_strip",
                             {adaptor.getStr(), chars,
                              constant(rewriter, loc, rewriter.getI32Type(), sides)});
  }
};

// int(s) and float(s): the runtime parses into a stack slot and says
// whether the text was a number.
template <typename Op>
struct StrParseLowering : StrOpLowering<Op> {
  using StrOpLowering<Op>::StrOpLowering;
  LogicalResult matchAndRewrite(Op op, typename Op::Adaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    constexpr bool toInt = std::is_same_v<Op, StrToIntOp>;
    Type type = toInt ? Type(rewriter.getI64Type()) : Type(rewriter.getF64Type());
    auto ptr = LLVM::LLVMPointerType::get(rewriter.getContext());
    Value one = this->constant(rewriter, loc, rewriter.getI64Type(), 1);
    Value slot = LLVM::AllocaOp::create(rewriter, loc, ptr, type, one);
    Value str = adaptor.getStr();
    Value status =
        this->call(rewriter, loc, toInt ? "kiln_str_to_int" : "kiln_str_to_float", {str, slot});
    Value invalid = this->constant(rewriter, loc, rewriter.getI32Type(), 1);
    Value text = LLVM::PtrToIntOp::create(rewriter, loc, rewriter.getI64Type(), str);
    CheckOp::create(
        rewriter, loc,
        arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ne, status, invalid),
        ErrorKind::ValueError,
        rewriter.getStringAttr(toInt ? "invalid literal for int() with base 10: {!r}"
                                     : "could not convert string to float: {!r}"),
        ValueRange{text});
    if (toInt) {
      Value tooLarge = this->constant(rewriter, loc, rewriter.getI32Type(), 2);
      this->check(rewriter, loc,
                  arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ne, status, tooLarge),
                  ErrorKind::OverflowError, "int() of this text does not fit in 64 bits");
    }
    rewriter.replaceOp(op, LLVM::LoadOp::create(rewriter, loc, type, slot));
    return success();
  }
};

struct StrSplitLowering : StrOpLowering<StrSplitOp> {
  using StrOpLowering::StrOpLowering;
  LogicalResult matchAndRewrite(StrSplitOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value sep = adaptor.getSep();
    if (sep) {
      Value length = strLength(rewriter, loc, sep);
      check(rewriter, loc, isNonZero(rewriter, loc, length), ErrorKind::ValueError,
            "empty separator");
    } else {
      sep = null(rewriter, loc);
    }
    return replaceWithNewStr(rewriter, op, "kiln_str_split",
                             {adaptor.getStr(), sep, adaptor.getMaxsplit()});
  }
};

} // namespace

bool declareStringRuntime(ModuleOp module, RuntimeFunctions &runtime) {
  MLIRContext *context = module.getContext();
  bool any = false;
  SmallVector<StrConstantOp> literals;
  module.walk([&](Operation *op) {
    if (auto literal = dyn_cast<StrConstantOp>(op))
      literals.push_back(literal);
    auto isStr = [](Type type) { return isa<StrType>(type); };
    if (llvm::any_of(op->getOperandTypes(), isStr) || llvm::any_of(op->getResultTypes(), isStr))
      any = true;
    if (auto func = dyn_cast<func::FuncOp>(op))
      if (llvm::any_of(func.getArgumentTypes(), isStr) ||
          llvm::any_of(func.getResultTypes(), isStr))
        any = true;
  });
  if (!any)
    return false;
  auto ptr = LLVM::LLVMPointerType::get(context);
  auto i64 = IntegerType::get(context, 64);
  auto i32 = IntegerType::get(context, 32);
  auto f64 = Float64Type::get(context);
  runtime.get("kiln_journal_enter", {}, {i64});
  runtime.get("kiln_journal_leave", {i64}, {});
  runtime.get("kiln_str_release", {ptr}, {});
  runtime.get("kiln_str_char_at", {ptr, i64}, {ptr});
  runtime.get("kiln_str_code_at", {ptr, i64}, {i64});
  runtime.get("kiln_str_chr", {i64}, {ptr});
  runtime.get("kiln_str_concat", {ptr, ptr}, {ptr});
  runtime.get("kiln_str_repeat", {ptr, i64}, {ptr});
  runtime.get("kiln_str_append", {ptr, ptr}, {ptr});
  runtime.get("kiln_str_slice", {ptr, i64, i64, i64, i32}, {ptr});
  runtime.get("kiln_str_equal", {ptr, ptr}, {i32});
  runtime.get("kiln_str_compare", {ptr, ptr}, {i32});
  for (StringRef search : {"kiln_str_find", "kiln_str_rfind", "kiln_str_count"})
    runtime.get(search, {ptr, ptr, i64, i64, i32}, {i64});
  for (StringRef test : {"kiln_str_contains", "kiln_str_startswith", "kiln_str_endswith"})
    runtime.get(test, {ptr, ptr}, {i32});
  runtime.get("kiln_str_strip", {ptr, ptr, i32}, {ptr});
  runtime.get("kiln_str_replace", {ptr, ptr, ptr, i64}, {ptr});
  runtime.get("kiln_str_lower", {ptr}, {ptr});
  runtime.get("kiln_str_upper", {ptr}, {ptr});
  runtime.get("kiln_str_is", {ptr, i32}, {i32});
  runtime.get("kiln_str_from_int", {i64}, {ptr});
  runtime.get("kiln_str_from_float", {f64}, {ptr});
  runtime.get("kiln_str_to_int", {ptr, ptr}, {i32});
  runtime.get("kiln_str_to_float", {ptr, ptr}, {i32});
  runtime.get("kiln_str_split", {ptr, ptr, i64}, {ptr});
  runtime.get("kiln_str_join", {ptr, ptr}, {ptr});

  // The literals' globals, one per distinct text, made before the
  // conversion (patterns must not add symbols to the module they walk).
  OpBuilder builder = OpBuilder::atBlockBegin(module.getBody());
  int index = 0;
  for (StrConstantOp literal : literals) {
    StringAttr text = literal.getValueAttr();
    if (runtime.strLiterals.count(text))
      continue;
    builder.setInsertionPointToStart(module.getBody());
    runtime.strLiterals[text] = makeLiteralGlobal(builder, literal.getLoc(), text.getValue(),
                                                  index++);
  }
  return true;
}

void addIllegalStringOps(ConversionTarget &target) {
  target.addIllegalOp<StrConstantOp, StrLenOp, StrCharAtOp, StrCodeAtOp, StrOrdOp, StrChrOp,
                      StrConcatOp, StrAppendOp, StrRepeatOp, StrSliceOp, StrEqualOp, StrCompareOp, StrFindOp,
                      StrRFindOp, StrCountOp, StrContainsOp, StrStartsWithOp, StrEndsWithOp,
                      StrStripOp, StrReplaceOp, StrLowerOp, StrUpperOp, StrIsOp, StrFromIntOp,
                      StrFromFloatOp, StrToIntOp, StrToFloatOp, StrSplitOp, StrJoinOp>();
}

void populateStringLoweringPatterns(RewritePatternSet &patterns, const TypeConverter &converter,
                                    RuntimeFunctions &runtime) {
  MLIRContext *context = patterns.getContext();
  patterns.add<StrConstantLowering>(converter, context, runtime, runtime.strLiterals);
  patterns.add<StrLenLowering, StrIndexLowering<StrCharAtOp>, StrIndexLowering<StrCodeAtOp>,
               StrOrdLowering, StrChrLowering, StrSliceLowering, StrStripLowering,
               StrParseLowering<StrToIntOp>, StrParseLowering<StrToFloatOp>, StrSplitLowering>(
      converter, context, runtime);
  patterns.add<StrSearchLowering<StrFindOp>>(converter, context, runtime, "kiln_str_find");
  patterns.add<StrSearchLowering<StrRFindOp>>(converter, context, runtime, "kiln_str_rfind");
  patterns.add<StrSearchLowering<StrCountOp>>(converter, context, runtime, "kiln_str_count");
  using R = StrResult;
  patterns.add<StrCallLowering<StrConcatOp>>(converter, context, runtime, "kiln_str_concat",
                                             R::NewStr);
  patterns.add<StrCallLowering<StrAppendOp>>(converter, context, runtime, "kiln_str_append",
                                             R::NewStr);
  patterns.add<StrCallLowering<StrRepeatOp>>(converter, context, runtime, "kiln_str_repeat",
                                             R::NewStr);
  patterns.add<StrCallLowering<StrReplaceOp>>(converter, context, runtime, "kiln_str_replace",
                                              R::NewStr);
  patterns.add<StrCallLowering<StrLowerOp>>(converter, context, runtime, "kiln_str_lower",
                                            R::NewStr);
  patterns.add<StrCallLowering<StrUpperOp>>(converter, context, runtime, "kiln_str_upper",
                                            R::NewStr);
  patterns.add<StrCallLowering<StrFromIntOp>>(converter, context, runtime, "kiln_str_from_int",
                                              R::NewStr);
  patterns.add<StrCallLowering<StrFromFloatOp>>(converter, context, runtime,
                                                "kiln_str_from_float", R::NewStr);
  patterns.add<StrCallLowering<StrJoinOp>>(converter, context, runtime, "kiln_str_join",
                                           R::NewStr);
  patterns.add<StrCallLowering<StrEqualOp>>(converter, context, runtime, "kiln_str_equal",
                                            R::Boolean);
  patterns.add<StrCallLowering<StrContainsOp>>(converter, context, runtime, "kiln_str_contains",
                                               R::Boolean);
  patterns.add<StrCallLowering<StrStartsWithOp>>(converter, context, runtime,
                                                 "kiln_str_startswith", R::Boolean);
  patterns.add<StrCallLowering<StrEndsWithOp>>(converter, context, runtime, "kiln_str_endswith",
                                               R::Boolean);
  patterns.add<StrCallLowering<StrIsOp>>(converter, context, runtime, "kiln_str_is", R::Boolean);
  patterns.add<StrCallLowering<StrCompareOp>>(converter, context, runtime, "kiln_str_compare",
                                              R::Plain);
}

} // namespace kiln::containers
