// Prefetching the rows the next program (or the next loop iteration) loads.
//
// A thread runs the programs of a launch in consecutive runs, and a loop over
// rows visits them at a fixed stride, so a large contiguous load usually reads,
// next time, this time's address plus the last step. Each such load predicts
// it the way hardware prefetchers do (the same step seen twice in a row), and
// the chunk loops that follow it in its block prefetch the predicted lines,
// spread evenly over their iterations: the memory then streams the next row
// while this one is computed, instead of idling through the compute passes
// and stalling at the start of the next row. The hardware's own prefetchers
// stop at such gaps; a wrong prediction costs bandwidth, never a fault
// (prefetches do not trap).
#include "targets/cpu/Lowering.h"

#include "llvm/IR/Intrinsics.h"

namespace tessera::targets::cpu {

namespace {

// Small tiles are not worth the bookkeeping: the hardware keeps up with them.
constexpr int64_t kMinPrefetchBytes = 2048;

// Whether `v` can differ between programs or loop iterations: it depends on a
// program id, a loop's block argument or loaded data. Addresses that cannot
// have no next row to predict.
bool varies(const ir::Value *v, std::unordered_set<const ir::Value *> &seen) {
  if (!seen.insert(v).second) return false;
  const ir::Operation *d = v->definingOp();
  if (!d) return v->ownerBlock()->parentOp() != nullptr;  // kernel arguments are fixed
  if (d->is(ir::OpCode::ProgramId) || d->is(ir::OpCode::Load) || d->numRegions() > 0) return true;
  for (const ir::Value *o : d->operands())
    if (varies(o, seen)) return true;
  return false;
}

} // namespace

void Lowering::predictNextLoad(const ir::Operation &load) {
  const ir::Value *ptrs = load.operand(0);
  ir::Type rt = load.result()->type();
  if (!prefetchState || blocks_.empty() || !rt.isTile() || rt.rank() != 1 || !contiguousLastDim(ptrs) ||
      load.attrs().getBool("volatile", false))
    return;
  Lowered &p = get(ptrs);
  std::unordered_set<const ir::Value *> seen;
  if (p.pending || !p.isTile() || !varies(ptrs, seen)) return;
  int64_t bytes = rt.numElements() * int64_t(m.getDataLayout().getTypeStoreSize(storageType(rt.element())));
  if (bytes < kMinPrefetchBytes) return;
  llvm::Type *i64t = b.getInt64Ty();
  unsigned slot = prefetchSlots++;
  llvm::Value *lastBase = b.CreateGEP(i64t, prefetchState, i64(2 * slot));
  llvm::Value *lastStep = b.CreateGEP(i64t, prefetchState, i64(2 * slot + 1));
  llvm::Value *first = loadElement(ptrs, i64(0));
  llvm::Value *base = b.CreatePtrToInt(first, i64t);
  llvm::Value *step = b.CreateSub(base, b.CreateLoad(i64t, lastBase));
  llvm::Value *confirmed = b.CreateAnd(b.CreateICmpEQ(step, b.CreateLoad(i64t, lastStep)), b.CreateICmpNE(step, i64(0)));
  b.CreateStore(base, lastBase);
  b.CreateStore(step, lastStep);
  PrefetchStream s;
  s.block = blocks_.back();
  s.next = b.CreateGEP(b.getInt8Ty(), first, step);
  s.limit = b.CreateSelect(confirmed, i64(16 * bytes), i64(0));
  s.cursor = entryAlloca(i64t, 1);
  b.CreateStore(i64(0), s.cursor);
  s.step = llvm::BinaryOperator::CreateAdd(i64(0), i64(0), "prefetch.step");
  s.step->insertInto(b.GetInsertBlock(), b.GetInsertPoint());
  s.bytes = bytes;
  streams_.push_back(s);
}

// One prefetch per chunk step: the stream's next line, if any is left.
void Lowering::prefetchTick(unsigned chunks, int64_t runs) {
  if (blocks_.empty()) return;
  llvm::Type *i64t = b.getInt64Ty();
  for (PrefetchStream &s : streams_) {
    if (s.block != blocks_.back()) continue;
    s.chunks += int64_t(chunks) * runs;
    s.loops += runs > 0;
    for (unsigned c = 0; c < chunks; ++c) {
      llvm::Value *done = b.CreateLoad(i64t, s.cursor);
      llvm::Value *offset = b.CreateSelect(b.CreateICmpULT(done, s.limit), b.CreateLShr(done, 4), i64(0));
      s.prefetches.push_back(b.CreateIntrinsic(llvm::Intrinsic::prefetch, {b.getPtrTy()},
                                               {b.CreateGEP(b.getInt8Ty(), s.next, offset), b.getInt32(0), b.getInt32(3), b.getInt32(1)}));
      b.CreateStore(b.CreateAdd(done, s.step), s.cursor);
    }
  }
}

// The block is lowered: its streams' steps spread their bytes over the chunk
// steps that followed the load (at most a line per step). A load read by a
// single pass streams, and the hardware's prefetchers follow streams: its
// prefetches are dropped.
void Lowering::finishPrefetches(const ir::Block &block) {
  std::vector<PrefetchStream> open;
  for (PrefetchStream &s : streams_) {
    if (s.block != &block) {
      open.push_back(s);
      continue;
    }
    if (s.loops < 2)
      for (llvm::Instruction *p : s.prefetches) p->eraseFromParent();
    int64_t step = s.chunks > 0 ? std::min<int64_t>(16 * kCacheLine, (16 * s.bytes + s.chunks - 1) / s.chunks) : 16 * kCacheLine;
    s.step->replaceAllUsesWith(i64(step));
    s.step->eraseFromParent();
  }
  streams_ = std::move(open);
}

// Emits a loop body through `emit`, counting how often it runs for the
// prefetch steps; an innermost loop advances the prefetches once per chunk.
void Lowering::countLoop(const std::function<void()> &emit, int64_t trip, unsigned chunksPerTrip) {
  int before = loopsEmitted_++;
  int64_t saved = enclosingTrips_;
  enclosingTrips_ = saved * std::max<int64_t>(trip, 0);
  emit();
  if (loopsEmitted_ == before + 1) prefetchTick(chunksPerTrip, enclosingTrips_);
  enclosingTrips_ = saved;
}

// Emits a path that seldom runs (a fallback): its loops do not count when
// prefetches are spread over a block's chunk steps.
llvm::Value *Lowering::rarely(const std::function<llvm::Value *()> &emit) {
  int64_t saved = enclosingTrips_;
  enclosingTrips_ = 0;
  llvm::Value *v = emit();
  enclosingTrips_ = saved;
  return v;
}

} // namespace tessera::targets::cpu
