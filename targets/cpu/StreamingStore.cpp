// Streaming (non-temporal) stores of large outputs.
//
// Whole cache lines of a large output bypass the caches: no read for
// ownership, and the output does not evict the inputs. A non-temporal store
// writes one aligned line, so chunks at 64-byte aligned addresses store
// directly. Arrays are often not line-aligned (numpy's and malloc's large
// blocks start 16 bytes into a page); when a 1-D tile starts inside a line at
// a whole element and every lane is stored, each line is rebuilt from the
// tail of one chunk and the head of the next (one two-source permute on
// AVX-512), and only the first and last partial lines store normally.
#include "targets/cpu/Lowering.h"

#include "llvm/IR/IntrinsicsX86.h"

namespace tessera::targets::cpu {

namespace {


void markNontemporal(llvm::StoreInst *st, llvm::LLVMContext &ctx) {
  st->setMetadata(llvm::LLVMContext::MD_nontemporal,
                  llvm::MDNode::get(ctx, {llvm::ConstantAsMetadata::get(llvm::ConstantInt::get(llvm::Type::getInt32Ty(ctx), 1))}));
}

} // namespace

// One chunk: non-temporal where it is a whole aligned line (`aligned`, i1,
// when known for the whole tile), a plain store otherwise.
llvm::Value *Lowering::streamingStore(llvm::Value *v, llvm::Value *base, llvm::Align align, llvm::Value *aligned) {
  unsigned bytes = unsigned(m.getDataLayout().getTypeStoreSize(v->getType()));
  if (bytes != kCacheLine || !streamingStores_) return b.CreateAlignedStore(v, base, align);
  if (!aligned) aligned = b.CreateICmpEQ(b.CreateAnd(b.CreatePtrToInt(base, b.getInt64Ty()), i64(kCacheLine - 1)), i64(0));
  branch(aligned, [&]() -> llvm::Value * {
    markNontemporal(b.CreateAlignedStore(v, base, llvm::Align(kCacheLine)), ctx);
    return nullptr;
  }, [&]() -> llvm::Value * {
    b.CreateAlignedStore(v, base, align);
    return nullptr;
  });
  return nullptr;
}

// Computed once before the store loop: the tile's alignment and, where lines
// can be rebuilt, the permute's indices and the first line's lanes.
Lowering::StreamPlan Lowering::planStreaming(const ir::Value *ptrs, const ir::Value *mask, llvm::Type *storage,
                                             unsigned w, int64_t n) {
  StreamPlan plan;
  plan.first = loadElement(ptrs, i64(0));
  plan.misalign = b.CreateAnd(b.CreatePtrToInt(plan.first, b.getInt64Ty()), i64(kCacheLine - 1));
  plan.aligned = b.CreateICmpEQ(plan.misalign, i64(0));
  unsigned bytes = unsigned(m.getDataLayout().getTypeStoreSize(storage->getScalarType()));
  bool permutable = facts.vectorBits >= 512 && (bytes == 4 || bytes == 8 || (bytes == 2 && facts.avx512bw));
  if (!permutable || !streamingStores_ || n < 2 * int64_t(w)) return plan;
  llvm::Value *everyLane = mask ? boundsAllTrue(mask, i64(0), unsigned(n)) : b.getTrue();
  if (!everyLane) return plan;  // a mask of another form: no cheap test for the whole tile
  llvm::Value *wholeElement = b.CreateICmpEQ(b.CreateURem(plan.misalign, i64(bytes)), i64(0));
  plan.realign = b.CreateAnd(everyLane, b.CreateAnd(b.CreateNot(plan.aligned), wholeElement));
  llvm::Type *lane = b.getIntNTy(bytes * 8);
  plan.lanes = llvm::FixedVectorType::get(lane, w);
  // Line c holds the last k lanes of chunk c-1, then the first w-k of chunk c:
  // lane j comes from index j + w - k of the pair (previous, current).
  plan.headLanes = b.CreateSub(i64(w), b.CreateUDiv(plan.misalign, i64(bytes)));  // w - k
  std::vector<llvm::Constant *> iota;
  for (unsigned j = 0; j < w; ++j) iota.push_back(llvm::ConstantInt::get(lane, j));
  plan.index = b.CreateAdd(llvm::ConstantVector::get(iota), b.CreateVectorSplat(w, b.CreateTrunc(plan.headLanes, lane)));
  plan.prev = entryAlloca(plan.lanes, 1);
  plan.lanesTemp = entryAlloca(plan.lanes, 1);
  plan.elements = n;
  plan.width = w;
  return plan;
}

// Lanes [from, to) of chunk `v`, stored one by one at `base` (the chunk's
// address), through a stack copy (plan.prev itself stays a register).
// AVX-512 masked stores cost far more than this next to streaming stores on
// some CPUs (measured on AMD Zen).
void Lowering::storeLanes(const StreamPlan &plan, llvm::Value *v, llvm::Value *base, llvm::Value *from, llvm::Value *to) {
  b.CreateAlignedStore(v, plan.lanesTemp, llvm::Align(kCacheLine));
  llvm::Type *lane = plan.lanes->getScalarType();
  llvm::Align align(lane->getScalarSizeInBits() / 8);
  plainLoop(from, to, 1, [&](llvm::Value *j) {
    b.CreateAlignedStore(b.CreateAlignedLoad(lane, b.CreateGEP(lane, plan.lanesTemp, j), align), b.CreateGEP(lane, base, j), align);
  });
}

void Lowering::realignedStore(const StreamPlan &plan, llvm::Value *v, llvm::Value *base, llvm::Value *i) {
  llvm::Value *cur = b.CreateBitCast(v, plan.lanes);
  branch(b.CreateICmpEQ(i, i64(0)), [&]() -> llvm::Value * {
    storeLanes(plan, cur, base, i64(0), plan.headLanes);  // the end of the first line
    return nullptr;
  }, [&]() -> llvm::Value * {
    unsigned bits = plan.lanes->getScalarSizeInBits();
    llvm::Intrinsic::ID permute = bits == 32   ? llvm::Intrinsic::x86_avx512_vpermi2var_d_512
                                  : bits == 64 ? llvm::Intrinsic::x86_avx512_vpermi2var_q_512
                                               : llvm::Intrinsic::x86_avx512_vpermi2var_hi_512;
    llvm::Value *prev = b.CreateAlignedLoad(plan.lanes, plan.prev, llvm::Align(kCacheLine));
    llvm::Value *line = b.CreateIntrinsic(permute, {}, {prev, plan.index, cur});
    // The line starts where chunk i starts, less the misalignment.
    llvm::Value *at = b.CreateGEP(b.getInt8Ty(), base, b.CreateNeg(plan.misalign));
    markNontemporal(b.CreateAlignedStore(line, at, llvm::Align(kCacheLine)), ctx);
    return nullptr;
  });
  b.CreateAlignedStore(cur, plan.prev, llvm::Align(kCacheLine));
}

// The start of the line after the last chunk: its remaining lanes.
void Lowering::finishRealigned(const StreamPlan &plan) {
  branch(plan.realign, [&]() -> llvm::Value * {
    unsigned bytes = plan.lanes->getScalarSizeInBits() / 8;
    llvm::Value *at = b.CreateGEP(b.getInt8Ty(), plan.first, i64((plan.elements - plan.width) * bytes));
    storeLanes(plan, b.CreateAlignedLoad(plan.lanes, plan.prev, llvm::Align(kCacheLine)), at, plan.headLanes, i64(plan.width));
    return nullptr;
  }, [] { return nullptr; });
}

} // namespace tessera::targets::cpu
