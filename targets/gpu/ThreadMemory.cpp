// Global loads, stores and atomics; shared memory; layout conversions.
#include "targets/gpu/ThreadLowering.h"

#include "ir/Layouts.h"

#include <algorithm>

namespace tessera::targets::gpu {

using ir::OpCode;

int64_t storageBytes(ir::Type elem) {
  elem = elem.element();
  return elem.isPointer() ? 8 : std::max(1, elem.bitWidth() / 8);
}

namespace {

// The dimension register 1 of `l` steps along by one, or -1.
int64_t contiguousDim(const TileLayout &l) {
  const auto &rb = l.bases("register");
  if (rb.empty()) return -1;
  int64_t dim = -1;
  for (size_t d = 0; d < rb[0].size(); ++d) {
    if (rb[0][d] == 0) continue;
    if (rb[0][d] != 1 || dim >= 0) return -1;
    dim = int64_t(d);
  }
  return dim;
}

int64_t floorPow2(int64_t v) {
  int64_t p = 1;
  while (p * 2 <= v) p *= 2;
  return p;
}

} // namespace

// ---- shared memory

ir::Value *ThreadLowering::allocShared(ir::Type elem, int64_t elements, int64_t align) {
  ir::Type e = elem.element();
  ir::AttrDict a;
  a.set("bytes", ir::Attribute(std::max<int64_t>(1, elements) * storageBytes(e)));
  if (align > 16) a.set("align", ir::Attribute(align));
  return b.createValue(OpCode::SharedAlloc, {}, ir::Type::pointer(e, ir::AddressSpace::Shared), a);
}

ir::Value *ThreadLowering::sharedAddress(ir::Value *buffer, ir::Value *index) {
  const ir::Operation *d = index->definingOp();
  if (d && d->is(OpCode::Constant) && d->attr("value")->getInt() == 0) return buffer;
  return b.createValue(OpCode::AddPtr, {buffer, index}, buffer->type());
}

namespace {

ir::AttrDict exclusiveAttr(bool exclusive) {
  ir::AttrDict a;
  if (exclusive) a.set("exclusive", ir::Attribute(true));
  return a;
}

} // namespace

ir::Value *ThreadLowering::loadShared(ir::Value *buffer, ir::Value *index, bool exclusive) {
  return b.create(OpCode::VLoad, {sharedAddress(buffer, index)}, {buffer->type().pointee()}, exclusiveAttr(exclusive))
      ->result();
}

void ThreadLowering::storeShared(ir::Value *buffer, ir::Value *index, ir::Value *v, bool exclusive) {
  b.create(OpCode::VStore, {sharedAddress(buffer, index), v}, {}, exclusiveAttr(exclusive));
}

void ThreadLowering::storeTileShared(const Regs &regs, const TileLayout &l, ir::Value *buffer) {
  for (int r = 0; r < l.numRegs; ++r)
    if (!l.isCopy(r)) storeShared(buffer, flatIndex(l, r), regs[size_t(r)]);
}

Regs ThreadLowering::readTileShared(const TileLayout &l, ir::Value *buffer) {
  Regs regs;
  for (int r = 0; r < l.numRegs; ++r) regs.push_back(loadShared(buffer, flatIndex(l, r)));
  return regs;
}

Regs ThreadLowering::convertInPieces(const TileLayout &li, const TileLayout &lo, const Regs &src, ir::Type elem,
                                     int64_t elements, int64_t budget) {
  int64_t bytes = storageBytes(elem), pieces = 1;
  while (elements / pieces * bytes > budget && elements % (pieces * 2) == 0) pieces *= 2;
  int64_t size = elements / pieces;
  // One more slot: where the stores of elements of other pieces go.
  ir::Value *buffer = allocShared(elem, size + 1);
  std::vector<ir::Value *> srcIndex, dstIndex;
  for (int r = 0; r < li.numRegs; ++r) srcIndex.push_back(li.isCopy(r) ? nullptr : flatIndex(li, r));
  for (int r = 0; r < lo.numRegs; ++r) dstIndex.push_back(flatIndex(lo, r));
  Regs out(size_t(lo.numRegs), nullptr);
  for (int64_t p = 0; p < pieces; ++p) {
    ir::Value *first = i32(p * size);
    // An element's index in this piece, and whether it is in it.
    auto local = [&](ir::Value *flat, ir::Value *&inside) {
      ir::Value *offset = sub(flat, first);
      inside = bitAnd(cmp("ge", flat, first), cmp("lt", offset, i32(size)));
      return offset;
    };
    for (int r = 0; r < li.numRegs; ++r) {
      if (!srcIndex[size_t(r)]) continue;
      ir::Value *inside = nullptr, *offset = local(srcIndex[size_t(r)], inside);
      storeShared(buffer, select(inside, offset, i32(size)), src[size_t(r)]);
    }
    for (int r = 0; r < lo.numRegs; ++r) {
      ir::Value *inside = nullptr, *offset = local(dstIndex[size_t(r)], inside);
      ir::Value *v = loadShared(buffer, select(inside, offset, i32(0)));
      out[size_t(r)] = p == 0 ? v : select(inside, v, out[size_t(r)]);
    }
  }
  return out;
}

void ThreadLowering::lowerConvertLayout(const ir::Operation &op) {
  ir::Type in = op.operand(0)->type(), outT = op.result()->type();
  const TileLayout &li = layoutOf(in, op), &lo = layoutOf(outT, op);
  const Regs &src = get(op.operand(0));
  // Same lanes and warps: the conversion only renumbers registers.
  if (li.bases("lane") == lo.bases("lane") && li.bases("warp") == lo.bases("warp")) {
    Regs regs;
    for (int r = 0; r < lo.numRegs; ++r) {
      auto it = std::find(li.regCoord.begin(), li.regCoord.end(), lo.regCoord[size_t(r)]);
      if (it == li.regCoord.end()) break;
      regs.push_back(src[size_t(it - li.regCoord.begin())]);
    }
    if (regs.size() == size_t(lo.numRegs)) return set(op.result(), regs);
  }
  ir::Type elem = in.element();
  // A tile larger than the target's shared memory goes through it in
  // pieces of at most half of it: slower, but converted (a 128 x 256 f32
  // accumulator is twice AMD GPUs' 64 KiB).
  int64_t limit = moduleAttrs.getInt("shared_memory_limit", 0);
  if (limit > 0 && in.numElements() * storageBytes(elem) > limit)
    return set(op.result(), convertInPieces(li, lo, src, elem, in.numElements(), limit / 2));
  if (elem.isPointer() || elem.bitWidth() < 8) {
    ir::Value *buffer = allocShared(elem, in.numElements());
    storeTileShared(src, li, buffer);
    return set(op.result(), readTileShared(lo, buffer));
  }
  // Through a buffer whose 16-byte groups run along the dimension the
  // result's (else the operand's) registers step through, swizzled so that
  // rows land in different banks: both sides access it with vectors.
  int64_t fast = contiguousDim(lo);
  if (fast < 0) fast = contiguousDim(li);
  if (fast < 0) fast = in.rank() - 1;
  std::vector<int64_t> order = {fast};
  for (int64_t d = in.rank() - 1; d >= 0; --d)
    if (d != fast) order.push_back(d);
  ir::Type buffer = ir::Type::buffer(in.shape(), elem, ir::swizzledSharedLayout(in.shape(), order, int(storageBytes(elem))));
  ir::Value *base = allocShared(elem, in.numElements());
  storeToBuffer(op, base, buffer, op.operand(0));
  set(op.result(), loadFromBuffer(op, base, buffer, outT));
}

// ---- global memory

// How many consecutive registers one access covers: the low register bits
// must step 1, 2, 4... along one dimension, the pointers must be that
// contiguous and aligned (axis analysis), and the mask constant across them.
int ThreadLowering::vectorWidth(const ir::Value *ptrs, const ir::Value *mask, const TileLayout &l, int elemBytes) {
  const auto &rb = l.bases("register");
  int dim = -1;
  size_t bits = 0;
  for (; bits < rb.size(); ++bits) {
    int nz = -1;
    for (size_t d = 0; d < rb[bits].size(); ++d)
      if (rb[bits][d]) nz = nz == -1 ? int(d) : -2;
    if (nz < 0 || (dim != -1 && nz != dim) || rb[bits][size_t(nz)] != (1 << bits)) break;
    dim = nz;
  }
  if (dim < 0) return 1;
  const ir::AxisInfo &p = axis().get(ptrs);
  int64_t w = std::min<int64_t>(int64_t(1) << bits, 16 / elemBytes);
  w = std::min(w, p.contiguity[size_t(dim)]);
  if (mask && mask->type().isTile()) w = std::min(w, axis().get(mask).constancy[size_t(dim)]);
  w = floorPow2(std::max<int64_t>(w, 1));
  while (w > 1 && p.divisibilityEvery(size_t(dim), w, elemBytes) < w * elemBytes) w /= 2;
  return int(w);
}

namespace {

// A load's or store's cache_modifier and eviction_policy, for the target's
// memory instructions (nvptx's qualifiers; the others ignore them).
ir::AttrDict cacheHints(const ir::Operation &op) {
  ir::AttrDict hints;
  for (const char *name : {"cache", "evict"})
    if (const ir::Attribute *a = op.attr(name)) hints.set(name, *a);
  return hints;
}

} // namespace

void ThreadLowering::lowerLoad(const ir::Operation &op) {
  ir::Type rt = op.result()->type();
  ir::Type elem = rt.element();
  ir::AttrDict attrs = cacheHints(op);
  if (op.attrs().getBool("volatile", false)) attrs.set("volatile", ir::Attribute(true));
  if (!rt.isTile()) {
    std::vector<ir::Value *> operands = {scalar(op.operand(0))};
    if (op.numOperands() > 1) {
      operands.push_back(scalar(op.operand(1)));
      operands.push_back(op.numOperands() > 2 ? scalar(op.operand(2)) : zero(elem));
    }
    return set(op.result(), {b.create(OpCode::VLoad, operands, {elem}, attrs)->result()});
  }
  const TileLayout &l = layoutOf(rt, op);
  int w = vectorWidth(op.operand(0), op.numOperands() > 1 ? op.operand(1) : nullptr, l, int(storageBytes(elem)));
  const Regs &ptrs = get(op.operand(0));
  const Regs *mask = op.numOperands() > 1 ? &get(op.operand(1)) : nullptr;
  const Regs *other = op.numOperands() > 2 ? &get(op.operand(2)) : nullptr;
  Regs regs(size_t(l.numRegs));
  for (int g = 0; g < l.numRegs; g += w) {
    std::vector<ir::Value *> operands = {ptrs[size_t(g)]};
    if (mask) {
      // Masked-off elements take `other` (zero without one).
      operands.push_back((*mask)[size_t(g)]);
      for (int i = 0; i < w; ++i) operands.push_back(other ? (*other)[size_t(g + i)] : zero(elem));
    }
    ir::Operation *ld = b.create(OpCode::VLoad, operands, std::vector<ir::Type>(size_t(w), elem), attrs);
    for (int i = 0; i < w; ++i) regs[size_t(g + i)] = ld->result(unsigned(i));
  }
  set(op.result(), regs);
}

void ThreadLowering::lowerStore(const ir::Operation &op) {
  ir::Type vt0 = op.operand(1)->type();
  ir::Type elem = vt0.element();
  ir::AttrDict hints = cacheHints(op), masked = hints;
  masked.set("masked", ir::Attribute(true));
  if (!vt0.isTile()) {
    // Every thread holds a scalar; one thread stores it.
    ir::Value *first = cmp("eq", tid, i32(0));
    if (op.numOperands() > 2) first = bitAnd(first, scalar(op.operand(2)));
    b.create(OpCode::VStore, {scalar(op.operand(0)), scalar(op.operand(1)), first}, {}, masked);
    return;
  }
  const TileLayout &l = layoutOf(op.operand(0)->type(), op);
  int w = vectorWidth(op.operand(0), op.numOperands() > 2 ? op.operand(2) : nullptr, l, int(storageBytes(elem)));
  const Regs &ptrs = get(op.operand(0)), &vals = get(op.operand(1));
  const Regs *mask = op.numOperands() > 2 ? &get(op.operand(2)) : nullptr;
  for (int g = 0; g < l.numRegs; g += w) {
    if (l.isCopy(g)) continue;  // another register stores these elements
    std::vector<ir::Value *> operands = {ptrs[size_t(g)]};
    for (int i = 0; i < w; ++i) operands.push_back(vals[size_t(g + i)]);
    ir::Value *pred = l.ownsElements;
    if (mask) pred = pred ? bitAnd(pred, (*mask)[size_t(g)]) : (*mask)[size_t(g)];
    if (pred) operands.push_back(pred);
    b.create(OpCode::VStore, operands, {}, pred ? masked : hints);
  }
}

void ThreadLowering::lowerAtomic(const ir::Operation &op) {
  bool cas = op.is(OpCode::AtomicCas);
  ir::Type rt = op.result()->type();
  ir::Type elem = rt.element();
  if (elem.isBool()) fail(op, "on i1 is not supported");
  // Operands: ptr, val[, mask] or ptr, cmp, val. At the thread level a
  // masked-off atomic touches no memory and yields an unspecified value.
  auto one = [&](ir::Value *ptr, ir::Value *a, ir::Value *c, ir::Value *pred) {
    std::vector<ir::Value *> operands = {ptr, a};
    if (cas) operands.push_back(c);
    else if (pred) operands.push_back(pred);
    ir::Value *r = nullptr;
    if (cas && pred) {
      r = whenElse(pred, [&] { return Regs{b.create(op.code(), operands, {elem}, op.attrs())->result()}; },
                   {zero(elem)})[0];
    } else {
      r = b.create(op.code(), operands, {elem}, op.attrs())->result();
    }
    return r;
  };
  if (!rt.isTile()) {
    // One thread performs a scalar atomic; the others read its result.
    ir::Value *first = cmp("eq", tid, i32(0));
    ir::Value *pred = first;
    if (!cas && op.numOperands() > 2) pred = bitAnd(pred, scalar(op.operand(2)));
    ir::Value *r = one(scalar(op.operand(0)), scalar(op.operand(1)), cas ? scalar(op.operand(2)) : nullptr, pred);
    ir::Value *buffer = allocShared(elem, 1);
    when(first, [&] { storeShared(buffer, i32(0), r); });
    return set(op.result(), {loadShared(buffer, i32(0))});
  }
  const TileLayout &l = layoutOf(rt, op);
  const Regs &ptrs = get(op.operand(0));
  const Regs *mask = !cas && op.numOperands() > 2 ? &get(op.operand(2)) : nullptr;
  Regs regs(size_t(l.numRegs));
  for (int r = 0; r < l.numRegs; ++r) {
    if (l.isCopy(r)) {
      regs[size_t(r)] = regs[size_t(l.holder[size_t(r)])];
      continue;
    }
    ir::Value *pred = l.ownsElements;
    if (mask) pred = pred ? bitAnd(pred, (*mask)[size_t(r)]) : (*mask)[size_t(r)];
    ir::Value *a = get(op.operand(1))[size_t(r)];
    ir::Value *c = cas ? get(op.operand(2))[size_t(r)] : nullptr;
    regs[size_t(r)] = one(ptrs[size_t(r)], a, c, pred);
  }
  if (l.ownsElements && op.result()->hasUses()) {
    // Lanes or warps that hold copies read the owner's result.
    ir::Value *buffer = allocShared(elem, rt.numElements());
    for (int r = 0; r < l.numRegs; ++r)
      if (!l.isCopy(r)) when(l.ownsElements, [&] { storeShared(buffer, flatIndex(l, r), regs[size_t(r)]); });
    regs = readTileShared(l, buffer);
  }
  set(op.result(), regs);
}

} // namespace tessera::targets::gpu
