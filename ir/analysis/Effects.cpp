#include "ir/analysis/Effects.h"

namespace tessera::ir {

bool isPureLeaf(const Operation &op) { return op.hasTrait(kPure) && op.numRegions() == 0; }

bool isRemovableIfUnused(const Operation &op) {
  if (op.hasTrait(kTerminator)) return false;
  if (op.hasTrait(kReadsMemory)) return !op.attrs().getBool("volatile", false);
  if (op.is(OpCode::While)) return false;
  bool regionOp = op.is(OpCode::For) || op.is(OpCode::If) || op.hasTrait(kPure);
  if (!regionOp) return false;
  for (unsigned r = 0; r < op.numRegions(); ++r)
    for (auto &inner : op.region(r).block().ops())
      if (!inner->hasTrait(kTerminator) && !isRemovableIfUnused(*inner)) return false;
  return true;
}

bool isDefinedOutside(const Value *v, const Operation *op) {
  if (const Operation *def = v->definingOp()) return !op->isAncestorOf(def);
  const Operation *owner = v->ownerBlock()->parentOp();  // null for function arguments
  return !owner || (owner != op && !op->isAncestorOf(owner));
}

} // namespace tessera::ir
