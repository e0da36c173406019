// Which pointer arguments of a function its stores and atomics may write
// through, so that a launch can refuse a read-only array there.
#pragma once

#include "ir/IR.h"

#include <vector>

namespace tessera::ir {

// One flag per argument of `f` (tile or thread level). A store's pointer is
// traced back through addptr, splat, broadcast, expand_dims, reshape,
// trans, convert_layout, hint, select and the values loops and branches
// carry; one from anywhere else (a pointer loaded from memory) marks
// nothing. So a flag may miss a write, never invent one: a launch that
// trusts it refuses no valid argument.
std::vector<bool> writtenPointerArguments(const Function &f);

// The other direction, for callers that must never miss a write (torch's
// Inductor orders and reuses buffers by it): one flag per argument of `f`
// (a function of `m`), set for every pointer or tensor-map argument a
// store or atomic may write through, or that goes to a parameter a called
// device function (of `m`, analyzed alike) or an impure device-library
// function may write through. A write through a pointer not traced as above
// (loaded, computed from integers), a call of a function `m` lacks, or
// inline assembly that is not pure marks every pointer and tensor-map
// argument.
std::vector<bool> mayWriteArguments(const Module &m, const Function &f);

// The argument of `f` that pointer `ptr` (a pointer or a tile of them) is
// derived from, traced as above; -1 when it is not traced to exactly one.
int pointerArgument(const Function &f, const Value *ptr);

} // namespace tessera::ir
