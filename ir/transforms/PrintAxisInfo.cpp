// print-axis-info: runs the axis analysis on every function and records its
// result on each integer or pointer op result as the discardable attributes
// `axis.contiguity`, `axis.divisibility` and `axis.constancy` (one entry per
// dimension; `axis.<i>.contiguity` ... for result i of a multi-result op), so
// that golden tests can read it. Nothing else changes.
#include "ir/analysis/AxisInfo.h"
#include "ir/transforms/Passes.h"

#include <string>

namespace tessera::ir {

void printAxisInfo(Module &m) {
  for (auto &f : m.functions()) {
    AxisAnalysis axis(*f);
    f->walk([&](Operation *op) {
      for (unsigned i = 0; i < op->numResults(); ++i) {
        const Value *v = op->result(i);
        if (!hasAxisInfo(v->type())) continue;
        const AxisInfo &info = axis.get(v);
        std::string prefix = op->numResults() == 1 ? "axis." : "axis." + std::to_string(i) + ".";
        op->attrs().set(prefix + "contiguity", Attribute(info.contiguity));
        op->attrs().set(prefix + "divisibility", Attribute(info.divisibility));
        op->attrs().set(prefix + "constancy", Attribute(info.constancy));
      }
    });
  }
}

} // namespace tessera::ir
