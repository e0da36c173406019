// tensor-map-stores: a desc_store whose block a tensor map can write
// (TensorMaps.h) becomes a copy of the tile into a shared buffer in the
// map's swizzle (local_alloc) and a tma_store of that buffer, when the
// module has tensor_maps (NVIDIA sm_90a; not in checked mode, whose bounds
// reports need the store's pointers). The store then needs no per-element
// addresses: an epilogue (tutorial 06's O, a matmul's C) no longer keeps the
// row addresses of its tile live from the kernel's start, where CSE shares
// them with the loads, to its end. Elements outside the tensor are not
// written, as the store's mask says. A block whose coordinates do not fit
// in the copy's i32 lies wholly outside the tensor (its extents are below
// 2^31, jit._tensor_map_ready), so nothing is written then.
#include "ir/Builder.h"
#include "ir/analysis/WrittenArguments.h"
#include "targets/gpu/Passes.h"
#include "targets/gpu/TensorMaps.h"

#include <set>

namespace tessera::targets::gpu {

using ir::OpCode;

namespace {

// The arguments that `f` reads global memory through; -1 stands for a
// pointer not traced to one argument. A tma_store's wait covers only its
// reading of the buffer, not the writes reaching global memory, so a
// later read of the same tensor in the kernel could see old values: such
// a store stays a store.
std::set<int> readArguments(ir::Function &f) {
  std::set<int> read;
  f.walk([&](ir::Operation *op) {
    if (op->is(OpCode::Load) || op->is(OpCode::DescLoad) || op->is(OpCode::AtomicRmw) || op->is(OpCode::AtomicCas))
      read.insert(ir::pointerArgument(f, op->operand(0)));
    else if (op->is(OpCode::AsyncCopy))
      read.insert(ir::pointerArgument(f, op->operand(1)));
    else if (op->is(OpCode::TmaCopy)) {
      const ir::Value *map = op->operand(1);
      read.insert(map->isBlockArgument() && map->ownerBlock() == &f.entry() ? ir::tensorMapTensor(f, map->index()) : -1);
    }
  });
  return read;
}

} // namespace

void tensorMapStores(ir::Module &m) {
  if (!m.attrs().getInt("tensor_maps", 0) || m.attrs().getInt("checked", 0)) return;
  int64_t atomBytes = m.attrs().getInt("shared_atom_bytes", 0), limit = m.attrs().getInt("shared_memory_limit", 0);
  for (auto &f : m.functions()) {
    if (f->isThreadLevel() || !f->isKernel()) continue;
    std::vector<ir::Operation *> stores;
    f->walk([&](ir::Operation *op) {
      if (op->is(OpCode::DescStore)) stores.push_back(op);
    });
    std::set<int> read = stores.empty() ? std::set<int>{} : readArguments(*f);
    for (ir::Operation *st : stores) {
      int written = ir::pointerArgument(*f, st->operand(0));
      if (written < 0 || read.count(written) || read.count(-1)) continue;
      std::optional<TensorMapShape> shape = tensorMapShape(*st, atomBytes);
      ir::Type tile = st->operand(1)->type();
      // Half the shared memory at most, so that the stages of a loop before
      // it (whose memory it reuses) and other buffers still fit.
      if (!shape || (limit > 0 && tile.numElements() * (tile.element().bitWidth() / 8) > limit / 2)) continue;
      ir::Builder b;
      b.setInsertionPoint(st);
      b.setLoc(st->loc());
      ir::Value *buffer = b.createValue(OpCode::LocalAlloc, {st->operand(1)}, tensorMapBuffer(tile, atomBytes));
      ir::Value *map = tensorMapArgument(*st, *shape);
      f->argAttrs(map->index()).set("stores", ir::Attribute(true));
      std::vector<ir::Value *> operands = {buffer, map, nullptr};
      ir::Value *fits = nullptr;
      for (unsigned c = st->numOperands() - unsigned(tile.rank()); c < st->numOperands(); ++c) {
        ir::Value *coord = st->operand(c);
        ir::Type t = coord->type();
        ir::Value *inRange = b.sameType(OpCode::And, {b.cmp("ge", coord, b.constantInt(INT32_MIN, t)),
                                                      b.cmp("le", coord, b.constantInt(INT32_MAX, t))});
        fits = fits ? b.sameType(OpCode::And, {fits, inRange}) : inRange;
        operands.push_back(b.cast(coord, ir::Type::i32()));
      }
      operands[2] = fits;
      b.create(OpCode::TmaStore, operands, {});
      st->erase();
    }
  }
}

} // namespace tessera::targets::gpu
