// dce: removes ops whose results are unused and that have no effects, until
// nothing more can go (removing one op can make its operands dead).
#include "ir/analysis/Effects.h"
#include "ir/transforms/Passes.h"

namespace tessera::ir {
namespace {

bool sweepBlock(Block &b) {
  bool changed = false;
  std::vector<Operation *> ops = b.opsVector();
  for (auto it = ops.rbegin(); it != ops.rend(); ++it) {
    Operation *op = *it;
    for (unsigned r = 0; r < op->numRegions(); ++r) changed |= sweepBlock(op->region(r).block());
    bool used = false;
    for (unsigned i = 0; i < op->numResults(); ++i) used |= op->result(i)->hasUses();
    if (!used && isRemovableIfUnused(*op)) {
      op->erase();
      changed = true;
    }
  }
  return changed;
}

} // namespace

void eliminateDeadCode(Module &m) {
  for (auto &f : m.functions()) eliminateDeadCode(f->entry());
}

void eliminateDeadCode(Block &b) {
  while (sweepBlock(b)) {
  }
}

} // namespace tessera::ir
