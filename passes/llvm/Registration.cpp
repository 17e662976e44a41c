#include "passes/llvm/KilnLLVMPasses.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/WithColor.h"

using namespace llvm;

namespace kiln {
namespace {

Error invalidParameter(StringRef pass, StringRef parameter,
                       StringRef expected) {
  return createStringError(formatv("invalid {0} parameter '{1}'; expected {2}",
                                   pass, parameter, expected)
                               .str());
}

// Pipeline parameters are separated by ';' because the pipeline parser
// splits on ',' even inside '<...>'.
SmallVector<StringRef> splitParameters(StringRef text) {
  SmallVector<StringRef> parameters;
  text.split(parameters, ';', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  return parameters;
}

template <typename Pass, typename Parse>
bool addParsedPass(StringRef element, StringRef passName, Parse parse,
                   ModulePassManager &passes) {
  if (!PassBuilder::checkParametrizedPassName(element, passName))
    return false;
  auto options = PassBuilder::parsePassParameters(parse, element, passName);
  if (!options) {
    // The host reports the pipeline as invalid when this returns false; say
    // why first.
    WithColor::error() << toString(options.takeError()) << "\n";
    return false;
  }
  passes.addPass(Pass(std::move(*options)));
  return true;
}

} // namespace

Expected<StripRTTIOptions> parseStripRTTIParameters(StringRef text) {
  StripRTTIOptions options;
  for (StringRef parameter : splitParameters(text)) {
    StringRef names = parameter;
    if (!names.consume_front("public-api="))
      return invalidParameter("kiln-strip-rtti", parameter,
                              "public-api=NAME[:NAME...]");
    SmallVector<StringRef> split;
    names.split(split, ':', /*MaxSplit=*/-1, /*KeepEmpty=*/true);
    for (StringRef name : split) {
      if (name.empty())
        return invalidParameter("kiln-strip-rtti", parameter,
                                "public-api=NAME[:NAME...] with no empty name");
      options.publicAPI.push_back(name.str());
    }
  }
  return options;
}

Expected<StripMetadataOptions> parseStripMetadataParameters(StringRef text) {
  StripMetadataOptions options;
  for (StringRef parameter : splitParameters(text)) {
    bool *flag = StringSwitch<bool *>(parameter)
                     .Case("keep-debug-info", &options.keepDebugInfo)
                     .Case("keep-line-tables", &options.keepLineTables)
                     .Case("keep-ident", &options.keepIdent)
                     .Case("keep-loop-metadata", &options.keepLoopMetadata)
                     .Case("keep-unused-globals", &options.keepUnusedGlobals)
                     .Default(nullptr);
    if (!flag)
      return invalidParameter("kiln-strip-metadata", parameter,
                              "keep-debug-info, keep-line-tables, keep-ident, "
                              "keep-loop-metadata or keep-unused-globals");
    *flag = true;
  }
  return options;
}

Expected<IRStatsOptions> parseIRStatsParameters(StringRef text) {
  IRStatsOptions options;
  for (StringRef parameter : splitParameters(text)) {
    StringRef value = parameter;
    if (value.consume_front("output=") && !value.empty())
      options.outputPath = value.str();
    else if (value.consume_front("label=") && !value.empty())
      options.label = value.str();
    else
      return invalidParameter("kiln-ir-stats", parameter,
                              "output=FILE or label=TEXT");
  }
  return options;
}

Expected<VectorReportOptions> parseVectorReportParameters(StringRef text) {
  VectorReportOptions options;
  for (StringRef parameter : splitParameters(text)) {
    StringRef value = parameter;
    if (!value.consume_front("output=") || value.empty())
      return invalidParameter("kiln-vector-report", parameter, "output=FILE");
    options.outputPath = value.str();
  }
  return options;
}

void registerKilnLLVMPasses(PassBuilder &builder) {
  builder.registerPipelineParsingCallback(
      [](StringRef element, ModulePassManager &passes,
         ArrayRef<PassBuilder::PipelineElement>) {
        return addParsedPass<StripRTTIPass>(element, "kiln-strip-rtti",
                                            parseStripRTTIParameters, passes) ||
               addParsedPass<StripMetadataPass>(element, "kiln-strip-metadata",
                                                parseStripMetadataParameters,
                                                passes) ||
               addParsedPass<IRStatsPass>(element, "kiln-ir-stats",
                                          parseIRStatsParameters, passes) ||
               addParsedPass<VectorReportPass>(element, "kiln-vector-report",
                                               parseVectorReportParameters,
                                               passes);
      });
}

} // namespace kiln
