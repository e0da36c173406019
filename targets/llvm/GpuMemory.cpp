// Global loads, stores and atomics; shared memory; layout conversions.
#include "targets/llvm/GpuLowering.h"

namespace tessera::targets::llvmgen {

using ir::OpCode;

namespace {

int64_t storageBytes(ir::Type elem) {
  elem = elem.element();
  return elem.isPointer() ? 8 : std::max(1, elem.bitWidth() / 8);
}

int64_t floorPow2(int64_t v) {
  int64_t p = 1;
  while (p * 2 <= v) p *= 2;
  return p;
}

} // namespace

// ---- shared memory

llvm::Value *GpuLowering::sharedAddress(ir::Type elem, int64_t offsetBytes, llvm::Value *index) {
  const char *name = "tessera_shared";
  llvm::GlobalVariable *g = m.getNamedGlobal(name);
  if (!g) {
    auto *ty = llvm::ArrayType::get(b.getInt8Ty(), 0);
    g = new llvm::GlobalVariable(m, ty, false, llvm::GlobalValue::ExternalLinkage, nullptr, name, nullptr,
                                 llvm::GlobalValue::NotThreadLocal, info.sharedAddressSpace());
    g->setAlignment(llvm::Align(16));
  }
  llvm::Value *base = b.CreateConstGEP1_64(b.getInt8Ty(), g, uint64_t(offsetBytes));
  return b.CreateGEP(storageType(elem.element()), base, index);
}

llvm::Value *GpuLowering::loadShared(ir::Type elem, int64_t offsetBytes, llvm::Value *index) {
  llvm::Type *st = storageType(elem.element());
  return fromStorage(b.CreateAlignedLoad(st, sharedAddress(elem, offsetBytes, index), llvm::Align(uint64_t(storageBytes(elem)))),
                     elem.element());
}

void GpuLowering::storeShared(ir::Type elem, int64_t offsetBytes, llvm::Value *index, llvm::Value *v) {
  b.CreateAlignedStore(toStorage(v, elem.element()), sharedAddress(elem, offsetBytes, index),
                       llvm::Align(uint64_t(storageBytes(elem))));
}

void GpuLowering::storeTileShared(const Regs &regs, const TileLayout &l, ir::Type elem, int64_t offsetBytes) {
  for (int r = 0; r < l.numRegs; ++r)
    if (!l.isCopy(r)) storeShared(elem, offsetBytes, flatIndex(l, r), regs[size_t(r)]);
}

Regs GpuLowering::readTileShared(const TileLayout &l, ir::Type elem, int64_t offsetBytes) {
  Regs out;
  for (int r = 0; r < l.numRegs; ++r) out.push_back(loadShared(elem, offsetBytes, flatIndex(l, r)));
  return out;
}

void GpuLowering::lowerConvertLayout(const ir::Operation &op) {
  ir::Type in = op.operand(0)->type(), outT = op.result()->type();
  const TileLayout &li = layoutOf(in, op), &lo = layoutOf(outT, op);
  const Regs &src = get(op.operand(0));
  // Same lanes and warps: the conversion only renumbers registers.
  if (li.bases("lane") == lo.bases("lane") && li.bases("warp") == lo.bases("warp")) {
    Regs out;
    for (int r = 0; r < lo.numRegs; ++r) {
      auto it = std::find(li.regCoord.begin(), li.regCoord.end(), lo.regCoord[size_t(r)]);
      if (it == li.regCoord.end()) break;
      out.push_back(src[size_t(it - li.regCoord.begin())]);
    }
    if (out.size() == size_t(lo.numRegs)) return set(op.result(), out);
  }
  beginShared();
  storeTileShared(src, li, in.element(), 0);
  reserveShared(in.numElements() * storageBytes(in));
  info.barrier(b);
  set(op.result(), readTileShared(lo, outT.element(), 0));
}

// ---- global memory

// How many consecutive registers one access covers: the low register bits
// must step 1, 2, 4... along one dimension, the pointers must be that
// contiguous and aligned (axis analysis), and the mask constant across them.
int GpuLowering::vectorWidth(const ir::Operation &op, const TileLayout &l, int elemBytes) {
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
  const ir::AxisInfo &p = axis_->get(op.operand(0));
  int64_t w = std::min<int64_t>(int64_t(1) << bits, 16 / elemBytes);
  w = std::min(w, p.contiguity[size_t(dim)]);
  if (op.numOperands() > (op.is(OpCode::Load) ? 1u : 2u)) {
    const ir::Value *mask = op.operand(op.is(OpCode::Load) ? 1 : 2);
    if (mask->type().isTile()) w = std::min(w, axis_->get(mask).constancy[size_t(dim)]);
  }
  w = floorPow2(std::max<int64_t>(w, 1));
  while (w > 1 && p.divisibilityEvery(size_t(dim), w, elemBytes) < w * elemBytes) w /= 2;
  return int(w);
}

void GpuLowering::lowerLoad(const ir::Operation &op) {
  ir::Type rt = op.result()->type();
  ir::Type elem = rt.element();
  llvm::Type *st = storageType(elem);
  bool isVolatile = op.attrs().getBool("volatile", false);
  if (!rt.isTile()) {
    llvm::Value *p = scalar(op.operand(0));
    auto load = [&]() -> llvm::Value * {
      llvm::LoadInst *ld = b.CreateAlignedLoad(st, p, llvm::Align(uint64_t(storageBytes(elem))));
      ld->setVolatile(isVolatile);
      return fromStorage(ld, elem);
    };
    if (op.numOperands() < 2) return set(op.result(), {load()});
    llvm::Value *other = op.numOperands() > 2 ? scalar(op.operand(2)) : llvm::Constant::getNullValue(computeType(elem));
    return set(op.result(), {whenElse(scalar(op.operand(1)), load, other)});
  }
  const TileLayout &l = layoutOf(rt, op);
  int eb = int(storageBytes(elem));
  int w = vectorWidth(op, l, eb);
  const Regs &ptrs = get(op.operand(0));
  const Regs *mask = op.numOperands() > 1 ? &get(op.operand(1)) : nullptr;
  const Regs *other = op.numOperands() > 2 ? &get(op.operand(2)) : nullptr;
  llvm::Type *vt = w == 1 ? st : llvm::FixedVectorType::get(st, unsigned(w));
  Regs out(size_t(l.numRegs));
  for (int g = 0; g < l.numRegs; g += w) {
    auto load = [&]() -> llvm::Value * {
      llvm::LoadInst *ld = b.CreateAlignedLoad(vt, ptrs[size_t(g)], llvm::Align(uint64_t(w * eb)));
      ld->setVolatile(isVolatile);
      return ld;
    };
    llvm::Value *v;
    if (!mask) {
      v = load();
    } else {
      // Masked-off elements take `other` (zero without one).
      llvm::Value *fallback = llvm::PoisonValue::get(vt);
      for (int i = 0; i < w; ++i) {
        llvm::Value *o = other ? toStorage((*other)[size_t(g + i)], elem) : llvm::Constant::getNullValue(st);
        fallback = w == 1 ? o : b.CreateInsertElement(fallback, o, uint64_t(i));
      }
      v = isVolatile ? nullptr : info.predicatedLoad(b, ptrs[size_t(g)], vt, (*mask)[size_t(g)], fallback);
      if (!v) v = whenElse((*mask)[size_t(g)], load, fallback);
    }
    for (int i = 0; i < w; ++i)
      out[size_t(g + i)] = fromStorage(w == 1 ? v : b.CreateExtractElement(v, uint64_t(i)), elem);
  }
  set(op.result(), out);
}

void GpuLowering::lowerStore(const ir::Operation &op) {
  ir::Type vt0 = op.operand(1)->type();
  ir::Type elem = vt0.element();
  llvm::Type *st = storageType(elem);
  int eb = int(storageBytes(elem));
  if (!vt0.isTile()) {
    auto store = [&] {
      b.CreateAlignedStore(toStorage(scalar(op.operand(1)), elem), scalar(op.operand(0)), llvm::Align(uint64_t(eb)));
    };
    // Every thread holds a scalar; one thread stores it.
    llvm::Value *first = b.CreateICmpEQ(tid, i32(0));
    if (op.numOperands() > 2) first = b.CreateAnd(first, scalar(op.operand(2)));
    return when(first, store);
  }
  const TileLayout &l = layoutOf(op.operand(0)->type(), op);
  int w = vectorWidth(op, l, eb);
  const Regs &ptrs = get(op.operand(0)), &vals = get(op.operand(1));
  const Regs *mask = op.numOperands() > 2 ? &get(op.operand(2)) : nullptr;
  llvm::Type *vecTy = w == 1 ? st : llvm::FixedVectorType::get(st, unsigned(w));
  bool everyThread = llvm::isa<llvm::ConstantInt>(l.ownsElements);
  for (int g = 0; g < l.numRegs; g += w) {
    if (l.isCopy(g)) continue;  // another register stores these elements
    llvm::Value *v = llvm::PoisonValue::get(vecTy);
    for (int i = 0; i < w; ++i) {
      llvm::Value *e = toStorage(vals[size_t(g + i)], elem);
      v = w == 1 ? e : b.CreateInsertElement(v, e, uint64_t(i));
    }
    auto store = [&] { b.CreateAlignedStore(v, ptrs[size_t(g)], llvm::Align(uint64_t(w * eb))); };
    llvm::Value *pred = everyThread ? nullptr : l.ownsElements;
    if (mask) pred = pred ? b.CreateAnd(pred, (*mask)[size_t(g)]) : (*mask)[size_t(g)];
    if (!pred) store();
    else if (!info.predicatedStore(b, ptrs[size_t(g)], v, pred)) when(pred, store);
  }
}

void GpuLowering::lowerAtomic(const ir::Operation &op) {
  bool cas = op.is(OpCode::AtomicCas);
  ir::Type rt = op.result()->type();
  ir::Type elem = rt.element();
  const std::string &sem = op.attr("sem")->getString();
  auto ordering = sem == "relaxed" ? llvm::AtomicOrdering::Monotonic
                  : sem == "acquire" ? llvm::AtomicOrdering::Acquire
                  : sem == "release" ? llvm::AtomicOrdering::Release : llvm::AtomicOrdering::AcquireRelease;
  auto failureOrdering = sem == "acquire" || sem == "acq_rel" ? llvm::AtomicOrdering::Acquire : llvm::AtomicOrdering::Monotonic;
  llvm::AtomicRMWInst::BinOp kind = llvm::AtomicRMWInst::Add;
  if (!cas) {
    const std::string &k = op.attr("kind")->getString();
    bool f = elem.isFloat(), s = elem.isSigned();
    kind = k == "add" ? (f ? llvm::AtomicRMWInst::FAdd : llvm::AtomicRMWInst::Add)
         : k == "max" ? (f ? llvm::AtomicRMWInst::FMax : s ? llvm::AtomicRMWInst::Max : llvm::AtomicRMWInst::UMax)
         : k == "min" ? (f ? llvm::AtomicRMWInst::FMin : s ? llvm::AtomicRMWInst::Min : llvm::AtomicRMWInst::UMin)
         : k == "and" ? llvm::AtomicRMWInst::And : k == "or" ? llvm::AtomicRMWInst::Or
         : k == "xor" ? llvm::AtomicRMWInst::Xor : llvm::AtomicRMWInst::Xchg;
  }
  if (elem.isBool()) fail(op, "on i1 is not supported");
  llvm::Type *ct = computeType(elem);
  auto one = [&](llvm::Value *ptr, llvm::Value *a, llvm::Value *c) -> llvm::Value * {
    llvm::Align align(uint64_t(storageBytes(elem)));
    if (!cas) return b.CreateAtomicRMW(kind, ptr, a, llvm::MaybeAlign(align), ordering);
    llvm::Type *it = b.getIntNTy(unsigned(elem.bitWidth()));
    auto *x = b.CreateAtomicCmpXchg(ptr, b.CreateBitCast(a, it), b.CreateBitCast(c, it), llvm::MaybeAlign(align),
                                    ordering, failureOrdering);
    return b.CreateBitCast(b.CreateExtractValue(x, 0), ct);
  };
  // Operands: ptr, val[, mask] or ptr, cmp, val.
  auto atomicWhen = [&](llvm::Value *pred, llvm::Value *ptr, llvm::Value *a, llvm::Value *c) -> llvm::Value * {
    if (!pred) return one(ptr, a, c);
    return whenElse(pred, [&] { return one(ptr, a, c); }, llvm::Constant::getNullValue(ct));
  };
  if (!rt.isTile()) {
    // One thread performs a scalar atomic; the others read its result.
    llvm::Value *pred = b.CreateICmpEQ(tid, i32(0));
    if (!cas && op.numOperands() > 2) pred = b.CreateAnd(pred, scalar(op.operand(2)));
    llvm::Value *r = atomicWhen(pred, scalar(op.operand(0)), scalar(op.operand(1)), cas ? scalar(op.operand(2)) : nullptr);
    beginShared();
    when(b.CreateICmpEQ(tid, i32(0)), [&] { storeShared(elem, 0, i32(0), r); });
    reserveShared(8);
    info.barrier(b);
    return set(op.result(), {loadShared(elem, 0, i32(0))});
  }
  const TileLayout &l = layoutOf(rt, op);
  const Regs &ptrs = get(op.operand(0));
  const Regs *mask = !cas && op.numOperands() > 2 ? &get(op.operand(2)) : nullptr;
  bool everyThread = llvm::isa<llvm::ConstantInt>(l.ownsElements);
  Regs out(size_t(l.numRegs));
  for (int r = 0; r < l.numRegs; ++r) {
    if (l.isCopy(r)) {
      out[size_t(r)] = out[size_t(l.holder[size_t(r)])];
      continue;
    }
    llvm::Value *pred = everyThread ? nullptr : l.ownsElements;
    if (mask) pred = pred ? b.CreateAnd(pred, (*mask)[size_t(r)]) : (*mask)[size_t(r)];
    llvm::Value *a = get(op.operand(1))[size_t(r)];
    llvm::Value *c = cas ? get(op.operand(2))[size_t(r)] : nullptr;
    out[size_t(r)] = atomicWhen(pred, ptrs[size_t(r)], a, c);
  }
  if (!everyThread && op.result()->hasUses()) {
    // Lanes or warps that hold copies read the owner's result.
    beginShared();
    for (int r = 0; r < l.numRegs; ++r)
      if (!l.isCopy(r))
        when(l.ownsElements, [&] { storeShared(elem, 0, flatIndex(l, r), out[size_t(r)]); });
    reserveShared(rt.numElements() * storageBytes(elem));
    info.barrier(b);
    out = readTileShared(l, elem, 0);
  }
  set(op.result(), out);
}

} // namespace tessera::targets::llvmgen
