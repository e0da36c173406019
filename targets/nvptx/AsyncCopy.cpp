// Asynchronous copies on NVIDIA (sm_80 on): async_copy becomes cp.async of
// 4, 8 or 16 bytes per register group (masked-off groups read nothing and
// zero-fill), async_commit_group and async_wait their group operations. A
// wait is followed by a barrier: a thread's wait covers only its own copies,
// and the tile it waits for was copied by every thread. A copy whose
// masked-off elements take a value other than zero, or whose groups are
// narrower than 4 bytes, falls to the shared (synchronous) lowering.
// Stores to a buffer wgmma reads are followed by a proxy fence.
#include "targets/nvptx/Lowerings.h"

#include "ir/Fold.h"
#include "targets/gpu/ThreadLowering.h"
#include "targets/nvptx/Wgmma.h"

namespace tessera::targets::nvptx {
namespace {

using ir::OpCode;
using gpu::ThreadLowering;

bool lowerAsyncCopy(const ir::Operation &op, ThreadLowering &L) {
  if (op.numOperands() > 3 && !ir::isPositiveZero(op.operand(3))) return false;
  int width = L.asyncCopyWidth(op);
  int bytes = width * std::max(1, op.operand(0)->type().element().bitWidth() / 8);
  if (bytes != 4 && bytes != 8 && bytes != 16) return false;
  const gpu::Regs &ptrs = L.get(op.operand(1));
  const gpu::Regs *mask = op.numOperands() > 2 ? &L.get(op.operand(2)) : nullptr;
  ir::AttrDict attrs;
  attrs.set("bytes", ir::Attribute(int64_t(bytes)));
  L.forEachCopyGroup(op, width, [&](int g, const std::function<ir::Value *()> &dst) {
    std::vector<ir::Value *> operands = {dst(), ptrs[size_t(g)]};
    if (mask) operands.push_back((*mask)[size_t(g)]);
    L.b.create(OpCode::CpAsync, operands, {}, attrs);
  });
  return true;
}

bool lowerCommit(const ir::Operation &, ThreadLowering &L) {
  L.b.create(OpCode::CpAsyncCommit, {}, {});
  return true;
}

bool lowerWait(const ir::Operation &op, ThreadLowering &L) {
  ir::AttrDict attrs;
  attrs.set("pending", ir::Attribute(op.attr("pending")->getInt()));
  L.b.create(OpCode::CpAsyncWait, {}, {}, attrs);
  bool wgmma = usesWgmma(L.kernel, L.moduleAttrs);
  // Accumulators a wgmma may still be computing (Wgmma.h): final after a
  // wait for every group, before the barrier, so that nobody overwrites
  // the stages they read while another warpgroup's multiply goes on.
  for (unsigned i = 0; i < op.numOperands(); ++i) {
    gpu::Regs regs = L.get(op.operand(i));
    if (wgmma && !regs.empty()) {
      ir::AttrDict all;
      all.set("pending", ir::Attribute(int64_t(0)));
      std::vector<ir::Type> types;
      for (ir::Value *v : regs) types.push_back(v->type());
      ir::Operation *done = L.b.create(OpCode::WgmmaWait, regs, types, all);
      for (unsigned r = 0; r < done->numResults(); ++r) regs[r] = done->result(r);
    }
    L.set(op.result(i), regs);
  }
  // wgmma reads shared memory through the async proxy: once the barrier
  // has made every thread's copies visible to this one, a proxy fence
  // orders them before its wgmma. (Before the barrier, ptxas makes the fence
  // a MEMBAR.ALL.CTA, which also waits for the copies still in flight: the
  // matmul lost 10% to it.)
  L.barrier();
  if (wgmma) L.b.create(OpCode::FenceAsyncShared, {}, {});
  return true;
}

// The buffer a view of shared memory is of (its local_alloc), or null.
const ir::Operation *rootBuffer(const ir::Value *v) {
  const ir::Operation *def = v->definingOp();
  while (def && (def->is(OpCode::LocalView) || def->is(OpCode::LocalTrans))) def = def->operand(0)->definingOp();
  return def && def->is(OpCode::LocalAlloc) ? def : nullptr;
}

// Whether some wgmma reads `buffer` in place (through its views).
bool readByWgmma(const ir::Value *buffer, const ir::AttrDict &module) {
  for (const ir::Operation *u : usersThroughViews(buffer))
    if (u->is(OpCode::LocalLoad) && readInPlace(*u, module)) return true;
  return false;
}

// A store to a buffer that wgmma reads (a stage pipeline-loops copies
// k-major through registers): wgmma reads through the async proxy, so the
// storing threads fence their generic-proxy writes before the barrier that
// orders them before the multiply.
bool lowerLocalStore(const ir::Operation &op, ThreadLowering &L) {
  const ir::Operation *alloc = rootBuffer(op.operand(0));
  if (!alloc || !readByWgmma(alloc->result(), L.moduleAttrs)) return false;
  L.lowerLocalStore(op);
  L.b.create(OpCode::FenceAsyncShared, {}, {});
  return true;
}

} // namespace

void registerAsyncCopyLowerings() {
  gpu::registerOpLowering("nvptx", OpCode::LocalStore, lowerLocalStore);
  gpu::registerOpLowering("nvptx", OpCode::AsyncCopy, lowerAsyncCopy);
  gpu::registerOpLowering("nvptx", OpCode::AsyncCommitGroup, lowerCommit);
  gpu::registerOpLowering("nvptx", OpCode::AsyncWait, lowerWait);
}

} // namespace tessera::targets::nvptx
