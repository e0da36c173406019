// unroll-loops: a `for` with `unroll = n` (tl.range's loop_unroll_factor)
// becomes a loop over the whole groups of n iterations, whose body is n
// copies of the original chained through the carried values, followed by
// the original loop (without the attribute) for the iterations left. For
// targets whose code generators do not unroll (cpu, spirv): the LLVM GPU
// emitter does it at the thread level, where wgmma's lowering also sets it.
//
// The split point is lb + (trips / n) * n * step, at most ub; for bounds of
// 32 bits or fewer it is computed in i64 and exact. 64-bit bounds are
// taken to lie within 2^63 of each other.
#include "ir/Clone.h"
#include "ir/transforms/Passes.h"

#include <algorithm>

namespace tessera::ir {
namespace {

void unroll(Operation *loop, int64_t n) {
  Builder b;
  b.setInsertionPoint(loop);
  b.setLoc(loop->loc());
  Value *lb = loop->operand(0), *ub = loop->operand(1), *step = loop->operand(2);
  Type t = lb->type();
  bool narrow = t.bitWidth() < 64;
  Type w = narrow ? Type::i64() : Type::scalar(ScalarKind::U64);
  auto wide = [&](Value *v) { return v->type() == w ? v : b.cast(v, w); };
  auto k = [&](int64_t c) { return b.constantInt(c, w); };
  Value *L = wide(lb), *U = wide(ub);
  // A step below 1 never finishes a loop that runs; 1 keeps the division defined.
  Value *S = b.sameType(OpCode::Max, {wide(step), k(1)});
  Value *span = b.select(b.cmp("lt", lb, ub), b.sameType(OpCode::Sub, {U, L}), k(0));
  Value *trips = b.sameType(OpCode::Div, {b.sameType(OpCode::Add, {span, b.sameType(OpCode::Sub, {S, k(1)})}), S});
  Value *groups = b.sameType(OpCode::Div, {trips, k(n)});
  Value *split = b.sameType(OpCode::Add, {L, b.sameType(OpCode::Mul, {groups, b.sameType(OpCode::Mul, {k(n), S})})});
  if (narrow) split = b.cast(b.select(b.cmp("lt", split, U), split, U), t);
  else split = b.select(b.cmp("lt", b.cast(split, t), ub), b.cast(split, t), ub);

  std::vector<Value *> inits(loop->operands().begin() + 3, loop->operands().end());
  std::vector<Type> types;
  for (unsigned r = 0; r < loop->numResults(); ++r) types.push_back(loop->result(r)->type());
  // Either loop may run no iteration: neither is `nonempty`.
  loop->attrs().erase("nonempty");
  loop->attrs().erase("unroll");
  AttrDict attrs = loop->attrs();
  std::vector<Value *> offsets = {nullptr};  // of copy c's induction variable from the group's
  for (int64_t c = 1; c < n; ++c) offsets.push_back(b.sameType(OpCode::Mul, {step, b.constantInt(c, t)}));
  std::vector<Value *> operands = {lb, split, b.sameType(OpCode::Mul, {step, b.constantInt(n, t)})};
  operands.insert(operands.end(), inits.begin(), inits.end());
  Operation *groupsLoop = b.create(OpCode::For, operands, types, attrs);
  const Block &body = loop->region(0).block();
  Block &copies = groupsLoop->region(0).block();
  Value *iv = copies.addArgument(t, body.argument(0)->nameHint());
  std::vector<Value *> carried;
  for (unsigned a = 1; a < body.numArguments(); ++a)
    carried.push_back(copies.addArgument(body.argument(a)->type(), body.argument(a)->nameHint()));
  Builder cb(&copies);
  cb.setLoc(loop->loc());
  for (int64_t c = 0; c < n; ++c) {
    ValueMap map;
    map[body.argument(0)] = c ? cb.sameType(OpCode::Add, {iv, offsets[size_t(c)]}) : iv;
    for (unsigned a = 1; a < body.numArguments(); ++a) map[body.argument(a)] = carried[a - 1];
    carried = cloneBlockBody(cb, body, map);
  }
  cb.yield(carried);

  loop->setOperand(0, split);
  for (unsigned r = 0; r < groupsLoop->numResults(); ++r) loop->setOperand(3 + r, groupsLoop->result(r));
}

} // namespace

void unrollLoops(Module &m) {
  for (auto &f : m.functions()) {
    std::vector<Operation *> loops;
    f->walk([&](Operation *op) {
      if (op->is(OpCode::For) && op->attrs().getInt("unroll", 0) >= 2) loops.push_back(op);
    });
    // Inner loops first, so that an outer loop's copies hold them unrolled.
    std::reverse(loops.begin(), loops.end());
    for (Operation *loop : loops) unroll(loop, loop->attrs().getInt("unroll", 0));
  }
}

} // namespace tessera::ir
