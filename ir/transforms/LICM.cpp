// licm: moves pure ops whose operands are all defined outside a for or while
// loop to just before the loop. Pure ops cannot trap (see IR.h), so hoisting
// out of a loop that runs zero times is safe. Inner loops go first, so an op
// can leave several loops.
#include "ir/analysis/Effects.h"
#include "ir/transforms/Passes.h"

namespace tessera::ir {
namespace {

void hoistFrom(Operation *loop) {
  for (unsigned r = 0; r < loop->numRegions(); ++r)
    for (Operation *op : loop->region(r).block().opsVector()) {
      if (!isPureLeaf(*op)) continue;
      bool invariant = true;
      for (Value *v : op->operands()) invariant &= isDefinedOutside(v, loop);
      if (invariant) op->moveBefore(loop);
    }
}

void visitBlock(Block &b) {
  for (Operation *op : b.opsVector()) {
    for (unsigned r = 0; r < op->numRegions(); ++r) visitBlock(op->region(r).block());
    if (op->is(OpCode::For) || op->is(OpCode::While)) hoistFrom(op);
  }
}

} // namespace

void hoistLoopInvariants(Module &m) {
  for (auto &f : m.functions()) visitBlock(f->entry());
}

} // namespace tessera::ir
