#include "passes/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Location.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/StringSet.h"

namespace kiln {
#define GEN_PASS_DEF_KILNSTRIPMLIRMETADATA
#include "passes/Passes.h.inc"
} // namespace kiln

using namespace mlir;

namespace kiln {
namespace {

class StripMLIRMetadata
    : public impl::KilnStripMLIRMetadataBase<StripMLIRMetadata> {
public:
  using Base::Base;

  void runOnOperation() override {
    // What kiln-lower-checks reads: the error record argument.
    kept.insert("kiln.error_slot");
    for (const std::string &name : keepAttributes)
      kept.insert(name);
    unknown = UnknownLoc::get(&getContext());

    getOperation()->walk([&](Operation *op) {
      op->setLoc(strip(op->getLoc()));
      for (Region &region : op->getRegions())
        for (Block &block : region)
          for (BlockArgument argument : block.getArguments())
            argument.setLoc(strip(argument.getLoc()));
      stripAttributes(op);
    });
  }

private:
  llvm::StringSet<> kept;
  Location unknown = Location(nullptr);

  Location strip(Location location) const {
    if (!keepLocations)
      return unknown;
    FileLineColLoc found;
    location->walk([&](Location inner) {
      if (auto fileLoc = dyn_cast<FileLineColLoc>(inner)) {
        found = fileLoc;
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    return found ? Location(found) : unknown;
  }

  bool droppable(StringAttr name) const {
    return name.getValue().starts_with("kiln.") &&
           !kept.contains(name.getValue());
  }

  void stripAttributes(Operation *op) const {
    SmallVector<StringAttr> dropped;
    for (NamedAttribute attribute : op->getDiscardableAttrs())
      if (droppable(attribute.getName()))
        dropped.push_back(attribute.getName());
    for (StringAttr name : dropped)
      op->removeDiscardableAttr(name);

    auto function = dyn_cast<FunctionOpInterface>(op);
    if (!function)
      return;
    for (unsigned i = 0, e = function.getNumArguments(); i < e; ++i) {
      SmallVector<StringAttr> names;
      for (NamedAttribute attribute : function.getArgAttrs(i))
        if (droppable(attribute.getName()))
          names.push_back(attribute.getName());
      for (StringAttr name : names)
        function.removeArgAttr(i, name);
    }
    for (unsigned i = 0, e = function.getNumResults(); i < e; ++i) {
      SmallVector<StringAttr> names;
      for (NamedAttribute attribute : function.getResultAttrs(i))
        if (droppable(attribute.getName()))
          names.push_back(attribute.getName());
      for (StringAttr name : names)
        function.removeResultAttr(i, name);
    }
  }
};

} // namespace
} // namespace kiln
