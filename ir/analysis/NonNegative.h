// Which integer values are never negative.
#pragma once

#include "ir/IR.h"

#include <unordered_map>

namespace tessera::ir {

// Proves integer values non-negative from how they are computed: ids and
// counts, non-negative constants, and ops that keep non-negative operands
// non-negative (add, mul, shl, div, rem, min, max, and, or, xor, shr,
// select, casts), a for loop's induction variable from a non-negative lower
// bound. Values of unsigned types always are. add, mul and shl are taken as
// exact, as Triton's buffer-op analysis takes them: an i32 computation that
// wraps past 2^31 is where the proof does not hold, which is why only a fact
// that bounds the accesses (pointer_range = 32, ir/IR.h) lets a target use
// it. Kernel arguments are unknown (a stride may be negative).
class NonNegative {
public:
  bool proves(const Value *v);

private:
  bool compute(const Value *v);
  std::unordered_map<const Value *, bool> known_;
};

} // namespace tessera::ir
