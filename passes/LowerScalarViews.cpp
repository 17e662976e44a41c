#include "passes/Passes.h"

#include "mlir/Conversion/LLVMCommon/ConversionTarget.h"
#include "mlir/Conversion/LLVMCommon/MemRefBuilder.h"
#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Transforms/DialectConversion.h"

namespace kiln {
#define GEN_PASS_DEF_KILNLOWERSCALARVIEWS
#include "passes/Passes.h.inc"
} // namespace kiln

using namespace mlir;

namespace kiln {
namespace {

struct ScalarViewLowering : public ConvertOpToLLVMPattern<ScalarViewOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult matchAndRewrite(ScalarViewOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto sourceType = cast<MemRefType>(op.getSource().getType());
    auto resultType = cast<MemRefType>(op.getType());
    Type descriptorType = getTypeConverter()->convertType(resultType);
    if (!descriptorType)
      return rewriter.notifyMatchFailure(op, "result type does not convert");
    MemRefDescriptor source(adaptor.getSource());
    auto result = MemRefDescriptor::poison(rewriter, loc, descriptorType);
    result.setAllocatedPtr(rewriter, loc, source.allocatedPtr(rewriter, loc));
    result.setAlignedPtr(rewriter, loc, source.alignedPtr(rewriter, loc));
    int64_t factor = ScalarViewOp::scalarsPerElement(sourceType);
    Type indexType = getTypeConverter()->getIndexType();
    Value scale;
    auto scaled = [&](Value value) -> Value {
      if (factor == 1)
        return value;
      if (!scale)
        scale = LLVM::ConstantOp::create(rewriter, loc, indexType,
                                         rewriter.getIntegerAttr(indexType, factor));
      return LLVM::MulOp::create(rewriter, loc, value, scale);
    };
    result.setOffset(rewriter, loc, scaled(source.offset(rewriter, loc)));
    unsigned last = sourceType.getRank() - 1;
    for (unsigned d = 0; d <= last; ++d) {
      Value size = source.size(rewriter, loc, d);
      Value stride = source.stride(rewriter, loc, d);
      // Complex: element j of the last dimension holds scalars 2j and 2j+1,
      // adjacent (the source's last stride is 1); an outer step skips twice
      // as many scalars as elements.
      result.setSize(rewriter, loc, d, d == last ? scaled(size) : size);
      result.setStride(rewriter, loc, d, d == last ? stride : scaled(stride));
    }
    rewriter.replaceOp(op, {Value(result)});
    return success();
  }
};

class LowerScalarViews : public impl::KilnLowerScalarViewsBase<LowerScalarViews> {
public:
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    LLVMTypeConverter converter(context);
    RewritePatternSet patterns(context);
    patterns.add<ScalarViewLowering>(converter);
    ConversionTarget target(*context);
    target.addLegalDialect<LLVM::LLVMDialect>();
    target.addIllegalOp<ScalarViewOp>();
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    if (failed(applyPartialConversion(getOperation(), target, std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
} // namespace kiln
