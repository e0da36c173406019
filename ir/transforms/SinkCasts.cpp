// sink-casts: moves each widening cast (to an element type of more bits)
// down to just before the first op of its block that uses it, so that the
// narrow value, not its widened copy, lives across what lies between. A
// load stays where it is: the memory access still starts early. Liger's
// LayerNorm forward widened W and B from bf16 right after loading them and
// kept 32 f32 registers live through two block reductions: 62 registers
// per thread to Triton's 48 (whose LLVM sinks them), one block fewer per SM.
// Casts never move into a nested region (a loop would repeat them).
#include "ir/transforms/Passes.h"

#include <unordered_set>

namespace tessera::ir {
namespace {

bool isWideningCast(const Operation &op) {
  if (!op.is(OpCode::Cast)) return false;
  Type from = op.operand(0)->type().element(), to = op.result()->type().element();
  return from.isScalar() && to.isScalar() && from.bitWidth() < to.bitWidth();
}

// The op of `block` that is `op` or holds it in one of its regions, or null.
Operation *ancestorIn(Block &block, Operation *op) {
  while (op && op->parentBlock() != &block) op = op->parentOp();
  return op;
}

void sinkInBlock(Block &block) {
  for (Operation *op : block.opsVector())
    for (unsigned r = 0; r < op->numRegions(); ++r) sinkInBlock(op->region(r).block());
  // Last first, so that a cast feeding another cast follows it down.
  std::vector<Operation *> ops = block.opsVector();
  for (auto it = ops.rbegin(); it != ops.rend(); ++it) {
    Operation *cast = *it;
    if (!isWideningCast(*cast) || !cast->result()->hasUses()) continue;
    std::unordered_set<Operation *> users;
    for (Operation *user : cast->result()->users()) users.insert(ancestorIn(block, user));
    auto at = block.ops().begin();
    while (at->get() != cast) ++at;
    auto after = std::next(at);
    for (auto next = after; next != block.ops().end(); ++next)
      if (users.count(next->get())) {
        if (next != after) cast->moveBefore(next->get());
        break;
      }
  }
}

} // namespace

void sinkCasts(Module &m) {
  for (auto &f : m.functions()) sinkInBlock(f->entry());
}

} // namespace tessera::ir
