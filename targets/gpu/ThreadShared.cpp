// Shared-memory buffers of the distributed level: local_alloc becomes a
// shared_alloc, local_store/local_load move a tile's registers to and from
// the offsets its shared layout gives, async_copy is a load from global
// memory stored into the buffer (synchronously: a target with asynchronous
// copies lowers async_copy, async_commit_group and async_wait itself).
//
// Offsets: the shared layout S maps an offset to coordinates and the tile
// layout L maps (register, lane, warp) to coordinates, so S^-1 o L maps
// (register, lane, warp) to the offset. Like coordinates, an offset is a
// compile-time part per register xor a lane/warp part from the prologue.
#include "targets/gpu/ThreadLowering.h"

#include "ir/Layouts.h"

#include <algorithm>

namespace tessera::targets::gpu {

using ir::OpCode;

namespace {

int64_t elementBytes(ir::Type t) { return std::max(1, t.element().bitWidth() / 8); }

} // namespace

const ThreadLowering::Placement &ThreadLowering::placementOf(ir::Type buffer, ir::Type tile, const ir::Operation &where) {
  auto key = std::make_pair(buffer.str(), tile.str());
  auto it = placements_.find(key);
  if (it != placements_.end()) return *it->second;
  std::string err;
  std::optional<ir::LinearLayout> shared = ir::toSharedLayout(*buffer.layout(), buffer.shape(), &err);
  if (!shared) fail(where, "has a malformed shared layout: " + err);
  std::optional<ir::LinearLayout> inverse = shared->invert();
  if (!inverse) fail(where, "has a shared layout that is not one to one");
  const TileLayout &l = layoutOf(tile, where);
  ir::LinearLayout toOffset = inverse->compose(l.ll);  // (register, lane, warp) -> offset
  auto p = std::make_unique<Placement>();
  for (int r = 0; r < l.numRegs; ++r) p->regOffset.push_back(toOffset.apply({{"register", r}})[0]);
  p->laneWarpOffset = laneWarpPart(toOffset)[0];
  p->laneWarpBits = laneWarpBits(toOffset);
  // Vector accesses: register bits whose elements lie 1, 2, 4... apart (in
  // any order for local stores and loads; the low bits for the rest), every
  // other basis keeping groups aligned.
  int64_t maxWidth = std::max<int64_t>(1, 16 / elementBytes(buffer));
  const auto &rb = toOffset.bases("register");
  std::vector<int> bits;
  for (int32_t step = 1; step < maxWidth; step *= 2) {
    auto found = std::find_if(rb.begin(), rb.end(), [&](const std::vector<int32_t> &b) { return b[0] == step; });
    if (found == rb.end()) break;
    bits.push_back(int(found - rb.begin()));
  }
  auto aligned = [&](size_t n) {
    auto grouped = [&](const char *dim, size_t bit) {
      return std::string(dim) == "register" && std::find(bits.begin(), bits.begin() + long(n), int(bit)) != bits.begin() + long(n);
    };
    for (const char *dim : {"register", "lane", "warp"}) {
      const auto &bs = toOffset.bases(dim);
      for (size_t bit = 0; bit < bs.size(); ++bit)
        if (!grouped(dim, bit) && bs[bit][0] % (int32_t(1) << n)) return false;
    }
    return true;
  };
  while (!bits.empty() && !aligned(bits.size())) bits.pop_back();
  p->groupBits = bits;
  size_t low = 0;
  while (low < bits.size() && bits[low] == int(low)) ++low;
  p->width = 1 << low;
  return *placements_.emplace(key, std::move(p)).first->second;
}

std::vector<std::vector<int>> ThreadLowering::Placement::groups(int numRegs) const {
  int mask = 0;
  for (int b : groupBits) mask |= 1 << b;
  std::vector<std::vector<int>> out;
  for (int r = 0; r < numRegs; ++r) {
    if (r & mask) continue;
    std::vector<int> g;
    for (int j = 0; j < (1 << groupBits.size()); ++j) {
      int reg = r;
      for (size_t i = 0; i < groupBits.size(); ++i)
        if (j >> i & 1) reg |= 1 << groupBits[i];
      g.push_back(reg);
    }
    out.push_back(g);
  }
  return out;
}

int32_t ThreadLowering::laneWarpBits(const ir::LinearLayout &ll) {
  int32_t bits = 0;
  for (const char *dim : {"lane", "warp"})
    for (const auto &basis : ll.bases(dim)) bits |= basis[0];
  return bits;
}

// The offset is xor-ed with the lane/warp part only in the bits they share;
// the rest is added, a constant the access folds in. A loop's accesses then
// need one address register per distinct xor-ed part (a few swizzle
// phases), not one per access, which LICM would keep live throughout the
// loop.
ir::Value *ThreadLowering::swizzledAddress(ir::Value *base, ir::Value *laneWarp, int32_t laneWarpBits, int32_t offset) {
  int32_t shared = offset & laneWarpBits, rest = offset & ~laneWarpBits;
  ir::Value *ptr = sharedAddress(base, shared ? bitXor(laneWarp, i32(shared)) : laneWarp);
  return rest ? sharedAddress(ptr, i32(rest)) : ptr;
}

ir::Value *ThreadLowering::placedAddress(ir::Value *base, const Placement &p, int reg) {
  return swizzledAddress(base, p.laneWarpOffset, p.laneWarpBits, p.regOffset[size_t(reg)]);
}

void ThreadLowering::lowerLocalAlloc(const ir::Operation &op) {
  ir::Type t = op.result()->type();
  // Hardware that swizzles by address (wgmma, TMA) xors bits 4-6 of a byte
  // address with bits 7-9: at a multiple of 1024 bytes a swizzled buffer's
  // own xor (ir/Layouts.h) is the same one.
  const ir::Layout *l = t.layout();
  const std::vector<int64_t> *maxPhase = l && l->kind() == "shared" ? l->param("max_phase") : nullptr;
  bool swizzled = maxPhase && !maxPhase->empty() && (*maxPhase)[0] > 1;
  int64_t bytes = t.numElements() * elementBytes(t);
  set(op.result(), {allocShared(t.element(), t.numElements(), swizzled && bytes >= 1024 ? 1024 : 16)});
  if (op.numOperands()) storeToBuffer(op, scalar(op.result()), t, op.operand(0));
}

void ThreadLowering::lowerLocalStore(const ir::Operation &op) {
  storeToBuffer(op, scalar(op.operand(0)), op.operand(0)->type(), op.operand(1));
}

void ThreadLowering::storeToBuffer(const ir::Operation &op, ir::Value *base, ir::Type buffer, const ir::Value *tile) {
  const Placement &p = placementOf(buffer, tile->type(), op);
  const TileLayout &l = layoutOf(tile->type(), op);
  const Regs &vals = get(tile);
  for (const std::vector<int> &g : p.groups(l.numRegs)) {
    if (l.isCopy(g[0])) continue;  // another register stores these elements
    std::vector<ir::Value *> operands = {placedAddress(base, p, g[0])};
    for (int r : g) operands.push_back(vals[size_t(r)]);
    b.create(OpCode::VStore, operands, {});
  }
}

void ThreadLowering::lowerLocalLoad(const ir::Operation &op) {
  set(op.result(), loadFromBuffer(op, scalar(op.operand(0)), op.operand(0)->type(), op.result()->type()));
}

Regs ThreadLowering::loadFromBuffer(const ir::Operation &op, ir::Value *base, ir::Type buffer, ir::Type tile) {
  const Placement &p = placementOf(buffer, tile, op);
  const TileLayout &l = layoutOf(tile, op);
  Regs regs(size_t(l.numRegs));
  for (const std::vector<int> &g : p.groups(l.numRegs)) {
    ir::Value *ptr = placedAddress(base, p, g[0]);
    ir::Operation *ld = b.create(OpCode::VLoad, {ptr}, std::vector<ir::Type>(g.size(), buffer.element()));
    for (size_t i = 0; i < g.size(); ++i) regs[size_t(g[i])] = ld->result(unsigned(i));
  }
  return regs;
}

// The buffer's dimension 0 is stacked outermost (the verifier checks its
// layout), so entry i starts i x (elements of the rest) in.
void ThreadLowering::lowerLocalView(const ir::Operation &op) {
  ir::Type rest = op.result()->type();
  ir::Value *index = cast(scalar(op.operand(1)), ir::Type::i32());
  set(op.result(), {sharedAddress(scalar(op.operand(0)), mul(index, i32(rest.numElements())))});
}

// The same memory: only the type's layout, which readers follow, changes.
void ThreadLowering::lowerLocalTrans(const ir::Operation &op) { set(op.result(), {scalar(op.operand(0))}); }

int ThreadLowering::asyncCopyWidth(const ir::Operation &op) {
  ir::Type t = op.operand(0)->type(), ptrsT = op.operand(1)->type();
  const Placement &p = placementOf(t, ptrsT.withElement(t.element()), op);
  const ir::Value *maskV = op.numOperands() > 2 ? op.operand(2) : nullptr;
  return std::min(p.width, vectorWidth(op.operand(1), maskV, layoutOf(ptrsT, op), int(elementBytes(t))));
}

void ThreadLowering::forEachCopyGroup(const ir::Operation &op, int width,
                                      const std::function<void(int first, const std::function<ir::Value *()> &dst)> &each) {
  ir::Type t = op.operand(0)->type(), ptrsT = op.operand(1)->type();
  const Placement &p = placementOf(t, ptrsT.withElement(t.element()), op);
  const TileLayout &l = layoutOf(ptrsT, op);
  ir::Value *base = scalar(op.operand(0));
  for (int g = 0; g < l.numRegs; g += width)
    if (!l.isCopy(g))
      each(g, [&] { return placedAddress(base, p, g); });
}

void ThreadLowering::lowerAsyncCopy(const ir::Operation &op) {
  ir::Type elem = op.operand(0)->type().element();
  int w = asyncCopyWidth(op);
  const Regs &ptrs = get(op.operand(1));
  const Regs *mask = op.numOperands() > 2 ? &get(op.operand(2)) : nullptr;
  const Regs *other = op.numOperands() > 3 ? &get(op.operand(3)) : nullptr;
  forEachCopyGroup(op, w, [&](int g, const std::function<ir::Value *()> &dst) {
    std::vector<ir::Value *> loadOperands = {ptrs[size_t(g)]};
    if (mask) {
      // Masked-off elements take `other` (zero without one), as a load's.
      loadOperands.push_back((*mask)[size_t(g)]);
      for (int i = 0; i < w; ++i) loadOperands.push_back(other ? (*other)[size_t(g + i)] : zero(elem));
    }
    ir::Operation *ld = b.create(OpCode::VLoad, loadOperands, std::vector<ir::Type>(size_t(w), elem));
    std::vector<ir::Value *> storeOperands = {dst()};
    for (int i = 0; i < w; ++i) storeOperands.push_back(ld->result(unsigned(i)));
    b.create(OpCode::VStore, storeOperands, {});
  });
}

} // namespace tessera::targets::gpu
