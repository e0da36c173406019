// Structured control flow: every scalar and every register of a tile carried
// through a loop or out of a branch is one phi.
#include "targets/llvm/GpuLowering.h"

namespace tessera::targets::llvmgen {

namespace {

// The registers of values `vs`, concatenated.
Regs flatten(GpuLowering &L, const std::vector<ir::Value *> &vs) {
  Regs out;
  for (ir::Value *v : vs) {
    Regs &r = L.get(v);
    out.insert(out.end(), r.begin(), r.end());
  }
  return out;
}

// Splits `flat` back into values shaped like `like`.
void assign(GpuLowering &L, const std::vector<ir::Value *> &targets, const std::vector<ir::Value *> &like,
            const Regs &flat) {
  size_t at = 0;
  for (size_t k = 0; k < targets.size(); ++k) {
    size_t n = L.get(like[k]).size();
    L.set(targets[k], Regs(flat.begin() + int64_t(at), flat.begin() + int64_t(at + n)));
    at += n;
  }
}

std::vector<llvm::PHINode *> phis(llvm::IRBuilder<> &b, const Regs &inits, llvm::BasicBlock *from) {
  std::vector<llvm::PHINode *> out;
  for (llvm::Value *v : inits) {
    llvm::PHINode *p = b.CreatePHI(v->getType(), 2);
    p->addIncoming(v, from);
    out.push_back(p);
  }
  return out;
}

} // namespace

void GpuLowering::when(llvm::Value *cond, const std::function<void()> &then) {
  llvm::BasicBlock *thenBB = llvm::BasicBlock::Create(ctx, "when", fn), *done = llvm::BasicBlock::Create(ctx, "when.end", fn);
  b.CreateCondBr(cond, thenBB, done);
  b.SetInsertPoint(thenBB);
  then();
  b.CreateBr(done);
  b.SetInsertPoint(done);
}

llvm::Value *GpuLowering::whenElse(llvm::Value *cond, const std::function<llvm::Value *()> &then,
                                   llvm::Value *otherwise) {
  llvm::BasicBlock *pre = b.GetInsertBlock();
  llvm::Value *v = nullptr;
  llvm::BasicBlock *end = nullptr;
  when(cond, [&] {
    v = then();
    end = b.GetInsertBlock();
  });
  llvm::PHINode *phi = b.CreatePHI(v->getType(), 2);
  phi->addIncoming(v, end);
  phi->addIncoming(otherwise, pre);
  return phi;
}

Regs GpuLowering::loop(llvm::Value *count, const Regs &inits,
                       const std::function<Regs(llvm::Value *, const Regs &)> &body) {
  llvm::BasicBlock *pre = b.GetInsertBlock();
  llvm::BasicBlock *head = llvm::BasicBlock::Create(ctx, "loop", fn), *bodyBB = llvm::BasicBlock::Create(ctx, "loop.body", fn);
  llvm::BasicBlock *exit = llvm::BasicBlock::Create(ctx, "loop.end", fn);
  b.CreateBr(head);
  b.SetInsertPoint(head);
  llvm::PHINode *i = b.CreatePHI(b.getInt32Ty(), 2);
  i->addIncoming(i32(0), pre);
  std::vector<llvm::PHINode *> carried = phis(b, inits, pre);
  b.CreateCondBr(b.CreateICmpSLT(i, count), bodyBB, exit);
  b.SetInsertPoint(bodyBB);
  Regs next = body(i, Regs(carried.begin(), carried.end()));
  llvm::BasicBlock *latch = b.GetInsertBlock();
  i->addIncoming(b.CreateAdd(i, i32(1)), latch);
  for (size_t k = 0; k < carried.size(); ++k) carried[k]->addIncoming(next[k], latch);
  b.CreateBr(head);
  b.SetInsertPoint(exit);
  return Regs(carried.begin(), carried.end());
}

void GpuLowering::lowerIf(const ir::Operation &op) {
  llvm::BasicBlock *thenBB = llvm::BasicBlock::Create(ctx, "then", fn), *elseBB = llvm::BasicBlock::Create(ctx, "else", fn);
  llvm::BasicBlock *merge = llvm::BasicBlock::Create(ctx, "endif", fn);
  b.CreateCondBr(scalar(op.operand(0)), thenBB, elseBB);
  Regs yielded[2];
  llvm::BasicBlock *ends[2];
  for (unsigned r = 0; r < 2; ++r) {
    b.SetInsertPoint(r == 0 ? thenBB : elseBB);
    const ir::Block &blk = op.region(r).block();
    lowerBlock(blk);
    yielded[r] = flatten(*this, blk.terminator()->operands());
    ends[r] = b.GetInsertBlock();
    b.CreateBr(merge);
  }
  b.SetInsertPoint(merge);
  Regs merged;
  for (size_t k = 0; k < yielded[0].size(); ++k) {
    llvm::PHINode *p = b.CreatePHI(yielded[0][k]->getType(), 2);
    p->addIncoming(yielded[0][k], ends[0]);
    p->addIncoming(yielded[1][k], ends[1]);
    merged.push_back(p);
  }
  assign(*this, op.results(), op.region(0).block().terminator()->operands(), merged);
}

void GpuLowering::lowerFor(const ir::Operation &op) {
  const ir::Block &body = op.region(0).block();
  bool sgn = op.operand(0)->type().isSigned();
  llvm::Value *lb = scalar(op.operand(0)), *ub = scalar(op.operand(1)), *step = scalar(op.operand(2));
  std::vector<ir::Value *> inits(op.operands().begin() + 3, op.operands().end());
  Regs initRegs = flatten(*this, inits);
  llvm::BasicBlock *pre = b.GetInsertBlock();
  llvm::BasicBlock *head = llvm::BasicBlock::Create(ctx, "for", fn), *bodyBB = llvm::BasicBlock::Create(ctx, "for.body", fn);
  llvm::BasicBlock *exit = llvm::BasicBlock::Create(ctx, "for.end", fn);
  b.CreateBr(head);
  b.SetInsertPoint(head);
  llvm::PHINode *iv = b.CreatePHI(lb->getType(), 2);
  iv->addIncoming(lb, pre);
  std::vector<llvm::PHINode *> carried = phis(b, initRegs, pre);
  b.CreateCondBr(sgn ? b.CreateICmpSLT(iv, ub) : b.CreateICmpULT(iv, ub), bodyBB, exit);
  b.SetInsertPoint(bodyBB);
  set(body.argument(0), {iv});
  std::vector<ir::Value *> args;
  for (unsigned k = 1; k < body.numArguments(); ++k) args.push_back(body.argument(k));
  assign(*this, args, inits, Regs(carried.begin(), carried.end()));
  lowerBlock(body);
  Regs next = flatten(*this, body.terminator()->operands());
  llvm::BasicBlock *latch = b.GetInsertBlock();
  iv->addIncoming(b.CreateAdd(iv, step), latch);
  for (size_t k = 0; k < carried.size(); ++k) carried[k]->addIncoming(next[k], latch);
  b.CreateBr(head);
  b.SetInsertPoint(exit);
  assign(*this, op.results(), inits, Regs(carried.begin(), carried.end()));
}

void GpuLowering::lowerWhile(const ir::Operation &op) {
  const ir::Block &before = op.region(0).block(), &after = op.region(1).block();
  Regs initRegs = flatten(*this, op.operands());
  llvm::BasicBlock *pre = b.GetInsertBlock();
  llvm::BasicBlock *head = llvm::BasicBlock::Create(ctx, "while", fn), *bodyBB = llvm::BasicBlock::Create(ctx, "while.body", fn);
  llvm::BasicBlock *exit = llvm::BasicBlock::Create(ctx, "while.end", fn);
  b.CreateBr(head);
  b.SetInsertPoint(head);
  std::vector<llvm::PHINode *> carried = phis(b, initRegs, pre);
  assign(*this, before.arguments(), op.operands(), Regs(carried.begin(), carried.end()));
  lowerBlock(before);
  const ir::Operation *cond = before.terminator();
  std::vector<ir::Value *> passed(cond->operands().begin() + 1, cond->operands().end());
  Regs passedRegs = flatten(*this, passed);
  llvm::BasicBlock *condEnd = b.GetInsertBlock();
  b.CreateCondBr(scalar(cond->operand(0)), bodyBB, exit);
  b.SetInsertPoint(bodyBB);
  assign(*this, after.arguments(), passed, passedRegs);
  lowerBlock(after);
  Regs next = flatten(*this, after.terminator()->operands());
  llvm::BasicBlock *latch = b.GetInsertBlock();
  for (size_t k = 0; k < carried.size(); ++k) carried[k]->addIncoming(next[k], latch);
  b.CreateBr(head);
  b.SetInsertPoint(exit);
  // The results are what the condition passed on its last evaluation.
  Regs results;
  for (llvm::Value *v : passedRegs) {
    llvm::PHINode *p = b.CreatePHI(v->getType(), 1);
    p->addIncoming(v, condEnd);
    results.push_back(p);
  }
  assign(*this, op.results(), passed, results);
}

} // namespace tessera::targets::llvmgen
