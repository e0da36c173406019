// Types, values, loops and combine regions.
#include "targets/cpu/Lowering.h"

#include "ir/Fold.h"

#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/raw_ostream.h"

namespace tessera::targets::cpu {

using ir::OpCode;
using ir::ScalarKind;

Lowering::Lowering(llvm::Module &module, const HostFacts &f)
    : ElementwiseEmitter(module, "cpu"), facts(f), allocas_(ctx) {}

llvm::Type *Lowering::vecOf(ir::Type elem, unsigned width) {
  llvm::Type *t = computeType(elem);
  return width == 1 ? t : llvm::FixedVectorType::get(t, width);
}

unsigned Lowering::vectorWidth(ir::Type tile, bool withinRow) {
  int bits = std::max(8, tile.element().isPointer() ? 64 : tile.bitWidth());
  int64_t w = std::max(1, facts.vectorBits / bits);
  int64_t limit = withinRow ? tile.shape().back() : tile.numElements();
  return unsigned(std::min<int64_t>(w, std::max<int64_t>(1, limit)));
}

// ---- values and buffers

Lowered &Lowering::get(const ir::Value *v) {
  auto it = values_.find(v);
  if (it == values_.end()) throw LoweringError{"internal error: cpu lowering used a value before defining it"};
  return it->second;
}

// Allocas go to the entry block, so loops reuse them instead of growing the stack.
llvm::Value *Lowering::entryAlloca(llvm::Type *type, int64_t count) {
  llvm::BasicBlock &entry = fn->getEntryBlock();
  allocas_.SetInsertPoint(&entry, entry.getFirstInsertionPt());
  llvm::AllocaInst *a = allocas_.CreateAlloca(type, b.getInt64(count));
  a->setAlignment(llvm::Align(64));
  return a;
}

void Lowering::moveLargeFrameToScratch() {
  const llvm::DataLayout &layout = m.getDataLayout();
  std::vector<std::pair<llvm::AllocaInst *, uint64_t>> moved;  // alloca, offset
  uint64_t total = 0;
  for (llvm::Instruction &inst : fn->getEntryBlock()) {
    auto *a = llvm::dyn_cast<llvm::AllocaInst>(&inst);
    if (!a || !a->isStaticAlloca()) continue;
    std::optional<llvm::TypeSize> size = a->getAllocationSize(layout);
    if (!size || size->isScalable()) continue;
    moved.push_back({a, total});
    total += (size->getFixedValue() + 63) / 64 * 64;
  }
  if (total <= kStackBudget) return;
  // A new first block takes the area; without one the program returns (the
  // runtime has recorded the failure, and the launch reports it).
  llvm::BasicBlock *body = &fn->getEntryBlock();
  llvm::BasicBlock *head = llvm::BasicBlock::Create(ctx, "scratch", fn, body);
  llvm::BasicBlock *none = llvm::BasicBlock::Create(ctx, "scratch.none", fn);
  llvm::IRBuilder<> at(head);
  llvm::FunctionCallee get =
      m.getOrInsertFunction("tessera_host_scratch", llvm::FunctionType::get(at.getPtrTy(), {at.getInt64Ty()}, false));
  if (auto *f = llvm::dyn_cast<llvm::Function>(get.getCallee())) f->addRetAttr(llvm::Attribute::NoAlias);  // like malloc
  llvm::CallInst *area = at.CreateCall(get, {at.getInt64(int64_t(total))});
  area->addRetAttr(llvm::Attribute::getWithAlignment(ctx, llvm::Align(64)));
  for (auto [a, offset] : moved) {
    llvm::Value *p = at.CreateConstInBoundsGEP1_64(at.getInt8Ty(), area, offset);
    a->replaceAllUsesWith(p);
    a->eraseFromParent();
  }
  at.CreateCondBr(at.CreateICmpNE(area, llvm::ConstantPointerNull::get(at.getPtrTy())), body, none);
  llvm::IRBuilder<>(none).CreateRetVoid();
}

llvm::Value *Lowering::newBuffer(ir::Type tile) { return entryAlloca(storageType(tile.element()), tile.numElements()); }


llvm::Value *Lowering::loadChunk(const ir::Value *v, llvm::Value *index, unsigned width) {
  Lowered &l = get(v);
  if (!l.isTile()) return splatIfNeeded(l.scalar, width);
  if (l.pending) {
    llvm::Value *chunk = l.gen(index, width);
    storeChunk(l.buf, v->type().element(), index, chunk);
    filled_.insert(v);
    return chunk;
  }
  if (l.gen) return l.gen(index, width);
  ir::Type e = v->type().element();
  llvm::Type *st = storageType(e);
  llvm::Value *p = b.CreateGEP(st, l.buf, index);
  llvm::Type *vt = width == 1 ? st : llvm::FixedVectorType::get(st, width);
  return fromStorage(b.CreateAlignedLoad(vt, p, llvm::Align(st->getScalarSizeInBits() / 8 ?: 1)), e);
}

llvm::Value *Lowering::loadElement(const ir::Value *v, llvm::Value *index) { return loadChunk(v, index, 1); }

void Lowering::storeChunk(llvm::Value *buf, ir::Type elem, llvm::Value *index, llvm::Value *vec) {
  llvm::Type *st = storageType(elem);
  b.CreateAlignedStore(toStorage(vec, elem), b.CreateGEP(st, buf, index), llvm::Align(st->getScalarSizeInBits() / 8 ?: 1));
}

llvm::Value *Lowering::materialize(const ir::Value *v) {
  Lowered &l = get(v);
  if (l.buf) return l.buf;
  llvm::Value *buf = newBuffer(v->type());
  copyTile(buf, v);
  return buf;
}

void Lowering::copyTile(llvm::Value *dst, const ir::Value *src) {
  unsigned w = vectorWidth(src->type());
  loop(i64(0), i64(src->type().numElements()), w,
       [&](llvm::Value *i) { storeChunk(dst, src->type().element(), i, loadChunk(src, i, w)); });
}

void Lowering::loop(llvm::Value *begin, llvm::Value *end, int64_t step, const std::function<void(llvm::Value *)> &body) {
  auto *cb = llvm::dyn_cast<llvm::ConstantInt>(begin), *ce = llvm::dyn_cast<llvm::ConstantInt>(end);
  int64_t trip = cb && ce ? std::max<int64_t>(0, (ce->getSExtValue() - cb->getSExtValue() + step - 1) / step) : 0;
  plainLoop(begin, end, step, [&](llvm::Value *i) { countLoop([&] { body(i); }, trip, 1); });
}

void Lowering::plainLoop(llvm::Value *begin, llvm::Value *end, int64_t step, const std::function<void(llvm::Value *)> &body) {
  llvm::BasicBlock *pre = b.GetInsertBlock();
  llvm::BasicBlock *head = llvm::BasicBlock::Create(ctx, "loop", fn);
  llvm::BasicBlock *exit = llvm::BasicBlock::Create(ctx, "loop.end", fn);
  b.CreateCondBr(b.CreateICmpSLT(begin, end), head, exit);
  b.SetInsertPoint(head);
  llvm::PHINode *i = b.CreatePHI(b.getInt64Ty(), 2);
  i->addIncoming(begin, pre);
  body(i);
  llvm::Value *next = b.CreateAdd(i, i64(step));
  i->addIncoming(next, b.GetInsertBlock());
  // A chunk is already a vector wide: unrolling these loops measured no
  // faster and doubled LLVM's time on them (vector add: 47 -> 26 ms).
  llvm::BranchInst *back = b.CreateCondBr(b.CreateICmpSLT(next, end), head, exit);
  llvm::MDNode *noUnroll = llvm::MDNode::get(ctx, {llvm::MDString::get(ctx, "llvm.loop.unroll.disable")});
  llvm::MDNode *loopId = llvm::MDNode::getDistinct(ctx, {nullptr, noUnroll});
  loopId->replaceOperandWith(0, loopId);
  back->setMetadata(llvm::LLVMContext::MD_loop, loopId);
  b.SetInsertPoint(exit);
}

std::vector<llvm::Value *> Lowering::combine(const ir::Block &region, std::vector<llvm::Value *> args) {
  return combineRegion(
      region, std::move(args),
      [&](const ir::Value *v) -> llvm::Value * {
        Lowered &l = get(v);
        if (l.isTile()) throw LoweringError{"combine regions may use only scalars from outside"};
        return l.scalar;
      },
      [&](const ir::Operation &op, llvm::Value *ok) { emitAssertCheck(op, ok); });
}

} // namespace tessera::targets::cpu
