// Structured control flow: every scalar and every register of a tile carried
// through a loop or out of a branch becomes one value of the thread-level
// for/if/while.
#include "targets/gpu/ThreadLowering.h"

namespace tessera::targets::gpu {

using ir::OpCode;

namespace {

// The registers of values `vs`, concatenated.
Regs flatten(ThreadLowering &L, const std::vector<ir::Value *> &vs) {
  Regs out;
  for (ir::Value *v : vs) {
    Regs &r = L.get(v);
    out.insert(out.end(), r.begin(), r.end());
  }
  return out;
}

// Splits `flat` back into values shaped like `like` (or `counts` registers each).
void assign(ThreadLowering &L, const std::vector<ir::Value *> &targets, const std::vector<ir::Value *> &like,
            const Regs &flat, const std::vector<int> &counts = {}) {
  size_t at = 0;
  for (size_t k = 0; k < targets.size(); ++k) {
    size_t n = counts.empty() ? L.get(like[k]).size() : size_t(counts[k]);
    L.set(targets[k], Regs(flat.begin() + int64_t(at), flat.begin() + int64_t(at + n)));
    at += n;
  }
}

std::vector<ir::Type> typesOf(const Regs &regs) {
  std::vector<ir::Type> t;
  for (ir::Value *v : regs) t.push_back(v->type());
  return t;
}

Regs argumentsOf(ir::Block &blk, const Regs &like) {
  Regs out;
  for (ir::Value *v : like) out.push_back(blk.addArgument(v->type()));
  return out;
}

// Runs `body` with the builder at the end of `blk`, then restores it.
template <typename F> void inBlock(ThreadLowering &L, ir::Block &blk, F &&body) {
  ir::Builder saved = L.b;
  L.b.setInsertionPointToEnd(&blk);
  body();
  L.b = saved;
}

} // namespace

void ThreadLowering::when(ir::Value *cond, const std::function<void()> &then) {
  ir::Operation *op = b.create(OpCode::If, {cond}, {});
  inBlock(*this, op->region(0).block(), [&] {
    then();
    b.yield({});
  });
  inBlock(*this, op->region(1).block(), [&] { b.yield({}); });
}

Regs ThreadLowering::whenElse(ir::Value *cond, const std::function<Regs()> &then, const Regs &otherwise) {
  ir::Operation *op = b.create(OpCode::If, {cond}, typesOf(otherwise));
  inBlock(*this, op->region(0).block(), [&] { b.yield(then()); });
  inBlock(*this, op->region(1).block(), [&] { b.yield(otherwise); });
  return op->results();
}

Regs ThreadLowering::loop(ir::Value *count, const Regs &inits,
                          const std::function<Regs(ir::Value *, const Regs &)> &body) {
  std::vector<ir::Value *> operands = {i32(0), count, i32(1)};
  operands.insert(operands.end(), inits.begin(), inits.end());
  ir::Operation *op = b.create(OpCode::For, operands, typesOf(inits));
  ir::Block &blk = op->region(0).block();
  ir::Value *i = blk.addArgument(ir::Type::i32(), "i");
  Regs carried = argumentsOf(blk, inits);
  inBlock(*this, blk, [&] { b.yield(body(i, carried)); });
  return op->results();
}

void ThreadLowering::lowerIf(const ir::Operation &op) {
  ir::Operation *lowered = b.create(OpCode::If, {scalar(op.operand(0))}, registerTypes(op.results(), op));
  for (unsigned r = 0; r < 2; ++r) {
    const ir::Block &blk = op.region(r).block();
    inBlock(*this, lowered->region(r).block(), [&] {
      lowerBlock(blk);
      b.yield(flatten(*this, blk.terminator()->operands()));
    });
  }
  assign(*this, op.results(), op.results(), lowered->results(), registerCounts(op.results(), op));
}

// The producer's region holds scalars only: every thread computes them.
void ThreadLowering::lowerWarpSpecialize(const ir::Operation &op) {
  ir::Operation *lowered = b.create(OpCode::WarpSpecialize, {}, {}, op.attrs());
  inBlock(*this, lowered->region(0).block(), [&] {
    lowerBlock(op.region(0).block());
    b.yield({});
  });
}

void ThreadLowering::lowerFor(const ir::Operation &op) {
  const ir::Block &body = op.region(0).block();
  std::vector<ir::Value *> inits(op.operands().begin() + 3, op.operands().end());
  Regs initRegs = flatten(*this, inits);
  std::vector<ir::Value *> operands = {scalar(op.operand(0)), scalar(op.operand(1)), scalar(op.operand(2))};
  operands.insert(operands.end(), initRegs.begin(), initRegs.end());
  ir::Operation *lowered = b.create(OpCode::For, operands, typesOf(initRegs), op.attrs());
  ir::Block &blk = lowered->region(0).block();
  set(body.argument(0), {blk.addArgument(body.argument(0)->type(), body.argument(0)->nameHint())});
  Regs carried = argumentsOf(blk, initRegs);
  std::vector<ir::Value *> args;
  for (unsigned k = 1; k < body.numArguments(); ++k) args.push_back(body.argument(k));
  assign(*this, args, inits, carried);
  inBlock(*this, blk, [&] {
    lowerBlock(body);
    b.yield(flatten(*this, body.terminator()->operands()));
  });
  assign(*this, op.results(), inits, lowered->results());
}

void ThreadLowering::lowerWhile(const ir::Operation &op) {
  const ir::Block &before = op.region(0).block(), &after = op.region(1).block();
  Regs initRegs = flatten(*this, op.operands());
  const ir::Operation *cond = before.terminator();
  std::vector<ir::Value *> passed(cond->operands().begin() + 1, cond->operands().end());
  ir::Operation *lowered = b.create(OpCode::While, initRegs, registerTypes(op.results(), op));
  ir::Block &beforeBlk = lowered->region(0).block(), &afterBlk = lowered->region(1).block();
  assign(*this, before.arguments(), op.operands(), argumentsOf(beforeBlk, initRegs));
  inBlock(*this, beforeBlk, [&] {
    lowerBlock(before);
    Regs condOperands = {scalar(cond->operand(0))};
    Regs passedRegs = flatten(*this, passed);
    condOperands.insert(condOperands.end(), passedRegs.begin(), passedRegs.end());
    b.create(OpCode::Condition, condOperands, {});
  });
  Regs afterArgs;
  for (ir::Type t : registerTypes(op.results(), op)) afterArgs.push_back(afterBlk.addArgument(t));
  std::vector<int> counts = registerCounts(op.results(), op);
  assign(*this, after.arguments(), after.arguments(), afterArgs, counts);
  inBlock(*this, afterBlk, [&] {
    lowerBlock(after);
    b.yield(flatten(*this, after.terminator()->operands()));
  });
  // The results are what the condition passed on its last evaluation.
  assign(*this, op.results(), op.results(), lowered->results(), counts);
}

// Registers of each value (one for a scalar) and their types, concatenated.
std::vector<int> ThreadLowering::registerCounts(const std::vector<ir::Value *> &vs, const ir::Operation &where) {
  std::vector<int> out;
  for (ir::Value *v : vs) out.push_back(v->type().isTile() ? layoutOf(v->type(), where).numRegs : 1);
  return out;
}

std::vector<ir::Type> ThreadLowering::registerTypes(const std::vector<ir::Value *> &vs, const ir::Operation &where) {
  std::vector<ir::Type> out;
  std::vector<int> counts = registerCounts(vs, where);
  for (size_t k = 0; k < vs.size(); ++k) out.insert(out.end(), size_t(counts[k]), vs[k]->type().element());
  return out;
}

} // namespace tessera::targets::gpu
