// Which ops may be removed, merged or moved.
#pragma once

#include "ir/IR.h"

namespace tessera::ir {

// Removable when its results are unused: pure ops, non-volatile loads, and
// for/if/reduce/scan ops whose nested ops are all removable. (while is kept:
// it may not terminate.)
bool isRemovableIfUnused(const Operation &op);

// Same inputs give the same results and nothing else happens: safe to merge
// (CSE) and to hoist (LICM). Pure ops without regions.
bool isPureLeaf(const Operation &op);

// True if `v` is defined outside `op` (not by an op nested in it, nor as an
// argument of one of its regions' blocks).
bool isDefinedOutside(const Value *v, const Operation *op);

} // namespace tessera::ir
