// The kernel entry, layouts resolved to registers, the thread-IR builder, and
// the ops that keep data in place (elementwise, arange, splat, broadcast,
// expand_dims, trans).
#include "targets/gpu/ThreadLowering.h"

#include "ir/Layouts.h"
#include "ir/PassManager.h"
#include "ir/PrintFormat.h"

#include <algorithm>
#include <mutex>

namespace tessera::targets::gpu {

using ir::OpCode;

// ---- the target seam

namespace {

std::mutex hooksMutex;
std::map<std::string, std::map<OpCode, OpLoweringHook>> &hooks() {
  static std::map<std::string, std::map<OpCode, OpLoweringHook>> h;
  return h;
}

} // namespace

void registerOpLowering(const std::string &target, OpCode code, OpLoweringHook hook) {
  std::lock_guard<std::mutex> lock(hooksMutex);
  hooks()[target][code] = std::move(hook);
}

void clearOpLoweringsForTesting(const std::string &target) {
  std::lock_guard<std::mutex> lock(hooksMutex);
  hooks().erase(target);
}

// ---- construction and the builder

ThreadLowering::ThreadLowering(const ir::Function &k, ir::Function &o, int warps, int lanes, std::string t)
    : kernel(k), out(o), numWarps(warps), warpSize(lanes), target(std::move(t)), b(&o.entry()),
      prologue_(&prologueHolder_.block()) {
  std::lock_guard<std::mutex> lock(hooksMutex);
  if (auto it = hooks().find(target); it != hooks().end()) hooks_ = it->second;
}

void ThreadLowering::fail(const ir::Operation &op, const std::string &msg) const {
  throw ir::PassError{op.loc().str() + ": error: " + (target.empty() ? std::string("gpu") : target) + " target: '" +
                      op.name() + "' " + msg};
}

Regs &ThreadLowering::get(const ir::Value *v) {
  auto it = values_.find(v);
  if (it == values_.end()) throw ir::PassError{"internal error: lower-to-threads used a value before defining it"};
  return it->second;
}

ir::Value *ThreadLowering::i32(int64_t v) {
  ir::Value *&c = constants_[{int64_t(int32_t(v)), 0}];
  if (!c) c = prologue_.constantInt(int32_t(v), ir::Type::i32());
  return c;
}

ir::Value *ThreadLowering::boolean(bool v) {
  ir::Value *&c = constants_[{v ? 1 : 0, 1}];
  if (!c) c = prologue_.constantInt(v ? 1 : 0, ir::Type::i1());
  return c;
}

ir::Value *ThreadLowering::zero(ir::Type t) {
  if (t == ir::Type::i32()) return i32(0);
  ir::Value *&z = zeros_[t.str()];
  if (z) return z;
  if (t.isPointer()) {
    z = inPrologue([&] { return cast(i32(0), t); });  // through i64
  } else {
    z = t.isFloat() ? prologue_.constantFloat(0.0, t) : prologue_.constantInt(0, t);
  }
  return z;
}

namespace {

bool constantInt(const ir::Value *v, int64_t &out) {
  const ir::Operation *d = v->definingOp();
  if (!d || !d->is(OpCode::Constant) || !v->type().isInteger()) return false;
  out = d->attr("value")->getInt();
  return true;
}

} // namespace

// Folds i32/i1 arithmetic on constants and the identities the layout
// arithmetic produces all the time (x ^ 0, x * 1, x + 0, x & 0 ...).
ir::Value *ThreadLowering::binary(OpCode code, ir::Value *x, ir::Value *y) {
  int64_t a = 0, c = 0;
  bool ka = constantInt(x, a), kc = constantInt(y, c);
  bool isI32 = x->type() == ir::Type::i32();
  if (ka && kc && (isI32 || x->type().isBool())) {
    int64_t r;
    bool folded = true;
    switch (code) {
    case OpCode::Add: r = a + c; break;
    case OpCode::Sub: r = a - c; break;
    case OpCode::Mul: r = a * c; break;
    case OpCode::And: r = a & c; break;
    case OpCode::Or: r = a | c; break;
    case OpCode::Xor: r = a ^ c; break;
    case OpCode::Shl: folded = c >= 0 && c < 32; r = folded ? int64_t(int32_t(uint32_t(a) << c)) : 0; break;
    case OpCode::Shr: folded = c >= 0 && c < 32; r = folded ? (a >> c) : 0; break;
    case OpCode::Div: folded = c > 0 && a >= 0; r = folded ? a / c : 0; break;
    case OpCode::Rem: folded = c > 0 && a >= 0; r = folded ? a % c : 0; break;
    default: folded = false; r = 0;
    }
    if (folded) return isI32 ? i32(r) : boolean(r & 1);
  }
  if (isI32) {
    switch (code) {
    case OpCode::Add: case OpCode::Or: case OpCode::Xor:
      if (ka && a == 0) return y;
      if (kc && c == 0) return x;
      break;
    case OpCode::Sub: case OpCode::Shl: case OpCode::Shr:
      if (kc && c == 0) return x;
      break;
    case OpCode::Mul:
      if ((ka && a == 0) || (kc && c == 0)) return i32(0);
      if (ka && a == 1) return y;
      if (kc && c == 1) return x;
      break;
    case OpCode::And:
      if ((ka && a == 0) || (kc && c == 0)) return i32(0);
      break;
    case OpCode::Div:
      if (kc && c == 1) return x;
      break;
    case OpCode::Rem:
      if (kc && c == 1) return i32(0);
      break;
    default:
      break;
    }
  }
  if (x->type().isBool() && (code == OpCode::And || code == OpCode::Or)) {
    bool isAnd = code == OpCode::And;
    if (ka) return (a != 0) == isAnd ? y : x;
    if (kc) return (c != 0) == isAnd ? x : y;
  }
  return b.sameType(code, {x, y});
}

ir::Value *ThreadLowering::cmp(const char *pred, ir::Value *x, ir::Value *y) { return b.cmp(pred, x, y); }

ir::Value *ThreadLowering::select(ir::Value *c, ir::Value *x, ir::Value *y) {
  if (x == y) return x;
  int64_t k;
  if (constantInt(c, k)) return k ? x : y;
  return b.select(c, x, y);
}

ir::Value *ThreadLowering::cast(ir::Value *v, ir::Type to) {
  if (v->type() == to) return v;
  if (to.isPointer() && !v->type().isPointer() && v->type().bitWidth() != 64) v = b.cast(v, ir::Type::i64());
  return b.cast(v, to);
}

ir::Value *ThreadLowering::emit(OpCode code, std::vector<ir::Value *> operands, ir::Type result, ir::AttrDict attrs) {
  return b.createValue(code, std::move(operands), result, std::move(attrs));
}

void ThreadLowering::barrier() { b.create(OpCode::Barrier, {}, {}); }

// ---- layouts

const TileLayout &ThreadLowering::layoutOf(ir::Type tile, const ir::Operation &where) {
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
  if (ll->inDimSize("lane") != warpSize || ll->inDimSize("warp") != numWarps)
    fail(where, "has a layout for " + std::to_string(ll->inDimSize("lane")) + " lanes x " +
                    std::to_string(ll->inDimSize("warp")) + " warps; this kernel runs " + std::to_string(warpSize) +
                    " x " + std::to_string(numWarps));
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
  l->laneWarpCoord = laneWarpPart(l->ll);
  // Whether this thread is the first holder of its elements: lane and warp
  // bits with a zero basis are copies.
  l->ownsElements = inPrologue([&] {
    ir::Value *owns = nullptr;
    for (auto [dim, id] : {std::pair<const char *, ir::Value *>{"lane", lane}, {"warp", warp}}) {
      const auto &bs = l->bases(dim);
      for (size_t bit = 0; bit < bs.size(); ++bit) {
        if (std::any_of(bs[bit].begin(), bs[bit].end(), [](int32_t c) { return c != 0; })) continue;
        ir::Value *first = cmp("eq", bitAnd(shr(id, int64_t(bit)), i32(1)), i32(0));
        owns = owns ? bitAnd(owns, first) : first;
      }
    }
    return owns;
  });
  return *layouts_.emplace(key, std::move(l)).first->second;
}

std::vector<ir::Value *> ThreadLowering::laneWarpPart(const ir::LinearLayout &ll) {
  return inPrologue([&] {
    std::vector<ir::Value *> part(ll.outDims().size(), i32(0));
    for (auto [dim, id] : {std::pair<const char *, ir::Value *>{"lane", lane}, {"warp", warp}}) {
      const auto &bs = ll.bases(dim);
      for (size_t bit = 0; bit < bs.size(); ++bit) {
        ir::Value *set = nullptr;
        for (size_t d = 0; d < part.size(); ++d) {
          if (!bs[bit][d]) continue;
          if (!set) set = bitAnd(shr(id, int64_t(bit)), i32(1));
          part[d] = bitXor(part[d], mul(set, i32(bs[bit][d])));
        }
      }
    }
    return part;
  });
}

ir::Value *ThreadLowering::coord(const TileLayout &l, int reg, size_t dim) {
  return bitXor(l.laneWarpCoord[dim], i32(l.regCoord[size_t(reg)][dim]));
}

ir::Value *ThreadLowering::flatIndex(const TileLayout &l, int reg) {
  std::vector<ir::Value *> c;
  for (size_t d = 0; d < l.shape.size(); ++d) c.push_back(coord(l, reg, d));
  return rowMajorIndex(c, l.shape);
}

ir::Value *ThreadLowering::rowMajorIndex(const std::vector<ir::Value *> &c, const std::vector<int64_t> &shape) {
  ir::Value *idx = i32(0);
  int64_t stride = 1;
  for (size_t d = shape.size(); d-- > 0;) {
    if (c[d]) idx = add(idx, mul(c[d], i32(stride)));
    stride *= shape[d];
  }
  return idx;
}

// ---- ops

void ThreadLowering::lowerBlock(const ir::Block &block) {
  for (auto &op : block.ops()) lowerOp(*op);
}

void ThreadLowering::lowerOp(const ir::Operation &op) {
  b.setLoc(op.loc());
  if (auto hook = hooks_.find(op.code()); hook != hooks_.end() && hook->second(op, *this)) return;
  if (op.hasTrait(ir::kElementwise)) return lowerElementwise(op);
  switch (op.code()) {
  case OpCode::ProgramId:
  case OpCode::NumPrograms: {
    ir::AttrDict a;
    a.set("axis", ir::Attribute(op.attr("axis")->getInt()));
    return set(op.result(), {emit(op.code(), {}, ir::Type::i32(), a)});
  }
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
    // A one-element tile to its scalar: every register of every thread holds
    // the element (a layout of one element maps everything to it).
    if (!op.result()->type().isTile()) return set(op.result(), {get(op.operand(0))[0]});
    return lowerSameRegisters(op);
  case OpCode::Join:
  case OpCode::Split:
  case OpCode::Cat:
    return lowerThroughShared(op);
  case OpCode::Gather: return lowerGather(op);
  case OpCode::ConvertLayout: return lowerConvertLayout(op);
  case OpCode::Load: return lowerLoad(op);
  case OpCode::Store: return lowerStore(op);
  case OpCode::AtomicRmw:
  case OpCode::AtomicCas: return lowerAtomic(op);
  case OpCode::Reduce: return lowerReduce(op);
  case OpCode::Scan: return lowerScan(op);
  case OpCode::Dot: return lowerDot(op);
  case OpCode::LocalAlloc: return lowerLocalAlloc(op);
  case OpCode::LocalStore: return lowerLocalStore(op);
  case OpCode::LocalLoad: return lowerLocalLoad(op);
  case OpCode::LocalView: return lowerLocalView(op);
  case OpCode::LocalTrans: return lowerLocalTrans(op);
  case OpCode::AsyncCopy: return lowerAsyncCopy(op);
  case OpCode::AsyncCommitGroup: return;  // the shared lowering copies synchronously: every group is complete
  case OpCode::AsyncWait:
    for (unsigned i = 0; i < op.numResults(); ++i) set(op.result(i), get(op.operand(i)));
    return;
  case OpCode::For: return lowerFor(op);
  case OpCode::If: return lowerIf(op);
  case OpCode::WarpSpecialize: return lowerWarpSpecialize(op);
  case OpCode::While: return lowerWhile(op);
  case OpCode::Barrier: return barrier();
  case OpCode::InlineAsm: return lowerInlineAsm(op);
  case OpCode::HardwareRegister:  // every thread reads its own
    return set(op.result(), {emit(op.code(), {}, op.result()->type(), op.attrs())});
  case OpCode::GridDependency: b.create(op.code(), {}, {}, op.attrs()); return;
  case OpCode::Print: return lowerPrint(op);
  case OpCode::Assert: return lowerAssert(op);
  case OpCode::CheckFailed:  // scalars only: every thread holds them
    b.create(OpCode::CheckFailed, {scalar(op.operand(0)), scalar(op.operand(1)), scalar(op.operand(2))}, {},
             op.attrs());
    return;
  case OpCode::Assume: return;
  case OpCode::Yield:
  case OpCode::Condition:
  case OpCode::Return:
    return;  // handled by the parent
  default:
    fail(op, "is not supported by the GPU lowering yet");
  }
}

void ThreadLowering::lowerElementwise(const ir::Operation &op) {
  ir::Type rt = op.result()->type();
  auto one = [&](const std::vector<ir::Value *> &in) {
    return b.create(op.code(), in, {rt.element()}, op.attrs())->result();
  };
  if (!rt.isTile()) {
    std::vector<ir::Value *> in;
    for (ir::Value *v : op.operands()) in.push_back(scalar(v));
    return set(op.result(), {one(in)});
  }
  const TileLayout &l = layoutOf(rt, op);
  if (op.is(OpCode::Constant))  // a splat: one value serves every register
    return set(op.result(), Regs(size_t(l.numRegs), inPrologue([&] { return one({}); })));
  for (ir::Value *v : op.operands())
    if (v->type().isTile() && v->type().layout() != rt.layout())
      fail(op, "has operands in different layouts (" + v->type().str() + " vs " + rt.str() + ")");
  // Register bits that only move within runs of equal values (axis
  // analysis: constancy) need not be computed again, e.g. a mask compared
  // once per 16-byte group.
  int sameBits = 0;
  if (ir::hasAxisInfo(rt)) {
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
  Regs outRegs(size_t(l.numRegs));
  if (castsPairwise(op, l, outRegs)) return set(op.result(), outRegs);
  for (int r = 0; r < l.numRegs; ++r) {
    if (r & sameBits) {
      outRegs[size_t(r)] = outRegs[size_t(r & ~sameBits)];
      continue;
    }
    if (l.isCopy(r)) {  // registers holding the same element compute it once
      outRegs[size_t(r)] = outRegs[size_t(l.holder[size_t(r)])];
      continue;
    }
    std::vector<ir::Value *> in;
    for (ir::Value *v : op.operands()) in.push_back(v->type().isTile() ? get(v)[size_t(r)] : scalar(v));
    outRegs[size_t(r)] = one(in);
  }
  set(op.result(), outRegs);
}

namespace {

// How many elements of `bits` share one of the assembly's registers when it
// takes `pack` elements per execution (Triton's packing into 32 bits).
int elementsPerRegister(int bits, int pack) { return bits >= 32 || pack == 1 ? 1 : std::min(pack, 32 / bits); }

ir::Type unsignedOfWidth(int bits) {
  switch (bits) {
  case 8: return ir::Type::scalar(ir::ScalarKind::U8);
  case 16: return ir::Type::scalar(ir::ScalarKind::U16);
  case 32: return ir::Type::scalar(ir::ScalarKind::U32);
  default: return ir::Type::scalar(ir::ScalarKind::U64);
  }
}

} // namespace

// Each execution of the assembly takes `pack` elements of every operand
// (and makes `pack` of every result): the thread's registers in order, a
// group at a time. Elements under 32 bits share 32-bit registers (Triton's
// packing: four i8 or two f16 to a register); wider ones take one each.
void ThreadLowering::lowerInlineAsm(const ir::Operation &op) {
  int pack = int(op.attr("pack")->getInt());
  bool pure = op.attr("pure")->getBool();
  ir::Type rt = op.result(0)->type();
  std::vector<int> regs{0};
  const TileLayout *l = nullptr;
  if (rt.isTile()) {
    l = &layoutOf(rt, op);
    for (ir::Value *v : op.operands())
      if (v->type().isTile() && v->type().layout() != rt.layout())
        fail(op, "has operands in different layouts (" + v->type().str() + " vs " + rt.str() + ")");
    regs.clear();
    for (int r = 0; r < l->numRegs; ++r)
      if (!l->isCopy(r)) regs.push_back(r);
  }
  if (regs.size() % size_t(pack) && !pure)
    fail(op, "packs " + std::to_string(pack) + " elements per execution but a thread holds " +
                 std::to_string(regs.size()) + ": the assembly would also run on padding (make it pure or pack fewer)");
  // `elems` of type t as the registers the assembly sees.
  auto packed = [&](const std::vector<ir::Value *> &elems, ir::Type t) {
    int w = t.bitWidth(), perReg = elementsPerRegister(w, pack);
    if (perReg == 1) return elems;
    ir::Type bits = unsignedOfWidth(w), reg = unsignedOfWidth(perReg * w);
    std::vector<ir::Value *> out;
    for (size_t k = 0; k < elems.size(); k += size_t(perReg)) {
      ir::Value *acc = nullptr;
      for (int j = 0; j < perReg; ++j) {
        ir::Value *e = emit(OpCode::Bitcast, {elems[k + size_t(j)]}, bits);
        e = cast(e, reg);
        if (j) e = emit(OpCode::Shl, {e, cast(i32(j * w), reg)}, reg);
        acc = acc ? emit(OpCode::Or, {acc, e}, reg) : e;
      }
      out.push_back(acc);
    }
    return out;
  };
  std::vector<ir::Type> resultRegs;  // the register types of one execution's results
  for (ir::Value *r : op.results()) {
    ir::Type t = r->type().element();
    int perReg = elementsPerRegister(t.bitWidth(), pack);
    resultRegs.insert(resultRegs.end(), size_t((pack + perReg - 1) / perReg),
                      perReg == 1 ? t : unsignedOfWidth(perReg * t.bitWidth()));
  }
  std::vector<Regs> outs(op.numResults(), Regs(l ? size_t(l->numRegs) : 1));
  for (size_t g = 0; g < regs.size(); g += size_t(pack)) {
    std::vector<ir::Value *> in;
    for (ir::Value *v : op.operands()) {
      std::vector<ir::Value *> elems;
      for (int k = 0; k < pack; ++k) {
        size_t at = std::min(g + size_t(k), regs.size() - 1);  // pure padding repeats the last element
        elems.push_back(v->type().isTile() ? get(v)[size_t(regs[at])] : scalar(v));
      }
      for (ir::Value *x : packed(elems, v->type().element())) in.push_back(x);
    }
    ir::AttrDict attrs = op.attrs();
    ir::Operation *call = b.create(OpCode::InlineAsm, in, resultRegs, attrs);
    unsigned next = 0;
    for (unsigned i = 0; i < op.numResults(); ++i) {
      ir::Type t = op.result(i)->type().element();
      int w = t.bitWidth(), perReg = elementsPerRegister(w, pack);
      for (int k = 0; k < pack; k += perReg) {
        ir::Value *reg = call->result(next++);
        for (int j = 0; j < perReg; ++j) {
          if (g + size_t(k + j) >= regs.size()) continue;
          ir::Value *e = reg;
          if (perReg > 1) {
            ir::Type rt2 = reg->type();
            e = j ? emit(OpCode::Shr, {reg, cast(i32(j * w), rt2)}, rt2) : reg;
            e = emit(OpCode::Bitcast, {cast(e, unsignedOfWidth(w))}, t);
          }
          outs[i][size_t(regs[g + size_t(k + j)])] = e;
        }
      }
    }
  }
  for (unsigned i = 0; i < op.numResults(); ++i) {
    if (l)
      for (int r = 0; r < l->numRegs; ++r)
        if (l->isCopy(r)) outs[i][size_t(r)] = outs[i][size_t(l->holder[size_t(r)])];
    set(op.result(i), outs[i]);
  }
}

// f32 -> f16/bf16 two registers at a time: the emitter uses a packed
// conversion where the target has one (cvt.rn.bf16x2.f32 on NVIDIA), and
// the pair is already in the form a 16-bit vector store wants.
bool ThreadLowering::castsPairwise(const ir::Operation &op, const TileLayout &l, Regs &outRegs) {
  if (!op.is(OpCode::Cast) || l.numRegs % 2 || op.attrs().getString("rounding", "rtne") != "rtne") return false;
  ir::Type from = op.operand(0)->type().element(), to = op.result()->type().element();
  if (from.scalarKind() != ir::ScalarKind::F32 ||
      (to.scalarKind() != ir::ScalarKind::F16 && to.scalarKind() != ir::ScalarKind::BF16))
    return false;
  const Regs &in = get(op.operand(0));
  for (int r = 0; r < l.numRegs; r += 2) {
    ir::Operation *pair = b.create(OpCode::CastPair, {in[size_t(r)], in[size_t(r + 1)]}, {to, to});
    outRegs[size_t(r)] = pair->result(0);
    outRegs[size_t(r + 1)] = pair->result(1);
  }
  return true;
}

void ThreadLowering::lowerArange(const ir::Operation &op) {
  const TileLayout &l = layoutOf(op.result()->type(), op);
  int64_t start = op.attr("start")->getInt();
  Regs regs;
  for (int r = 0; r < l.numRegs; ++r) regs.push_back(add(coord(l, r, 0), i32(start)));
  set(op.result(), regs);
}

// broadcast, expand_dims and trans: layout assignment derives the result's
// layout from the operand's, so register r holds the same value in both.
void ThreadLowering::lowerSameRegisters(const ir::Operation &op) {
  ir::Type in = op.operand(0)->type(), outT = op.result()->type();
  if (!outT.isTile()) return set(op.result(), get(op.operand(0)));
  const TileLayout &lo = layoutOf(outT, op);
  if (!in.isTile()) return set(op.result(), Regs(size_t(lo.numRegs), scalar(op.operand(0))));
  const TileLayout &li = layoutOf(in, op);
  bool same = li.numRegs == lo.numRegs && li.bases("lane").size() == lo.bases("lane").size();
  if (same && op.is(OpCode::Trans)) same = li.ll.permuted(op.attr("order")->getInts()) == lo.ll;
  if (same && op.is(OpCode::Hint)) same = li.ll == lo.ll;
  if (same && op.is(OpCode::ExpandDims)) same = li.ll.withInsertedDim(size_t(op.attr("axis")->getInt())) == lo.ll;
  if (same && op.is(OpCode::Reshape)) {
    std::optional<ir::LinearLayout> r = li.ll.reshaped(outT.shape());
    same = r && *r == lo.ll;
  }
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
void ThreadLowering::lowerThroughShared(const ir::Operation &op) {
  Regs buffers;
  for (ir::Value *v : op.operands()) {
    ir::Type t = v->type();
    buffers.push_back(allocShared(t.element(), t.numElements()));
    if (t.isTile()) storeTileShared(get(v), layoutOf(t, op), buffers.back());
    else storeShared(buffers.back(), i32(0), scalar(v));
  }
  for (unsigned k = 0; k < op.numResults(); ++k) {
    ir::Type rt = op.result(k)->type();
    const TileLayout &l = layoutOf(rt, op);
    Regs regs;
    for (int r = 0; r < l.numRegs; ++r) {
      // The source element (operand, row-major index) of result element r.
      ir::Value *idx = flatIndex(l, r);
      switch (op.code()) {
      case OpCode::Join: {  // result [..., 2]: the last coordinate picks the operand
        ir::Value *which = coord(l, r, rt.shape().size() - 1);
        ir::Value *inner = shr(idx, 1);
        ir::Value *a = loadShared(buffers[0], inner), *c = loadShared(buffers[1], inner);
        regs.push_back(select(cmp("eq", which, i32(0)), a, c));
        continue;
      }
      case OpCode::Split:  // result k is element [..., k] of the operand
        idx = add(shl(idx, 1), i32(k));
        break;
      case OpCode::Cat: {  // along dimension 0
        int64_t firstElems = op.operand(0)->type().numElements();
        ir::Value *second = cmp("ge", idx, i32(firstElems));
        ir::Value *a = loadShared(buffers[0], idx);
        ir::Value *c = loadShared(buffers[1], select(second, sub(idx, i32(firstElems)), i32(0)));
        regs.push_back(select(second, c, a));
        continue;
      }
      case OpCode::Trans: {
        // Result coordinate i along dimension d is operand coordinate along order[d].
        const auto &order = op.attr("order")->getInts();
        ir::Type it = op.operand(0)->type();
        std::vector<ir::Value *> c(it.shape().size());
        for (size_t d = 0; d < order.size(); ++d) c[size_t(order[d])] = coord(l, r, d);
        idx = rowMajorIndex(c, it.shape());
        break;
      }
      case OpCode::Broadcast: {  // broadcast dimensions read coordinate 0
        ir::Type it = op.operand(0)->type();
        std::vector<ir::Value *> c(it.shape().size());
        for (size_t d = 0; d < c.size(); ++d) c[d] = it.shape()[d] != 1 ? coord(l, r, d) : nullptr;
        idx = rowMajorIndex(c, it.shape());
        break;
      }
      default:  // reshape, expand_dims, hint: the same row-major order
        break;
      }
      regs.push_back(loadShared(buffers[0], idx));
    }
    set(op.result(k), regs);
  }
}

// gather: the source goes to shared memory row-major; each result register
// reads the element its index names (the result is in the index's layout).
void ThreadLowering::lowerGather(const ir::Operation &op) {
  const ir::Value *src = op.operand(0), *index = op.operand(1);
  ir::Type st = src->type(), it = index->type(), rt = op.result()->type();
  size_t axis = size_t(op.attr("axis")->getInt());
  ir::Value *buffer = allocShared(st.element(), st.numElements());
  storeTileShared(get(src), layoutOf(st, op), buffer);
  const TileLayout &l = layoutOf(rt, op);
  if (layoutOf(it, op).ll != l.ll) fail(op, "internal error: the index of a gather is not in its result's layout");
  const Regs &at = get(index);
  // Compared as a signed type wide enough for every index (a negative or a
  // huge unsigned one is outside).
  ir::Type wide = it.element().bitWidth() < 32 || (it.element().bitWidth() == 32 && it.element().isSigned())
                      ? ir::Type::i32()
                      : ir::Type::i64();
  ir::Value *n = b.constantInt(st.shape()[axis], wide);
  Regs regs;
  for (int r = 0; r < l.numRegs; ++r) {
    ir::Value *k = cast(at[size_t(r)], wide);
    ir::Value *inside = bitAnd(cmp("ge", k, zero(wide)), cmp("lt", k, n));
    std::vector<ir::Value *> c(rt.shape().size());
    for (size_t d = 0; d < c.size(); ++d) c[d] = d == axis ? cast(select(inside, k, zero(wide)), ir::Type::i32()) : coord(l, r, d);
    regs.push_back(select(inside, loadShared(buffer, rowMajorIndex(c, st.shape())), zero(st.element())));
  }
  set(op.result(), regs);
}

// Each element is printed once, by the thread that owns it, in the print
// op's format (ir/PrintFormat.h).
void ThreadLowering::lowerPrint(const ir::Operation &op) {
  bool hex = op.attrs().getBool("hex", false);
  std::vector<ir::Value *> pid;
  for (int axisId = 0; axisId < 3; ++axisId) {
    ir::AttrDict a;
    a.set("axis", ir::Attribute(int64_t(axisId)));
    pid.push_back(emit(OpCode::ProgramId, {}, ir::Type::i32(), a));
  }
  auto printf = [&](const std::string &format, const std::vector<ir::Value *> &rest) {
    std::vector<ir::Value *> args = pid;
    args.insert(args.end(), rest.begin(), rest.end());
    ir::AttrDict a;
    a.set("format", ir::Attribute(format));
    b.create(OpCode::Printf, std::move(args), {}, a);
  };
  ir::Value *first = cmp("eq", tid, i32(0));
  if (op.numOperands() == 0) return when(first, [&] { printf(ir::printBareFormat(op), {}); });
  for (size_t n = 0; n < op.numOperands(); ++n) {
    const ir::Value *v = op.operand(n);
    ir::Type e = v->type().element();
    std::string format = ir::printElementFormat(op, n);
    auto widen = [&](ir::Value *x) -> ir::Value * {
      ir::Type to = ir::printArgumentType(e, hex);
      if (to == e) return x;
      // Zero-extended for hex: through the unsigned type of the same width.
      if (hex && e.isSigned())
        x = cast(x, ir::Type::scalar(e.bitWidth() == 8 ? ir::ScalarKind::U8 : ir::ScalarKind::U16));
      return cast(x, to);
    };
    if (!v->type().isTile()) {
      ir::Value *x = scalar(v);
      when(first, [&] { printf(format, {widen(x)}); });
      continue;
    }
    const TileLayout &l = layoutOf(v->type(), op);
    const std::vector<int64_t> &shape = v->type().shape();
    for (int r = 0; r < l.numRegs; ++r) {
      if (l.isCopy(r)) continue;
      ir::Value *x = get(v)[size_t(r)];
      auto print = [&] {
        ir::Value *flat = flatIndex(l, r);
        std::vector<ir::Value *> args(shape.size());
        int64_t stride = 1;
        for (size_t d = shape.size(); d-- > 0;) {
          args[d] = cast(rem(div(flat, i32(stride)), i32(shape[d])), ir::Type::i64());
          stride *= shape[d];
        }
        args.push_back(widen(x));
        printf(format, args);
      };
      if (l.ownsElements) when(l.ownsElements, print);
      else print();
    }
  }
}

void ThreadLowering::lowerAssert(const ir::Operation &op) {
  const ir::Value *c = op.operand(0);
  ir::Value *ok = nullptr;
  if (!c->type().isTile()) {
    ok = scalar(c);
  } else {
    const TileLayout &l = layoutOf(c->type(), op);
    for (int r = 0; r < l.numRegs; ++r) ok = ok ? bitAnd(ok, get(c)[size_t(r)]) : get(c)[size_t(r)];
  }
  b.create(OpCode::Assert, {ok}, {}, op.attrs());
}

Regs ThreadLowering::combine(const ir::Block &region, const Regs &args) {
  std::unordered_map<const ir::Value *, ir::Value *> local;
  for (unsigned i = 0; i < region.numArguments(); ++i) local[region.argument(i)] = args[i];
  auto lookup = [&](const ir::Value *v) {
    auto it = local.find(v);
    return it != local.end() ? it->second : scalar(v);
  };
  for (auto &opPtr : region.ops()) {
    const ir::Operation &op = *opPtr;
    std::vector<ir::Value *> in;
    for (ir::Value *v : op.operands()) in.push_back(lookup(v));
    if (op.hasTrait(ir::kTerminator)) return in;
    if (op.is(OpCode::Assert)) {  // a side effect Triton allows there (its sanitizers): each thread checks its values
      b.create(OpCode::Assert, in, {}, op.attrs());
      continue;
    }
    if (op.numRegions() || !(op.hasTrait(ir::kPure))) fail(op, "in a combine region must be elementwise");
    std::vector<ir::Type> types;
    for (ir::Value *r : op.results()) types.push_back(r->type());
    ir::Operation *copy = b.create(op.code(), in, types, op.attrs());
    for (unsigned i = 0; i < op.numResults(); ++i) local[op.result(i)] = copy->result(i);
  }
  return {};
}

Regs ThreadLowering::combine(const ir::Block &region, const Regs &left, const Regs &right) {
  Regs args = left;
  args.insert(args.end(), right.begin(), right.end());
  return combine(region, args);
}

// ---- the kernel and the pass

void ThreadLowering::lowerKernel() {
  auto index = [&](OpCode code) { return prologue_.createValue(code, {}, ir::Type::i32()); };
  tid = index(OpCode::ThreadId);
  lane = index(OpCode::LaneId);
  warp = index(OpCode::WarpId);
  tid->setNameHint("tid"), lane->setNameHint("lane"), warp->setNameHint("warp");
  for (unsigned i = 0; i < kernel.numArguments(); ++i) set(kernel.argument(i), {out.argument(i)});
  axis_ = std::make_unique<ir::AxisAnalysis>(kernel);
  lowerBlock(kernel.entry());
  b.setLoc({});
  b.create(OpCode::Return, {}, {});
  ir::Operation *first = out.entry().front();
  for (ir::Operation *op : prologueHolder_.block().opsVector()) op->moveBefore(first);
  out.attrs().set("level", ir::Attribute(std::string("thread")));
}

void lowerToThreads(ir::Module &m) {
  int numWarps = int(m.attrs().getInt("num_warps", 4)), warpSize = int(m.attrs().getInt("warp_size", 32));
  std::string target = m.attrs().getString("target", "");
  std::vector<ir::Function *> kernels;
  for (auto &f : m.functions()) {
    if (f->isThreadLevel()) continue;
    if (!f->isKernel())
      throw ir::PassError{f->loc.str() + ": error: lower-to-threads: device function @" + f->name() +
                          " was not inlined (run inline first)"};
    kernels.push_back(f.get());
  }
  for (ir::Function *k : kernels) {
    auto lowered = std::make_unique<ir::Function>(k->name(), ir::FunctionKind::Kernel, k->argumentTypes(),
                                                  k->resultTypes());
    lowered->loc = k->loc;
    lowered->attrs() = k->attrs();
    for (unsigned i = 0; i < k->numArguments(); ++i) {
      lowered->argAttrs(i) = k->argAttrs(i);
      lowered->argument(i)->setNameHint(k->argument(i)->nameHint());
    }
    ThreadLowering lowering(*k, *lowered, numWarps, warpSize, target);
    lowering.moduleAttrs = m.attrs();
    try {
      lowering.lowerKernel();
    } catch (...) {
      lowering.abandon();
      throw;
    }
    m.replaceFunction(k, std::move(lowered));
  }
}

// The prologue's ops and the half-built kernel's use each other's values:
// every reference goes before either is destroyed.
void ThreadLowering::abandon() {
  auto drop = [](ir::Operation *op) { op->dropAllReferences(); };
  ir::Function::walkBlock(prologueHolder_.block(), drop);
  ir::Function::walkBlock(out.entry(), drop);
}

void registerPasses() {
  ir::registerPass({"pipeline-loops", &pipelineLoops,
                    "GPU tile IR: loads feeding dots in loops become num_stages-deep async copies (module attribute "
                    "num_stages, or the loop's)"});
  ir::registerPass({"tensor-map-stores", &tensorMapStores,
                    "GPU tile IR: desc_stores whose tensor map the kernel's arguments give become tma_stores of a "
                    "shared copy (module attribute tensor_maps)"});
  ir::registerPass({"lower-to-threads", &lowerToThreads,
                    "GPU: distributed tile IR -> thread IR (needs assign-layouts; module attributes num_warps, "
                    "warp_size, target)"});
  ir::registerPass({"allocate-shared", &allocateShared,
                    "GPU thread IR: place shared_alloc buffers, reusing memory across disjoint lifetimes"});
  ir::registerPass({"insert-barriers", &insertBarriers,
                    "GPU thread IR: a barrier before each shared-memory access that may race with an earlier one"});
}

} // namespace tessera::targets::gpu
