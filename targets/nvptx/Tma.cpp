// Tensor memory access on NVIDIA (sm_90 on): tma_copy becomes
// cp.async.bulk.tensor copies issued by thread 0, which first arrives on the
// stage's mbarrier expecting the block's bytes; mbarrier_wait spins on
// mbarrier.try_wait.parity in every thread, then meets the others at a
// barrier (readers of a stage finish before anyone copies into it again).
// (Inside a warp_specialize region the producer's first thread issues
// the copies; mbarrier_arrive is lane 0's of each warp.)
// tma_store becomes bulk tensor stores issued by thread 0 once every
// thread's writes to the buffer are visible to the copy engine.
// A block whose rows are longer than the swizzle's span (128 bytes) is
// moved one atom (ir/Layouts.h) at a time: atom a is the box at column
// c1 + a * box1, placed a * (rows x box1) elements into the buffer.
#include "targets/nvptx/Lowerings.h"
#include "targets/nvptx/Wgmma.h"

#include "targets/gpu/ThreadLowering.h"

#include <string>

namespace tessera::targets::nvptx {
namespace {

using ir::OpCode;
using gpu::ThreadLowering;

// Inline PTX for its effects: `operands` in 32-bit registers but for those
// named in `wide` (64-bit), ordered before and after every memory access.
void effect(ThreadLowering &L, const std::string &ptx, const std::vector<ir::Value *> &operands, const std::vector<bool> &wide) {
  std::string constraints;
  for (size_t i = 0; i < operands.size(); ++i) constraints += std::string(i ? "," : "") + (wide[i] ? "l" : "r");
  constraints += std::string(operands.empty() ? "" : ",") + "~{memory}";
  ir::AttrDict attrs;
  attrs.set("asm", ir::Attribute(ptx));
  attrs.set("constraints", ir::Attribute(constraints));
  attrs.set("pure", ir::Attribute(false));
  attrs.set("pack", ir::Attribute(int64_t(1)));
  L.b.create(OpCode::InlineAsm, operands, {}, attrs);
}

ir::Value *isThreadZero(ThreadLowering &L) {
  return L.cmp("eq", L.emit(OpCode::ThreadId, {}, ir::Type::i32()), L.i32(0));
}

// The thread that issues `op`'s copies: thread 0, or a warp-specialized
// producer's first (the first thread after the num_warps warps).
ir::Value *isIssuer(const ir::Operation &op, ThreadLowering &L) {
  const ir::Operation *p = op.parentOp();
  while (p && !p->is(OpCode::WarpSpecialize)) p = p->parentOp();
  if (!p) return isThreadZero(L);
  int64_t first = L.moduleAttrs.getInt("num_warps", 4) * L.moduleAttrs.getInt("warp_size", 32);
  return L.cmp("eq", L.emit(OpCode::ThreadId, {}, ir::Type::i32()), L.i32(int32_t(first)));
}

const ir::Attribute &tensorMapOf(const ir::Operation &op, ThreadLowering &L) {
  const ir::Value *map = op.operand(1);
  const ir::Attribute *a = map->isBlockArgument() ? L.kernel.argAttrs(map->index()).find("tensor_map") : nullptr;
  if (!a) L.fail(op, "copies with a tensor map that is not a tensor_map argument of the kernel");
  return *a;
}

// The buffer of a tma_copy or tma_store (operand 0) and the box of its map
// (operand 1): rows, columns, and columns per box (one 128-byte atom of a
// longer row, tensorMapShape).
struct Box {
  int64_t rows, cols, boxCols;
};
Box boxOf(const ir::Operation &op, ThreadLowering &L) {
  ir::Type buffer = op.operand(0)->type();
  const std::vector<int64_t> &attr = tensorMapOf(op, L).getInts();
  if (buffer.rank() != 2 || attr.size() != 4) L.fail(op, "copies a block of rank other than 2 (not supported yet)");
  Box box{buffer.shape()[0], buffer.shape()[1], attr[2]};
  if (attr[1] != box.rows || box.cols % box.boxCols) L.fail(op, "has a tensor map box that does not tile its buffer");
  return box;
}

// For each atom of the box, its shared address (in the buffer, operand 0)
// and its column (`col` plus the atoms before it), appended to `operands`
// as 32-bit values; returns where each atom's pair starts.
std::vector<size_t> appendAtoms(const ir::Operation &op, ThreadLowering &L, const Box &box, ir::Value *col,
                                std::vector<ir::Value *> &operands, std::vector<bool> &wide) {
  std::vector<size_t> starts;
  for (int64_t a = 0; a < box.cols / box.boxCols; ++a) {
    starts.push_back(operands.size());
    operands.push_back(L.sharedAddress(L.scalar(op.operand(0)), L.i32(a * box.rows * box.boxCols)));
    operands.push_back(a ? L.add(col, L.i32(a * box.boxCols)) : col);
    wide.insert(wide.end(), {false, false});
  }
  return starts;
}

// Whether every read of the stages of `buffer` (through its views) is a
// wgmma reading in place, which is the async proxy as the copies are: then
// copying into a stage again needs no proxy fence (in thread 0 it was a
// MEMBAR.ALL.CTA each time, in attention's loop twice per iteration).
bool onlyAsyncReaders(const ir::Value *buffer, const ir::AttrDict &module) {
  for (const ir::Operation *u : usersThroughViews(buffer))
    if (!u->is(OpCode::TmaCopy) && !(u->is(OpCode::LocalLoad) && readInPlace(*u, module))) return false;
  return true;
}

bool lowerTmaCopy(const ir::Operation &op, ThreadLowering &L) {
  ir::Type buffer = op.operand(0)->type();
  Box box = boxOf(op, L);
  int64_t bytes = buffer.numElements() * (buffer.element().bitWidth() / 8);
  ir::Value *bar = L.sharedAddress(L.scalar(op.operand(2)), L.cast(L.scalar(op.operand(3)), ir::Type::i32()));
  ir::Value *issue = L.bitAnd(L.scalar(op.operand(4)), isIssuer(op, L));
  ir::Value *row = L.scalar(op.operand(5)), *col = L.scalar(op.operand(6));
  std::vector<ir::Value *> operands = {issue, bar, L.scalar(op.operand(1)), row};
  std::vector<bool> wide = {false, false, true, false};
  const ir::Operation *view = op.operand(0)->definingOp();
  bool genericReaders = !view || !view->is(OpCode::LocalView) || !onlyAsyncReaders(view->operand(0), L.moduleAttrs);
  std::string ptx = "{\n.reg .pred p;\nsetp.ne.b32 p, $0, 0;\n";
  // The buffer's old contents were read through the generic proxy.
  if (genericReaders) ptx += "@p fence.proxy.async.shared::cta;\n";
  ptx += "@p mbarrier.arrive.expect_tx.shared::cta.b64 _, [$1], " + std::to_string(bytes) + ";\n";
  for (size_t dst : appendAtoms(op, L, box, col, operands, wide))
    ptx += "@p cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [$" + std::to_string(dst) +
           "], [$2, {$" + std::to_string(dst + 1) + ", $3}], [$1];\n";
  effect(L, ptx + "}", operands, wide);
  return true;
}

// Every thread's shared stores into the buffer reach the copy engine (the
// async proxy) before thread 0 issues the copies (one per atom, as
// tma_copy's), and nobody reuses the buffer until they have read it.
bool lowerTmaStore(const ir::Operation &op, ThreadLowering &L) {
  Box box = boxOf(op, L);
  effect(L, "fence.proxy.async.shared::cta;", {}, {});
  L.barrier();
  ir::Value *issue = L.bitAnd(L.scalar(op.operand(2)), isThreadZero(L));
  ir::Value *row = L.scalar(op.operand(3)), *col = L.scalar(op.operand(4));
  std::vector<ir::Value *> operands = {issue, L.scalar(op.operand(1)), row};
  std::vector<bool> wide = {false, true, false};
  std::string ptx = "{\n.reg .pred p;\nsetp.ne.b32 p, $0, 0;\n";
  for (size_t src : appendAtoms(op, L, box, col, operands, wide))
    ptx += "@p cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [$1, {$" + std::to_string(src + 1) + ", $2}], [$" +
           std::to_string(src) + "];\n";
  effect(L, ptx + "@p cp.async.bulk.commit_group;\n@p cp.async.bulk.wait_group.read 0;\n}", operands, wide);
  L.barrier();
  return true;
}

int64_t entries(const ir::Operation &op) { return op.operand(0)->type().shape()[0]; }

bool lowerMbarrierInit(const ir::Operation &op, ThreadLowering &L) {
  std::string ptx = "{\n.reg .pred p;\nsetp.ne.b32 p, $0, 0;\n";
  for (int64_t k = 0; k < entries(op); ++k)
    ptx += "@p mbarrier.init.shared::cta.b64 [$1+" + std::to_string(8 * k) + "], " +
           std::to_string(op.attr("count")->getInt()) + ";\n";
  // Visible to the copy engine (the async proxy), then to every thread;
  // and every thread's earlier shared-memory stores (a dot operand kept in
  // shared memory, pipeline-loops) visible to the asynchronous units.
  ptx += "@p fence.mbarrier_init.release.cluster;\nfence.proxy.async.shared::cta;\n}";
  effect(L, ptx, {isThreadZero(L), L.scalar(op.operand(0))}, {false, false});
  L.barrier();
  return true;
}

bool lowerMbarrierWait(const ir::Operation &op, ThreadLowering &L) {
  ir::Value *bar = L.sharedAddress(L.scalar(op.operand(0)), L.cast(L.scalar(op.operand(1)), ir::Type::i32()));
  effect(L,
         "{\n.reg .pred done;\ntessera_wait:\nmbarrier.try_wait.parity.shared::cta.b64 done, [$0], $1;\n@!done bra tessera_wait;\n}",
         {bar, L.cast(L.scalar(op.operand(2)), ir::Type::i32())}, {false, false});
  if (op.attrs().getBool("barrier", true)) L.barrier();
  return true;
}

// Lane 0 of each warp arrives once its lanes' earlier accesses are ordered
// before it (bar.warp.sync).
bool lowerMbarrierArrive(const ir::Operation &op, ThreadLowering &L) {
  ir::Value *bar = L.sharedAddress(L.scalar(op.operand(0)), L.cast(L.scalar(op.operand(1)), ir::Type::i32()));
  ir::Value *lane0 = L.cmp("eq", L.emit(OpCode::LaneId, {}, ir::Type::i32()), L.i32(0));
  effect(L, "{\n.reg .pred p;\nsetp.ne.b32 p, $0, 0;\nbar.warp.sync -1;\n@p mbarrier.arrive.shared::cta.b64 _, [$1];\n}",
         {L.bitAnd(L.scalar(op.operand(2)), lane0), bar}, {false, false});
  return true;
}

bool lowerMbarrierInval(const ir::Operation &op, ThreadLowering &L) {
  L.barrier();
  std::string ptx = "{\n.reg .pred p;\nsetp.ne.b32 p, $0, 0;\n";
  for (int64_t k = 0; k < entries(op); ++k) ptx += "@p mbarrier.inval.shared::cta.b64 [$1+" + std::to_string(8 * k) + "];\n";
  effect(L, ptx + "}", {isThreadZero(L), L.scalar(op.operand(0))}, {false, false});
  L.barrier();
  return true;
}

} // namespace

void registerTmaLowerings() {
  gpu::registerOpLowering("nvptx", OpCode::TmaCopy, lowerTmaCopy);
  gpu::registerOpLowering("nvptx", OpCode::TmaStore, lowerTmaStore);
  gpu::registerOpLowering("nvptx", OpCode::MbarrierInit, lowerMbarrierInit);
  gpu::registerOpLowering("nvptx", OpCode::MbarrierWait, lowerMbarrierWait);
  gpu::registerOpLowering("nvptx", OpCode::MbarrierInval, lowerMbarrierInval);
  gpu::registerOpLowering("nvptx", OpCode::MbarrierArrive, lowerMbarrierArrive);
}

} // namespace tessera::targets::nvptx
