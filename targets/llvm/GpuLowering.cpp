// The kernel entry, layouts resolved to registers, and the ops that keep
// data in place (elementwise, arange, splat, broadcast, expand_dims, trans).
#include "targets/llvm/GpuLowering.h"

#include "ir/Layouts.h"


namespace tessera::targets::llvmgen {

using ir::OpCode;

const ir::LinearLayout::Bases &TileLayout::bases(const char *dim) const {
  static const ir::LinearLayout::Bases none;
  for (auto &in : ll.inDims())
    if (in.name == dim) return in.bases;
  return none;
}

GpuLowering::GpuLowering(llvm::Module &module, const TargetInfo &ti, int warps)
    : ElementwiseEmitter(module, ti.name()), info(ti), numWarps(warps), prologue_(module.getContext()) {
  setGlobalAddressSpace(ti.globalAddressSpace());
  // A mul feeding an add may become an fma (ir/IR.h; Triton's default).
  llvm::FastMathFlags contract;
  contract.setAllowContract();
  b.setFastMathFlags(contract);
}

Regs &GpuLowering::get(const ir::Value *v) {
  auto it = values_.find(v);
  if (it == values_.end()) throw LoweringError{"internal error: " + info.name() + " lowering used a value before defining it"};
  return it->second;
}

const TileLayout &GpuLowering::layoutOf(ir::Type tile, const ir::Operation &where) {
  auto key = std::make_pair(tile.shape(), tile.layout());
  auto it = layouts_.find(key);
  if (it != layouts_.end()) return *it->second;
  if (!tile.layout()) fail(where, "has a tile without a layout (run assign-layouts first): " + tile.str());
  std::string err;
  auto ll = ir::toLinearLayout(*tile.layout(), tile.shape(), &err);
  if (!ll) fail(where, "has a malformed layout: " + err);
  auto l = std::make_unique<TileLayout>();
  l->shape = tile.shape();
  l->ll = *ll;
  if (ll->inDimSize("lane") != info.warpSize() || ll->inDimSize("warp") != numWarps)
    fail(where, "has a layout for " + std::to_string(ll->inDimSize("lane")) + " lanes x " +
                    std::to_string(ll->inDimSize("warp")) + " warps; this kernel runs " +
                    std::to_string(info.warpSize()) + " x " + std::to_string(numWarps));
  size_t rank = tile.shape().size();
  l->numRegs = ll->inDimSize("register");
  const auto &regBases = l->bases("register");
  for (int r = 0; r < l->numRegs; ++r) {
    std::vector<int32_t> c(rank, 0);
    for (size_t bit = 0; bit < regBases.size(); ++bit)
      if (r >> bit & 1)
        for (size_t d = 0; d < rank; ++d) c[d] ^= regBases[bit][d];
    auto same = std::find(l->regCoord.begin(), l->regCoord.end(), c);
    l->holder.push_back(same == l->regCoord.end() ? r : int(same - l->regCoord.begin()));
    l->regCoord.push_back(c);
  }
  // The lane/warp part of the coordinates, and whether this thread is the
  // first holder of its elements (bits with a zero basis are copies).
  llvm::Value *owns = prologue_.getTrue();
  l->laneWarpCoord.assign(rank, prologue_.getInt32(0));
  for (auto [dim, id] : {std::pair<const char *, llvm::Value *>{"lane", lane}, {"warp", warp}}) {
    const auto &bs = l->bases(dim);
    for (size_t bit = 0; bit < bs.size(); ++bit) {
      llvm::Value *set = prologue_.CreateAnd(prologue_.CreateLShr(id, uint64_t(bit)), 1);
      bool zero = true;
      for (size_t d = 0; d < rank; ++d) {
        if (!bs[bit][d]) continue;
        zero = false;
        l->laneWarpCoord[d] = prologue_.CreateXor(l->laneWarpCoord[d], prologue_.CreateMul(set, prologue_.getInt32(uint32_t(bs[bit][d]))));
      }
      if (zero) owns = prologue_.CreateAnd(owns, prologue_.CreateICmpEQ(set, prologue_.getInt32(0)));
    }
  }
  l->ownsElements = owns;
  return *layouts_.emplace(key, std::move(l)).first->second;
}

llvm::Value *GpuLowering::coord(const TileLayout &l, int reg, size_t dim) {
  llvm::Value *lw = l.laneWarpCoord[dim];
  int32_t rc = l.regCoord[size_t(reg)][dim];
  if (auto *c = llvm::dyn_cast<llvm::ConstantInt>(lw); c && c->isZero()) return i32(rc);
  return rc ? b.CreateXor(lw, i32(rc)) : lw;
}

llvm::Value *GpuLowering::flatIndex(const TileLayout &l, int reg) {
  llvm::Value *idx = i32(0);
  int64_t stride = 1;
  for (size_t d = l.shape.size(); d-- > 0;) {
    idx = b.CreateAdd(idx, b.CreateMul(coord(l, reg, d), i32(stride)));
    stride *= l.shape[d];
  }
  return idx;
}

// ---- ops

void GpuLowering::lowerBlock(const ir::Block &block) {
  for (auto &op : block.ops()) lowerOp(*op);
}

namespace {

bool isElementwise(const ir::Operation &op) {
  switch (op.code()) {
  case OpCode::Constant: case OpCode::Add: case OpCode::Sub: case OpCode::Mul: case OpCode::Div: case OpCode::Rem:
  case OpCode::Neg: case OpCode::Min: case OpCode::Max: case OpCode::And: case OpCode::Or: case OpCode::Xor:
  case OpCode::Not: case OpCode::Shl: case OpCode::Shr: case OpCode::MulHi: case OpCode::Fma: case OpCode::Cmp:
  case OpCode::Select: case OpCode::Cast: case OpCode::Bitcast: case OpCode::Exp: case OpCode::Exp2:
  case OpCode::Log: case OpCode::Log2: case OpCode::Sqrt: case OpCode::Rsqrt: case OpCode::Sin: case OpCode::Cos:
  case OpCode::Abs: case OpCode::Floor: case OpCode::Ceil: case OpCode::Erf: case OpCode::AddPtr:
    return true;
  default:
    return false;
  }
}

} // namespace

void GpuLowering::lowerOp(const ir::Operation &op) {
  if (isElementwise(op)) return lowerElementwise(op);
  switch (op.code()) {
  case OpCode::ProgramId: return set(op.result(), {info.programId(b, int(op.attr("axis")->getInt()))});
  case OpCode::NumPrograms: return set(op.result(), {info.numPrograms(b, int(op.attr("axis")->getInt()))});
  case OpCode::Arange: return lowerArange(op);
  case OpCode::Splat: {
    const TileLayout &l = layoutOf(op.result()->type(), op);
    return set(op.result(), Regs(size_t(l.numRegs), scalar(op.operand(0))));
  }
  case OpCode::Broadcast:
  case OpCode::ExpandDims:
  case OpCode::Trans:
  case OpCode::Hint:
    return lowerSameRegisters(op);
  case OpCode::Reshape:
  case OpCode::Join:
  case OpCode::Split:
  case OpCode::Cat:
    return lowerThroughShared(op);
  case OpCode::ConvertLayout: return lowerConvertLayout(op);
  case OpCode::Load: return lowerLoad(op);
  case OpCode::Store: return lowerStore(op);
  case OpCode::AtomicRmw:
  case OpCode::AtomicCas: return lowerAtomic(op);
  case OpCode::Reduce: return lowerReduce(op);
  case OpCode::Scan: return lowerScan(op);
  case OpCode::Dot: return lowerDot(op);
  case OpCode::For: return lowerFor(op);
  case OpCode::If: return lowerIf(op);
  case OpCode::While: return lowerWhile(op);
  case OpCode::Barrier: return info.barrier(b);
  case OpCode::Print: return lowerPrint(op);
  case OpCode::Assert: return lowerAssert(op);
  case OpCode::Assume: return;
  case OpCode::Yield:
  case OpCode::Condition:
  case OpCode::Return:
    return;  // handled by the parent
  default:
    fail(op, "is not supported by the " + info.name() + " target yet");
  }
}

void GpuLowering::lowerElementwise(const ir::Operation &op) {
  if (!op.result()->type().isTile()) {
    std::vector<llvm::Value *> in;
    for (ir::Value *v : op.operands()) in.push_back(scalar(v));
    return set(op.result(), {elementwise(op, in)});
  }
  const TileLayout &l = layoutOf(op.result()->type(), op);
  for (ir::Value *v : op.operands())
    if (v->type().isTile() && v->type().layout() != op.result()->type().layout())
      fail(op, "has operands in different layouts (" + v->type().str() + " vs " + op.result()->type().str() + ")");
  // Register bits that only move within runs of equal values (axis
  // analysis: constancy) need not be computed again, e.g. a mask compared
  // once per 16-byte group.
  int sameBits = 0;
  if (ir::hasAxisInfo(op.result()->type())) {
    const ir::AxisInfo &ai = axis_->get(op.result());
    const auto &rb = l.bases("register");
    for (size_t bit = 0; bit < rb.size(); ++bit) {
      int dim = -1;
      for (size_t d = 0; d < rb[bit].size(); ++d)
        if (rb[bit][d]) dim = dim == -1 ? int(d) : -2;
      if (dim >= 0 && (rb[bit][size_t(dim)] & (rb[bit][size_t(dim)] - 1)) == 0 &&
          rb[bit][size_t(dim)] < ai.constancy[size_t(dim)])
        sameBits |= 1 << bit;
    }
  }
  Regs out(size_t(l.numRegs));
  if (castsPairwise(op, l, out)) return set(op.result(), out);
  for (int r = 0; r < l.numRegs; ++r) {
    if (r & sameBits) {
      out[size_t(r)] = out[size_t(r & ~sameBits)];
      continue;
    }
    if (l.isCopy(r)) {  // registers holding the same element compute it once
      out[size_t(r)] = out[size_t(l.holder[size_t(r)])];
      continue;
    }
    std::vector<llvm::Value *> in;
    for (ir::Value *v : op.operands()) in.push_back(v->type().isTile() ? get(v)[size_t(r)] : scalar(v));
    out[size_t(r)] = elementwise(op, in);
  }
  set(op.result(), out);
}

// f32 -> f16/bf16 two registers at a time where the target has a packed
// conversion (cvt.rn.bf16x2.f32 on NVIDIA): one instruction instead of two,
// and the pair is already in the form a 16-bit vector store wants.
bool GpuLowering::castsPairwise(const ir::Operation &op, const TileLayout &l, Regs &out) {
  if (!op.is(OpCode::Cast) || l.numRegs % 2 || op.attrs().getString("rounding", "rtne") != "rtne") return false;
  ir::Type from = op.operand(0)->type().element(), to = op.result()->type().element();
  if (from.scalarKind() != ir::ScalarKind::F32 ||
      (to.scalarKind() != ir::ScalarKind::F16 && to.scalarKind() != ir::ScalarKind::BF16))
    return false;
  const Regs &in = get(op.operand(0));
  if (!info.narrowPair(b, in[0], in[1], computeType(to))) return false;
  for (int r = 0; r < l.numRegs; r += 2) {
    llvm::Value *narrow = info.narrowPair(b, in[size_t(r)], in[size_t(r + 1)], computeType(to));
    out[size_t(r)] = b.CreateExtractElement(narrow, uint64_t(0));
    out[size_t(r + 1)] = b.CreateExtractElement(narrow, uint64_t(1));
  }
  return true;
}

void GpuLowering::lowerArange(const ir::Operation &op) {
  const TileLayout &l = layoutOf(op.result()->type(), op);
  int64_t start = op.attr("start")->getInt();
  Regs out;
  for (int r = 0; r < l.numRegs; ++r) out.push_back(b.CreateAdd(coord(l, r, 0), i32(start)));
  set(op.result(), out);
}

// broadcast, expand_dims and trans: layout assignment derives the result's
// layout from the operand's, so register r holds the same value in both.
void GpuLowering::lowerSameRegisters(const ir::Operation &op) {
  ir::Type in = op.operand(0)->type(), outT = op.result()->type();
  if (!outT.isTile()) return set(op.result(), get(op.operand(0)));
  const TileLayout &lo = layoutOf(outT, op);
  if (!in.isTile()) return set(op.result(), Regs(size_t(lo.numRegs), scalar(op.operand(0))));
  const TileLayout &li = layoutOf(in, op);
  bool same = li.numRegs == lo.numRegs && li.bases("lane").size() == lo.bases("lane").size();
  if (same && op.is(OpCode::Trans)) same = li.ll.permuted(op.attr("order")->getInts()) == lo.ll;
  if (same && op.is(OpCode::Hint)) same = li.ll == lo.ll;
  if (same && op.is(OpCode::ExpandDims)) same = li.ll.withInsertedDim(size_t(op.attr("axis")->getInt())) == lo.ll;
  if (same && op.is(OpCode::Broadcast)) {
    // Every result basis, with the broadcast dimensions dropped, is the operand's.
    for (const char *dim : {"register", "lane", "warp"}) {
      const auto &bi = li.bases(dim), &bo = lo.bases(dim);
      for (size_t k = 0; k < bi.size() && same; ++k)
        for (size_t d = 0; d < in.shape().size(); ++d)
          if (in.shape()[d] != 1 && bi[k][d] != bo[k][d]) same = false;
    }
  }
  if (!same) return lowerThroughShared(op);
  set(op.result(), get(op.operand(0)));
}

// Reshape, join, split, cat, and the shape ops whose layouts do not line up:
// the operands go to shared memory row-major, the results are read back.
void GpuLowering::lowerThroughShared(const ir::Operation &op) {
  int64_t offset = 0;
  std::vector<int64_t> offsets;
  beginShared();
  for (ir::Value *v : op.operands()) {
    ir::Type t = v->type();
    offsets.push_back(offset);
    if (t.isTile()) {
      storeTileShared(get(v), layoutOf(t, op), t.element(), offset);
      offset += t.numElements() * std::max(1, t.element().bitWidth() / 8);
    } else {
      storeShared(t, offset, i32(0), scalar(v));
      offset += 8;
    }
    offset = (offset + 15) / 16 * 16;
  }
  reserveShared(offset);
  info.barrier(b);
  for (unsigned k = 0; k < op.numResults(); ++k) {
    ir::Type rt = op.result(k)->type();
    const TileLayout &l = layoutOf(rt, op);
    Regs out;
    for (int r = 0; r < l.numRegs; ++r) {
      // The source element (operand, row-major index) of result element r.
      llvm::Value *idx = flatIndex(l, r);
      switch (op.code()) {
      case OpCode::Join: {  // result [..., 2]: the last coordinate picks the operand
        llvm::Value *which = coord(l, r, rt.shape().size() - 1);
        llvm::Value *inner = b.CreateLShr(idx, 1);
        ir::Type et = rt.element();
        llvm::Value *a = loadShared(et, offsets[0], inner), *c = loadShared(et, offsets[1], inner);
        out.push_back(b.CreateSelect(b.CreateICmpEQ(which, i32(0)), a, c));
        continue;
      }
      case OpCode::Split:  // result k is element [..., k] of the operand
        idx = b.CreateAdd(b.CreateShl(idx, 1), i32(k));
        break;
      case OpCode::Cat: {  // along dimension 0
        int64_t firstElems = op.operand(0)->type().numElements();
        llvm::Value *second = b.CreateICmpSGE(idx, i32(firstElems));
        ir::Type et = rt.element();
        llvm::Value *a = loadShared(et, offsets[0], idx);
        llvm::Value *c = loadShared(et, offsets[1], b.CreateSelect(second, b.CreateSub(idx, i32(firstElems)), i32(0)));
        out.push_back(b.CreateSelect(second, c, a));
        continue;
      }
      case OpCode::Trans: {
        // Result coordinate i along dimension d is operand coordinate along order[d].
        const auto &order = op.attr("order")->getInts();
        ir::Type it = op.operand(0)->type();
        std::vector<llvm::Value *> c(it.shape().size());
        for (size_t d = 0; d < order.size(); ++d) c[size_t(order[d])] = coord(l, r, d);
        idx = i32(0);
        int64_t stride = 1;
        for (size_t d = it.shape().size(); d-- > 0;) {
          idx = b.CreateAdd(idx, b.CreateMul(c[d], i32(stride)));
          stride *= it.shape()[d];
        }
        break;
      }
      case OpCode::Broadcast: {
        ir::Type it = op.operand(0)->type();
        if (!it.isTile()) {
          idx = i32(0);
          break;
        }
        idx = i32(0);
        int64_t stride = 1;
        for (size_t d = it.shape().size(); d-- > 0;) {
          if (it.shape()[d] != 1) idx = b.CreateAdd(idx, b.CreateMul(coord(l, r, d), i32(stride)));
          stride *= it.shape()[d];
        }
        break;
      }
      default:  // reshape, expand_dims, hint: the same row-major order
        break;
      }
      out.push_back(loadShared(rt.element(), offsets[0], idx));
    }
    set(op.result(k), out);
  }
}

// Each element is printed once, by the thread that owns it, as
// "pid (x, y, z) idx (i) <prefix><value>" (the CPU target's format).
void GpuLowering::lowerPrint(const ir::Operation &op) {
  std::string prefix = op.attr("prefix")->getString();
  bool hex = op.attrs().getBool("hex", false);
  std::vector<llvm::Value *> pid = {info.programId(b, 0), info.programId(b, 1), info.programId(b, 2)};
  llvm::Value *prefixStr = b.CreateAddrSpaceCast(b.CreateGlobalString(prefix, "prefix", info.globalAddressSpace()),
                                                 b.getPtrTy());
  if (op.numOperands() == 0)
    return when(b.CreateICmpEQ(tid, i32(0)), [&] { info.print(b, m, "pid (%d, %d, %d) %s\n", {pid[0], pid[1], pid[2], prefixStr}); });
  for (const ir::Value *v : op.operands()) {
    ir::Type e = v->type().element();
    std::string conv = e.isPointer() ? "%p" : e.isFloat() ? (hex ? "%a" : "%f")
                     : e.bitWidth() == 64 ? (hex ? "0x%llx" : e.isSigned() ? "%lld" : "%llu")
                                          : (hex ? "0x%x" : e.isSigned() ? "%d" : "%u");
    auto widen = [&](llvm::Value *x) -> llvm::Value * {
      if (e.isFloat()) return castValue(x, e, ir::Type::scalar(ir::ScalarKind::F64), "rtne", &op);
      if (e.isPointer()) return b.CreateAddrSpaceCast(x, b.getPtrTy());
      if (e.bitWidth() < 32) return e.isSigned() ? b.CreateSExt(x, b.getInt32Ty()) : b.CreateZExt(x, b.getInt32Ty());
      return x;
    };
    if (!v->type().isTile()) {
      llvm::Value *x = scalar(v);
      when(b.CreateICmpEQ(tid, i32(0)), [&] {
        info.print(b, m, "pid (%d, %d, %d) %s" + conv + "\n", {pid[0], pid[1], pid[2], prefixStr, widen(x)});
      });
      continue;
    }
    const TileLayout &l = layoutOf(v->type(), op);
    for (int r = 0; r < l.numRegs; ++r) {
      if (l.isCopy(r)) continue;
      llvm::Value *x = get(v)[size_t(r)];
      when(l.ownsElements, [&] {
        llvm::Value *idx = b.CreateZExt(flatIndex(l, r), b.getInt64Ty());
        info.print(b, m, "pid (%d, %d, %d) idx (%lld) %s" + conv + "\n",
                   {pid[0], pid[1], pid[2], idx, prefixStr, widen(x)});
      });
    }
  }
}

void GpuLowering::lowerAssert(const ir::Operation &op) {
  const ir::Value *c = op.operand(0);
  llvm::Value *failed = b.getFalse();
  if (!c->type().isTile()) {
    failed = b.CreateNot(scalar(c));
  } else {
    const TileLayout &l = layoutOf(c->type(), op);
    for (int r = 0; r < l.numRegs; ++r) failed = b.CreateOr(failed, b.CreateNot(get(c)[size_t(r)]));
  }
  when(failed, [&] { info.assertFail(b, m, op.attr("message")->getString(), op.loc().file, int(op.loc().line)); });
}

std::vector<llvm::Value *> GpuLowering::combine(const ir::Block &region, std::vector<llvm::Value *> args) {
  return combineRegion(region, std::move(args), [&](const ir::Value *v) { return scalar(v); });
}

// ---- the kernel

void GpuLowering::lowerKernel(const ir::Function &kernel, const std::string &symbol, GpuKernelInfo &out) {
  std::vector<llvm::Type *> argTys;
  for (unsigned i = 0; i < kernel.numArguments(); ++i) {
    ir::Type t = kernel.argument(i)->type();
    argTys.push_back(storageType(t));
    KernelParam p;
    p.name = kernel.argument(i)->nameHint();
    p.type = t;
    p.sizeBytes = t.isPointer() ? 8 : std::max(1, t.bitWidth() / 8);
    out.params.push_back(p);
  }
  auto *fnTy = llvm::FunctionType::get(b.getVoidTy(), argTys, false);
  fn = llvm::Function::Create(fnTy, llvm::GlobalValue::ExternalLinkage, symbol, m);
  out.threads = numWarps * info.warpSize();
  info.markKernel(fn, out.threads);
  for (unsigned i = 0; i < kernel.numArguments(); ++i)
    if (kernel.argument(i)->type().isPointer()) fn->addParamAttr(i, llvm::Attribute::NoUndef);
  llvm::BasicBlock *pro = llvm::BasicBlock::Create(ctx, "prologue", fn);
  llvm::BasicBlock *body = llvm::BasicBlock::Create(ctx, "body", fn);
  b.SetInsertPoint(pro);
  tid = info.threadId(b);
  lane = b.CreateURem(tid, i32(info.warpSize()));
  warp = b.CreateUDiv(tid, i32(info.warpSize()));
  llvm::BranchInst *br = b.CreateBr(body);
  prologue_.SetInsertPoint(br);
  b.SetInsertPoint(body);
  for (unsigned i = 0; i < kernel.numArguments(); ++i)
    set(kernel.argument(i), {fromStorage(fn->getArg(i), kernel.argument(i)->type())});
  axis_ = std::make_unique<ir::AxisAnalysis>(kernel);
  lowerBlock(kernel.entry());
  b.CreateRetVoid();
  out.sharedMemoryBytes = sharedBytes_;
}

bool lowerGpuKernel(const ir::Function &kernel, const std::string &symbol, const TargetInfo &info, int numWarps,
                    llvm::Module &m, GpuKernelInfo &out, std::string &error) {
  GpuLowering L(m, info, numWarps);
  try {
    L.lowerKernel(kernel, symbol, out);
  } catch (const LoweringError &e) {
    error = e.message;
    return false;
  }
  return verifyLowered(m, info.name(), error);
}

} // namespace tessera::targets::llvmgen
